"""python -m manaka.ray pack on a local Ray cluster of two nodes.

The oracle is the one-machine `manaka pack --buckets K` with the same seed:
every shard must be the same bytes (the footer names the set by its rows and
options, so a shard in the wrong place, or a row out of order, differs).
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator, List

import pytest
import ray
from ray.cluster_utils import Cluster

from ray_cluster import make_streams, two_node_cluster

import manaka.ray as manaka_ray

MANAKA = str(Path(sys.executable).with_name("manaka"))
BUCKETS = 4
SEED = 7
ROWS_PER_SHARD = 9000


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    yield from two_node_cluster()


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> List[str]:
    return make_streams(tmp_path_factory.mktemp("streams"), (1, 2), 15000)


@pytest.fixture(scope="module")
def local_set(streams: List[str], tmp_path_factory: pytest.TempPathFactory) -> List[str]:
    prefix = str(tmp_path_factory.mktemp("local") / "train")
    subprocess.run([MANAKA, "pack", *streams, "-o", prefix, "--buckets", str(BUCKETS), "--seed", str(SEED),
                    "--rows-per-shard", str(ROWS_PER_SHARD), "-q"], check=True)
    shards = sorted(str(p) for p in Path(prefix).parent.glob("train-*.parquet"))
    assert len(shards) >= 3  # rows from every bucket, sets of several shards
    return shards


def assert_same_set(got: List[str], want: List[str]) -> None:
    assert [os.path.basename(p) for p in got] == [os.path.basename(p) for p in want]
    for g, w in zip(got, want):
        assert filecmp.cmp(g, w, shallow=False), f"{g} differs from {w}"


def shards_of(prefix: Path) -> List[str]:
    return sorted(str(p) for p in prefix.parent.glob(prefix.name + "-*.parquet"))


def test_ray_pack_equals_local_bucketed_pack(cluster: Cluster, streams: List[str], local_set: List[str],
                                             tmp_path: Path) -> None:
    prefix = tmp_path / "out" / "train"
    s = manaka_ray.pack(streams, str(prefix), buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD)
    assert s.shards == shards_of(prefix)
    assert_same_set(s.shards, local_set)
    assert s.records_in == 30000
    assert s.tasks == {"map": 2, "fold": BUCKETS, "write": len(local_set)}
    assert not Path(str(prefix) + ".ray-work").exists()
    # Another seed is another set: the comparison above can fail.
    other = tmp_path / "other" / "train"
    manaka_ray.pack(streams, str(other), buckets=BUCKETS, seed=SEED + 1, rows_per_shard=ROWS_PER_SHARD)
    assert not filecmp.cmp(shards_of(other)[0], local_set[0], shallow=False)


def test_killed_write_task_is_retried(cluster: Cluster, streams: List[str], local_set: List[str],
                                      tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    prefix = tmp_path / "out" / "train"
    s = manaka_ray.pack(streams, str(prefix), buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD,
                        fault_shard=1, fault_marker=str(marker))
    assert marker.exists()  # the worker of shard 1 did die
    assert_same_set(s.shards, local_set)
    assert not list(prefix.parent.glob("*.tmp-*"))


def test_restarted_job_skips_work_done(cluster: Cluster, streams: List[str], local_set: List[str],
                                       tmp_path: Path) -> None:
    prefix = tmp_path / "out" / "train"
    with pytest.raises(ray.exceptions.RayTaskError):
        manaka_ray.pack(streams, str(prefix), buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD,
                        fault_shard=2)
    assert shards_of(prefix) == []  # nothing under a final name: the set is complete or absent
    work = Path(str(prefix) + ".ray-work")
    staged = {k: os.stat(work / "shards" / f"s-{k:05d}" / f"part-{k:05d}.parquet").st_ino
              for k in range(len(local_set)) if k != 2}
    s = manaka_ray.pack(streams, str(prefix), buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD)
    assert s.skipped == {"map": 2, "fold": BUCKETS, "write": len(local_set) - 1}
    assert s.tasks == {"map": 0, "fold": 0, "write": 1}
    assert_same_set(s.shards, local_set)
    # The shards of the first run are the files now in place (renamed, not rewritten).
    for k, inode in staged.items():
        assert os.stat(s.shards[k]).st_ino == inode
