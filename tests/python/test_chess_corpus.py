"""The chess corpus's npz shards and batches (manaka.chess / manaka.chess_corpus).

Oracles: numpy writes and reads the shards on the other side; the spec's
own iter_batches (copied from shared/spec/chess-supervised-pretraining.txt)
gives the unshuffled batches ours must equal; every position carries its row
number in its planes, so each batch says which rows it holds.
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import manaka
from manaka import chess

MANAKA = str(Path(sys.executable).with_name("manaka"))


def corpus_arrays(first_row: int, n: int):
    """Shard arrays whose position i carries row first_row + i (bytes 0..3 of its planes, 7 bits each)."""
    rows = np.arange(first_row, first_row + n)
    states = np.zeros((n, 20, 8, 8), np.int8)
    flat = states.reshape(n, -1)
    for b in range(4):
        flat[:, b] = (rows >> (7 * b)) & 0x7F
    flat[:, 4::97] = 1
    return states, (rows % 4672).astype(np.int32), (rows % 3 - 1).astype(np.int8)


def make_corpus(dir: Path, sizes, writer="manaka") -> list[Path]:
    dir.mkdir(parents=True, exist_ok=True)
    paths, row = [], 0
    for i, n in enumerate(sizes):
        p = dir / chess.shard_name(i)
        s, m, z = corpus_arrays(row, n)
        if writer == "numpy":
            np.savez_compressed(p, states=s, move_indices=m, outcomes=z)
        else:
            chess.write_shard(p, s, m, z)
        paths.append(p)
        row += n
    return paths


def rows_of(states) -> np.ndarray:
    flat = np.asarray(states).reshape(len(states), -1).astype(np.int64)
    return flat[:, 0] | flat[:, 1] << 7 | flat[:, 2] << 14 | flat[:, 3] << 21


def spec_iter_batches(shards, batch_size, device, shuffle):
    """The spec's reference implementation, verbatim but for the import of torch."""
    import torch
    for shard_path in shards:
        data = np.load(shard_path)                              # one shard at a time
        n = data["states"].shape[0]
        order = torch.randperm(n).numpy() if shuffle else np.arange(n)   # per-shard shuffle
        for start in range(0, n, batch_size):
            idx = order[start : start + batch_size]
            s = torch.from_numpy(data["states"][idx]).to(torch.float32).to(device)
            m = torch.from_numpy(data["move_indices"][idx]).to(torch.int64).to(device)
            z = torch.from_numpy(data["outcomes"][idx]).to(torch.float32).to(device)
            yield s, m, z


def pass_rows(batches) -> list[int]:
    out = []
    for s, m, z in batches:
        r = rows_of(s)
        np.testing.assert_array_equal(np.asarray(m), r % 4672)
        np.testing.assert_array_equal(np.asarray(z), (r % 3 - 1).astype(np.float32))
        out.extend(r.tolist())
    return out


# ---- shards ----

def test_names_and_round_trip_both_ways(tmp_path):
    assert chess.shard_name(7) == "shard_000007.npz"
    ours = make_corpus(tmp_path / "ours", [50])[0]
    with np.load(ours) as f:
        assert f.files == ["states", "move_indices", "outcomes"]
        s, m, z = corpus_arrays(0, 50)
        assert f["states"].dtype == np.int8 and f["states"].shape == (50, 20, 8, 8)
        assert f["move_indices"].dtype == np.int32 and f["outcomes"].dtype == np.int8
        np.testing.assert_array_equal(f["states"], s)
        np.testing.assert_array_equal(f["move_indices"], m)
        np.testing.assert_array_equal(f["outcomes"], z)
    theirs = make_corpus(tmp_path / "theirs", [50], writer="numpy")[0]
    for a, b in zip(chess.read_shard(theirs), (s, m, z)):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    np.savez(tmp_path / "stored.npz", states=s, move_indices=m, outcomes=z)
    np.testing.assert_array_equal(chess.read_shard(tmp_path / "stored.npz")[0], s)


def test_write_shard_refusals(tmp_path):
    s, m, z = corpus_arrays(0, 4)
    with pytest.raises(TypeError, match="move_indices must be int32, got int64"):
        chess.write_shard(tmp_path / "a.npz", s, m.astype(np.int64), z)
    bad = m.copy()
    bad[2] = -1
    with pytest.raises(manaka.InvalidDataError, match=r"a\.npz: move_indices\[2\] = -1, outside \[0, 4672\)"):
        chess.write_shard(tmp_path / "a.npz", s, bad, z)
    with pytest.raises(manaka.InvalidDataError, match="expected states"):
        chess.write_shard(tmp_path / "a.npz", s[:3], m, z)
    assert list(tmp_path.iterdir()) == []
    np.savez_compressed(tmp_path / "b.npz", states=s, move_indices=m, outcomes=z * 2)
    with pytest.raises(manaka.InvalidDataError, match=r"b\.npz: outcomes\[0\] = -2, not -1, 0 or 1"):
        chess.read_shard(tmp_path / "b.npz")
    np.savez_compressed(tmp_path / "c.npz", states=s, move_indices=m)
    with pytest.raises(manaka.InvalidDataError, match=r"c\.npz: no array 'outcomes': not a chess corpus shard"):
        chess.read_shard(tmp_path / "c.npz")


# ---- iter_batches ----

def test_every_row_once_and_the_seed(tmp_path):
    paths = make_corpus(tmp_path, [100, 37, 250, 1])
    total = 388
    first = pass_rows(chess.iter_batches(paths, 32, None, True, seed=11))
    assert sorted(first) == list(range(total))
    assert pass_rows(chess.iter_batches(paths, 32, None, True, seed=11)) == first
    other = pass_rows(chess.iter_batches(paths, 32, None, True, seed=12))
    assert sorted(other) == list(range(total)) and other != first
    unseeded = [pass_rows(chess.iter_batches(paths, 32, None, True)) for _ in range(2)]
    assert unseeded[0] != unseeded[1]
    # Per-shard shuffle: each shard's rows stay together, in shard order.
    assert sorted(first[:100]) == list(range(100))
    assert sorted(first[100:137]) == list(range(100, 137))
    assert pass_rows(chess.iter_batches(paths, 32, None, False)) == list(range(total))


def test_dtypes_shapes_and_batch_sizes(tmp_path):
    paths = make_corpus(tmp_path, [70, 30], writer="numpy")
    batches = list(chess.iter_batches(paths, 32, None, True, seed=1))
    assert [len(m) for _, m, _ in batches] == [32, 32, 6, 30]
    s, m, z = batches[0]
    assert isinstance(s, np.ndarray)
    assert s.dtype == np.float32 and s.shape == (32, 20, 8, 8) and s.flags.c_contiguous
    assert m.dtype == np.int64 and m.shape == (32,)
    assert z.dtype == np.float32 and z.shape == (32,)


def test_equals_the_spec_unshuffled(tmp_path):
    import torch
    paths = make_corpus(tmp_path, [45, 20, 3])
    ours = list(chess.iter_batches(paths, 16, torch.device("cpu"), False))
    spec = list(spec_iter_batches(paths, 16, torch.device("cpu"), False))
    assert len(ours) == len(spec) == 3 + 2 + 1
    for a, b in zip(ours, spec):
        for x, y in zip(a, b):
            assert isinstance(x, torch.Tensor) and x.dtype == y.dtype and x.shape == y.shape
            assert torch.equal(x, y)
    # Shuffled, the same rows in each shard's batches, and the spec's dtypes.
    torch.manual_seed(5)
    a = pass_rows(chess.iter_batches(paths, 16, "cpu", True))
    torch.manual_seed(5)
    assert pass_rows(chess.iter_batches(paths, 16, "cpu", True)) == a  # torch's seed repeats it
    assert sorted(a[:45]) == sorted(pass_rows(spec_iter_batches(paths[:1], 16, "cpu", True)))


def test_other_devices_get_int8_states_cast_there(tmp_path):
    import torch
    paths = make_corpus(tmp_path, [20])
    # torch's meta device stands in for a GPU here: the path that ships int8 states and casts on the device.
    sizes = []
    for s, m, z in chess.iter_batches(paths, 8, torch.device("meta"), True, seed=0):
        assert s.device.type == "meta" and s.dtype == torch.float32 and s.shape[1:] == (20, 8, 8)
        assert m.device.type == "meta" and m.dtype == torch.int64
        assert z.device.type == "meta" and z.dtype == torch.float32
        sizes.append(len(m))
    assert sizes == [8, 8, 4]


def test_window_shuffles_shards_together(tmp_path):
    paths = make_corpus(tmp_path, [40] * 5)
    rows = pass_rows(chess.iter_batches(paths, 64, None, True, seed=3, window=2))
    assert sorted(rows) == list(range(200))
    assert {r < 40 for r in rows[:64]} == {True, False}  # shard 0 and shard 1 in one batch
    assert all(r < 80 for r in rows[:80]) and all(r >= 160 for r in rows[160:])


def test_a_damaged_shard_is_named_after_the_batches_before_it(tmp_path):
    paths = make_corpus(tmp_path, [40, 40, 40])
    data = paths[1].read_bytes()
    paths[1].write_bytes(data[: len(data) // 2])
    seen = []
    with pytest.raises(manaka.InvalidDataError, match=r"shard_000001\.npz: no end record"):
        for s, m, z in chess.iter_batches(paths, 16, None, True, seed=0):
            seen.extend(rows_of(s))
    assert sorted(seen) == list(range(40))
    with pytest.raises(manaka.FileError, match="missing.npz"):
        list(chess.iter_batches([tmp_path / "missing.npz"], 16))


def test_abandoned_pass_and_kept_batches(tmp_path):
    paths = make_corpus(tmp_path, [300, 300])
    it = chess.iter_batches(paths, 8, None, True, seed=0, prefetch=2)
    kept = [next(it) for _ in range(50)]
    it.close()  # the loader's threads stop
    del it
    rows = np.concatenate([rows_of(s) for s, _, _ in kept])
    # 37 batches of 8 and one of 4 from the first shard, 12 from the second; the
    # buffers kept alive were never reused under them.
    assert len(rows) == 396 and len(set(rows.tolist())) == 396


# ---- split ----

def test_split_shards_as_the_spec(tmp_path):
    paths = make_corpus(tmp_path, [1] * 41)
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "shard_000003.npz.tmp-1").write_text("x")
    train, val = chess.split_shards(tmp_path)
    assert val == paths[-2:] and train == paths[:-2]  # max(1, int(41 * 0.05)) = 2
    for n, n_val in [(1, 1), (19, 1), (20, 1), (40, 2), (300, 15)]:
        names = [f"shard_{i:06d}.npz" for i in range(n)][::-1]
        split = chess.split_shards(names)
        assert len(split.val_shards) == n_val and len(split.train_shards) == n - n_val
        assert [p.name for p in split.train_shards + split.val_shards] == sorted(names)
    with pytest.raises(OSError, match="nothing-here: cannot list the directory"):
        chess.split_shards(tmp_path / "nothing-here")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no shard_"):
        chess.split_shards(tmp_path / "empty")


# ---- torch ----

def test_dataset_two_workers_every_row_once(tmp_path):
    import torch
    from manaka.chess_dataset import ChessShardDataset

    paths = make_corpus(tmp_path, [60, 25, 80, 33, 41])
    ds = ChessShardDataset(paths, batch_size=16, seed=4)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
    epochs = []
    for epoch in range(2):
        ds.set_epoch(epoch)
        rows = []
        for s, m, z in loader:
            assert s.dtype == torch.float32 and m.dtype == torch.int64 and z.dtype == torch.float32
            rows.extend(pass_rows([(s.numpy(), m.numpy(), z.numpy())]))
        assert sorted(rows) == list(range(239))
        epochs.append(rows)
    assert epochs[0] != epochs[1]
    single = [r for b in ChessShardDataset(paths, batch_size=16, seed=4) for r in rows_of(b[0].numpy())]
    assert sorted(single) == list(range(239))


# ---- the command ----

def test_shards_inspect(tmp_path):
    good = tmp_path / "good"
    make_corpus(good, [30, 30, 12])
    (good / "README").write_text("about this corpus")
    r = subprocess.run([MANAKA, "chess", "shards", "inspect", str(good)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "shards     3 readable\n" in r.stdout
    assert "positions  72 (12 to 30 a shard)\n" in r.stdout
    assert "mover lost 33.3%, drew 33.3%, won 33.3% (24 / 24 / 24)" in r.stdout
    assert "72 of 4672 policy indices occur" in r.stdout
    assert "ignored (not shard_*.npz): README" in r.stdout
    j = json.loads(subprocess.run([MANAKA, "chess", "shards", "inspect", "--json", str(good)],
                                  capture_output=True, text=True, check=True).stdout)
    assert j["positions"] == 72 and j["outcomes"] == {"-1": 24, "0": 24, "1": 24} and j["bad"] == []
    assert sum(j["move_histogram"]) == 72 and j == chess.inspect_shards(good) | {"inputs": [str(good)]}

    bad = tmp_path / "bad"
    paths = make_corpus(bad, [30, 30])
    paths[1].write_bytes(paths[1].read_bytes()[:-40])
    np.savez_compressed(bad / "shard_000002.npz", weights=np.zeros(3, np.float32))
    r = subprocess.run([MANAKA, "chess", "shards", "inspect", str(bad)], capture_output=True, text=True)
    assert r.returncode == 1
    assert "shards     1 readable, 2 damaged or foreign\n" in r.stdout
    assert f"  {paths[1]}: no end record" in r.stdout
    assert f"  {bad / 'shard_000002.npz'}: an array 'weights': not a chess corpus shard" in r.stdout
    empty = tmp_path / "empty"
    empty.mkdir()
    r = subprocess.run([MANAKA, "chess", "shards", "inspect", str(empty)], capture_output=True, text=True)
    assert r.returncode == 1 and "no shard_*.npz found" in r.stderr
