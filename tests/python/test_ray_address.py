"""What ``python -m manaka.ray`` joins: with no --address and no RAY_ADDRESS it starts a
local Ray (and says so); ``--address auto`` with no cluster on the node is one clear line.

The oracle for the local run is the one-machine ``manaka pack --buckets K``, byte for byte."""

from __future__ import annotations

import filecmp
import os
import subprocess
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Iterator

import pytest

from ray_cluster import make_streams

MANAKA = str(Path(sys.executable).with_name("manaka"))
PACK = ["--buckets", "2", "--seed", "3", "--rows-per-shard", "2000"]


@pytest.fixture
def no_ray_env() -> Iterator[dict]:
    # A fresh Ray temp dir (short: Ray's socket paths must fit 107 bytes), so no session
    # of another test's cluster is found by `auto`.
    ray_dir = tempfile.mkdtemp(prefix="ray-", dir="/tmp")
    yield {**{k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}, "RAY_TMPDIR": ray_dir}
    shutil.rmtree(ray_dir, ignore_errors=True)


def ray_pack(args: list, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "manaka.ray", "pack", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_no_address_starts_a_local_ray_and_packs_the_local_set(tmp_path: Path, no_ray_env: dict) -> None:
    streams = make_streams(tmp_path, (1,), 5000)
    subprocess.run([MANAKA, "pack", *streams, "-o", str(tmp_path / "local" / "train"), *PACK, "-q"], check=True)
    want = sorted((tmp_path / "local").glob("train-*.parquet"))
    assert len(want) >= 2
    done = ray_pack([*streams, "-o", str(tmp_path / "ray" / "out" / "train"), *PACK], no_ray_env)
    assert done.returncode == 0, done.stderr
    assert "no --address and no RAY_ADDRESS: starting a local Ray on this machine" in done.stderr
    got = sorted((tmp_path / "ray" / "out").glob("train-*.parquet"))
    assert [p.name for p in got] == [p.name for p in want]
    assert all(filecmp.cmp(g, w, shallow=False) for g, w in zip(got, want))


def test_address_auto_without_a_cluster_is_one_clear_line(tmp_path: Path, no_ray_env: dict) -> None:
    streams = make_streams(tmp_path, (1,), 100)
    out = tmp_path / "out" / "train"
    failed = ray_pack([*streams, "-o", str(out), *PACK, "--address", "auto"], no_ray_env)
    assert failed.returncode == 2
    last = failed.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m manaka.ray pack: --address auto: no Ray cluster runs on this node"), last
    assert "Traceback" not in failed.stderr
    assert not out.parent.exists() or not list(out.parent.iterdir())


def test_a_failed_task_is_one_line_without_colour_codes(tmp_path: Path, no_ray_env: dict) -> None:
    good = Path(make_streams(tmp_path, (1,), 100)[0])
    bad = tmp_path / "bad.mpk"
    bad.write_bytes(good.read_bytes()[:24] + b"\xff" * 300)  # the header, then no record that parses
    out = tmp_path / "out" / "train"
    failed = ray_pack([str(bad), "-o", str(out), *PACK], no_ray_env)
    assert failed.returncode == 1, failed.stderr
    last = failed.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m manaka.ray pack: a task failed (its retries spent): InvalidDataError: "), last
    assert "bad.mpk: record 0" in last, last
    assert "\x1b[" not in failed.stderr and "Traceback" not in failed.stderr
    assert not out.parent.exists() or not list(out.parent.glob("train-*.parquet"))
