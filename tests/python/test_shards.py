"""manaka pack and manaka.shards, read back through pyarrow, duckdb and torch."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import manaka
from manaka import shards, shogi, stream


def selfplay_stream(path, games=30, seed=5, plies=(4, 30)):
    """Random legal games; every game starts at the initial position, so boards repeat."""
    rng = random.Random(seed)
    with stream.SelfPlayWriter(str(path)) as w:
        for _ in range(games):
            pos = shogi.Board()
            w.begin_game()
            for ply in range(rng.randint(*plies)):
                legal = [int(m) for m in pos.legal_move16s()]
                mv = rng.sample(legal, min(len(legal), rng.randint(1, 8)))
                w.add_position(pos.pack(), ply, rng.uniform(-1, 1), mv, [rng.randint(1, 100) for _ in mv])
                pos.push(shogi.Move.from_move16(mv[0]))
            w.end_game(rng.choice([1, -1, 0]))
    return path


def test_pack_then_read_back_matches_pyarrow(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk")
    summary = shards.pack([str(src)], str(tmp_path / "out" / "train"), seed=3, rows_per_shard=200)
    assert summary["records_in"] == stream.validate(str(src))
    assert summary["rows_out"] < summary["records_in"]  # the initial position folds
    paths = shards.list_shards(tmp_path / "out")
    assert [p.rsplit("-", 1)[1] for p in paths][:2] == ["00000.parquet", "00001.parquet"]
    rows = 0
    for path in paths:
        f = shards.ShardFile(path)
        assert f.metadata["policy_source"] == "0"
        table = pq.read_table(path)
        for batch in f.batches():
            n = len(batch)
            assert batch.packed.shape == (n, 96)
            sums = np.add.reduceat(batch.prob, batch.cand_offsets[:-1])
            np.testing.assert_allclose(sums, 1.0, rtol=1e-5)
            assert (batch.cp == shards.NULL_CP).all()  # self-play rows carry no cp
        rows += f.num_rows
        got = list(f.batches())
        assert np.concatenate([b.weight for b in got]).tolist() == table.column("weight").to_pylist()
        assert np.concatenate([b.packed for b in got]).tobytes() == b"".join(table.column("packed").to_pylist())
    assert rows == summary["rows_out"]
    # The initial position: one row, weight = the number of games.
    start = shogi.Board().pack()
    weights = {bytes(p): w for b in shards.iter_batches(paths) for p, w in zip(b.packed, b.weight)}
    assert weights[start] == 30


def test_thread_count_does_not_change_the_shards(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    src = selfplay_stream(tmp_path / "sp.mpk", games=60)
    in_memory = []
    for buckets in (0, 3):
        one = shards.pack([str(src)], str(tmp_path / f"one{buckets}" / "s"), seed=4, rows_per_shard=150,
                          buckets=buckets, threads=1)
        three = shards.pack([str(src)], str(tmp_path / f"three{buckets}" / "s"), seed=4, rows_per_shard=150,
                            buckets=buckets, threads=3)
        assert len(one["shards"]) == len(three["shards"]) >= 3
        for a, b in zip(one["shards"], three["shards"]):
            assert Path(a).read_bytes() == Path(b).read_bytes()
        if buckets == 0:
            in_memory = [Path(p).read_bytes() for p in one["shards"]]
        assert {k: v for k, v in one.items() if k not in ("shards", "seconds")} == \
            {k: v for k, v in three.items() if k not in ("shards", "seconds")}
    manaka = str(Path(sys.executable).with_name("manaka"))
    run = subprocess.run([manaka, "pack", str(src), "-o", str(tmp_path / "cli" / "s"), "--seed", "4",
                          "--rows-per-shard", "150", "--threads", "2", "-q"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    cli = sorted((tmp_path / "cli").glob("s-*.parquet"))
    assert [p.read_bytes() for p in cli] == in_memory
    with pytest.raises(ValueError, match="threads"):
        shards.pack([str(src)], str(tmp_path / "bad" / "s"), threads=0)


def test_iter_batches_reads_ahead_on_threads_and_matches_pyarrow(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=80)
    shards.pack([str(src)], str(tmp_path / "s"), seed=6, rows_per_shard=300)
    paths = shards.list_shards(tmp_path)
    assert len(paths) >= 3
    # The oracle: pyarrow's own reader, shard after shard in the epoch's order.
    order = shards.epoch_order(paths, seed=2, epoch=1)
    table = pa.concat_tables([pq.read_table(p) for p in order])
    for threads in (1, 3):
        got = list(shards.iter_batches(tmp_path, seed=2, epoch=1, threads=threads))
        assert sum(len(b) for b in got) == table.num_rows
        assert np.concatenate([b.packed for b in got]).tobytes() == b"".join(table.column("packed").to_pylist())
        assert np.concatenate([b.weight for b in got]).tolist() == table.column("weight").to_pylist()
        mv = [c["mv"] for row in table.column("candidates").to_pylist() for c in row]
        assert np.concatenate([b.mv for b in got]).tolist() == mv
        lengths = [len(row) for row in table.column("candidates").to_pylist()]
        assert np.concatenate([np.diff(b.cand_offsets) for b in got]).tolist() == lengths
    # Columns not asked for are not read.
    only = list(shards.iter_batches(tmp_path, shuffle=False, columns=["ply"], threads=2))
    assert all(b.packed is None and b.prob is None and b.ply is not None for b in only)
    with pytest.raises(ValueError, match="threads"):
        next(shards.iter_batches(tmp_path, threads=0))


def test_epochs_reshuffle_the_shard_order(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=60)
    shards.pack([str(src)], str(tmp_path / "s"), seed=1, rows_per_shard=50)
    paths = shards.list_shards(str(tmp_path / "s-*.parquet"))
    assert len(paths) >= 6
    first = [b.ply.tolist() for b in shards.iter_batches(paths, epoch=0)]
    second = [b.ply.tolist() for b in shards.iter_batches(paths, epoch=1)]
    assert first != second
    assert sorted(sum(first, [])) == sorted(sum(second, []))


def test_columns_can_be_pruned(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=5)
    shards.pack([str(src)], str(tmp_path / "s"), seed=1)
    (batch,) = list(shards.iter_batches(tmp_path / "s-00000.parquet", columns=["value_z", "weight"]))
    assert batch.packed is None and batch.mv is None and len(batch.value_z) == len(batch.weight)
    with pytest.raises(ValueError, match="unknown shard column 'policy'"):
        list(shards.iter_batches(tmp_path / "s-00000.parquet", columns=["policy"]))


def test_torch_dataset_splits_shards_across_workers(tmp_path):
    import torch  # the optional extra; make test installs it

    from manaka.torch_data import ShardDataset

    src = selfplay_stream(tmp_path / "sp.mpk", games=60)
    shards.pack([str(src)], str(tmp_path / "s"), seed=2, rows_per_shard=40)
    ds = ShardDataset(str(tmp_path), seed=4)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
    seen = []
    for batch in loader:
        assert batch["packed"].dtype == torch.uint8 and batch["packed"].shape[1] == 96
        assert batch["mv"].dtype == torch.int32
        seen += [bytes(row.tolist()) for row in batch["packed"]]
    expected = [bytes(p) for b in shards.iter_batches(str(tmp_path)) for p in b.packed]
    assert sorted(seen) == sorted(expected)  # every row once, none twice


def test_pack_and_inspect_commands(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    manaka = str(Path(sys.executable).with_name("manaka"))
    src = selfplay_stream(tmp_path / "sp.mpk", games=40)
    run = subprocess.run([manaka, "pack", str(src), "-o", str(tmp_path / "s"), "--seed", "9"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "records in" in run.stdout + run.stderr
    run = subprocess.run([manaka, "shards", "inspect", str(tmp_path / "s-00000.parquet")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "policy_source = 0" in run.stdout and "24 blocks" in run.stdout
    # Folding streams of different policy sources is refused, naming both files.
    h = stream.Header()
    h.policy_source = 1
    teacher = tmp_path / "t.mpk"
    with stream.Writer(str(teacher), h) as w:
        w.write(shogi.Board().pack(), 0, 1.0, 0.0, [shogi.move16_from_usi("7g7f")], cp=[30])
    run = subprocess.run([manaka, "pack", str(src), str(teacher), "-o", str(tmp_path / "x")],
                         capture_output=True, text=True)
    assert run.returncode != 0
    assert "policy_source" in run.stderr and "sp.mpk" in run.stderr and "t.mpk" in run.stderr


def test_batches_freed_as_read_lend_their_buffers_and_kept_ones_stay_intact(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=80)
    shards.pack([str(src)], str(tmp_path / "s"), seed=3)
    table = pq.read_table(tmp_path / "s-00000.parquet")
    path = tmp_path / "groups.parquet"  # many row groups: many batches through the pool
    pq.write_table(table, path, row_group_size=64)
    groups = pq.ParquetFile(path).num_row_groups
    assert groups > 15
    packed = [bytes(p) for p in table.column("packed").to_pylist()]
    cands = table.column("candidates").to_pylist()

    def check(i, b):
        rows = slice(64 * i, 64 * i + len(b))
        assert b.packed.tobytes() == b"".join(packed[rows])
        assert b.ply.tolist() == table.column("ply").to_pylist()[rows]
        assert b.value_q.tolist() == pytest.approx(table.column("value_q").to_pylist()[rows])
        assert [b.mv[b.cand_offsets[k]:b.cand_offsets[k + 1]].tolist() for k in range(len(b))] == \
            [[c["mv"] for c in row] for row in cands[rows]]
        assert b.cp.tolist() == [shards.NULL_CP if c["cp"] is None else c["cp"] for row in cands[rows] for c in row]

    for threads in (1, 3):
        kept, addresses = [], []
        for i, b in enumerate(shards.iter_batches([path], shuffle=False, require_complete=False, threads=threads)):
            check(i, b)
            addresses.append(b.packed.ctypes.data)
            if i % 3 == 0:
                kept.append((i, b))  # never given back: later batches must not write into it
        assert len(addresses) == groups
        for i, b in kept:
            check(i, b)
        # The batches freed as read lent their buffers to later ones.
        assert len(set(addresses)) < groups - len(kept)


def test_a_black_view_set_reads_in_the_side_to_moves_view(tmp_path):
    """A pov-1 stream (values from Black's view): pack's prob favours the side
    to move's best move, not the highest raw cp, and manaka.shards hands out
    value_z, value_q and cp negated where White moves; pyarrow reads the raw
    bytes and the footer says pov "1"."""
    h = stream.Header()
    h.pov, h.policy_source, h.eval_coef, h.mate_scale = 1, 1, 600.0, 32000
    pos = shogi.Board()
    best, white = {}, {}
    with stream.Writer(str(tmp_path / "b.mpk"), h) as w:
        line = "7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d P*2c".split()
        for ply, usi in enumerate(line):
            a = shogi.move16_from_usi(usi)
            b = next(int(m) for m in pos.legal_move16s() if int(m) != a)
            # Black's view: a +300, b -200. Black's best is a, White's is b.
            w.write(pos.pack(), ply, 1.0, 0.25, [a, b], cp=[300, -200])
            best[pos.pack()], white[pos.pack()] = (a if pos.turn == 0 else b), pos.turn == 1
            pos.push_usi(usi)
    shards.pack([str(tmp_path / "b.mpk")], str(tmp_path / "set" / "b"), seed=1)
    (path,) = shards.list_shards(tmp_path / "set")
    assert shards.ShardFile(path).metadata["pov"] == "1"
    raw = pq.read_table(path).to_pylist()
    got = [(bytes(r), z, q) for bt in shards.iter_batches(path) for r, z, q in zip(bt.packed, bt.value_z, bt.value_q)]
    assert sum(white.values()) == 6 and len(got) == len(raw) == 12
    for row, (packed, z, q) in zip(raw, got):
        sign = -1 if white[row["packed"]] else 1
        assert packed == row["packed"] and (z, q) == (sign * row["value_z"], sign * np.float32(row["value_q"]))
        cands = row["candidates"]
        assert [c["cp"] for c in cands] == [300, -200]  # the file keeps the stream's view
        top = max(cands, key=lambda c: c["prob"])
        assert top["mv"] == best[row["packed"]] and top["prob"] > 0.99  # 500 cp apart at T = 100
    one = shards.ShardFile(path).read_row_group(0)  # the path torch_data's ShardDataset reads through
    assert [(bytes(r), z, q) for r, z, q in zip(one.packed, one.value_z, one.value_q)] == got
    batch = next(shards.iter_batches(path, columns=["candidates", "value_z"]))
    assert batch.packed is None
    assert sorted(batch.value_z) == [-1.0] * 6 + [1.0] * 6  # turned without packed asked for
    for i, z in enumerate(batch.value_z):  # Black won: z is +1 exactly where Black moves
        assert list(batch.cp[batch.cand_offsets[i]:batch.cand_offsets[i + 1]]) == [300 * z, -200 * z]


def test_validate_reads_every_row_and_names_what_breaks_a_rule(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk")
    shards.pack([str(src)], str(tmp_path / "set" / "a"), seed=3)
    (path,) = shards.list_shards(tmp_path / "set")
    report = shards.validate(tmp_path / "set")
    assert report["rows_broken"] == 0 and report["rows"] == pq.read_metadata(path).num_rows
    assert report["candidates"] == sum(len(r["candidates"]) for r in pq.read_table(path).to_pylist())

    # The same rows as another tool might write them, five broken (rows 1-5), one rule each.
    rows = pq.read_table(path).to_pylist()
    rows[1]["value_z"] = 3.0
    rows[2]["candidates"] = []
    rows[3]["candidates"][0]["prob"] += 0.5
    rows[4]["candidates"].append(dict(rows[4]["candidates"][0]))
    rows[5]["packed"] = b"\x37" + rows[5]["packed"][1:]
    other = tmp_path / "other.parquet"
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(path).remove_metadata()), other)
    report = shards.validate(other)
    assert report["rows_broken"] == 5
    assert {k: v for k, v in report["broken"].items() if v} == {"board": 1, "value": 1, "candidates": 1, "move": 1,
                                                               "prob": 2}  # row 4's copy also lifts its sum
    assert report["first"]["value"] == f"{other}: row group 0 row 1: value_z 3 is not within [-1, 1]"
    assert report["first"]["candidates"] == f"{other}: row group 0 row 2: no candidate"
    assert report["first"]["prob"].startswith(f"{other}: row group 0 row 3: prob sums to 1.5")
    assert report["first"]["move"].startswith(f"{other}: row group 0 row 4: candidate ")
    assert report["first"]["board"].startswith(f"{other}: row group 0 row 5: packed: ")

    manaka_bin = str(Path(sys.executable).with_name("manaka"))
    proc = subprocess.run([manaka_bin, "shards", "validate", str(other)], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stderr.strip() == f"manaka: shards validate: 5 of {len(rows)} rows break a rule"
    assert "value" in proc.stdout and "row group 0 row 1" in proc.stdout
    proc = subprocess.run([manaka_bin, "shards", "validate", str(tmp_path / "set")], capture_output=True, text=True)
    assert proc.returncode == 0 and "every row keeps every rule" in proc.stdout, proc.stderr

    # A damaged page: an error naming the file and the row group, where inspect reads a few columns only.
    data = bytearray(Path(path).read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(64)
    damaged = tmp_path / "damaged" / "d.parquet"
    damaged.parent.mkdir()
    damaged.write_bytes(bytes(data))
    with pytest.raises(manaka.InvalidDataError, match=r"d\.parquet: row group \d+"):
        shards.validate(damaged)
