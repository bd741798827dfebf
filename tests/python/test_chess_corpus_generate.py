"""manaka chess corpus: real Stockfish games into npz shards.

python-chess is the oracle: every game's PGN is replayed with it, the game
must end exactly where outcome(claim_draw=True) first says so, with that
result, and every record of the shards must be the planes, the move index
and the z that python-chess's board gives (test_chess_encode's independent
encoders).
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn
import numpy as np
import pytest

from test_chess_encode import expected_index, expected_planes

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
STOCKFISH = "/usr/games/stockfish"


def corpus(out: Path, games: int, workers: int = 2, seed: int = 1, *extra: str, **kw):
    args = [MANAKA, "chess", "corpus", "-o", str(out), "--games", str(games), "--workers", str(workers),
            "--nodes", "300", "--seed", str(seed), "--shard-size", "400", "--engine", STOCKFISH, *extra]
    return subprocess.run(args, capture_output=True, text=True, **kw)


def shard_bytes(out: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(out.glob("shard_*.npz"))}


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    out = tmp_path_factory.mktemp("corpus") / "c"
    run = corpus(out, 8, 2, 1, "--pgn", "--json")
    assert run.returncode == 0, run.stderr
    return out, json.loads(run.stdout)


def test_games_end_where_python_chess_says_and_records_match(made):
    out, summary = made
    manifest = json.loads((out / "corpus.json").read_text())
    assert summary["games"] == manifest["games"] == 8
    assert summary["positions"] == manifest["positions"]
    terminations = {}
    for entry in manifest["shards"]:
        data = np.load(out / entry["file"])
        assert data["states"].dtype == np.int8 and data["states"].shape == (entry["positions"], 20, 8, 8)
        assert data["move_indices"].dtype == np.int32 and data["outcomes"].dtype == np.int8
        index = entry["file"][len("shard_"):-len(".npz")]
        records = 0
        with open(out / f"games_{index}.pgn") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                opening = int(game.headers["Opening"].split(", ")[1].split()[0])
                movers, expect_states, expect_moves = [], [], []
                for ply, move in enumerate(game.mainline_moves()):
                    assert board.outcome(claim_draw=True) is None, f"game went on after it ended at ply {ply}"
                    if ply >= opening:
                        expect_states.append(expected_planes(board))
                        expect_moves.append(expected_index(board, move))
                        movers.append(board.turn)
                    board.push(move)
                outcome = board.outcome(claim_draw=True)
                assert outcome is not None
                assert outcome.result() == game.headers["Result"]
                assert outcome.termination.name == game.headers["ManakaTermination"]
                terminations[outcome.termination.name] = terminations.get(outcome.termination.name, 0) + 1
                n = len(movers)
                got = slice(records, records + n)
                np.testing.assert_array_equal(data["states"][got], np.array(expect_states))
                np.testing.assert_array_equal(data["move_indices"][got], np.array(expect_moves))
                z = [0 if outcome.winner is None else (1 if m == outcome.winner else -1) for m in movers]
                np.testing.assert_array_equal(data["outcomes"][got], np.array(z, dtype=np.int8))
                records += n
        assert records == entry["positions"]
    assert sum(terminations.values()) == 8
    assert summary["endings"] == terminations


def test_the_worker_count_does_not_change_the_shards(made, tmp_path):
    out, _ = made
    one = tmp_path / "one"
    run = corpus(one, 8, 1, 1, "--pgn")
    assert run.returncode == 0, run.stderr
    assert shard_bytes(one) == shard_bytes(out)
    assert (one / "corpus.json").read_bytes() == (out / "corpus.json").read_bytes()


def test_a_killed_run_continues_without_duplicates(tmp_path):
    def args(out, workers):
        return [MANAKA, "chess", "corpus", "-o", str(out), "--games", "24", "--workers", str(workers),
                "--nodes", "300", "--seed", "5", "--shard-size", "100", "--engine", STOCKFISH, "-q"]

    straight = tmp_path / "straight"
    assert subprocess.run(args(straight, 2)).returncode == 0
    part = tmp_path / "part"
    proc = subprocess.Popen(args(part, 1))
    deadline = time.monotonic() + 120
    while not (part / "corpus.json").exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL
    first = json.loads((part / "corpus.json").read_text())
    assert 0 < first["games"] < 24
    run = subprocess.run(args(part, 2), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    manifest = json.loads((part / "corpus.json").read_text())
    assert manifest["games"] == 24
    starts = [s["first_game"] for s in manifest["shards"]]
    ends = [s["first_game"] + s["games"] for s in manifest["shards"]]
    assert starts == [0] + ends[:-1]  # every game once, in order
    # With a node limit the continued corpus is the uninterrupted one, byte for byte.
    assert shard_bytes(part) == shard_bytes(straight)
    assert not [p for p in part.iterdir() if ".tmp-" in p.name]


def test_another_corpus_in_the_directory_is_refused(made, tmp_path):
    out, _ = made
    other = tmp_path / "other"
    assert corpus(other, 2, 1, 1).returncode == 0
    run = corpus(other, 2, 1, 2)
    assert run.returncode == 1
    assert "holds a corpus made with other options" in run.stderr and "--overwrite" in run.stderr
    again = corpus(other, 2, 1, 2, "--overwrite")
    assert again.returncode == 0, again.stderr
    assert json.loads((other / "corpus.json").read_text())["options"]["seed"] == 2


def test_pgn_reads_in_vpd_build(made, tmp_path):
    out, _ = made
    pgns = sorted(out.glob("games_*.pgn"))
    run = subprocess.run([MANAKA, "vpd", "build", *map(str, pgns), "-o", str(tmp_path / "c.vpd"), "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["games_read"] == 8 and summary["games_skipped"] == 0


def test_overwrite_keeps_the_old_corpus_whole_until_the_new_one_is(tmp_path):
    """--overwrite of another corpus builds the new one in DIR.replacement and
    swaps it in when complete: a run killed on the way leaves the old corpus
    as it was (it used to delete it first), and the same command continues."""
    out = tmp_path / "c"
    assert corpus(out, 6, 1, 1).returncode == 0
    before = shard_bytes(out)
    staging = tmp_path / "c.replacement"
    def args(workers: int) -> list[str]:
        return [MANAKA, "chess", "corpus", "-o", str(out), "--games", "24", "--workers", str(workers), "--nodes", "300",
                "--seed", "2", "--shard-size", "100", "--engine", STOCKFISH, "-q", "--overwrite"]

    proc = subprocess.Popen(args(1))
    deadline = time.monotonic() + 120
    while not (staging / "corpus.json").exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait() != 0
    assert shard_bytes(out) == before and json.loads((out / "corpus.json").read_text())["options"]["seed"] == 1
    assert 0 < json.loads((staging / "corpus.json").read_text())["games"] < 24
    run = subprocess.run(args(2), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    manifest = json.loads((out / "corpus.json").read_text())
    assert manifest["games"] == 24 and manifest["options"]["seed"] == 2
    assert not staging.exists() and sorted(p.name for p in tmp_path.iterdir()) == ["c"]


def test_a_continued_corpus_reports_this_runs_results_and_the_whole_directorys(tmp_path):
    out = tmp_path / "c"
    first = corpus(out, 3, 1, 4, "--json")
    assert first.returncode == 0, first.stderr
    second = corpus(out, 5, 1, 4, "--json")
    assert second.returncode == 0, second.stderr
    a, b = json.loads(first.stdout), json.loads(second.stdout)
    assert (sum(a["results"].values()), sum(b["results"].values()), sum(b["corpus_results"].values())) == (3, 2, 5)
    assert a["corpus_results"] == a["results"]
    assert b["corpus_results"] == {r: a["results"][r] + b["results"][r] for r in a["results"]}
    shards = json.loads((out / "corpus.json").read_text())["shards"]
    assert list(b["corpus_results"].values()) == [sum(s["results"][i] for s in shards) for i in range(3)]
