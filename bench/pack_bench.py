"""manaka pack beside the same fold as one DuckDB SQL query, same records, same run.

A synthetic self-play stream of 2 M records with about 6.5% repeated boards
(bench/make_stream.py) is converted, untimed, into a raw parquet of records
for DuckDB. Then, timed: `manaka pack` (in memory), the DuckDB query (fold on
the board, visits summed per move and normalised, means, min ply, count,
shuffled, zstd 1, 8192-row groups), and `manaka pack --buckets 4/16/64`, at
the core count's threads (each writing thread holds one spool in pass 3) and
at one (the spec's bound: memory follows one bucket).

Peak memory is the child's own: a process's ru_maxrss starts from the image
of whatever it replaced at exec (the kernel records the old image's high
water mark into the new program's), and posix_spawn or fork from this
process would hand the child this interpreter's hundreds of MB (pyarrow,
duckdb, the raw table). So each `manaka pack` is started by a tiny launcher
(`python -S -I`, no imports beyond os; its own peak, printed as the floor,
is a few MB, its VmHWM), which posix_spawns manaka, waits for it with wait4 and prints
the child's ru_maxrss. Every figure is at most launcher floor + manaka's peak.

The library beside pack: pyarrow's write_table (Parquet C++ through its Arrow
path) writing pack's own shards' rows, read back untimed, with the shards'
writer settings (encodings, statistics, V2 pages, zstd 1, 8192-row groups),
one shard per thread: the rows already folded and shuffled, so this is what
the library alone takes to encode and write them.

The shard writer alone: manaka's own writer (shard/rewrite.h: the sinks, threads
and settings pack writes with) writing pack's shards' row groups, loaded into
memory beforehand, untimed: what pack would take if folding, shuffling and
emitting rows were free, so pack / that is the share of pack's time the
writer and the library in it take.

The limit beside pack's rate: the same output's bytes compressed with zstd
level 1 (libarrow's zstd, the library parquet uses) and nothing else. Each
row group's columns, as the values Arrow holds (96-byte boards, the u16/f32
columns, list offsets, the candidates' mv/prob/cp), are compressed one
buffer per call and only the calls are timed. That is about the bytes
parquet hands zstd (its plain and byte-stream-split pages; the sizes are
printed side by side), so it is the time pack would take if folding,
encoding and writing were free: records / that time is the limit per core,
and times the core count the limit of the machine. Pack's three runs and
three passes of the limit are taken in turn, and the best of each kept: this
machine's speed drifts by a quarter within minutes, and a ratio of two
figures taken minutes apart would carry the drift.

Reading: manaka.shards.iter_batches (all columns, read ahead on the core
count's threads, and on one) beside pyarrow's ParquetFile.iter_batches of the
same shards (8192-row batches, its default threads), rows per wall second
and per CPU second of the process (the rate per core), the best of five
passes of each, taken in turn (a first pass is a cold one; on this shared
machine one reader's rate swings by a third from pass to pass).
MANAKA_BENCH_READ_ONLY=1 runs only this part, over the shards of an earlier run.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import resource

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from manaka import shards, stream
from manaka._core import shards as shards_core

RECORDS = int(os.environ.get("MANAKA_BENCH_RECORDS", 2_000_000))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = str(Path(sys.executable).with_name("manaka"))
# Only the reading part, over the shards a whole run left in MANAKA_BENCH_DIR/mem.
READ_ONLY = os.environ.get("MANAKA_BENCH_READ_ONLY", "") not in ("", "0")
READ_PASSES = 5

FOLD_SQL = """
COPY (
  WITH recs AS (SELECT * FROM read_parquet('{raw}')),
  g AS (SELECT packed, min(ply)::USMALLINT AS ply, avg(value_z)::FLOAT AS value_z,
               avg(value_q)::FLOAT AS value_q, count(*)::UINTEGER AS weight
        FROM recs GROUP BY packed),
  c AS (SELECT packed, cand.mv AS mv, sum(cand.visits) AS visits
        FROM (SELECT packed, unnest(candidates) AS cand FROM recs) GROUP BY packed, cand.mv),
  t AS (SELECT packed, sum(visits) AS total FROM c GROUP BY packed),
  p AS (SELECT c.packed, list({{'mv': c.mv, 'prob': (c.visits / t.total)::FLOAT, 'cp': NULL::SMALLINT}})
               AS candidates
        FROM c JOIN t USING (packed) GROUP BY c.packed)
  SELECT g.packed, g.ply, g.value_z, g.value_q, g.weight, p.candidates
  FROM g JOIN p USING (packed) ORDER BY random()
) TO '{out}' (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 1, ROW_GROUP_SIZE 8192)
"""


def raw_parquet(src: Path, dst: Path) -> None:
    """The stream's records as a parquet table DuckDB can read (untimed)."""
    writer = None
    for b in stream.read_batches(str(src), batch_size=262_144):
        packed = pa.FixedSizeBinaryArray.from_buffers(pa.binary(96), len(b), [None, pa.py_buffer(b.packed)])
        cands = pa.StructArray.from_arrays([pa.array(b.mv), pa.array(b.visits), pa.array(b.cp)],
                                           names=["mv", "visits", "cp"])
        table = pa.table({"packed": packed, "ply": b.ply, "value_z": b.value_z, "value_q": b.value_q,
                          "candidates": pa.ListArray.from_arrays(pa.array(b.cand_offsets.astype(np.int32)), cands)})
        writer = writer or pq.ParquetWriter(dst, table.schema, compression="zstd")
        writer.write_table(table)
    writer.close()


# The launcher: spawns argv[1:], waits, prints "status child_maxrss_kib own_hwm_kib" (its
# own ru_maxrss carries this process's image too; /proc's VmHWM is its own mm's).
LAUNCHER = """
import os, sys
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ,
                     file_actions=[(os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0)])
_, status, usage = os.wait4(pid, 0)
hwm = [l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM")][0]
print(status, usage.ru_maxrss, hwm)
"""


def run_measured(args: list[str]) -> tuple[float, int, int]:
    """Wall seconds, the child's own peak RSS and the launcher's (bytes)."""
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-S", "-I", "-c", LAUNCHER, *args], check=True,
                         capture_output=True, text=True).stdout.split()
    elapsed = time.perf_counter() - start
    status, child_kib, own_kib = (int(x) for x in out)
    if status != 0:
        raise SystemExit(f"{args[0]} failed with status {status}")
    return elapsed, child_kib * 1024, own_kib * 1024


def column_buffers(paths: list[Path]) -> tuple[list[pa.Buffer], int]:
    """The shards' column buffers as Arrow holds them, and parquet's page bytes (untimed)."""
    bufs, pages = [], 0
    for path in paths:
        f = pq.ParquetFile(path)
        for g in range(f.num_row_groups):
            rg = f.metadata.row_group(g)
            pages += sum(rg.column(c).total_uncompressed_size for c in range(rg.num_columns))
            t = f.read_row_group(g)
            cands = t.column("candidates").combine_chunks()
            leaves = [t.column(n).combine_chunks() for n in ("packed", "ply", "value_z", "value_q", "weight")]
            leaves += [cands.offsets]
            leaves += [cands.values.field(k) for k in ("mv", "prob", "cp")]
            bufs += [b for a in leaves for b in a.buffers() if b is not None and b.size > 0]
    return bufs, pages


# The shard's writer settings (src/shard/shard_writer.cpp) in pyarrow's words: what Parquet
# C++ does with the same rows when it is handed them as Arrow columns.
SHARD_WRITE_OPTIONS = dict(
    row_group_size=8192, compression="zstd", compression_level=1, data_page_version="2.0",
    data_page_size=8 << 20, write_batch_size=1 << 22,
    use_dictionary=["ply", "value_z", "weight", "candidates.list.element.cp"],
    column_encoding={"packed": "PLAIN", "value_q": "PLAIN", "candidates.list.element.mv": "BYTE_STREAM_SPLIT",
                     "candidates.list.element.prob": "BYTE_STREAM_SPLIT"},
    write_statistics=["ply", "value_z", "weight"])


def library_write_seconds(tables: list[pa.Table], folder: Path) -> tuple[float, int]:
    """Wall seconds of pyarrow's write_table (Parquet C++) writing the shards' own rows, already
    folded and shuffled, one shard per thread as pack does (the GIL is released), and the bytes."""
    from concurrent.futures import ThreadPoolExecutor

    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"s-{i:05d}.parquet" for i in range(len(tables))]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        start = time.perf_counter()
        list(pool.map(lambda a: pq.write_table(a[0], a[1], **SHARD_WRITE_OPTIONS), zip(tables, paths)))
        seconds = time.perf_counter() - start
    return seconds, sum(p.stat().st_size for p in paths)


def zstd_seconds(bufs: list[pa.Buffer]) -> float:
    """Seconds zstd-1 takes over the buffers, one call each, only the calls timed."""
    codec = pa.Codec("zstd", compression_level=1)
    seconds = 0.0
    for b in bufs:
        start = time.perf_counter()
        codec.compress(b)
        seconds += time.perf_counter() - start
    return seconds


def read_rates(batches) -> tuple[float, float, int]:
    """Rows per wall second and per CPU second (all threads) of iterating `batches`."""
    def cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    c0, t0, rows = cpu(), time.perf_counter(), 0
    for b in batches:
        rows += b.num_rows if hasattr(b, "num_rows") else len(b)
    return rows / (time.perf_counter() - t0), rows / (cpu() - c0), rows


def read_section(shard_paths: list[Path], rows_ours: int) -> None:
    """manaka's reader beside pyarrow's over the same shards."""
    cores = os.cpu_count() or 1
    # Best of five passes each, taken in turn: a reader's first pass in a process is
    # its slowest (pyarrow's ran at a third to a half of its later passes' rate,
    # its allocator's pages still to be faulted in), so one cold pass flatters
    # whichever reader comes second.
    passes: dict[str, list[tuple[float, float, int]]] = {"ours": [], "one": [], "theirs": []}
    for _ in range(READ_PASSES):
        passes["ours"].append(read_rates(shards.iter_batches(shard_paths, shuffle=False)))
        passes["one"].append(read_rates(shards.iter_batches(shard_paths, shuffle=False, threads=1)))
        passes["theirs"].append(read_rates(b for p in shard_paths for b in pq.ParquetFile(p).iter_batches(batch_size=8192)))
    best = {k: (max(r[0] for r in v), max(r[1] for r in v), v[0][2]) for k, v in passes.items()}
    ours, ours_one, theirs = best["ours"], best["one"], best["theirs"]
    assert ours[2] == ours_one[2] == theirs[2] == rows_ours
    print(f"read {rows_ours:,} rows of {len(shard_paths)} shards, every column (best of {READ_PASSES} passes each; "
          f"load average {os.getloadavg()[0]:.2f} at the end)")
    for label, (wall, per_cpu, _) in ((f"manaka iter_batches ({cores} threads)", ours),
                                      ("manaka iter_batches (1 thread)", ours_one),
                                      ("pyarrow iter_batches", theirs)):
        print(f"  {label:<34} {wall / 1e6:6.2f} M rows/s, {per_cpu / 1e6:6.2f} M rows per CPU second")
    print(f"  ratio                              {ours[0] / theirs[0]:6.2f}x wall, {ours[1] / theirs[1]:.2f}x per core")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if READ_ONLY:
        shard_paths = sorted((OUT / "mem").glob("s-*.parquet"))
        if not shard_paths:
            raise SystemExit(f"MANAKA_BENCH_READ_ONLY: no shards in {OUT / 'mem'} (run the whole bench once)")
        read_section(shard_paths, sum(pq.ParquetFile(p).metadata.num_rows for p in shard_paths))
        return
    src = OUT / f"pack-selfplay-{RECORDS}.mpk"
    raw = OUT / f"pack-selfplay-{RECORDS}.raw.parquet"
    if not src.exists():
        subprocess.run([sys.executable, "bench/make_stream.py", str(src), "--records", str(RECORDS),
                        "--repeat", "0.065", "--selfplay"], check=True)
    if not raw.exists():
        raw_parquet(src, raw)

    pack = [MANAKA, "pack", str(src), "--seed", "1", "-q", "--overwrite"]
    # Best of three, each run followed by a pass of the limit over its output's
    # buffers: on a shared machine a run's wall time is mostly its neighbours' load.
    # The library's own writer of the same rows is taken in turn with them too.
    runs, passes, library, writer = [], [], [], []
    for i in range(3):
        runs.append(run_measured([*pack, "-o", str(OUT / "mem" / "s")]))
        if i == 0:
            mem_shards = sorted((OUT / "mem").glob("s-*.parquet"))
            bufs, page_bytes = column_buffers(mem_shards)
            tables = [pq.read_table(p) for p in mem_shards]
            ours_bytes = sum(p.stat().st_size for p in mem_shards)
        passes.append(zstd_seconds(bufs))
        library.append(library_write_seconds(tables, OUT / "library"))
        writer.append(shards_core._rewrite_timed([str(p) for p in mem_shards], str(OUT / "writer" / "s"),
                                                 os.cpu_count() or 1, 1)[0])
    t_mem, rss_mem, floor = min(runs)
    t_zstd, zstd_bytes = min(passes), sum(b.size for b in bufs)
    t_lib, lib_bytes = min(library)
    t_writer = min(writer)
    writer_shards = sorted((OUT / "writer").glob("s-*.parquet"))
    # The same bytes as pack's shards: the figure is of the very writing pack does.
    assert [p.read_bytes() for p in writer_shards] == [p.read_bytes() for p in mem_shards]
    writer_bytes = sum(p.stat().st_size for p in writer_shards)
    del bufs, tables
    t_one, _, _ = min(run_measured([*pack, "-o", str(OUT / "one" / "s"), "--threads", "1"]) for _ in range(3))
    bucketed = {n: run_measured([*pack, "-o", str(OUT / f"bkt{n}" / "s"), "--buckets", str(n)])
                for n in (4, 16, 64)}
    # One thread holds one spool at a time: the spec's bound (one bucket).
    bucketed_one = {n: run_measured([*pack, "-o", str(OUT / f"bkt{n}" / "s"), "--buckets", str(n),
                                     "--threads", "1"]) for n in (4, 16, 64)}
    con = duckdb.connect()
    con.execute("SELECT setseed(0.5)")
    start = time.perf_counter()
    con.execute(FOLD_SQL.format(raw=raw, out=OUT / "duckdb.parquet"))
    t_duck = time.perf_counter() - start
    rows_duck = pq.ParquetFile(OUT / "duckdb.parquet").metadata.num_rows
    rows_ours = sum(pq.ParquetFile(p).metadata.num_rows for p in (OUT / "mem").glob("s-*.parquet"))
    assert rows_duck == rows_ours, (rows_duck, rows_ours)

    cores = os.cpu_count() or 1
    shard_paths = sorted((OUT / "mem").glob("s-*.parquet"))
    limit = RECORDS / t_zstd

    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    print(f"fold {RECORDS:,} self-play records into {rows_ours:,} rows (duckdb threads: {threads}, cores: {cores})")
    print(f"  manaka pack           {RECORDS / t_mem / 1e6:6.2f} M records/s ({t_mem:.2f} s), peak {rss_mem / 2**20:7.0f} MiB"
          f" ({cores} threads)")
    print(f"  manaka pack           {RECORDS / t_one / 1e6:6.2f} M records/s ({t_one:.2f} s) (--threads 1)")
    print(f"  zstd-1 limit          {limit / 1e6:6.2f} M records/s per core, {limit * cores / 1e6:.2f} on {cores}: "
          f"{zstd_bytes / 1e6:.0f} MB of column buffers in {t_zstd:.2f} s, best of 3 ({zstd_bytes / t_zstd / 1e6:.0f} MB/s;"
          f" parquet's pages: {page_bytes / 1e6:.0f} MB)")
    print(f"  pack / limit          {RECORDS / t_mem / (limit * cores):6.2f} of the {cores}-core limit")
    print(f"  Parquet C++ alone     {RECORDS / t_lib / 1e6:6.2f} M records/s ({t_lib:.2f} s): pyarrow's write_table of "
          f"pack's rows, already folded and shuffled, the shards' settings, a shard a thread, best of 3 "
          f"({lib_bytes / 1e6:.1f} MB against pack's {ours_bytes / 1e6:.1f} MB)")
    print(f"  pack / Parquet C++    {t_lib / t_mem:6.2f}x (pack folds and shuffles too)")
    print(f"  shard writer alone    {RECORDS / t_writer / 1e6:6.2f} M records/s ({t_writer:.2f} s): manaka's writer, "
          f"as pack runs it, writing pack's row groups loaded beforehand, best of 3 ({writer_bytes / 1e6:.1f} MB)")
    print(f"  pack / writer alone   {t_writer / t_mem:6.2f}x (the rest of pack's time: reading, folding, "
          f"emitting rows)")
    print(f"  duckdb SQL            {RECORDS / t_duck / 1e6:6.2f} M records/s ({t_duck:.2f} s)")
    print(f"  ratio                 {t_duck / t_mem:6.2f}x")
    for n, (t_bkt, rss_bkt, _) in bucketed.items():
        t_b1, rss_b1, _ = bucketed_one[n]
        print(f"  manaka --buckets {n:<4} {RECORDS / t_bkt / 1e6:6.2f} M records/s ({t_bkt:.2f} s), "
              f"peak {rss_bkt / 2**20:5.0f} MiB ({rss_bkt / rss_mem:.3f} of in-memory); --threads 1: "
              f"{RECORDS / t_b1 / 1e6:.2f} M records/s, peak {rss_b1 / 2**20:5.0f} MiB ({rss_b1 / rss_mem:.3f})")
    print(f"  (peaks are each child's own, started from a launcher whose peak is {floor / 2**20:.0f} MiB)")

    read_section(shard_paths, rows_ours)


if __name__ == "__main__":
    main()
