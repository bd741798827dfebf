"""The local Ray cluster the tests of manaka.ray run on: two nodes of one
CPU each on this machine (ray.cluster_utils.Cluster, no dashboard), this
process connected to it; and the MPK1 streams their pack tests share."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Iterable, Iterator, List

import ray
from ray.cluster_utils import Cluster

ROOT = Path(__file__).resolve().parents[2]
STORE = 80 * 1024 * 1024  # Ray's object store carries only paths and counts in these jobs


def two_node_cluster() -> Iterator[Cluster]:
    """For a module-scoped fixture: `yield from two_node_cluster()`."""
    c = Cluster(initialize_head=True,
                head_node_args={"num_cpus": 1, "include_dashboard": False, "object_store_memory": STORE})
    c.add_node(num_cpus=1, object_store_memory=STORE)
    c.wait_for_nodes()
    ray.init(address=c.address)
    try:
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        yield c
    finally:
        ray.shutdown()
        c.shutdown()


def make_streams(directory: Path, seeds: Iterable[int], records: int) -> List[str]:
    """Synthetic self-play streams (bench/make_stream.py), 20% repeated boards."""
    out = []
    for seed in seeds:
        path = str(directory / f"s{seed}.mpk")
        subprocess.run([sys.executable, str(ROOT / "bench" / "make_stream.py"), path, "--records", str(records),
                        "--repeat", "0.2", "--seed", str(seed)], check=True, capture_output=True)
        out.append(path)
    return out
