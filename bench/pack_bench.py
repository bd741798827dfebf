"""manaka pack beside the same fold as one DuckDB SQL query, same records, same run.

A synthetic self-play stream of 2 M records with about 6.5% repeated boards
(bench/make_stream.py) is converted, untimed, into a raw parquet of records
for DuckDB. Then, timed: `manaka pack` (in memory), the DuckDB query (fold on
the board, visits summed per move and normalised, means, min ply, count,
shuffled, zstd 1, 8192-row groups), and `manaka pack --buckets 4/16/64`.

Peak memory is the child's own: a process's ru_maxrss starts from the image
of whatever it replaced at exec (the kernel records the old image's high
water mark into the new program's), and posix_spawn or fork from this
process would hand the child this interpreter's hundreds of MB (pyarrow,
duckdb, the raw table). So each `manaka pack` is started by a tiny launcher
(`python -S -I`, no imports beyond os; its own peak, printed as the floor,
is a few MB, its VmHWM), which posix_spawns manaka, waits for it with wait4 and prints
the child's ru_maxrss. Every figure is at most launcher floor + manaka's peak.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from manaka import stream

RECORDS = int(os.environ.get("MANAKA_BENCH_RECORDS", 2_000_000))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = str(Path(sys.executable).with_name("manaka"))

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


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    src = OUT / f"pack-selfplay-{RECORDS}.mpk"
    raw = OUT / f"pack-selfplay-{RECORDS}.raw.parquet"
    if not src.exists():
        subprocess.run([sys.executable, "bench/make_stream.py", str(src), "--records", str(RECORDS),
                        "--repeat", "0.065", "--selfplay"], check=True)
    if not raw.exists():
        raw_parquet(src, raw)

    pack = [MANAKA, "pack", str(src), "--seed", "1", "-q", "--overwrite"]
    t_mem, rss_mem, floor = run_measured([*pack, "-o", str(OUT / "mem" / "s")])
    bucketed = {n: run_measured([*pack, "-o", str(OUT / f"bkt{n}" / "s"), "--buckets", str(n)])
                for n in (4, 16, 64)}
    con = duckdb.connect()
    con.execute("SELECT setseed(0.5)")
    start = time.perf_counter()
    con.execute(FOLD_SQL.format(raw=raw, out=OUT / "duckdb.parquet"))
    t_duck = time.perf_counter() - start
    rows_duck = pq.ParquetFile(OUT / "duckdb.parquet").metadata.num_rows
    rows_ours = sum(pq.ParquetFile(p).metadata.num_rows for p in (OUT / "mem").glob("s-*.parquet"))
    assert rows_duck == rows_ours, (rows_duck, rows_ours)

    threads = con.execute("SELECT current_setting('threads')").fetchone()[0]
    print(f"fold {RECORDS:,} self-play records into {rows_ours:,} rows (duckdb threads: {threads})")
    print(f"  manaka pack           {RECORDS / t_mem / 1e6:6.2f} M records/s ({t_mem:.2f} s), peak {rss_mem / 2**20:7.0f} MiB")
    print(f"  duckdb SQL            {RECORDS / t_duck / 1e6:6.2f} M records/s ({t_duck:.2f} s)")
    print(f"  ratio                 {t_duck / t_mem:6.2f}x")
    for n, (t_bkt, rss_bkt, _) in bucketed.items():
        print(f"  manaka --buckets {n:<4} {RECORDS / t_bkt / 1e6:6.2f} M records/s ({t_bkt:.2f} s), "
              f"peak {rss_bkt / 2**20:7.0f} MiB ({rss_bkt / rss_mem:.3f} of in-memory)")
    print(f"  (peaks are each child's own, started from a launcher whose peak is {floor / 2**20:.0f} MiB)")


if __name__ == "__main__":
    main()
