"""manaka report: every figure present and drawn from the data (known inputs
give known bin counts, checked against pyarrow and the lists the test wrote),
the page rendering in headless Chromium with no missing image and no script
error, and the native command."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from html import unescape
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import chess as pychess
import chess.pgn as pychess_pgn

from manaka import chess, sazpack, shards, shogi, stream
from manaka.chess_corpus import write_shard
from manaka.report import write_report

MANAKA = str(Path(sys.executable).with_name("manaka"))
# A committed SAZ2 chunk (its policy holds a move that is not legal: the
# report draws it anyway).
GOLDEN_SAZ = Path(__file__).resolve().parents[2] / "fuzz" / "seeds" / "sazpack_decode_fuzz" / "golden.saz"


def write_games(path: Path, lengths: list[int], seed: int) -> list[tuple[int, int]]:
    """Random legal games of the given lengths; returns (ply, candidates) per record."""
    rng = random.Random(seed)
    written = []
    w = stream.SelfPlayWriter(str(path))
    for length in lengths:
        pos = shogi.Board()
        w.begin_game()
        for ply in range(length):
            legal = [int(m) for m in pos.legal_move16s()]
            mv = rng.sample(legal, min(len(legal), rng.randint(1, 6)))
            w.add_position(pos.pack(), ply, rng.uniform(-1, 1), mv, [rng.randint(1, 100) for _ in mv])
            written.append((ply, len(mv)))
            pos.push(shogi.Move.from_move16(mv[0]))
        w.end_game(rng.choice([1, -1, 0]))
    w.close()
    return written


def figures(html: str) -> dict[tuple[int, str], dict]:
    """(section index, figure name) -> its data attributes."""
    out = {}
    for m in re.finditer(r"<figure class='chart' ([^>]*)>", html):
        attrs = {k: unescape(v) for k, v in re.findall(r'([\w-]+)="([^"]*)"', m.group(1))}
        out[(int(attrs["data-section"]), attrs["data-name"])] = attrs
    return out


def counts_by_value(fig: dict) -> dict[int, int]:
    """An integer histogram's counts by the integer each bin holds."""
    edges = json.loads(fig["data-edges"])
    counts = json.loads(fig["data-counts"])
    assert all(e1 - e0 == 1 for e0, e1 in zip(edges, edges[1:])), "one bin per value"
    return {int(e + 0.5): c for e, c in zip(edges, counts) if c}


def test_stream_and_shard_figures_count_the_rows(tmp_path):
    lengths = [5, 9, 14, 3, 20, 7, 11, 16]
    written = write_games(tmp_path / "sp.mpk", lengths, seed=3)
    shards.pack([str(tmp_path / "sp.mpk")], str(tmp_path / "set" / "train"), seed=1, rows_per_shard=40)
    summary = write_report([tmp_path / "sp.mpk", tmp_path / "set"], tmp_path / "r.html", boards=3)
    html = (tmp_path / "r.html").read_text()
    figs = figures(html)
    # Every figure a section lists is on the page.
    for i, s in enumerate(summary["sections"]):
        assert s["figures"] and all((i, name) in figs for name in s["figures"]), s
    assert [s["kind"] for s in summary["sections"]] == ["stream", "shards"]
    assert {"ply", "value_z", "value_q", "candidates", "entropy", "top1", "legal_moves", "shuffle"} <= set(
        summary["sections"][0]["figures"])
    assert {"ply", "weight", "candidates", "blocks"} <= set(summary["sections"][1]["figures"])
    # The stream: plies and candidate counts as written.
    assert counts_by_value(figs[(0, "ply")]) == dict(Counter(p for p, _ in written))
    assert counts_by_value(figs[(0, "candidates")]) == dict(Counter(c for _, c in written))
    assert sum(json.loads(figs[(0, "value_z")]["data-counts"])) == len(written)
    # value_z takes -1, 0, 1 only: three bins hold every row.
    assert sum(1 for c in json.loads(figs[(0, "value_z")]["data-counts"]) if c) <= 3
    # The shard set: ply and weight as pyarrow reads them.
    table = pq.read_table(sorted((tmp_path / "set").glob("*.parquet")))
    assert counts_by_value(figs[(1, "ply")]) == dict(Counter(table["ply"].to_pylist()))
    assert counts_by_value(figs[(1, "weight")]) == dict(Counter(table["weight"].to_pylist()))
    cands = Counter(len(c) for c in table["candidates"].to_pylist())
    assert counts_by_value(figs[(1, "candidates")]) == dict(cands)
    # Boards with their targets: a shaded square per candidate drawn.
    assert summary["sections"][0]["boards"] == 3
    assert html.count("class=\"board shogi\"") == 6
    assert "class=\"target\"" in html


def test_same_game_pairs_beside_a_perfect_shuffle():
    from manaka.report.sources import shuffle_pairs

    game = np.repeat(np.arange(8), 64)  # 8 games of 64 rows, in order
    pairs, expected = shuffle_pairs(game, batch=64)
    assert pairs.tolist() == [64 * 63 // 2] * 8  # every batch is one whole game
    assert expected == 64 * 63 / 2 * (8 * 64 * 63) / (512 * 511)
    rng = np.random.default_rng(1)
    shuffled = np.array([shuffle_pairs(rng.permutation(game), batch=64)[0].mean() for _ in range(200)])
    assert abs(shuffled.mean() - expected) < 0.05 * expected


def corpus_table(n: int, coef: float, seed: int) -> pa.Table:
    """Independent rows (each its own game: ply 0) with results drawn from
    sigmoid(cp / coef) for the side to move."""
    rng = np.random.default_rng(seed)
    cp = rng.integers(-2000, 2001, n)
    side = rng.integers(0, 2, n)
    win = rng.random(n) < 1 / (1 + np.exp(-cp / coef))
    z = np.where(win, 1, -1)
    result = np.where(side == 0, z, -z)  # the corpus stores Black's view
    sfen = ["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"]
    return pa.table({
        "sfen": [sfen[s] for s in side], "ply": np.zeros(n, np.int32), "side": side.astype(np.int8),
        "cp": cp.astype(np.int32),
        "cand_moves": [["7g7f", "2g2f"] if s == 0 else ["3c3d", "8c8d"] for s in side],
        "cand_cp": [[int(c), int(c) - 50] for c in cp], "move": ["7g7f" if s == 0 else "3c3d" for s in side],
        "result": result.astype(np.int8)})


def test_fit_coef_recovers_the_simulated_coefficient(tmp_path):
    from manaka import teacher

    pq.write_table(corpus_table(30000, 500.0, seed=4), tmp_path / "c.parquet")
    fit = teacher.fit_coef(tmp_path / "c.parquet", bin_cp=250)
    assert fit["lo"] < 500.0 < fit["hi"], fit
    assert fit["rows"] == fit["games"] == 30000
    # The calibration bins count the rows numpy puts in the same bins.
    cp = pq.read_table(tmp_path / "c.parquet")["cp"].to_numpy()
    expected, _ = np.histogram(np.clip(cp, -2000, 1999), bins=np.arange(-2000, 2001, 250))
    assert [b["rows"] for b in fit["calibration"]] == expected.tolist()
    # The outer bins take every cp beyond (cp 2000 is in the last): open-ended, null in JSON.
    bins = fit["calibration"]
    assert (bins[0]["lo"], bins[0]["hi"], bins[-1]["lo"], bins[-1]["hi"]) == (None, -1750, 1750, None)
    assert bins[1]["lo"] == -1750
    # The command prints the same fit.
    run = subprocess.run([MANAKA, "teacher", "fit-coef", str(tmp_path / "c.parquet"), "--bin-cp", "250", "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["eval_coef"] == fit["eval_coef"]
    text = subprocess.run([MANAKA, "teacher", "fit-coef", str(tmp_path / "c.parquet")], capture_output=True, text=True)
    assert text.stdout.startswith("eval_coef ") and "95% interval" in text.stdout and "calibration" in text.stdout
    curve = text.stdout.split("calibration (cp bin: rows, mean cp, observed score, fitted score):\n")[1].splitlines()
    assert curve[0].startswith("  (  -inf,  -1900) ") and curve[1].startswith("  [ -1900,  -1800) ")
    assert curve[-1].startswith("  [  1900,   +inf) ") and len(curve) == 40


def test_overlap_counts_boards_shared_with_training(tmp_path):
    write_games(tmp_path / "a.mpk", [12, 15, 9, 20], seed=1)
    write_games(tmp_path / "b.mpk", [10, 13, 8], seed=2)
    shards.pack([str(tmp_path / "a.mpk")], str(tmp_path / "train" / "t"), seed=1)
    shards.pack([str(tmp_path / "b.mpk")], str(tmp_path / "valid" / "v"), seed=1)
    boards = lambda d: [bytes(b) for b in pq.read_table(sorted(d.glob("*.parquet")))["packed"].to_pylist()]  # noqa: E731
    train, valid = set(boards(tmp_path / "train")), boards(tmp_path / "valid")
    shared = [b for b in valid if b in train]
    assert shared  # every game starts at the initial position
    o = shards.overlap([str(tmp_path / "train")], [str(tmp_path / "valid")], max_examples=2)
    assert shards.overlap(tmp_path / "train", tmp_path / "valid", max_examples=2)["shared_rows"] == o["shared_rows"]
    assert (o["valid_rows"], o["shared_rows"], o["shared_boards"]) == (len(valid), len(shared), len(set(shared)))
    assert o["train_boards"] == len(train)
    assert [e["packed"] for e in o["examples"]] == shared[:2]
    assert o["examples"][0]["sfen"] == shogi.Board.unpack(shared[0]).sfen()
    # The command: exit status 1 above --max-share, 0 at or below it; rows shared in the
    # opening (ply < --opening-plies, 16 by default) are reported, not judged.
    run = subprocess.run([MANAKA, "shards", "overlap", str(tmp_path / "train"), str(tmp_path / "valid"), "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0 and json.loads(run.stdout)["opening_rows"] == len(shared)
    run = subprocess.run([MANAKA, "shards", "overlap", str(tmp_path / "train"), str(tmp_path / "valid"), "--json",
                          "--opening-plies", "0"], capture_output=True, text=True)
    assert run.returncode == 1 and "occur in training" in run.stderr
    assert json.loads(run.stdout)["shared_rows"] == len(shared)
    run = subprocess.run([MANAKA, "shards", "overlap", str(tmp_path / "train"), str(tmp_path / "valid"),
                          "--max-share", "1"], capture_output=True, text=True)
    assert run.returncode == 0 and f"shared: {len(shared)} valid rows" in run.stdout
    # In the report: the validation set gets a section and the count.
    summary = write_report([tmp_path / "train"], tmp_path / "r.html", valid=tmp_path / "valid", boards=2)
    assert summary["overlaps"][0]["shared_rows"] == len(shared)
    assert f"data-shared-rows='{len(shared)}'" in (tmp_path / "r.html").read_text()


def chess_shard(path: Path, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = random.Random(seed)
    states, moves, outcomes = [], [], []
    for _ in range(games):
        board = pychess.Board()
        ucis = []
        for _ in range(rng.randint(4, 30)):
            legal = list(board.legal_moves)
            if not legal:
                break
            mv = rng.choice(legal)
            ucis.append(mv.uci())
            board.push(mv)
        s, m = chess.encode_game(pychess.STARTING_FEN, ucis)
        states.append(s)
        moves.append(m)
        outcomes.append(np.full(len(m), rng.choice([-1, 0, 1]), np.int8))
    st, mi, oc = np.concatenate(states), np.concatenate(moves), np.concatenate(outcomes)
    write_shard(path, st, mi, oc)
    return mi, oc


def test_report_renders_in_headless_chromium(tmp_path):
    write_games(tmp_path / "sp.mpk", [6, 18, 11, 25, 9], seed=5)
    shards.pack([str(tmp_path / "sp.mpk")], str(tmp_path / "set" / "train"), seed=1)
    pq.write_table(corpus_table(400, 600.0, seed=2), tmp_path / "corpus.parquet")
    (tmp_path / "chess").mkdir()
    mi, oc = chess_shard(tmp_path / "chess" / "shard_000000.npz", 6, seed=3)
    metrics = [{"kind": "train", "epoch": 1, "step": s, "loss": 5 - s / 50, "policy_ce": 4 - s / 60,
                "value_mse": 0.5, "lr": 0.002} for s in range(10, 110, 10)]
    metrics += [{"kind": "epoch", "epoch": e, "step": 50 * e, "train_loss": 4.5 - e / 4, "val_loss": 4.6 - e / 5,
                 "val_top1": 0.1 * e} for e in (1, 2)]
    (tmp_path / "metrics.jsonl").write_text("".join(json.dumps(m) + "\n" for m in metrics))
    out = tmp_path / "report.html"
    run = subprocess.run([MANAKA, "report", str(tmp_path / "sp.mpk"), str(tmp_path / "set"),
                          str(tmp_path / "corpus.parquet"), str(tmp_path / "chess"), str(tmp_path / "metrics.jsonl"),
                          str(GOLDEN_SAZ), "-o", str(out), "--eval-coef", "600", "--boards", "2", "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    kinds = [s["kind"] for s in summary["sections"]]
    assert kinds == ["stream", "shards", "corpus", "chess", "metrics", "saz"]
    html = out.read_text()
    figs = figures(html)
    assert counts_by_value(figs[(3, "outcome")]) == dict(Counter(oc.tolist()))
    assert counts_by_value(figs[(3, "move_plane")]) == dict(Counter((mi % 73).tolist()))
    assert {"calibration", "cp", "candidates"} <= set(summary["sections"][2]["figures"])
    assert {"loss", "lr", "val_loss", "accuracy"} <= set(summary["sections"][4]["figures"])
    saz = sazpack.decode_sazpack_columns(GOLDEN_SAZ, check_policy_legality=False)
    assert counts_by_value(figs[(5, "game_length")]) == dict(Counter(np.diff(saz.game_offsets).tolist()))
    # Nothing to fetch: no source, link or CSS url outside the file.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)|url\(\s*["']?https?:|@import""", html)
    n_figures = sum(len(s["figures"]) + s["boards"] for s in summary["sections"])
    dom = subprocess.run(["chromium", "--headless", "--disable-gpu", "--no-sandbox", "--window-size=1400,3000",
                          "--virtual-time-budget=5000", "--dump-dom", out.as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert dom.returncode == 0, dom.stderr[-2000:]
    m = re.search(r'data-check="([^"]*)"', dom.stdout)
    assert m, "the page's check did not run"
    check = json.loads(unescape(m.group(1)))
    assert check == {"figures": n_figures, "drawn": n_figures, "missing_images": 0, "errors": []}


def test_report_command_names_a_missing_input(tmp_path):
    run = subprocess.run([MANAKA, "report", str(tmp_path / "nothing.mpk"), "-o", str(tmp_path / "r.html")],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.strip() == f"manaka: {tmp_path / 'nothing.mpk'}: no such file or directory"
    assert not (tmp_path / "r.html").exists()


def test_vpd_figures_agree_with_python_chess(tmp_path):
    import sqlite3

    rng = random.Random(8)
    games = []
    for g in range(12):
        board = pychess.Board()
        for _ in range(rng.randint(10, 60)):
            legal = list(board.legal_moves)
            if not legal:
                break
            board.push(rng.choice(legal))
        game = pychess_pgn.Game.from_board(board)
        game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2"])
        games.append(str(game))
    (tmp_path / "games.pgn").write_text("\n\n".join(games) + "\n")
    run = subprocess.run([MANAKA, "vpd", "build", str(tmp_path / "games.pgn"), "-o", str(tmp_path / "p.vpd"),
                          "--target", "30", "-q"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    summary = write_report([tmp_path / "p.vpd"], tmp_path / "r.html", boards=2)
    assert summary["sections"][0]["kind"] == "vpd"
    figs = figures((tmp_path / "r.html").read_text())
    with sqlite3.connect(tmp_path / "p.vpd") as db:
        fens = [r[0] for r in db.execute("SELECT fen FROM positions")]
    assert fens
    # Legal moves and pieces as python-chess counts them on each stored FEN.
    legal = Counter(pychess.Board(f).legal_moves.count() for f in fens)
    pieces = Counter(len(pychess.Board(f).piece_map()) for f in fens)
    assert counts_by_value(figs[(0, "legal_moves")]) == dict(legal)
    assert counts_by_value(figs[(0, "pieces")]) == dict(pieces)
    assert summary["sections"][0]["boards"] == 2


def test_report_names_an_input_it_cannot_read(tmp_path):
    (tmp_path / "notes.txt").write_text("not data\n")
    run = subprocess.run([MANAKA, "report", str(tmp_path / "notes.txt"), "-o", str(tmp_path / "r.html")],
                         capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.strip() == (f"manaka: report: {tmp_path / 'notes.txt'}: not a format the report reads (MPK1, "
                                  "shards, SAZ2, chess npz, VPD1, teacher corpus, metrics JSON lines)")
    assert not (tmp_path / "r.html").exists()


def test_teacher_stream_calibration_is_drawn_beside_its_header_coefficient(tmp_path):
    h = stream.Header()
    h.policy_source = 1
    h.eval_coef = 600.0
    h.mate_scale = 32000
    rng = random.Random(3)
    pos = shogi.Board()
    legal = [int(m) for m in pos.legal_move16s()]
    w = stream.Writer(str(tmp_path / "t.mpk"), h)
    best = []
    for i in range(300):
        cps = sorted((rng.randint(-1500, 1500) for _ in range(3)), reverse=True)
        w.write(pos.pack(), i, float(rng.choice([-1, 0, 1])), 0.0, legal[:3], cp=cps)
        best.append(cps[0])
    w.close()
    summary = write_report([tmp_path / "t.mpk"], tmp_path / "r.html", boards=0)
    assert "calibration" in summary["sections"][0]["figures"]
    fig = figures((tmp_path / "r.html").read_text())[(0, "calibration")]
    # One observed point per 100-cp bin the best candidates fall in, and the header's curve.
    assert json.loads(fig["data-series"]) == {"observed (binned)": len({(c + 2000) // 100 for c in best}),
                                              "header eval_coef 600": 200}
