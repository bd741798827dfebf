"""The shard writer's encoder settings (src/fold/README.md, "Writer settings"),
checked in the file's own metadata by pyarrow, and the values they encode read
back alike by pyarrow, duckdb and polars against the stream's records."""

from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pyarrow.parquet as pq

from manaka import shards, stream
from test_shards import selfplay_stream

MV, PROB, CP = "candidates.list.element.mv", "candidates.list.element.prob", "candidates.list.element.cp"


def packed_shards(tmp_path):
    # Past one 8192-row group (the spec's size) in the first shard.
    src = selfplay_stream(tmp_path / "sp.mpk", games=700)
    shards.pack([str(src)], str(tmp_path / "out" / "train"), seed=1, rows_per_shard=9000)
    return src, shards.list_shards(tmp_path / "out")


def test_encodings_statistics_and_no_page_index(tmp_path):
    _, paths = packed_shards(tmp_path)
    assert pq.ParquetFile(paths[0]).metadata.num_row_groups == 2
    for path in paths:
        meta = pq.ParquetFile(path).metadata
        for g in range(meta.num_row_groups):
            cols = {meta.row_group(g).column(c).path_in_schema: meta.row_group(g).column(c)
                    for c in range(meta.num_columns)}
            for name in (MV, PROB):
                assert "BYTE_STREAM_SPLIT" in cols[name].encodings, (name, cols[name].encodings)
                assert not cols[name].has_dictionary_page
            for name in ("packed", "value_q", MV, PROB, CP):
                assert not cols[name].is_stats_set, name
            for name in ("ply", "value_z", "weight"):
                assert cols[name].is_stats_set and cols[name].statistics.has_min_max, name
            assert all(c.compression == "ZSTD" for c in cols.values())
            assert not any(c.has_column_index or c.has_offset_index for c in cols.values())


def test_readers_agree_with_the_stream(tmp_path):
    src, paths = packed_shards(tmp_path)
    # The oracle: each board's moves, the union over its records, from the stream itself.
    want: dict[bytes, set[int]] = {}
    for b in stream.read_batches(str(src)):
        for i in range(len(b)):
            moves = b.mv[b.cand_offsets[i]:b.cand_offsets[i + 1]]
            want.setdefault(bytes(b.packed[i]), set()).update(int(m) for m in moves)
    table = pq.read_table(paths)
    arrow_rows = {p: [c["mv"] for c in cands] for p, cands in
                  zip(table.column("packed").to_pylist(), table.column("candidates").to_pylist())}
    assert {p: set(m) for p, m in arrow_rows.items()} == want
    probs = table.column("candidates").combine_chunks().flatten().field("prob").to_numpy()
    files = ", ".join(f"'{p}'" for p in paths)
    duck = duckdb.sql(f"SELECT packed, [c.mv FOR c IN candidates], [c.prob FOR c IN candidates] "
                      f"FROM read_parquet([{files}])").fetchall()
    assert {bytes(p): m for p, m, _ in duck} == arrow_rows
    polars_rows = pl.read_parquet(paths).select(
        pl.col("packed"), pl.col("candidates").list.eval(pl.element().struct.field("mv")).alias("mv"))
    assert {bytes(p): list(m) for p, m in polars_rows.iter_rows()} == arrow_rows
    duck_probs = np.array([x for _, _, ps in duck for x in ps], dtype=np.float32)
    np.testing.assert_array_equal(np.sort(duck_probs), np.sort(probs))


def test_the_writer_alone_writes_packs_bytes(tmp_path):
    """bench/pack_bench.py's "shard writer alone": pack's shards loaded and written again by
    the same writer give the same files, so its time is of the writing pack itself does."""
    from manaka._core import shards as shards_core

    _, found = packed_shards(tmp_path)
    paths = [Path(p) for p in found]
    seconds = shards_core._rewrite_timed([str(p) for p in paths], str(tmp_path / "again" / "train"), 2, 2)
    assert len(seconds) == 2 and all(s > 0 for s in seconds)
    again = sorted((tmp_path / "again").glob("train-*.parquet"))
    assert len(paths) > 1 and [p.name for p in again] == [p.name for p in paths]
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in paths]
