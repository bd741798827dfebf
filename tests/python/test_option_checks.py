"""Every option and parameter with a range is checked at the edge (issue 11, item 6).

Before, CLI11 wrapped a seed of -1 to 2^64 - 1 and clamped 2^64 and beyond,
read "010" as octal, and printed a range's bound as the type's maximum (a
300-digit double); `--count -1` never ended; Python's read_batches(batch_size=0)
yielded nothing; nanobind refused a value that does not fit the C++ type with
a TypeError naming no parameter, and int()/float() in the wrappers quietly
truncated. Now each refusal is one line naming the option or parameter, the
value given and what is allowed; a wrong type is a TypeError.

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from manaka import chess, sazpack, shards, shogi, stream, teacher

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))

SEED_RANGE = "give an integer in 0..18446744073709551615"
EVAL_COEF_RANGE = "give a number of centipawns of at least 1 and at most 1e+05"  # the header's rule

GENERATE = ["teacher", "generate", "--engine", "e", "--games", "1", "--depth", "1", "-o", "c.parquet"]
CONVERT = ["teacher", "convert", "c.parquet", "-o", "t.mpk", "--eval-coef", "600", "--mate-scale", "32000"]
PACK = ["pack", "s.mpk", "-o", "p"]

# (arguments, the first line of stderr)
CLI_REFUSALS = [
    # seeds: never wrapped or clamped
    (PACK + ["--seed", "-1"], "--seed: -1 is not a seed; " + SEED_RANGE),
    (PACK + ["--seed", "18446744073709551616"], "--seed: 18446744073709551616 is not a seed; " + SEED_RANGE),
    (PACK + ["--seed", "1" + "0" * 300],
     "--seed: 1000000000000000000000000000000000000000... (301 characters) is not a seed; " + SEED_RANGE),
    (GENERATE + ["--seed", "-1"], "--seed: -1 is not a seed; " + SEED_RANGE),
    (["vpd", "build", "g.pgn", "-o", "v.vpd", "--seed", "-5"], "--seed: -5 is not a seed; " + SEED_RANGE),
    (["vpd", "sample", "v.vpd", "--seed", "99999999999999999999"],
     "--seed: 99999999999999999999 is not a seed; " + SEED_RANGE),
    # counts
    (["vpd", "sample", "v.vpd", "--count", "-1"], "--count: -1 is out of range; give an integer of at least 1"),
    (["vpd", "sample", "v.vpd", "-n", "0"], "--count: 0 is out of range; give an integer of at least 1"),
    (["stream", "dump", "s.mpk", "--limit", "-1"], "--limit: -1 is out of range; give an integer of at least 0"),
    (PACK + ["--rows-per-shard", "0"], "--rows-per-shard: 0 is out of range; give an integer of at least 1"),
    (GENERATE[:5] + ["0"] + GENERATE[6:], "--games: 0 is out of range; give an integer in 1..2147483647"),
    (GENERATE + ["--flush-rows", "0"], "--flush-rows: 0 is out of range; give an integer in 1..2147483647"),
    (GENERATE[:6] + ["-o", "c.parquet", "--nodes", "-1"],
     "--nodes: -1 is out of range; give an integer of at least 1"),
    # bounded integers: the bound in plain digits
    (["shogi", "perft", "startpos", "13"], "depth: 13 is out of range; give an integer in 1..12"),
    (["chess", "perft", "startpos", "0"], "depth: 0 is out of range; give an integer in 1..12"),
    (PACK + ["--buckets", "5000"], "--buckets: 5000 is out of range; give an integer in 0..4096"),
    (["vpd", "build", "g.pgn", "-o", "v.vpd", "--target", "1099511627777"],
     "--target: 1099511627777 is out of range; give an integer in 1..1099511627776"),
    (["vpd", "to-parquet", "v.vpd", "-o", "d", "--rows-per-file", "0"],
     "--rows-per-file: 0 is out of range; give an integer in 1..1099511627776"),
    (GENERATE[:6] + ["-o", "c.parquet", "--depth", "0"],
     "--depth: 0 is out of range; give an integer in 1..2147483647"),
    (GENERATE + ["--multipv", "501"], "--multipv: 501 is out of range; give an integer in 1..500"),
    (GENERATE + ["--workers", "-1"], "--workers: -1 is out of range; give an integer in 0..256"),
    (GENERATE + ["--opening-plies", "-1"], "--opening-plies: -1 is out of range; give an integer in 0..65535"),
    (GENERATE + ["--max-plies", "70000"], "--max-plies: 70000 is out of range; give an integer in 1..65535"),
    (GENERATE + ["--mate-scale", "999"], "--mate-scale: 999 is out of range; give an integer in 1000..32767"),
    (CONVERT + ["--mate-scale", "40000"], "--mate-scale: 40000 is out of range; give an integer in 1..32767"),
    (CONVERT + ["--mate-slack", "65536"], "--mate-slack: 65536 is out of range; give an integer in 0..65535"),
    (CONVERT + ["--fv-scale", "-1"], "--fv-scale: -1 is out of range; give an integer in 0..65535"),
    (CONVERT + ["--threads", "-1"], "--threads: -1 is out of range; give an integer in 0..256"),
    # not integers: no octal, hex or fractions
    (PACK + ["--buckets", "0x10"], "--buckets: 0x10 is not an integer; give an integer in 0..4096"),
    (GENERATE[:5] + ["1.5"] + GENERATE[6:], "--games: 1.5 is not an integer; give an integer in 1..2147483647"),
    # numbers: finite, in range, bounds short
    (CONVERT + ["--eval-coef", "1e40"], "--eval-coef: 1e40 is out of range; " + EVAL_COEF_RANGE),
    (CONVERT + ["--eval-coef", "1e-50"], "--eval-coef: 1e-50 is out of range; " + EVAL_COEF_RANGE),
    (CONVERT + ["--eval-coef", "inf"], "--eval-coef: inf is not a finite number; " + EVAL_COEF_RANGE),
    (CONVERT + ["--eval-coef", "six"], "--eval-coef: six is not a number; " + EVAL_COEF_RANGE),
    (PACK + ["--temperature", "1e400"],
     "--temperature: 1e400 is not a finite number; give a number of centipawns greater than 0"),
    (PACK + ["--temperature", "0"], "--temperature: 0 is out of range; give a number of centipawns greater than 0"),
    (GENERATE + ["--engine-timeout", "1e10"],
     "--engine-timeout: 1e10 is out of range; give a number of seconds greater than 0 and at most 2147483"),
    (GENERATE + ["--flush-seconds", "nan"],
     "--flush-seconds: nan is not a finite number; give a number of seconds greater than 0"),
]


@pytest.mark.parametrize("args,message", CLI_REFUSALS, ids=[" ".join(a[:2]) + " " + m.split(":")[0]
                                                             for a, m in CLI_REFUSALS])
def test_command_options_are_refused_in_one_line(tmp_path, args, message):
    run = subprocess.run([MANAKA, *args], capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert run.returncode != 0
    lines = run.stderr.splitlines()
    assert lines[0] == message
    assert all(len(line) < 200 for line in lines), run.stderr  # no 300-digit bounds


def test_every_numeric_option_is_checked():
    """Each command's --help lists a check beside every numeric option."""
    commands = [["shogi", "perft"], ["chess", "perft"], ["stream", "dump"], ["pack"], ["teacher", "generate"],
                ["teacher", "convert"], ["vpd", "build"], ["vpd", "sample"], ["vpd", "to-parquet"]]
    numeric = re.compile(r"^\s*(\S+) (INT|UINT|FLOAT)(\S*)")
    seen, unchecked = 0, []
    for cmd in commands:
        out = subprocess.run([MANAKA, *cmd, "--help"], capture_output=True, text=True, timeout=60).stdout
        for line in out.splitlines():
            if m := numeric.match(line):
                seen += 1
                if not m.group(3).startswith(":"):
                    unchecked.append(" ".join(cmd) + " " + m.group(1))
    assert seen >= 29  # every numeric option of these commands today
    assert unchecked == []


def test_accepted_integers_read_as_decimal(tmp_path):
    src = tmp_path / "s.mpk"
    with stream.SelfPlayWriter(str(src)) as w:
        pos = shogi.Board()
        w.begin_game()
        for ply in range(12):
            mv = int(pos.legal_move16s()[0])
            w.add_position(pos.pack(), ply, 0.0, [mv], [1])
            pos.push(shogi.Move.from_move16(mv))
        w.end_game(0)
    dump = subprocess.run([MANAKA, "stream", "dump", str(src), "--limit", "010"], capture_output=True, text=True)
    assert dump.returncode == 0 and len(dump.stdout.splitlines()) == 10  # CLI11 alone read 010 as 8
    # The largest seed is a seed, and a leading zero does not change it.
    for name, seed in (("a", "18446744073709551615"), ("b", "018446744073709551615")):
        run = subprocess.run([MANAKA, "pack", str(src), "-o", str(tmp_path / name), "--seed", seed, "-q"],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
    assert (tmp_path / "a-00000.parquet").read_bytes() == (tmp_path / "b-00000.parquet").read_bytes()


# ---- Python ----

@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("checks")
    src = d / "s.mpk"
    with stream.SelfPlayWriter(str(src)) as w:
        pos = shogi.Board()
        w.begin_game()
        for ply in range(6):
            mv = int(pos.legal_move16s()[0])
            w.add_position(pos.pack(), ply, 0.0, [mv], [1])
            pos.push(shogi.Move.from_move16(mv))
        w.end_game(1)
    shards.pack([str(src)], str(d / "sh"), seed=1)
    return {"dir": d, "stream": str(src), "shard": str(d / "sh-00000.parquet")}


def header_set(field, value):
    h = stream.Header()
    setattr(h, field, value)


def py_refusals(s, tmp):
    out = str(tmp / "out")
    pos = shogi.Board()
    packed = pos.pack()
    mv = int(pos.legal_move16s()[0])
    gen = dict(games=1, depth=1)
    conv = dict(eval_coef=600, mate_scale=32000)
    writer = stream.Writer(str(tmp / "w.mpk"), stream.selfplay_header())
    sp = stream.SelfPlayWriter(str(tmp / "sp.mpk"))
    sp.begin_game()
    return [
        # stream
        (lambda: stream.read_batches(s["stream"], batch_size=0), ValueError,
         "batch_size: 0 is out of range; give an integer of at least 1"),
        (lambda: stream.Reader(s["stream"]).batches(-5), ValueError,
         "batch_size: -5 is out of range; give an integer of at least 1"),
        (lambda: stream.read_batches(s["stream"], batch_size=2.0), TypeError,
         "batch_size: must be an int, not float (2.0)"),
        (lambda: header_set("eval_coef", 1e40), ValueError,
         "Header.eval_coef: 1e+40 is out of range; give a number that a float holds (-3.4028235e+38..3.4028235e+38)"),
        (lambda: header_set("eval_coef", math.nan), ValueError, "Header.eval_coef: nan is not a finite number; "
         "give a number that a float holds (-3.4028235e+38..3.4028235e+38)"),
        (lambda: header_set("mate_scale", 70000), ValueError,
         "Header.mate_scale: 70000 is out of range; give an integer in 0..65535"),
        (lambda: header_set("pov", -1), ValueError, "Header.pov: -1 is out of range; give an integer in 0..255"),
        (lambda: header_set("flags", 2**32), ValueError,
         "Header.flags: 4294967296 is out of range; give an integer in 0..4294967295"),
        (lambda: writer.write(packed, 70000, 0.0, 0.0, [mv], [1]), ValueError,
         "ply: 70000 is out of range; give an integer in 0..65535"),
        (lambda: writer.write(packed, 0, 0.0, 0.0, [mv, 70000], [1, 1]), ValueError,
         "mv[1]: 70000 is out of range; give an integer in 0..65535"),
        (lambda: writer.write(packed, 0, 0.0, 0.0, [mv], [-1]), ValueError,
         "visits[0]: -1 is out of range; give an integer in 0..4294967295"),
        (lambda: writer.write(packed, 0, 0.0, 0.0, [mv], None, [40000]), ValueError,
         "cp[0]: 40000 is out of range; give an integer in -32768..32767"),
        (lambda: writer.write(packed, 0, None, 0.0, [mv], [1]), TypeError,
         "value_z: must be a number, not NoneType (None)"),
        (lambda: sp.add_position(packed, 0, 2.0, [mv], [1]), ValueError,
         "value_q: 2.0 is out of range; give a number of at least -1 and at most 1"),
        (lambda: sp.end_game(2**64), ValueError,
         "result: 18446744073709551616 is out of range; give an integer in -9223372036854775808..9223372036854775807"),
        (lambda: sp.add_position(packed, -1, 0.0, [mv], [1]), ValueError,
         "ply: -1 is out of range; give an integer in 0..65535"),
        (lambda: sp.add_position(packed, 0, 0.0, "7g7f", [1]), TypeError,
         "mv: must be a sequence of ints, not str (7g7f)"),
        (lambda: sp.add_position_policy(packed, 0, 0.0, [2**16], [1.0]), ValueError,
         "mv[0]: 65536 is out of range; give an integer in 0..65535"),
        (lambda: stream.quantize_policy([-1], [1.0]), ValueError,
         "mv[0]: -1 is out of range; give an integer in 0..65535"),
        # shards
        (lambda: shards.pack([s["stream"]], out, seed=-1), ValueError, "seed: -1 is not a seed; " + SEED_RANGE),
        (lambda: shards.pack([s["stream"]], out, seed=2**64), ValueError,
         "seed: 18446744073709551616 is not a seed; " + SEED_RANGE),
        (lambda: shards.pack([s["stream"]], out, seed=True), TypeError, "seed: must be an int, not bool (True)"),
        (lambda: shards.pack([s["stream"]], out, seed=None), TypeError, "seed: must be an int, not NoneType (None)"),
        (lambda: shards.pack([s["stream"]], out, temperature=math.inf), ValueError,
         "temperature: inf is not a finite number; give a number of centipawns greater than 0"),
        (lambda: shards.pack([s["stream"]], out, temperature=0), ValueError,
         "temperature: 0 is out of range; give a number of centipawns greater than 0"),
        (lambda: shards.pack([s["stream"]], out, rows_per_shard=0), ValueError,
         "rows_per_shard: 0 is out of range; give an integer of at least 1"),
        (lambda: shards.pack([s["stream"]], out, buckets=4097), ValueError,
         "buckets: 4097 is out of range; give an integer in 0..4096"),
        (lambda: shards.iter_batches(s["dir"], seed=-1), ValueError, "seed: -1 is not a seed; " + SEED_RANGE),
        (lambda: shards.iter_batches(s["dir"], epoch=-1), ValueError,
         "epoch: -1 is out of range; give an integer of at least 0"),
        (lambda: shards.epoch_order([s["shard"]], 2**70, 0), ValueError,
         "seed: 1180591620717411303424 is not a seed; " + SEED_RANGE),
        (lambda: shards.ShardFile(s["shard"]).read_row_group("0"), TypeError, "group: must be an int, not str (0)"),
        (lambda: shards.ShardFile(s["shard"]).read_row_group(5), IndexError,
         "group: row group 5 out of range; the file has 1 (0..0)"),
        # teacher
        (lambda: teacher.convert(s["stream"], out, eval_coef=1e40, mate_scale=32000), ValueError,
         "eval_coef: 1e+40 is out of range; " + EVAL_COEF_RANGE),
        (lambda: teacher.convert(s["stream"], out, eval_coef=math.nan, mate_scale=32000), ValueError,
         "eval_coef: nan is not a finite number; " + EVAL_COEF_RANGE),
        (lambda: teacher.convert(s["stream"], out, eval_coef="600", mate_scale=32000), TypeError,
         "eval_coef: must be a number, not str (600)"),
        (lambda: teacher.convert(s["stream"], out, eval_coef=600, mate_scale=1.5), TypeError,
         "mate_scale: must be an int, not float (1.5)"),
        (lambda: teacher.convert(s["stream"], out, **conv, mate_slack=-1), ValueError,
         "mate_slack: -1 is out of range; give an integer in 0..65535"),
        (lambda: teacher.convert(s["stream"], out, **conv, fv_scale=65536), ValueError,
         "fv_scale: 65536 is out of range; give an integer in 0..65535"),
        (lambda: teacher.convert(s["stream"], out, **conv, threads=1000), ValueError,
         "threads: 1000 is out of range; give an integer in 0..256"),
        (lambda: teacher.generate("e", out, games=0, depth=1), ValueError,
         "games: 0 is out of range; give an integer in 1..2147483647"),
        (lambda: teacher.generate("e", out, games=1, depth=0), ValueError,
         "depth: 0 is out of range; give an integer in 1..2147483647"),
        (lambda: teacher.generate("e", out, games=1, nodes=0), ValueError,
         "nodes: 0 is out of range; give an integer of at least 1"),
        (lambda: teacher.generate("e", out, **gen, multipv=0), ValueError,
         "multipv: 0 is out of range; give an integer in 1..500"),
        (lambda: teacher.generate("e", out, **gen, workers=257), ValueError,
         "workers: 257 is out of range; give an integer in 0..256"),
        (lambda: teacher.generate("e", out, **gen, seed=-1), ValueError, "seed: -1 is not a seed; " + SEED_RANGE),
        (lambda: teacher.generate("e", out, **gen, opening_plies=-1), ValueError,
         "opening_plies: -1 is out of range; give an integer in 0..65535"),
        (lambda: teacher.generate("e", out, **gen, max_plies=0), ValueError,
         "max_plies: 0 is out of range; give an integer in 1..65535"),
        (lambda: teacher.generate("e", out, **gen, mate_scale=40000), ValueError,
         "mate_scale: 40000 is out of range; give an integer in 1000..32767"),
        (lambda: teacher.generate("e", out, **gen, engine_timeout=1e12), ValueError,
         "engine_timeout: 1000000000000.0 is out of range; "
         "give a number of seconds greater than 0 and at most 2147483"),
        (lambda: teacher.SimpleEngine.popen_usi("e", multipv=0), ValueError,
         "multipv: 0 is out of range; give an integer in 1..500"),
        (lambda: teacher.SimpleEngine.popen_usi("e", timeout=-1), ValueError,
         "timeout: -1 is out of range; give a number of seconds greater than 0 and at most 2147483"),
        (lambda: teacher.SimpleEngine.popen_usi("e", search_timeout=math.inf), ValueError,
         "search_timeout: inf is not a finite number; give a number of seconds greater than 0 and at most 2147483"),
        # threads
        (lambda: sazpack.decode_sazpack_columns(b"", threads=1000), ValueError,
         "threads: 1000 is out of range; give an integer in 0..256"),
    ]


def test_python_parameters_are_refused_naming_the_parameter(small, tmp_path):
    failures = []
    for call, kind, message in py_refusals(small, tmp_path):
        try:
            call()
        except Exception as e:  # noqa: BLE001 - each case names what it expects
            got = (type(e), str(e).strip("'\""))
            if not issubclass(got[0], kind) or got[1] != message:
                failures.append(f"expected {kind.__name__}: {message}\n     got {got[0].__name__}: {got[1]}")
        else:
            failures.append(f"expected {kind.__name__}: {message}\n     got no error")
    assert not failures, "\n".join(failures)


def test_perft_depth_is_bounded():
    """Before, a depth of 13 ran for a lifetime and -1 answered 1."""
    for call, message in [
        (lambda: shogi.perft("startpos", 13), "depth: 13 is out of range; give an integer in 0..12"),
        (lambda: shogi.Board().perft(-1), "depth: -1 is out of range; give an integer in 0..12"),
        (lambda: chess.perft(chess.STARTING_FEN, 2**40),
         "depth: 1099511627776 is out of range; give an integer in 0..12"),
    ]:
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == message
    assert shogi.perft("startpos", 0) == 1 and chess.perft(chess.STARTING_FEN, 2) == 400


def test_torch_dataset_checks_seed_and_epoch(small):
    import manaka.torch_data as torch_data
    with pytest.raises(ValueError, match=r"^seed: -1 is not a seed; "):
        torch_data.ShardDataset(small["dir"], seed=-1)
    ds = torch_data.ShardDataset(small["dir"], seed=2**64 - 1)
    with pytest.raises(ValueError, match=r"^epoch: -3 is out of range; give an integer of at least 0$"):
        ds.set_epoch(-3)


def test_python_accepts_numpy_numbers_and_the_bounds(small, tmp_path):
    import numpy as np
    batches = list(stream.read_batches(small["stream"], batch_size=np.int64(4)))
    assert [len(b) for b in batches] == [4, 2]
    shards.pack([small["stream"]], str(tmp_path / "a"), seed=2**64 - 1, temperature=np.float32(50), buckets=4096)
    h = stream.Header()
    h.eval_coef = 3.4028234663852886e38
    assert h.eval_coef == 3.4028234663852886e38
