"""`manaka vpd label` with the real Stockfish (/usr/games/stockfish) against
Stockfish run directly (a fresh process per position, UCI by hand) on the
same positions: the same score, WDL, best move and MultiPV lines. Resuming
after a kill loses no label, and a crashing engine is restarted."""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import signal
import statistics
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import chess  # test-only oracle, python-chess
import chess.pgn
import pytest
from test_vpd import random_game as random_pgn_game

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
STOCKFISH = "/usr/games/stockfish"
NODES = 3000
RESUME_NODES = 60000


def random_game(rng: random.Random) -> str:
    return str(random_pgn_game(rng, plies=(20, 120), results=("*",))) + "\n\n"


def build(root: Path, games: int, target: int) -> Path:
    pgn = root / "g.pgn"
    rng = random.Random(99)
    pgn.write_text("".join(random_game(rng) for _ in range(games)))
    out = root / "l.vpd"
    proc = subprocess.run([MANAKA, "vpd", "build", str(pgn), "-o", str(out), "--target", str(target), "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


def direct(fen: str, multipv: int) -> dict:
    """Stockfish on its own: the last exact info line of each MultiPV rank, and bestmove."""
    script = (f"uci\nsetoption name MultiPV value {multipv}\nsetoption name UCI_ShowWDL value true\nisready\n"
              f"ucinewgame\nisready\nposition fen {fen}\ngo nodes {NODES}\n")
    proc = subprocess.Popen([STOCKFISH], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(script)
    proc.stdin.flush()
    lines: dict[int, dict] = {}
    best = ""
    for line in proc.stdout:
        words = line.split()
        if words[:1] == ["bestmove"]:
            best = words[1]
            break
        if words[:1] != ["info"] or "score" not in words or "pv" not in words:
            continue
        if "lowerbound" in words or "upperbound" in words:  # not a score, a bound of one
            continue
        rank = int(words[words.index("multipv") + 1]) if "multipv" in words else 1
        kind, value = words[words.index("score") + 1], int(words[words.index("score") + 2])
        entry = {"move": words[words.index("pv") + 1], "depth": int(words[words.index("depth") + 1]), kind: value}
        if "wdl" in words:
            i = words.index("wdl")
            entry["wdl"] = [int(words[i + 1]), int(words[i + 2]), int(words[i + 3])]
        lines[rank] = entry
    proc.stdin.write("quit\n")
    proc.stdin.flush()
    proc.wait(timeout=10)
    return {"lines": [lines[r] for r in sorted(lines)], "bestmove": best}


def labels(path: Path) -> dict[int, tuple]:
    con = sqlite3.connect(path, timeout=30)
    try:
        return {r[0]: r[1:] for r in con.execute("SELECT * FROM labels ORDER BY id")}
    finally:
        con.close()


def label(path: Path, *args: str, nodes: int = NODES) -> subprocess.CompletedProcess:
    proc = subprocess.run([MANAKA, "vpd", "label", str(path), "--engine", STOCKFISH, "--nodes", str(nodes), "-q",
                           *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("label"), 12, 24)


def test_labels_match_stockfish_run_directly(small: Path, tmp_path: Path) -> None:
    path = tmp_path / "a.vpd"
    shutil.copy(small, path)
    label(path, "--multipv", "2", "--workers", "2")
    con = sqlite3.connect(path)
    fens = dict(con.execute("SELECT id, fen FROM positions"))
    meta = dict(con.execute("SELECT key, value FROM metadata WHERE key LIKE 'label_%'"))
    con.close()
    assert meta["label_engine"].startswith("Stockfish")
    assert meta["label_limit"] == f"nodes {NODES}" and meta["label_multipv"] == "2"
    assert json.loads(meta["label_options"]) == [["UCI_ShowWDL", "true"]]
    got = labels(path)
    assert sorted(got) == sorted(fens) and len(got) >= 15
    for pid, (cp, mate, win, draw, loss, depth, best, pv) in got.items():
        want = direct(fens[pid], 2)
        lines = json.loads(pv)
        assert lines == want["lines"], (pid, fens[pid])
        first = want["lines"][0]
        assert (cp, mate) == (first.get("cp"), first.get("mate"))
        assert [win, draw, loss] == first["wdl"] and depth == first["depth"]
        assert best == want["bestmove"]
        assert chess.Move.from_uci(best) in chess.Board(fens[pid]).legal_moves
    # The report gives the labels' distribution, recomputed here.
    report = json.loads(subprocess.run([MANAKA, "vpd", "report", str(path), "--json"], capture_output=True, text=True,
                                       check=True).stdout)["labels"]
    cps = sorted(r[0] for r in got.values() if r[1] is None)
    assert report["labeled"] == len(got) and report["mates"] == sum(r[1] is not None for r in got.values())
    assert report["cp_mean"] == pytest.approx(statistics.fmean(cps))
    assert report["cp_std"] == pytest.approx(statistics.pstdev(cps))
    for p in (5, 25, 50, 75, 95):
        assert report["cp_quantiles"][f"p{p}"] == cps[max(1, math.ceil(len(cps) * p / 100)) - 1]
    assert report["with_wdl"] == len(got)
    assert report["wdl_mean"] == pytest.approx([statistics.fmean(r[k] for r in got.values()) for k in (2, 3, 4)])


def test_resume_after_a_kill_loses_no_label(tmp_path: Path) -> None:
    path = build(tmp_path, 60, 120)
    reference = tmp_path / "ref.vpd"
    shutil.copy(path, reference)
    # Slow enough searches that the kill lands mid-run (labels are committed every second).
    label(reference, nodes=RESUME_NODES)
    total = len(labels(reference))
    proc = subprocess.Popen([MANAKA, "vpd", "label", str(path), "--engine", STOCKFISH, "--nodes", str(RESUME_NODES),
                             "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    done = 0
    while time.time() < deadline and done < 10:
        time.sleep(0.2)
        try:
            done = len(labels(path))
        except sqlite3.OperationalError:  # the table is not there yet, or the file is locked
            done = 0
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = labels(path)
    assert 0 < len(before) < total
    out = label(path, nodes=RESUME_NODES)  # resumes
    after = labels(path)
    assert len(after) == total
    assert {k: after[k] for k in before} == before
    assert after == labels(reference)
    assert out.stdout == ""


def test_a_crashing_engine_is_restarted(small: Path, tmp_path: Path) -> None:
    path = tmp_path / "c.vpd"
    shutil.copy(small, path)
    # Stockfish behind a proxy that dies on the third search it is given.
    proxy = tmp_path / "crashing_engine.py"
    proxy.write_text(f"""#!{sys.executable}
import subprocess, sys, os
sf = subprocess.Popen([{STOCKFISH!r}], stdin=subprocess.PIPE, stdout=sys.stdout, text=True)
searches = 0
for line in sys.stdin:
    if line.startswith("go"):
        searches += 1
        if searches == 3:
            sf.kill()
            os._exit(3)
    sf.stdin.write(line)
    sf.stdin.flush()
    if line.strip() == "quit":
        break
sf.wait()
""")
    proxy.chmod(0o755)
    proc = subprocess.run([MANAKA, "vpd", "label", str(path), "--engine", str(proxy), "--nodes", str(NODES)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    summary = dict(line.split(None, 1) for line in proc.stdout.splitlines() if line.startswith(("restarts", "labeled")))
    assert int(summary["restarts"]) >= 5
    reference = tmp_path / "r.vpd"
    shutil.copy(small, reference)
    label(reference)
    assert labels(path) == labels(reference)


def test_sample_labels_the_smallest_random_keys(small: Path, tmp_path: Path) -> None:
    path = tmp_path / "s.vpd"
    shutil.copy(small, path)
    label(path, "--sample", "7", "--max", "4")
    label(path, "--sample", "7")  # resumes within the same sample
    con = sqlite3.connect(path)
    want = {i for (i,) in con.execute("SELECT id FROM positions ORDER BY random_key LIMIT 7")}
    con.close()
    assert set(labels(path)) == want


def test_the_worker_count_does_not_change_the_file(small: Path, tmp_path: Path) -> None:
    """Labels are written in the order of the positions to label, whichever
    worker finished first: 1 and 3 workers (twice) give the same bytes, where
    the finishing order once laid SQLite's pages out differently."""
    files = []
    for name, workers in [("w1", "1"), ("w3", "3"), ("w3-again", "3")]:
        path = tmp_path / f"{name}.vpd"
        shutil.copy(small, path)
        label(path, "--workers", workers)
        files.append(path.read_bytes())
    con = sqlite3.connect(tmp_path / "w1.vpd")
    try:
        positions = con.execute("SELECT count(*) FROM positions").fetchone()[0]
    finally:
        con.close()
    assert len(labels(tmp_path / "w1.vpd")) == positions > 15
    assert files[0] == files[1] == files[2]
