"""python -m manaka.ray chess-corpus and teacher-generate on a local Ray
cluster of two nodes.

The oracle is the local command with the same seed and a node or depth
limit (one engine thread): the Ray output, read in order, must hold the same
records (chess: planes, move indices, outcomes; teacher: every column of
every row), however the games were split into tasks and wherever they ran.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import fsspec
import numpy as np
import pyarrow as pa
import pyarrow.fs as pafs
import pyarrow.parquet as pq
import pytest
import ray
from ray.cluster_utils import Cluster

from ray_cluster import two_node_cluster

import manaka.ray as manaka_ray

MANAKA = str(Path(sys.executable).with_name("manaka"))
STOCKFISH = "/usr/games/stockfish"
FAIRY = "/usr/games/fairy-stockfish"

CHESS_GAMES = 5
CHESS: Dict[str, Any] = {"nodes": 200, "seed": 3, "opening_plies": 4, "shard_size": 60}
TEACHER_GAMES = 5
TEACHER: Dict[str, Any] = {"depth": 1, "multipv": 3, "seed": 5, "opening_plies": 2, "max_plies": 12}


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    yield from two_node_cluster()


def chess_records(directory: Path) -> Dict[str, np.ndarray]:
    manifest = json.loads((directory / "corpus.json").read_text())
    arrays: Dict[str, List[np.ndarray]] = {"states": [], "move_indices": [], "outcomes": []}
    for entry in manifest["shards"]:
        with np.load(directory / entry["file"]) as data:
            for name in arrays:
                arrays[name].append(data[name])
    return {name: np.concatenate(parts) for name, parts in arrays.items()}


@pytest.fixture(scope="module")
def local_chess(tmp_path_factory: pytest.TempPathFactory) -> Dict[str, np.ndarray]:
    out = tmp_path_factory.mktemp("local") / "chess"
    subprocess.run([MANAKA, "chess", "corpus", "-o", str(out), "--games", str(CHESS_GAMES), "--workers", "2",
                    "--nodes", str(CHESS["nodes"]), "--seed", str(CHESS["seed"]), "--opening-plies",
                    str(CHESS["opening_plies"]), "--shard-size", str(CHESS["shard_size"]), "--engine", STOCKFISH,
                    "-q"], check=True)
    return chess_records(out)


@pytest.fixture(scope="module")
def local_teacher(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local") / "teacher.parquet"
    subprocess.run([MANAKA, "teacher", "generate", "--engine", FAIRY, "--games", str(TEACHER_GAMES),
                    "--workers", "2", "--depth", str(TEACHER["depth"]), "--multipv", str(TEACHER["multipv"]),
                    "--seed", str(TEACHER["seed"]), "--opening-plies", str(TEACHER["opening_plies"]),
                    "--max-plies", str(TEACHER["max_plies"]), "-o", str(out)], check=True, capture_output=True)
    return out


def assert_same_chess(got: Dict[str, np.ndarray], want: Dict[str, np.ndarray]) -> None:
    assert len(want["move_indices"]) > 0
    for name in ("states", "move_indices", "outcomes"):
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def test_ray_chess_corpus_equals_the_local_command(cluster: Cluster, local_chess: Dict[str, np.ndarray],
                                                   tmp_path: Path) -> None:
    out = tmp_path / "chess"
    s = manaka_ray.chess_corpus(str(out), games=CHESS_GAMES, games_per_task=2, engine=STOCKFISH, **CHESS)
    assert (s.games, s.tasks, s.skipped) == (CHESS_GAMES, 3, 0)
    manifest = json.loads((out / "corpus.json").read_text())
    assert manifest["games"] == CHESS_GAMES and manifest["positions"] == s.positions
    assert [e["file"] for e in manifest["shards"]] == [f"shard_{k:06d}.npz" for k in range(len(manifest["shards"]))]
    assert [e["first_game"] for e in manifest["shards"]][0] == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(["corpus.json"] + [e["file"] for e in manifest["shards"]])
    assert_same_chess(chess_records(out), local_chess)
    assert not Path(str(out) + ".ray-work").exists()
    # The same command continues the joined corpus: it is a corpus of 5 games.
    again = subprocess.run([MANAKA, "chess", "corpus", "-o", str(out), "--games", str(CHESS_GAMES), "--nodes",
                            str(CHESS["nodes"]), "--seed", str(CHESS["seed"]), "--shard-size",
                            str(CHESS["shard_size"]), "--engine", STOCKFISH, "--json"],
                           check=True, capture_output=True, text=True)
    assert json.loads(again.stdout)["games"] == 0
    # Another seed, other games: the comparison above can fail.
    other = tmp_path / "other"
    manaka_ray.chess_corpus(str(other), games=2, games_per_task=1, engine=STOCKFISH,
                            **{**CHESS, "seed": CHESS["seed"] + 1})
    assert not np.array_equal(chess_records(other)["move_indices"][:20], local_chess["move_indices"][:20])


def test_killed_chess_task_is_retried(cluster: Cluster, local_chess: Dict[str, np.ndarray], tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    out = tmp_path / "chess"
    manaka_ray.chess_corpus(str(out), games=CHESS_GAMES, games_per_task=3, engine=STOCKFISH, fault_task=1,
                            fault_marker=str(marker), **CHESS)
    assert marker.exists()  # the worker of task 1 did die
    assert_same_chess(chess_records(out), local_chess)
    assert not list(tmp_path.glob("*.tmp-*"))


def test_ray_teacher_generate_equals_the_local_command(cluster: Cluster, local_teacher: Path,
                                                       tmp_path: Path) -> None:
    out = tmp_path / "teacher"
    s = manaka_ray.teacher_generate(FAIRY, str(out), games=TEACHER_GAMES, games_per_task=2, **TEACHER)
    assert (s.games, s.tasks, s.skipped) == (TEACHER_GAMES, 3, 0)
    assert sorted(p.name for p in out.iterdir()) == ["part-00000.parquet", "part-00001.parquet",
                                                     "part-00002.parquet"]
    want = pq.read_table(local_teacher).to_pylist()
    assert len(want) > 0
    assert pq.read_table(out).to_pylist() == want
    assert s.positions == len(want)
    # `manaka teacher convert` takes the directory: the same MPK1 stream as from the local file.
    for src, mpk in ((local_teacher, tmp_path / "local.mpk"), (out, tmp_path / "ray.mpk")):
        subprocess.run([MANAKA, "teacher", "convert", str(src), "-o", str(mpk), "--eval-coef", "600",
                        "--mate-scale", "32000", "-q"], check=True, capture_output=True)
    assert (tmp_path / "ray.mpk").read_bytes() == (tmp_path / "local.mpk").read_bytes()


def test_teacher_generate_to_an_object_store(cluster: Cluster, local_teacher: Path, tmp_path: Path) -> None:
    # fsspec's memory filesystem behind pyarrow: no directories, no rename (storage.py).
    fs = pafs.PyFileSystem(pafs.FSSpecHandler(fsspec.filesystem("memory")))
    with pytest.raises(ValueError, match="needs --work-dir"):
        manaka_ray.teacher_generate(FAIRY, "/store/teacher", games=TEACHER_GAMES, games_per_task=2, filesystem=fs,
                                    **TEACHER)
    s = manaka_ray.teacher_generate(FAIRY, "/store/teacher", games=TEACHER_GAMES, games_per_task=2, filesystem=fs,
                                    work_dir=str(tmp_path / "work"), **TEACHER)
    names = sorted(i.base_name for i in fs.get_file_info(pafs.FileSelector("/store/teacher")))
    assert names == ["part-00000.parquet", "part-00001.parquet", "part-00002.parquet"]
    tables = []
    for name in names:
        with fs.open_input_file(f"/store/teacher/{name}") as f:
            tables.append(pq.read_table(f))
    assert pa.concat_tables(tables).to_pylist() == pq.read_table(local_teacher).to_pylist()
    assert s.positions == pq.read_metadata(local_teacher).num_rows
    assert not (tmp_path / "work").exists()


def test_restarted_teacher_job_skips_work_done(cluster: Cluster, local_teacher: Path, tmp_path: Path) -> None:
    out = tmp_path / "teacher"
    with pytest.raises(ray.exceptions.RayTaskError):
        manaka_ray.teacher_generate(FAIRY, str(out), games=TEACHER_GAMES, games_per_task=1, fault_task=2,
                                    **TEACHER)
    assert not out.exists()  # the output is complete or absent
    parts = Path(str(out) + ".ray-work") / "parts"
    done = sorted(p.name for p in parts.iterdir() if (p / "done.json").exists())
    assert done == ["p-00000", "p-00001", "p-00003", "p-00004"]
    s = manaka_ray.teacher_generate(FAIRY, str(out), games=TEACHER_GAMES, games_per_task=1, **TEACHER)
    assert (s.tasks, s.skipped) == (1, TEACHER_GAMES - 1)
    assert pq.read_table(out).to_pylist() == pq.read_table(local_teacher).to_pylist()
    # Another output exists now: refused without overwrite, replaced with it.
    with pytest.raises(FileExistsError):
        manaka_ray.teacher_generate(FAIRY, str(out), games=1, games_per_task=1, **TEACHER)
    manaka_ray.teacher_generate(FAIRY, str(out), games=1, games_per_task=1, overwrite=True, **TEACHER)
    assert pq.read_table(out).num_rows < len(pq.read_table(local_teacher))


def test_the_command_line_runs_a_job(cluster: Cluster, local_teacher: Path, tmp_path: Path) -> None:
    out = tmp_path / "teacher"
    run = subprocess.run([sys.executable, "-m", "manaka.ray", "teacher-generate", "--engine", FAIRY, "--games",
                          str(TEACHER_GAMES), "--games-per-task", "3", "--depth", "1", "--multipv", "3", "--seed",
                          "5", "--opening-plies", "2", "--max-plies", "12", "-o", str(out), "--address",
                          cluster.address], capture_output=True, text=True, env={**os.environ})
    assert run.returncode == 0, run.stderr
    assert "teacher-generate: games 2/2 tasks" in run.stderr and "positions/s" in run.stderr and "ETA" in run.stderr
    assert pq.read_table(out).to_pylist() == pq.read_table(local_teacher).to_pylist()
