"""Mixed reading against plain reading of the same shards: what weighted mixing at read time costs.

Two shard sets (a teacher-like and a self-play-like one, from bench/make_stream.py, packed by
`manaka pack`). Rows/s for every column decoded:

  ours, plain    manaka.shards.iter_batches over both sets, one row group a batch
  ours, batched  the same rows, batch_size=4096 (rows cut across row groups)
  ours, mixed    {teacher: 0.7, selfplay: 0.3}, batch_size=4096, until="first" (no row twice)
  peer           pyarrow.parquet.ParquetFile.iter_batches over the same files, every column
                 (the decode alone: Arrow arrays, no numpy columns, no mixing)

The ratio mixed / plain is what mixing costs over reading; mixed / peer sets it beside Arrow's own
reader. The limit is the decode (zstd and the nested candidates list), on this machine's cores.

    .venv/bin/python bench/shards_mix_bench.py [--records 400000] [--threads 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from manaka import shards

ROOT = Path(__file__).resolve().parents[1]


def rate(fn) -> tuple[float, int]:
    start = time.perf_counter()
    rows = fn()
    return rows / (time.perf_counter() - start), rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=400_000)
    ap.add_argument("--threads", type=int, default=2)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for name, extra in (("teacher", []), ("selfplay", ["--selfplay"])):
            subprocess.run([sys.executable, str(ROOT / "bench" / "make_stream.py"), str(d / f"{name}.mpk"),
                            "--records", str(a.records), *extra], check=True, stdout=subprocess.DEVNULL)
            shards.pack([str(d / f"{name}.mpk")], str(d / name / "s"), seed=1, rows_per_shard=1 << 17)
        both = [d / "teacher", d / "selfplay"]
        files = shards.list_shards(both)
        mix = {str(d / "teacher"): 0.7, str(d / "selfplay"): 0.3}
        figures = {
            "ours, plain": rate(lambda: sum(len(b) for b in shards.iter_batches(both, threads=a.threads))),
            "ours, batched": rate(lambda: sum(len(b) for b in shards.iter_batches(both, batch_size=4096,
                                                                                 threads=a.threads))),
            "ours, mixed": rate(lambda: sum(len(b) for b in shards.iter_batches(mix, batch_size=4096, until="first",
                                                                               threads=a.threads))),
            "peer": rate(lambda: sum(b.num_rows for f in files for b in pq.ParquetFile(f).iter_batches(8192))),
        }
    for name, (r, rows) in figures.items():
        print(f"{name:14s} {r / 1e6:6.2f} M rows/s  ({rows} rows)")
    plain, mixed, peer = figures["ours, plain"][0], figures["ours, mixed"][0], figures["peer"][0]
    print(f"ratio mixed / plain {mixed / plain:.2f}, batched / plain {figures['ours, batched'][0] / plain:.2f}, "
          f"mixed / peer {mixed / peer:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
