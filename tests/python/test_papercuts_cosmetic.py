"""Small things a newcomer trips on: an output prefix that is a directory, directories a failed run
made, a run that kept nothing, and a file of another format handed to pack."""

import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from manaka import shogi, stream

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))


def run(*args):
    return subprocess.run([MANAKA, *map(str, args)], capture_output=True, text=True)


def small_stream(path):
    with stream.SelfPlayWriter(str(path)) as w:
        board = shogi.Board()
        w.begin_game()
        for ply in range(4):
            mv = [int(m) for m in board.legal_move16s()[:2]]
            w.add_position(board.pack(), ply, 0.0, mv, [3, 1])
            board.push(shogi.Move.from_move16(mv[0]))
        w.end_game(1)
    return path


def test_pack_into_a_directory_names_the_shards(tmp_path):
    src = small_stream(tmp_path / "a.mpk")
    r = run("pack", src, "-o", f"{tmp_path}/s1/", "-q")
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (tmp_path / "s1").iterdir()) == ["shard-00000.parquet"]


def test_a_failed_run_leaves_no_directory_it_made(tmp_path):
    src = tmp_path / "bad.mpk"
    src.write_bytes(small_stream(tmp_path / "a.mpk").read_bytes()[:24] + b"\xff" * 300)
    r = run("pack", src, "-o", tmp_path / "new" / "deep" / "sp")
    assert r.returncode == 1 and "bad.mpk: record 0" in r.stderr
    assert not (tmp_path / "new").exists()
    r = run("stream", "import", "--from", "psv", tmp_path / "bad.mpk", "-o", tmp_path / "n2" / "x" / "o.mpk",
            "--eval-coef", 600, "--mate-scale", 32000)
    assert r.returncode == 1 and not (tmp_path / "n2").exists()
    # A directory that existed stays, and so does what is in it.
    (tmp_path / "kept").mkdir()
    r = run("pack", src, "-o", tmp_path / "kept" / "sub" / "sp")
    assert r.returncode == 1 and (tmp_path / "kept").is_dir() and not (tmp_path / "kept" / "sub").exists()


def test_a_run_that_keeps_nothing_fails_naming_the_first_refusal(tmp_path):
    (tmp_path / "x.bin").write_bytes(b"\x00" * 40)  # 40 zero bytes: a psv record of an empty board
    r = run("stream", "import", "--from", "psv", tmp_path / "x.bin", "-o", tmp_path / "o.mpk",
            "--eval-coef", 600, "--mate-scale", 32000)
    assert r.returncode == 1, r.stdout
    assert "every position was refused (1), so no stream was written; the first: " in r.stderr
    assert "x.bin record 0 at byte 0" in r.stderr and "--from psv" in r.stderr
    assert not (tmp_path / "o.mpk").exists()
    pq.write_table(pa.table({"sfen": ["not a position"], "ply": [0], "side": [0], "cp": [0],
                             "cand_moves": [["7g7f"]], "cand_cp": [[0]], "move": ["7g7f"], "result": [0]}),
                   tmp_path / "c.parquet")
    r = run("teacher", "convert", tmp_path / "c.parquet", "-o", tmp_path / "t.mpk", "--eval-coef", 600,
            "--mate-scale", 32000)
    assert r.returncode == 1 and "every row was refused (1)" in r.stderr and "c.parquet row 0" in r.stderr
    assert not (tmp_path / "t.mpk").exists()


def test_pack_names_what_a_foreign_file_is(tmp_path):
    pq.write_table(pa.table({"sfen": ["startpos"]}), tmp_path / "corpus.parquet")
    r = run("pack", tmp_path / "corpus.parquet", "-o", tmp_path / "s" / "sp")
    assert r.returncode == 1
    assert "corpus.parquet" in r.stderr and "bad magic 50 41 52 31" in r.stderr
    assert "a parquet file: a teacher corpus (manaka teacher convert makes MPK1 of it)" in r.stderr
