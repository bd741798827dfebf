"""Never lose or mix a user's data (docs/reliability.md).

Each test here failed on the code before the output policy, shard sets,
signal cleanup and text sanitising: overwritten inputs, mixed shard sets that
read as whole, temporaries left by SIGTERM, JSON summaries that abort on a
non-UTF-8 path, and a PGN's escape bytes sent raw to the terminal.
"""

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from manaka import shards, stream
from test_shards import selfplay_stream

ROOT = Path(__file__).resolve().parents[2]
MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def run(*args, **kw):
    return subprocess.run([MANAKA, *map(str, args)], capture_output=True, text=True, **kw)


def teacher_corpus(path: Path, rows: int = 2) -> Path:
    data = {"sfen": [START] * rows, "ply": [0] * rows, "side": [0] * rows, "cp": [5] * rows,
            "cand_moves": [["7g7f"]] * rows, "cand_cp": [[5]] * rows, "move": ["7g7f"] * rows, "result": [1] * rows}
    pq.write_table(pa.table(data), path)
    return path


def convert_args(corpus, out, *extra):
    return ("teacher", "convert", corpus, "-o", out, "--eval-coef", "600", "--mate-scale", "32000", *extra)


def temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if ".tmp-" in p.name or p.name.startswith(".manaka-pack-"))


def shard_bytes(prefix: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(prefix.parent.glob(prefix.name + "-*.parquet"))}


# ---- 1. one output policy --------------------------------------------------------


def test_an_input_is_never_overwritten(tmp_path):
    corpus = teacher_corpus(tmp_path / "g1.parquet")
    before = corpus.read_bytes()
    for extra in ((), ("--overwrite",)):
        proc = run(*convert_args(corpus, corpus, *extra))
        assert proc.returncode == 1
        assert "is the input" in proc.stderr and "g1.parquet" in proc.stderr
    os.link(corpus, tmp_path / "alias.mpk")  # another name, the same inode
    proc = run(*convert_args(corpus, tmp_path / "alias.mpk", "--overwrite"))
    assert proc.returncode == 1 and "is the input" in proc.stderr
    assert corpus.read_bytes() == before

    saz = tmp_path / "x.sazpack"
    saz.write_bytes(b"SAZ2 not really")
    proc = run("saz", "to-mpk", saz, "-o", saz, "--overwrite")
    assert proc.returncode == 1 and "is the input" in proc.stderr
    assert saz.read_bytes() == b"SAZ2 not really"


def test_an_existing_output_needs_overwrite(tmp_path):
    corpus = teacher_corpus(tmp_path / "c.parquet")
    out = tmp_path / "o.mpk"
    out.write_bytes(b"precious")
    proc = run(*convert_args(corpus, out))
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"manaka: teacher convert: {out}: exists; pass --overwrite to replace it"
    assert out.read_bytes() == b"precious"
    assert run(*convert_args(corpus, out, "--overwrite")).returncode == 0
    assert stream.validate(str(out)) == 2

    src = selfplay_stream(tmp_path / "sp.mpk", games=10)
    prefix = tmp_path / "sh" / "train"
    assert run("pack", src, "-o", prefix, "--rows-per-shard", "50", "-q").returncode == 0
    first = shard_bytes(prefix)
    proc = run("pack", src, "-o", prefix, "--seed", "9", "-q")
    assert proc.returncode == 1 and "a shard set exists" in proc.stderr and "--overwrite" in proc.stderr
    assert shard_bytes(prefix) == first
    assert run("pack", src, "-o", prefix, "--seed", "9", "--overwrite", "-q").returncode == 0
    assert list(shard_bytes(prefix)) == ["train-00000.parquet"]  # one shard now, the old ones gone

    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    vpd = tmp_path / "g.vpd"
    vpd.write_bytes(b"old")
    proc = run("vpd", "build", pgn, "-o", vpd, "-q")
    assert proc.returncode == 1 and "pass --overwrite" in proc.stderr and vpd.read_bytes() == b"old"
    assert run("vpd", "build", pgn, "-o", vpd, "-q", "--overwrite").returncode == 0


# ---- 2. shard sets ----------------------------------------------------------------


def test_every_footer_names_its_set(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=30)
    summary = shards.pack([str(src)], str(tmp_path / "a"), seed=1, rows_per_shard=100)
    paths = summary["shards"]
    assert len(paths) >= 3
    metas = [pq.read_metadata(p).metadata for p in paths]
    ids = {m[b"manaka.set.id"] for m in metas}
    assert len(ids) == 1 and len(next(iter(ids))) == 16
    assert [int(m[b"manaka.set.shard"]) for m in metas] == list(range(len(paths)))
    assert {int(m[b"manaka.set.shards"]) for m in metas} == {len(paths)}
    assert {int(m[b"manaka.set.rows"]) for m in metas} == {summary["rows_out"]}
    assert {m[b"seed"] for m in metas} == {b"1"}
    # The same streams and seed: the same set, byte for byte.
    again = shards.pack([str(src)], str(tmp_path / "b"), seed=1, rows_per_shard=100)
    assert [Path(p).read_bytes() for p in again["shards"]] == [Path(p).read_bytes() for p in paths]


def test_a_mixed_or_incomplete_set_is_refused(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=30)
    a = shards.pack([str(src)], str(tmp_path / "a"), seed=1, rows_per_shard=100)["shards"]
    b = shards.pack([str(src)], str(tmp_path / "b"), seed=2, rows_per_shard=100)["shards"]
    assert len(a) == len(b) >= 3
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for p in a:
        shutil.copy(p, mixed / Path(p).name)
    shutil.copy(b[1], mixed / Path(a[1]).name)  # shard 1 from another run, as a killed pack left it
    proc = run("shards", "inspect", *sorted(mixed.glob("*.parquet")))
    assert proc.returncode == 1 and "a mixed shard set" in proc.stderr
    with pytest.raises(ValueError, match="a mixed shard set"):
        next(shards.iter_batches(mixed))

    incomplete = tmp_path / "incomplete"
    incomplete.mkdir()
    for p in a[:-1]:
        shutil.copy(p, incomplete / Path(p).name)
    proc = run("shards", "inspect", *sorted(incomplete.glob("*.parquet")))
    assert proc.returncode == 1 and "an incomplete shard set" in proc.stderr
    assert f"missing {len(a) - 1}" in proc.stderr
    with pytest.raises(ValueError, match="an incomplete shard set"):
        shards.list_shards(incomplete)
    # Reading chosen shards on purpose is still possible.
    assert len(shards.list_shards(incomplete, require_complete=False)) == len(a) - 1


def wait_for(predicate, seconds=20.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_stopped_pack_leaves_the_old_set_whole(tmp_path, sig):
    src = selfplay_stream(tmp_path / "sp.mpk", games=30)
    out = tmp_path / "out"
    out.mkdir()
    prefix = out / "train"
    assert run("pack", src, "-o", prefix, "--rows-per-shard", "100", "-q").returncode == 0
    old = shard_bytes(prefix)
    # The fault hook (core/fault.h) stops the run once its spools are written, until the signal comes.
    proc = subprocess.Popen([MANAKA, "pack", str(src), "-o", str(prefix), "--buckets", "4", "--overwrite",
                             "--rows-per-shard", "50"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "MANAKA_FAULT": "pack-spooled:1:hang"})
    assert wait_for(lambda: any(p.name.startswith(".manaka-pack-") for p in out.iterdir())), "pack never spooled"
    # A second pack on the same prefix meanwhile is kept off it.
    second = run("pack", src, "-o", prefix, "--overwrite", "-q")
    assert second.returncode == 1 and "another run is writing shards of this prefix" in second.stderr
    proc.send_signal(sig)
    assert proc.wait(timeout=20) == -sig
    assert shard_bytes(prefix) == old
    shards.list_shards(out)  # whole
    if sig == signal.SIGKILL:
        assert temporaries(out)  # nobody could clean up; the next run does
        assert (out / ".train.lock").exists()  # empty and unlocked: the next run takes it
        assert run("pack", src, "-o", prefix, "--buckets", "4", "--overwrite", "-q").returncode == 0
    else:  # the signal cleanup removes the prefix's lock with the temporaries
        assert not (out / ".train.lock").exists()
    assert temporaries(out) == []


def test_a_pack_killed_at_any_rename_leaves_one_set_whole(tmp_path):
    """SIGKILL at each rename of `pack --overwrite` (core/fault.h): afterwards
    the old set or the new one is whole under the final names, at once or
    once the next run on the prefix has finished the replacement; that run
    never takes a half-replaced set for no set."""
    old_src = selfplay_stream(tmp_path / "old.mpk", games=30)
    new_src = selfplay_stream(tmp_path / "new.mpk", games=20, seed=9)
    out = tmp_path / "out"
    prefix = out / "train"
    reference = tmp_path / "ref" / "train"
    assert run("pack", new_src, "-o", reference, "--rows-per-shard", "150", "-q").returncode == 0
    new = shard_bytes(reference)
    assert run("pack", old_src, "-o", prefix, "--rows-per-shard", "100", "-q").returncode == 0
    old = shard_bytes(prefix)
    assert len(old) > len(new) >= 2  # the new set replaces some shards and outgrows the rest
    seen = set()
    for k in range(1, 100):
        env = {**os.environ, "MANAKA_FAULT": f"shard-set-rename:{k}:kill"}
        proc = run("pack", new_src, "-o", prefix, "--rows-per-shard", "150", "--overwrite", "-q", env=env)
        if proc.returncode == 0:
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        at_once = shard_bytes(prefix)
        # The next run without --overwrite finishes a journaled replacement, then refuses: a set exists.
        again = run("pack", old_src, "-o", prefix, "-q")
        assert again.returncode == 1 and "a shard set exists" in again.stderr, again.stderr
        after = shard_bytes(prefix)
        assert after in (old, new), (k, sorted(after))
        assert at_once in (old, new) or after == new  # half-way only while the journal says how to finish
        seen.add("old" if after == old else "new")
        assert len(shards.list_shards(out)) == len(after)
        for p in out.iterdir():  # back to the old set for the next k
            shutil.rmtree(p) if p.is_dir() else p.unlink()
        for name, data in old.items():
            (out / name).write_bytes(data)
    else:
        pytest.fail("pack never completed")
    assert k > len(old) + len(new) + 1  # the journal, every rename aside and in, the journal's removal
    assert seen == {"old", "new"}
    assert shard_bytes(prefix) == new
    assert temporaries(out) == [] and not (out / ".train.publish").exists()


# ---- 3. limits, pipes, signals and footers -------------------------------------------


def test_a_file_size_limit_is_an_error_naming_the_file(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=60)
    # SIGXFSZ is ignored, so the write fails with EFBIG and the run says which file; no temporary stays.
    proc = subprocess.run(["bash", "-c", f'ulimit -f 20; exec "{MANAKA}" pack "{src}" -o "{tmp_path}/l/a" -q'],
                          capture_output=True, text=True)
    assert proc.returncode == 1, proc.stderr
    assert "a-00000.parquet.tmp-" in proc.stderr and "File too large" in proc.stderr
    assert temporaries(tmp_path / "l") == [] and not list((tmp_path / "l").glob("a-*"))


def test_inputs_that_would_exhaust_memory_or_be_read_twice_are_refused(tmp_path):
    pgn = tmp_path / "g.pgn"
    pgn.write_text('[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n')
    proc = run("vpd", "build", pgn, "-o", tmp_path / "a.vpd", "--thresholds", "/dev/zero", "-q")
    assert proc.returncode == 1 and "/dev/zero: a thresholds file is at most 16 MiB" in proc.stderr
    assert not (tmp_path / "a.vpd").exists()
    (tmp_path / "z.jsonl").symlink_to("/dev/zero")
    proc = run("teacher", "convert", tmp_path / "z.jsonl", "-o", tmp_path / "z.mpk", "--eval-coef", "600",
               "--mate-scale", "32000")
    assert proc.returncode == 1 and "z.jsonl: line 1 is longer than 16 MiB" in proc.stderr

    # pack reads each input twice (a header pass, then the records): a pipe is refused at once.
    src = selfplay_stream(tmp_path / "sp.mpk", games=3)
    fifo = tmp_path / "f.mpk"
    os.mkfifo(fifo)
    proc = run("pack", fifo, "-o", tmp_path / "o" / "a", timeout=20)
    assert proc.returncode == 1 and "is a pipe or FIFO, and pack reads each input more than once" in proc.stderr
    proc = subprocess.run(["bash", "-c", f'"{MANAKA}" pack <(cat "{src}") -o "{tmp_path}/o/a"'],
                          capture_output=True, text=True, timeout=20)
    assert proc.returncode == 1 and "is a pipe or FIFO" in proc.stderr
    # stream validate reads once: a pipe works there.
    proc = subprocess.run(["bash", "-c", f'"{MANAKA}" stream validate <(cat "{src}")'], capture_output=True,
                          text=True, timeout=20)
    assert proc.returncode == 0, proc.stderr
    # So does teacher convert: a pipe has no name to say it is JSON lines, and parquet cannot come from one.
    fixture = ROOT / "tests/fixtures/teacher/refusals.jsonl"
    proc = subprocess.run(["bash", "-c", f'"{MANAKA}" teacher convert <(cat "{fixture}") -o "{tmp_path}/p.mpk" '
                           '--eval-coef 600 --mate-scale 32000'], capture_output=True, text=True, timeout=20)
    assert proc.returncode == 0 and "14 rows from 1 file" in proc.stdout and "4 records" in proc.stdout, proc.stderr

    # One file named twice would count its data twice.
    for argv in (("vpd", "build", pgn, tmp_path / "." / "g.pgn", "-o", tmp_path / "b.vpd"),
                 ("saz", "to-mpk", src, src, "-o", tmp_path / "b.mpk"),
                 ("teacher", "convert", tmp_path / "z.jsonl", tmp_path / "z.jsonl", "-o", tmp_path / "c.mpk",
                  "--eval-coef", "600", "--mate-scale", "32000")):
        proc = run(*argv)
        assert proc.returncode == 1 and "is given twice" in proc.stderr, (argv, proc.stderr)


def test_a_footer_that_disagrees_with_its_rows_is_refused(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=10)
    good = shards.pack([str(src)], str(tmp_path / "s" / "a"), seed=1)["shards"][0]
    table = pq.read_table(good)
    meta = dict(table.schema.metadata)
    for key, value, message in ((b"manaka.set.rows", b"7", "holds 7 rows (manaka.set.rows), but its shards hold"),
                                (b"packed_len", b"95", 'footer key packed_len is "95", but it is "96"'),
                                (b"pov", b"2", 'footer key pov is "2", but it is "0" or "1"')):
        bad = tmp_path / "s" / "b-00000.parquet"
        pq.write_table(table.replace_schema_metadata({**meta, key: value}), bad)
        proc = run("shards", "validate", bad)
        assert proc.returncode == 1 and message in proc.stderr, (key, proc.stderr)
    # A damaged Arrow schema in the footer: named, where it once crashed the reader.
    data = Path(good).read_bytes()
    schema = pq.ParquetFile(good).metadata.metadata[b"ARROW:schema"]
    at = data.rindex(schema)
    damaged = tmp_path / "s" / "c-00000.parquet"
    damaged.write_bytes(data[:at] + b"!!!!" + data[at + 4:])
    for command in ("validate", "inspect"):
        proc = run("shards", command, damaged)
        assert proc.returncode == 1, proc.stderr
        assert "c-00000.parquet: the footer's ARROW:schema (the Arrow schema stored with the columns) is damaged" \
            in proc.stderr


# ---- 4. text that leaves the program ------------------------------------------------


def test_paths_that_are_not_utf8(tmp_path):
    games = '[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n' * 3
    pgn = os.path.join(os.fsencode(tmp_path), b"caf\xe9.pgn")
    with open(pgn, "w") as f:
        f.write(games)
    vpd = os.path.join(os.fsencode(tmp_path), b"caf\xe9.vpd")
    proc = subprocess.run([MANAKA.encode(), b"vpd", b"build", pgn, b"-o", vpd, b"--json"], capture_output=True)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    assert summary["output"] == os.fsdecode(vpd).encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    out = os.path.join(os.fsencode(tmp_path), b"p\xe9")
    proc = subprocess.run([MANAKA.encode(), b"vpd", b"to-parquet", vpd, b"-o", out], capture_output=True)
    assert proc.returncode == 0, proc.stderr
    assert os.path.exists(os.path.join(out, b"_manifest.json"))
    json.loads(open(os.path.join(out, b"_manifest.json"), "rb").read())

    mpk = os.path.join(os.fsencode(tmp_path), b"s\xff.mpk")
    shutil.copy(selfplay_stream(tmp_path / "sp.mpk", games=3), mpk)
    proc = subprocess.run([MANAKA.encode(), b"stream", b"inspect", mpk, b"--json"], capture_output=True)
    assert proc.returncode == 0, proc.stderr
    json.loads(proc.stdout)
    assert temporaries(tmp_path) == []


def test_control_bytes_of_a_file_never_reach_the_terminal(tmp_path):
    pgn = tmp_path / "hostile.pgn"
    pgn.write_bytes(b'[Result "*"]\n\n1. e4 Zz\x1b\x07\x9b *\n')
    proc = subprocess.run([MANAKA, "chess", "pgn", str(pgn)], capture_output=True)
    text = proc.stdout + proc.stderr
    assert b"\x1b" not in text and b"\x07" not in text and b"\x9b" not in text
    assert b"invalid san: 'Zz\\x1b\\x07\\x9b'" in text


# ---- 5. temporaries -------------------------------------------------------------------


def dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_later_run_removes_stale_temporaries_it_can_prove_are_its_own(tmp_path):
    corpus = teacher_corpus(tmp_path / "c.parquet")
    out = tmp_path / "o.mpk"
    stale = tmp_path / f"o.mpk.tmp-{dead_pid()}"
    stale.write_bytes(b"left by kill -9")
    live = tmp_path / f"o.mpk.tmp-{os.getpid()}"  # a running process's: never touched
    live.write_bytes(b"in use")
    assert run(*convert_args(corpus, out)).returncode == 0
    assert not stale.exists() and live.exists()


def test_python_writers_remove_only_dead_processes_temporaries(tmp_path: Path) -> None:
    # The refinement's torch checkpoints are staged as "<final>.tmp-<pid>" by
    # Python; core/temporary.h's rule, through the binding, clears them.
    from manaka._core import files

    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"iter_0001.pt.tmp-{dead.pid}").write_bytes(b"half")
    (tmp_path / f"iter_0002.pt.tmp-{dead.pid}").mkdir()
    mine = tmp_path / f"iter_0003.pt.tmp-{os.getpid()}"
    mine.write_bytes(b"live")
    (tmp_path / "iter_0004.pt").write_bytes(b"final")
    assert files.remove_stale_temporaries(str(tmp_path)) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [mine.name, "iter_0004.pt"]
