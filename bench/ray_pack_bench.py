"""`python -m manaka.ray pack` on a local Ray cluster beside `manaka pack --buckets` on one machine.

The input is pack_bench.py's: a 2 M-record synthetic self-play stream
(bench/make_stream.py, 6.5% repeated boards), made once under build/bench.
Timed, best of two each (MANAKA_BENCH_REPEAT):

  local      manaka pack --buckets K (the core count's threads), and at --threads 1;
  ray 1 node a ray.cluster_utils.Cluster of one node with the core count's CPUs;
  ray 2 nodes the same CPUs over two nodes (two raylets and object stores on
             this machine: what a second machine adds, less the network).

Ray's time is the cluster already running (as on a real one): ray.init and
the nodes' start are printed apart. Overhead = (ray - local) / ray, the share
of the Ray run that the one-machine command does not spend. Every Ray set is
checked byte for byte against the local one.

One stream gives one map task (a map reads one stream whole), so pass 1 is
serial either way; K fold tasks and one write task per shard run in parallel.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable, List

import ray
from ray.cluster_utils import Cluster

import manaka.ray as manaka_ray

RECORDS = int(os.environ.get("MANAKA_BENCH_RECORDS", 2_000_000))
BUCKETS = int(os.environ.get("MANAKA_BENCH_BUCKETS", 16))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = str(Path(sys.executable).with_name("manaka"))
SEED = 1
STORE = 100 * 1024 * 1024
REPEAT = int(os.environ.get("MANAKA_BENCH_REPEAT", 2))


def best(f: Callable[[], None]) -> float:
    times = []
    for _ in range(REPEAT):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def shards(prefix: Path) -> List[Path]:
    return sorted(prefix.parent.glob(prefix.name + "-*.parquet"))


def ray_run(nodes: int, cpus: int, src: Path, local: List[Path]) -> tuple[float, float]:
    t = time.perf_counter()
    c = Cluster(initialize_head=True,
                head_node_args={"num_cpus": cpus // nodes, "include_dashboard": False, "object_store_memory": STORE})
    for _ in range(nodes - 1):
        c.add_node(num_cpus=cpus // nodes, object_store_memory=STORE)
    c.wait_for_nodes()
    ray.init(address=c.address)
    start = time.perf_counter() - t
    try:
        prefix = OUT / f"ray{nodes}" / "s"
        took = best(lambda: manaka_ray.pack([str(src)], str(prefix), buckets=BUCKETS, seed=SEED, overwrite=True))
        got = shards(prefix)
        assert [p.name for p in got] == [p.name for p in local], (got, local)
        for g, w in zip(got, local):
            assert filecmp.cmp(g, w, shallow=False), f"{g} differs from {w}"
    finally:
        ray.shutdown()
        c.shutdown()
    return took, start


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    src = OUT / f"pack-selfplay-{RECORDS}.mpk"
    if not src.exists():
        subprocess.run([sys.executable, "bench/make_stream.py", str(src), "--records", str(RECORDS),
                        "--repeat", "0.065", "--selfplay"], check=True)
    cpus = os.cpu_count() or 1
    cpus = max(2, cpus - cpus % 2)
    pack = [MANAKA, "pack", str(src), "--seed", str(SEED), "-q", "--overwrite", "--buckets", str(BUCKETS)]
    local_prefix = OUT / "ray-local" / "s"
    t_local = best(lambda: subprocess.run([*pack, "-o", str(local_prefix)], check=True))
    t_local1 = best(lambda: subprocess.run([*pack, "-o", str(OUT / "ray-local1" / "s"), "--threads", "1"],
                                           check=True))
    local = shards(local_prefix)
    print(f"pack {RECORDS:,} self-play records, --buckets {BUCKETS}, {len(local)} shards, {cpus} CPUs")
    print(f"  manaka pack --buckets {BUCKETS}      {t_local:6.2f} s  {RECORDS / t_local / 1e6:5.2f} M records/s")
    print(f"  manaka pack ... --threads 1   {t_local1:6.2f} s  {RECORDS / t_local1 / 1e6:5.2f} M records/s")
    for nodes in (1, 2):
        took, start = ray_run(nodes, cpus, src, local)
        print(f"  ray, {nodes} node{'s' if nodes > 1 else ' '} x {cpus // nodes} CPUs      {took:6.2f} s  "
              f"{RECORDS / took / 1e6:5.2f} M records/s, overhead {(took - t_local) / took:6.1%} of the run "
              f"(cluster start {start:.1f} s, not counted); shards identical")


if __name__ == "__main__":
    main()
