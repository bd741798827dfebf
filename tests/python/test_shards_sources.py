"""One rule for reading shard sets (files, directories searched recursively,
globs, mixed), weighted mixing at read time, and the overlap's opening rows."""

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import manaka
from manaka import shards
from test_shards import selfplay_stream

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))


@pytest.fixture(scope="module")
def two_sets(tmp_path_factory):
    """shards/train/a-*.parquet (40 games) and shards/sp/b-*.parquet (20 games), several shards each."""
    root = tmp_path_factory.mktemp("sources")
    a = selfplay_stream(root / "a.mpk", games=40, seed=1)
    b = selfplay_stream(root / "b.mpk", games=20, seed=2)
    shards.pack([str(a)], str(root / "shards" / "train" / "a"), seed=1, rows_per_shard=100)
    shards.pack([str(b)], str(root / "shards" / "sp" / "b"), seed=1, rows_per_shard=70)
    return root / "shards"


def rows_of(source):
    """{packed: (ply, value_z, weight, candidates)} of every row, read by pyarrow (the oracle)."""
    out = {}
    for path in shards.list_shards(source):
        t = pq.read_table(path).to_pylist()
        for r in t:
            out[r["packed"]] = (r["ply"], r["weight"], tuple((c["mv"], round(c["prob"], 6)) for c in r["candidates"]))
    return out


def key(batch, i):
    lo, hi = batch.cand_offsets[i], batch.cand_offsets[i + 1]
    return batch.packed[i].tobytes(), (int(batch.ply[i]), int(batch.weight[i]),
                                       tuple((int(m), round(float(p), 6)) for m, p in zip(batch.mv[lo:hi], batch.prob[lo:hi])))


def test_the_readme_snippet_reads_a_tree_of_sets(two_sets):
    # A directory is searched below its top level: both sets, every row once.
    # (The two sets share some boards, the starting position among them: compare lists, not dicts.)
    want = sorted([*rows_of(two_sets / "train").items(), *rows_of(two_sets / "sp").items()])
    got = [key(b, i) for b in shards.iter_batches(str(two_sets) + "/", epoch=0) for i in range(len(b))]
    assert sorted(got) == want


def test_files_directories_and_globs_mix_freely(two_sets):
    one = sorted((two_sets / "sp").glob("*.parquet"))
    files = shards.list_shards([two_sets / "train", *one])
    assert files == shards.list_shards(str(two_sets / "train")) + [str(p) for p in one]
    assert shards.list_shards(str(two_sets / "*" / "b-*.parquet")) == [str(p) for p in one]
    with pytest.raises(manaka.InvalidDataError, match="named twice"):
        shards.list_shards([two_sets / "train", shards.list_shards(two_sets / "train")[0]])
    with pytest.raises(manaka.FileError, match="no such file"):
        shards.list_shards(two_sets / "nowhere")
    with pytest.raises(manaka.FileError, match="matches no file"):
        shards.list_shards(str(two_sets / "*" / "zzz-*.parquet"))
    with pytest.raises(TypeError, match="not a path"):
        shards.list_shards([None])


def test_parquet_files_that_are_not_shards_are_left_out(two_sets, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    pq.write_table(pa.table({"x": [1, 2]}), other / "corpus.parquet")
    # Beside shards: left out. Alone: refused, naming the file.
    mixed = tmp_path / "mixed"
    (mixed / "more").mkdir(parents=True)
    pq.write_table(pa.table({"x": [1]}), mixed / "more" / "part-00000.parquet")
    for p in (two_sets / "sp").glob("*.parquet"):
        (mixed / p.name).write_bytes(p.read_bytes())
    files, left_out = shards.find_shards([str(mixed)])
    assert len(files) == len(list((two_sets / "sp").glob("*.parquet"))) and left_out == [str(mixed / "more" / "part-00000.parquet")]
    with pytest.raises(manaka.InvalidDataError, match=r"none with the shard columns.*corpus\.parquet"):
        shards.list_shards(other)


def test_every_command_takes_a_directory(two_sets):
    for args in (["shards", "inspect", str(two_sets)], ["shards", "validate", "-q", str(two_sets)],
                 ["shards", "inspect", str(two_sets / "*" / "a-*.parquet")]):
        r = subprocess.run([MANAKA, *args], capture_output=True, text=True)
        assert r.returncode == 0, (args, r.stderr)
    r = subprocess.run([MANAKA, "shards", "inspect", str(two_sets / "train")], capture_output=True, text=True)
    assert r.stdout.count("a-0000") >= 2  # every shard of the set, found through the directory


def test_overlap_reports_the_opening_and_judges_the_rest(two_sets):
    # Two independent sets of games share the starting position (ply 0) and a few early boards.
    r = subprocess.run([MANAKA, "shards", "overlap", str(two_sets / "train"), str(two_sets / "sp")],
                       capture_output=True, text=True)
    report = shards.overlap(two_sets / "train", two_sets / "sp")
    assert report["shared_rows"] >= 1 and report["opening_rows"] >= 1
    assert report["shared_rows"] - report["opening_rows"] == 0  # random games never meet past ply 16
    assert r.returncode == 0, r.stderr
    assert "in the opening (ply < 16)" in r.stdout
    strict = subprocess.run([MANAKA, "shards", "overlap", "--opening-plies", "0", str(two_sets / "train"),
                             str(two_sets / "sp")], capture_output=True, text=True)
    assert strict.returncode == 1 and "beyond ply 0" in strict.stderr


def draw_order(source, **kw):
    return [(int(s), key(b, i)) for b in shards.iter_batches(source, **kw) for i, s in enumerate(b.source)]


def test_mixing_draws_by_weight_without_replacement(two_sets):
    mix = {str(two_sets / "train"): 0.7, str(two_sets / "sp"): 0.3}
    want = [rows_of(two_sets / "train"), rows_of(two_sets / "sp")]
    batches = list(shards.iter_batches(mix, batch_size=64, seed=1))
    sizes = [len(b) for b in batches]
    assert set(sizes[:-1]) == {64} and 0 < sizes[-1] <= 64
    drawn = draw_order(mix, batch_size=64, seed=1)
    share = np.mean([s == 0 for s, _ in drawn])
    assert abs(share - 0.7) < 4 * np.sqrt(0.21 / len(drawn))
    for s in (0, 1):
        seq = [k for src, k in drawn if src == s]
        n = len(want[s])
        # Every row of a source once before any repeats; the rows are the source's own, decoded unchanged.
        assert dict(seq[:n]) == want[s] and len(set(p for p, _ in seq[:n])) == n
        assert all(p in want[s] for p, _ in seq)
    # The epoch ends as the last source completes its first pass: one of them just did.
    counts = Counter(s for s, _ in drawn)
    assert any(counts[s] == len(want[s]) for s in (0, 1))
    assert all(counts[s] >= len(want[s]) for s in (0, 1))
    # until="first": no row repeats, one source whole.
    first = draw_order(mix, batch_size=64, seed=1, until="first")
    c = Counter(s for s, _ in first)
    assert len(set((s, k[0]) for s, k in first)) == len(first) and any(c[s] == len(want[s]) for s in (0, 1))
    # drop_last drops the short batch.
    assert [len(b) for b in shards.iter_batches(mix, batch_size=64, seed=1, drop_last=True)] == sizes[:-1]


def test_mixing_is_the_same_for_any_thread_or_worker_split(two_sets):
    mix = {str(two_sets / "train"): 2, str(two_sets / "sp"): 1}
    base = draw_order(mix, batch_size=50, seed=7, threads=1)
    assert draw_order(mix, batch_size=50, seed=7, threads=3) == base
    assert draw_order(mix, batch_size=50, seed=8) != base
    assert draw_order(mix, batch_size=50, seed=7, epoch=1) != base
    # Three workers' shares, taken in turn, are the whole stream.
    parts = [shards.open_mixed(mix, batch_size=50, seed=7, stride=3, offset=i) for i in range(3)]
    merged = []
    while True:
        got = [p.next() for p in parts]
        merged += [g for g in got if g is not None]
        if all(g is None for g in got):
            break
    assert [m["index"] for m in merged] == list(range(len(merged)))
    assert b"".join(m["packed"].tobytes() for m in merged) == b"".join(
        b.packed.tobytes() for b in shards.iter_batches(mix, batch_size=50, seed=7))


def test_batch_size_alone_rebatches_one_source(two_sets):
    want = rows_of(two_sets / "train")
    got = [key(b, i) for b in shards.iter_batches(two_sets / "train", batch_size=33) for i in range(len(b))]
    assert dict(got) == want and len(got) == len(want)


def test_mixing_refuses_what_it_cannot_mean(two_sets):
    mix = {str(two_sets / "train"): 0.7, str(two_sets / "sp"): 0.3}
    with pytest.raises(TypeError, match="needs batch_size"):
        next(iter(shards.iter_batches(mix)))
    with pytest.raises(manaka.UsageError, match="weight"):
        list(shards.iter_batches({str(two_sets / "train"): 0.0}, batch_size=8))
    with pytest.raises(TypeError, match="must be a number"):
        list(shards.iter_batches({str(two_sets / "train"): "1"}, batch_size=8))
    with pytest.raises(manaka.UsageError, match="until"):
        list(shards.iter_batches(mix, batch_size=8, until="last"))
    with pytest.raises(manaka.UsageError, match="2\\^40"):
        list(shards.iter_batches({str(two_sets / "train"): 1e-12, str(two_sets / "sp"): 1}, batch_size=8))


def test_torch_dataset_mixes_the_same_for_any_worker_count(two_sets):
    import torch
    from manaka.torch_data import ShardDataset

    mix = {str(two_sets / "train"): 0.7, str(two_sets / "sp"): 0.3}
    ds = ShardDataset(mix, batch_size=40, seed=3, columns=["packed", "ply"])
    runs = []
    for workers in (0, 2):
        loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=workers)
        runs.append([(b["packed"].numpy().tobytes(), b["source"].tolist()) for b in loader])
    assert runs[0] == runs[1] and len(runs[0]) == shards.open_mixed(mix, batch_size=40, seed=3).epoch_batches
