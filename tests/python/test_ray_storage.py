"""Ray jobs writing their output to a URI (manaka.ray.storage).

pack to a file:// URI and to an in-memory pyarrow filesystem (fsspec's
memory filesystem behind pyarrow.fs.PyFileSystem, an object store with no
directories and no rename), self-play to the in-memory one: the objects
must be the local outputs' bytes, under their final names only, with no
temporary left; the work directory stays on a local path.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator, List

import fsspec
import pyarrow.fs as pafs
import pytest
from ray.cluster_utils import Cluster

from ray_cluster import make_streams, two_node_cluster

import manaka.ray as manaka_ray
from manaka.ray import storage
from manaka.ray.selfplay_job import selfplay

MANAKA = str(Path(sys.executable).with_name("manaka"))
BUCKETS = 3
SEED = 11
ROWS_PER_SHARD = 7000


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    yield from two_node_cluster()


@pytest.fixture(scope="module")
def streams(tmp_path_factory: pytest.TempPathFactory) -> List[str]:
    return make_streams(tmp_path_factory.mktemp("streams"), (3, 4), 10000)


@pytest.fixture(scope="module")
def local_set(streams: List[str], tmp_path_factory: pytest.TempPathFactory) -> List[Path]:
    prefix = tmp_path_factory.mktemp("local") / "train"
    subprocess.run([MANAKA, "pack", *streams, "-o", str(prefix), "--buckets", str(BUCKETS), "--seed", str(SEED),
                    "--rows-per-shard", str(ROWS_PER_SHARD), "-q"], check=True)
    shards = sorted(prefix.parent.glob("train-*.parquet"))
    assert len(shards) >= 2
    return shards


def memory_fs() -> pafs.FileSystem:
    return pafs.PyFileSystem(pafs.FSSpecHandler(fsspec.filesystem("memory")))


def read_all(fs: pafs.FileSystem, path: str) -> bytes:
    with fs.open_input_stream(path) as f:
        return bytes(f.read())


def names_in(fs: pafs.FileSystem, directory: str) -> List[str]:
    infos = fs.get_file_info(pafs.FileSelector(directory, recursive=True, allow_not_found=True))
    return sorted(i.path[len(directory) + 1:] for i in infos if i.type == pafs.FileType.File)


def test_pack_to_a_file_uri(cluster: Cluster, streams: List[str], local_set: List[Path], tmp_path: Path) -> None:
    out = tmp_path / "bucket"
    with pytest.raises(ValueError, match="needs --work-dir"):
        manaka_ray.pack(streams, f"file://{out}/train", buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD)
    work = tmp_path / "work"
    s = manaka_ray.pack(streams, f"file://{out}/train", buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD,
                        work_dir=str(work))
    assert s.shards == [f"file://{out}/{p.name}" for p in local_set]
    assert sorted(p.name for p in out.iterdir()) == [p.name for p in local_set]
    for p in local_set:
        assert filecmp.cmp(out / p.name, p, shallow=False)
    assert not work.exists()


def test_pack_to_an_object_store_replaces_the_earlier_set_whole(cluster: Cluster, streams: List[str],
                                                                 local_set: List[Path], tmp_path: Path) -> None:
    fs = memory_fs()
    work = str(tmp_path / "work")
    # An earlier set of more shards, and the temporary of an upload that was stopped.
    manaka_ray.pack(streams, "/store/run/train", buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD // 3,
                    work_dir=work, filesystem=fs)
    earlier = names_in(fs, "/store/run")
    assert len(earlier) > len(local_set)
    with fs.open_output_stream("/store/run/train-00000.parquet.tmp-dead") as f:
        f.write(b"half an upload")
    with pytest.raises(FileExistsError):
        manaka_ray.pack(streams, "/store/run/train", buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD,
                        work_dir=work, filesystem=fs)
    manaka_ray.pack(streams, "/store/run/train", buckets=BUCKETS, seed=SEED, rows_per_shard=ROWS_PER_SHARD,
                    work_dir=work, filesystem=fs, overwrite=True)
    assert names_in(fs, "/store/run") == [p.name for p in local_set]
    for p in local_set:
        assert read_all(fs, f"/store/run/{p.name}") == p.read_bytes()


def test_publish_files_puts_nothing_under_a_final_name_until_every_upload_is_whole(tmp_path: Path) -> None:
    fs = memory_fs()
    dest = storage.resolve("/up/set", fs)
    (tmp_path / "a").write_bytes(b"a" * 10)
    with pytest.raises(FileNotFoundError):
        storage.publish_files(dest, [(str(tmp_path / "a"), "/up/set-0"), (str(tmp_path / "missing"), "/up/set-1")])
    assert names_in(fs, "/up") == []  # not the first file, nor its temporary
    storage.publish_files(dest, [(str(tmp_path / "a"), "/up/set-0")])
    assert read_all(fs, "/up/set-0") == b"a" * 10


def test_selfplay_to_an_object_store(cluster: Cluster, tmp_path: Path) -> None:
    net = tmp_path / "shogi.pt"
    subprocess.run([sys.executable, "-m", "manaka.selfplay", "init", "--game", "shogi", "-o", str(net), "--blocks",
                    "1", "--channels", "8", "--value-channels", "2", "--value-hidden", "8"], check=True,
                   capture_output=True)
    local = tmp_path / "local"
    subprocess.run([MANAKA, "shogi", "selfplay", "--checkpoint", str(net), "-o", str(local), "--games", "3",
                    "--simulations", "6", "--batch-size", "4", "--threads", "1", "--seed", "2", "--max-plies", "12",
                    "--device", "cpu", "-q"], check=True, capture_output=True,
                   env={**os.environ, "OMP_NUM_THREADS": "1"})  # the actors' torch threads: the same floats
    fs = memory_fs()
    s = selfplay("shogi", str(net), "/store/sp", 3, search={"simulations": 6, "batch_size": 4, "threads": 1,
                                                            "seed": 2},
                 max_plies=12, games_per_task=1, work_dir=str(tmp_path / "work"), filesystem=fs)
    assert s.parts == 3
    assert names_in(fs, "/store/sp") == ["selfplay.mpk"]
    assert read_all(fs, "/store/sp/selfplay.mpk") == (local / "selfplay.mpk").read_bytes()
    assert not (tmp_path / "work").exists()
