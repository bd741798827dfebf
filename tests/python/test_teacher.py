"""manaka.teacher from Python: conversion against an independent converter
(bench/teacher_convert_py.py: pyarrow + cshogi), refusals with nulls and
mapped columns, the generator with the real fairy-stockfish and with a fake
engine that crashes, and the engine client (USI with fairy-stockfish, UCI
with stockfish)."""

import json
import math
import os
import random
import struct
import subprocess
import sys
from pathlib import Path

import cshogi
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import manaka
from manaka import shogi, stream, teacher

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
import teacher_convert_py  # noqa: E402

FAIRY = "/usr/games/fairy-stockfish"
STOCKFISH = "/usr/games/stockfish"
FAKE = str(ROOT / "tests/fixtures/engine/fake_engine.sh")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
AFTER_7G7F = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"

SCHEMA = pa.schema([("sfen", pa.string()), ("ply", pa.int32()), ("side", pa.int8()), ("cp", pa.int32()),
                    ("cand_moves", pa.list_(pa.string())), ("cand_cp", pa.list_(pa.int32())),
                    ("move", pa.string()), ("result", pa.int8())])


def random_corpus(seed: int, rows: int, game_order: bool = False) -> dict:
    """Random legal games, up to five candidates a row. By default the next row
    is the position after a random legal move, not the played one, so no row
    follows from the one before. With game_order, rows follow one another as in
    a generated corpus (each the position after the previous row's played move),
    with the chain broken now and then: the next row after another move, or the
    same board with another move number. The converter reuses the previous
    position only when the SFEN matches it exactly."""
    rng = random.Random(seed)
    cols = {k: [] for k in SCHEMA.names}
    while len(cols["sfen"]) < rows:
        pos = shogi.Board()
        result = rng.choice([1, -1, 0])
        for ply in range(rng.randint(10, 150 if game_order else 120)):
            legal = [m.usi() for m in pos.legal_moves]
            if not legal or len(cols["sfen"]) >= rows:
                break
            sfen = pos.sfen()
            if game_order and ply and rng.random() < 0.1:
                board, side, hands, number = sfen.split(" ")
                sfen = " ".join([board, side, hands, str(int(number) + 2)])
            cands = rng.sample(legal, min(5, len(legal)))
            cols["sfen"].append(sfen)
            cols["ply"].append(ply)
            cols["side"].append(ply % 2)
            cols["cp"].append(rng.choice([rng.randint(-4000, 4000), rng.choice([1, -1]) * (32000 - rng.randint(1, 400))]))
            cols["cand_moves"].append(cands)
            cols["cand_cp"].append(sorted((rng.randint(-2000, 2000) for _ in cands), reverse=True))
            cols["move"].append(rng.choice(cands))
            cols["result"].append(result)
            played = game_order and rng.random() < 0.9
            pos.push_usi(cols["move"][-1] if played else rng.choice(legal))
    return cols


def records(path):
    out = []
    for b in stream.read_batches(str(path)):
        for i in range(len(b)):
            lo, hi = b.cand_offsets[i], b.cand_offsets[i + 1]
            out.append((int(b.ply[i]), float(b.value_z[i]), float(b.value_q[i]), bytes(b.packed[i]),
                        [(int(m), int(v), int(c)) for m, v, c in zip(b.mv[lo:hi], b.visits[lo:hi], b.cp[lo:hi])]))
    return out


def test_convert_is_byte_identical_to_the_python_reference(tmp_path):
    corpus = tmp_path / "corpus.parquet"
    pq.write_table(pa.table(random_corpus(3, 3000), schema=SCHEMA), corpus, row_group_size=700)
    s = teacher.convert(corpus, tmp_path / "ours.mpk", eval_coef=756.0865, mate_scale=32000, mate_slack=100)
    rows, written, refused = teacher_convert_py.convert([str(corpus)], str(tmp_path / "peer.mpk"), 756.0865, 32000,
                                                        mate_slack=100)
    assert s["rows_read"] == rows == 3000
    assert s["records_written"] == written == 3000 and not refused
    assert (tmp_path / "ours.mpk").read_bytes() == (tmp_path / "peer.mpk").read_bytes()
    assert s["header"] == {"pov": 0, "policy_source": 1, "mate_scale": 32000, "mate_slack": 100, "fv_scale": 0,
                           "eval_coef": pytest.approx(756.0865)}
    assert s["effective_slack"] == 100 and s["mate_threshold"] == 31900


def test_a_directory_reads_its_parquet_files_and_names_the_others(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    for name, seed in [("a.parquet", 1), ("b.parquet", 2), ("_c.parquet", 3), (".d.parquet", 4), ("e.PARQUET", 5)]:
        pq.write_table(pa.table(random_corpus(seed, 50), schema=SCHEMA), d / name)
    (d / "f.jsonl").write_text("{}\n")
    s = teacher.convert(d, tmp_path / "out.mpk", eval_coef=600, mate_scale=32000)
    assert s["files"] == [str(d / "a.parquet"), str(d / "b.parquet")] and s["rows_read"] == 100
    assert s["not_read"] == [str(d / n) for n in (".d.parquet", "_c.parquet", "e.PARQUET", "f.jsonl")]
    proc = subprocess.run([str(Path(sys.executable).with_name("manaka")), "teacher", "convert", str(d), "-o",
                           str(tmp_path / "cli.mpk"), "--eval-coef", "600", "--mate-scale", "32000"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert f"not read: 4 files in the directories given (only *.parquet, not hidden or _): {d / '.d.parquet'}" in (
        proc.stdout + proc.stderr)


def test_game_ordered_rows_and_broken_chains_convert_like_independent_rows(tmp_path):
    corpus = tmp_path / "corpus.parquet"
    pq.write_table(pa.table(random_corpus(5, 4000, game_order=True), schema=SCHEMA), corpus, row_group_size=1500)
    s = teacher.convert(corpus, tmp_path / "ours.mpk", eval_coef=600, mate_scale=32000)
    rows, written, refused = teacher_convert_py.convert([str(corpus)], str(tmp_path / "peer.mpk"), 600, 32000)
    assert s["rows_read"] == rows == 4000 and s["records_written"] == written == 4000 and not refused
    assert (tmp_path / "ours.mpk").read_bytes() == (tmp_path / "peer.mpk").read_bytes()
    for threads in (1, 3):  # runs of rows go to threads as they come: the bytes cannot depend on it
        teacher.convert(corpus, tmp_path / f"t{threads}.mpk", eval_coef=600, mate_scale=32000, threads=threads)
        assert (tmp_path / f"t{threads}.mpk").read_bytes() == (tmp_path / "ours.mpk").read_bytes()


def test_dictionary_and_large_types_read_like_plain_strings(tmp_path):
    cols = random_corpus(9, 1200)
    plain = tmp_path / "plain.parquet"
    pq.write_table(pa.table(cols, schema=SCHEMA), plain, row_group_size=500)
    moves = pa.array(cols["move"]).dictionary_encode()
    table = pa.table({
        "sfen": pa.array(cols["sfen"], pa.large_string()),
        "ply": pa.array(cols["ply"], pa.uint16()),
        "side": pa.array(cols["side"], pa.int64()),
        "cp": pa.array(cols["cp"], pa.int16()),
        "cand_moves": pa.array(cols["cand_moves"], pa.large_list(pa.string())),
        "cand_cp": pa.array(cols["cand_cp"], pa.list_(pa.int64())),
        "move": pa.DictionaryArray.from_arrays(moves.indices.cast(pa.int16()), moves.dictionary),
        "result": pa.array(cols["result"], pa.int32()),
    })
    typed = tmp_path / "typed.parquet"
    pq.write_table(table, typed, row_group_size=500)
    assert pq.read_schema(typed).field("move").type == pa.dictionary(pa.int16(), pa.string())
    a = teacher.convert(plain, tmp_path / "plain.mpk", eval_coef=600, mate_scale=32000)
    b = teacher.convert(typed, tmp_path / "typed.mpk", eval_coef=600, mate_scale=32000)
    assert a["records_written"] == b["records_written"] == 1200
    assert (tmp_path / "plain.mpk").read_bytes() == (tmp_path / "typed.mpk").read_bytes()


def test_squash_mate_band_and_value_z_read_back(tmp_path):
    rows = {
        "sfen": [START, AFTER_7G7F, AFTER_7G7F, START],
        "ply": [0, 1, 1, 0],
        "side": [0, 1, 1, 0],
        "cp": [1318, -1318, 29680, 29679],
        "cand_moves": [["7g7f"], ["3c3d"], ["3c3d"], ["7g7f"]],
        "cand_cp": [[1318], [-1318], [29680], [29679]],
        "move": ["7g7f", "3c3d", "3c3d", "7g7f"],
        "result": [1, 1, -1, 0],
    }
    corpus = tmp_path / "c.parquet"
    pq.write_table(pa.table(rows, schema=SCHEMA), corpus)
    s = teacher.convert([corpus], tmp_path / "o.mpk", eval_coef=600, mate_scale=30000)
    assert s["mate_threshold"] == 29680 and s["effective_slack"] == 320
    recs = records(tmp_path / "o.mpk")
    assert [r[1] for r in recs] == [1.0, -1.0, 1.0, 0.0]  # value_z: White rows flipped
    assert recs[0][2] == pytest.approx(0.8, abs=1e-3)      # win rate 0.90 at 1318 cp, coef 600
    assert recs[1][2] == pytest.approx(-0.8, abs=1e-3)
    assert recs[2][2] == 1.0                               # 29680 is a mate at 30000 / slack 0
    assert recs[3][2] == pytest.approx(math.tanh(29679 / 1200), abs=1e-7)
    assert recs[1][4] == [(shogi.move16_from_usi("3c3d"), 0, -1318)]
    assert recs[1][3][95] == 1


def test_nulls_mapped_columns_and_strict(tmp_path):
    rows = {
        "position": [START, START, START, None],
        "ply": [0, 0, 0, 0],
        "side": [0, 1, 0, 0],
        "score": [10, 10, None, 10],
        "cand_moves": [["7g7f", "2g2f"], ["7g7f"], ["7g7f"], ["7g7f"]],
        "cand_cp": [[10, 5], [10], [10], [10]],
        "move": ["2g2f", "7g7f", "7g7f", "7g7f"],
        "result": [-1, 0, 0, 0],
    }
    corpus = tmp_path / "c.parquet"
    pq.write_table(pa.table(rows), corpus)
    with pytest.raises(manaka.InvalidDataError, match=r'no column "sfen" for field sfen .*--column sfen=NAME'):
        teacher.convert(corpus, tmp_path / "o.mpk", eval_coef=600, mate_scale=32000)
    s = teacher.convert(corpus, tmp_path / "o.mpk", eval_coef=600, mate_scale=32000,
                        columns={"sfen": "position", "cp": "score"})
    assert s["records_written"] == 1 and s["refused_total"] == 3
    assert s["refused"]["side_mismatch"] == 1 and s["refused"]["missing_value"] == 2
    assert s["first_refusal"]["missing_value"] == {"file": str(corpus), "row": 2,
                                                   "detail": "field cp is null, absent or of the wrong type"}
    with pytest.raises(manaka.InvalidDataError, match=r"c\.parquet: row 1: refused \(side_mismatch"):
        teacher.convert(corpus, tmp_path / "strict.mpk", eval_coef=600, mate_scale=32000, strict=True,
                        columns={"sfen": "position", "cp": "score"})
    assert not (tmp_path / "strict.mpk").exists()


def test_json_lines_fixture_counts_every_reason(tmp_path):
    s = teacher.convert(ROOT / "tests/fixtures/teacher/refusals.jsonl", tmp_path / "o.mpk", eval_coef=600,
                        mate_scale=32000, mate_slack=100)
    assert s["records_written"] == 4
    assert s["refused"] == {k: 1 for k in ["missing_value", "out_of_range", "bad_sfen", "side_mismatch",
                                           "length_mismatch", "no_candidates", "unparsable_move",
                                           "repeated_move", "illegal_move", "played_not_candidate"]}
    # A JSON line is named by its line from 1 (blank lines counted), as the file's own errors are.
    good = (ROOT / "tests/fixtures/teacher/refusals.jsonl").read_text().splitlines()[0]
    bad = json.dumps({k: v for k, v in json.loads(good).items() if k != "cp"})
    (tmp_path / "b.jsonl").write_text(good + "\n\n" + bad + "\n")
    s = teacher.convert(tmp_path / "b.jsonl", tmp_path / "sub" / "b.mpk", eval_coef=600, mate_scale=32000)  # sub/ made
    assert s["first_refusal"]["missing_value"] == {"file": str(tmp_path / "b.jsonl"), "row": 1, "line": 3,
                                                   "detail": s["first_refusal"]["missing_value"]["detail"]}
    with pytest.raises(manaka.InvalidDataError, match=r"b\.jsonl: line 3: refused \(missing_value"):
        teacher.convert(tmp_path / "b.jsonl", tmp_path / "c.mpk", eval_coef=600, mate_scale=32000, strict=True)


def test_a_crashing_engine_is_restarted_and_the_loss_counted(tmp_path):
    # The fake takes its mode as arguments; a wrapper script passes them.
    wrapper = tmp_path / "crash_once.sh"
    wrapper.write_text(f"#!/bin/bash\nexec {FAKE} crash 3 {tmp_path / 'marker'}\n")
    wrapper.chmod(0o755)
    s = teacher.generate(wrapper, tmp_path / "c.parquet", games=3, depth=1, max_plies=6, workers=1)
    assert (s["games_completed"], s["games_lost"], s["restarts"], s["positions"]) == (2, 1, 1, 12)
    assert "exited with status 3" in s["engine_failures"][0]
    t = pq.read_table(tmp_path / "c.parquet")
    assert t.num_rows == 12 and t.column("result").to_pylist() == [0] * 12


def test_a_run_whose_engine_keeps_crashing_leaves_a_readable_partial_directory(tmp_path):
    wrapper = tmp_path / "crash_after.sh"
    wrapper.write_text(f"#!/bin/bash\nexec {FAKE} crash-after 4 {tmp_path / 'gos'}\n")
    wrapper.chmod(0o755)
    with pytest.raises(manaka.EngineError, match=r"completed games are in .*c\.parquet\.partial"):
        teacher.generate(wrapper, tmp_path / "c.parquet", games=6, depth=1, max_plies=4, workers=1)
    assert not (tmp_path / "c.parquet").exists()
    partial = pq.read_table(tmp_path / "c.parquet.partial")  # a dataset of complete parquet parts
    assert partial.num_rows == 4
    s = teacher.convert(tmp_path / "c.parquet.partial", tmp_path / "p.mpk", eval_coef=600, mate_scale=32000)
    assert s["records_written"] == 4


def test_fairy_stockfish_games_convert_and_agree_with_cshogi(tmp_path):
    g = teacher.generate(FAIRY, tmp_path / "c.parquet", games=2, depth=1, multipv=5, workers=2, seed=5,
                         opening_plies=4, max_plies=24)
    assert g["games_completed"] + g["games_illegal"] == 2 and g["games_lost"] == 0
    assert g["engine_seconds"] > 0 and g["overhead_share"] >= 0
    c = teacher.convert(tmp_path / "c.parquet", tmp_path / "t.mpk", eval_coef=600, mate_scale=32000)
    assert c["records_written"] == g["positions"] and c["refused_total"] == 0
    corpus = pq.read_table(tmp_path / "c.parquet").to_pylist()
    for row, rec in zip(corpus, records(tmp_path / "t.mpk")):
        board = cshogi.Board(row["sfen"])
        assert rec[3] == teacher_convert_py.packed_position(board)
        assert rec[1] == (row["result"] if row["side"] == 0 else -row["result"])
        for usi, (mv, visits, cp) in zip(row["cand_moves"], rec[4]):
            assert board.is_legal(board.move_from_usi(usi)), (usi, row["sfen"])
            assert shogi.move16_to_usi(mv) == usi and visits == 0
        assert [c for _, _, c in rec[4]] == row["cand_cp"]


def test_simple_engine_analyse():
    with teacher.SimpleEngine.popen_usi(FAIRY, multipv=3) as eng:
        assert "Fairy-Stockfish" in eng.name
        eng.new_game()
        lines = eng.analyse("startpos moves 7g7f", teacher.Limit(depth=2))
        assert [l.multipv for l in lines] == [1, 2, 3]
        assert all(l.score.cp is not None and not l.score.is_mate() for l in lines)
        assert shogi.Move.from_usi(eng.play(AFTER_7G7F, teacher.Limit(depth=1))) in shogi.Board(AFTER_7G7F).legal_moves


def test_simple_engine_speaks_uci():
    from manaka import chess
    with teacher.SimpleEngine.popen_uci(STOCKFISH, options={"UCI_ShowWDL": "true"}) as eng:
        assert "Stockfish" in eng.name
        eng.new_game()
        (line,) = eng.analyse("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", teacher.Limit(depth=5))
        assert line.move == "a1a8" and line.score.mate == 1 and line.wdl == (1000, 0, 0)
        assert chess.Move.from_uci(eng.play("startpos moves e2e4", teacher.Limit(time=0.05))) in chess.Board(
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
    with pytest.raises(manaka.InvalidDataError, match=r"UCI_Elo 100 is out of range 1350\.\.2850"):
        teacher.SimpleEngine.popen_uci(STOCKFISH, elo=100)


def test_engine_errors_are_engine_errors(tmp_path):
    with pytest.raises(manaka.EngineError, match=r"engine /nonexistent: cannot start"):
        teacher.SimpleEngine.popen_usi("/nonexistent")
    with pytest.raises(manaka.EngineError, match=r"cannot start"):
        teacher.generate("/nonexistent", tmp_path / "c.parquet", games=1, depth=1)
    with pytest.raises(ValueError, match="depth or nodes"):
        teacher.generate(FAKE, tmp_path / "c.parquet", games=1)


def test_a_killed_run_keeps_its_flushed_games(tmp_path):
    """SIGKILL mid-run: the final name never appears, and the flushed parts are
    complete parquet files that pyarrow and the converter read."""
    import signal
    import subprocess
    import time

    manaka_cmd = str(Path(sys.executable).with_name("manaka"))
    out = tmp_path / "corpus.parquet"
    proc = subprocess.Popen([manaka_cmd, "teacher", "generate", "--engine", FAIRY, "--games", "200", "--depth", "1",
                             "--multipv", "3", "--max-plies", "60", "--flush-rows", "1", "-o", str(out), "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    partial = tmp_path / "corpus.parquet.partial"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and len(list(partial.glob("part-*.parquet"))) < 2:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not out.exists()
    parts = sorted(partial.glob("part-*.parquet"))
    assert len(parts) >= 2
    table = pq.read_table(partial)
    assert table.num_rows == sum(pq.ParquetFile(p).metadata.num_rows for p in parts) > 0
    assert set(table.column("result").to_pylist()) <= {-1, 0, 1}
    s = teacher.convert(partial, tmp_path / "t.mpk", eval_coef=600, mate_scale=32000)
    assert s["records_written"] == table.num_rows and s["refused_total"] == 0


def test_the_command_line(tmp_path):
    import json
    import subprocess

    manaka_cmd = str(Path(sys.executable).with_name("manaka"))
    rows = {"position": [START, START], "ply": [0, 0], "side": [0, 1], "cp": [5, 5],
            "cand_moves": [["7g7f"], ["7g7f"]], "cand_cp": [[5], [5]], "move": ["7g7f", "7g7f"], "result": [1, 1]}
    corpus = tmp_path / "c.parquet"
    pq.write_table(pa.table(rows), corpus)
    out = tmp_path / "o.mpk"
    run = subprocess.run([manaka_cmd, "teacher", "convert", "--column", "sfen=position", str(corpus), "-o", str(out),
                          "--eval-coef", "600", "--mate-scale", "32000", "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    s = json.loads(run.stdout)
    assert s["records_written"] == 1 and s["refused"]["side_mismatch"] == 1
    run = subprocess.run([manaka_cmd, "teacher", "convert", str(corpus), "-o", str(out), "--column", "sfen=position",
                          "--eval-coef", "600", "--mate-scale", "32000", "--strict", "--overwrite"], capture_output=True, text=True)
    assert run.returncode == 1
    assert run.stderr.strip() == (f"manaka: {corpus}: row 1: refused (side_mismatch, side disagrees with its SFEN): "
                                  "side 1 but the SFEN has Black to move")
    run = subprocess.run([manaka_cmd, "teacher", "convert", str(corpus), "-o", str(out), "--eval-coef", "600",
                          "--mate-scale", "32000", "--overwrite"], capture_output=True, text=True)
    assert run.returncode == 1 and 'no column "sfen" for field sfen' in run.stderr


def test_convert_refuses_an_eval_coef_the_header_cannot_hold(tmp_path):
    """--eval-coef 1e40 is a finite double but an infinite f32: refused in one
    line naming the option, before any output exists."""
    corpus = tmp_path / "c.parquet"
    pq.write_table(pa.table(random_corpus(3, 50), schema=SCHEMA), corpus)
    out = tmp_path / "t.mpk"
    manaka_cli = str(Path(sys.executable).with_name("manaka"))
    run = subprocess.run([manaka_cli, "teacher", "convert", str(corpus), "-o", str(out), "--eval-coef", "1e40",
                          "--mate-scale", "32000", "-q"], capture_output=True, text=True)
    assert run.returncode != 0
    assert run.stderr.startswith("--eval-coef: 1e40 is out of range; give a number of centipawns of at least 1 "
                                 "and at most 1e+05\n")
    assert not out.exists()
    for coef in (1e40, math.inf, math.nan, -600, 0.5):
        with pytest.raises(manaka.UsageError, match="^eval_coef: "):
            teacher.convert(corpus, out, eval_coef=coef, mate_scale=32000)
        assert not out.exists()
