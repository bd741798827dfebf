"""python -m manaka.ray selfplay on a local Ray cluster of two nodes.

The oracle is the local self-play with the same seed and one search thread:
for shogi the `manaka shogi selfplay` command, whose selfplay.mpk and
selfplay.saz the Ray run must write byte for byte; for chess
manaka.search.chess_self_play written as the refinement writes it, whose
positions, visits and per-game lists the Ray set must hold in the same order.
Ranges of two games over two actors: every part after the first only matches
if its games are numbered from the range's start.
"""

from __future__ import annotations

import filecmp
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List

import numpy as np
import pytest
import torch
from ray.cluster_utils import Cluster

from ray_cluster import two_node_cluster

from manaka import search
from manaka._core import search as _native
from manaka.ray.selfplay_job import selfplay
from manaka.selfplay import load_network

MANAKA = str(Path(sys.executable).with_name("manaka"))
# A CPU network's floats depend on torch's thread count: the oracle runs with
# the actors' (one CPU each, so one thread).
ONE_TORCH_THREAD = {**os.environ, "OMP_NUM_THREADS": "1"}
SEARCH: Dict[str, Any] = {"simulations": 8, "batch_size": 4, "threads": 1, "seed": 5}
SHOGI_GAMES, SHOGI_PLIES = 5, 24
CHESS_GAMES, CHESS_PLIES, OPENING, SHARD = 5, 14, 2, 9


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    yield from two_node_cluster()


def init_net(path: Path, game: str) -> str:
    subprocess.run([sys.executable, "-m", "manaka.selfplay", "init", "--game", game, "-o", str(path), "--blocks", "1",
                    "--channels", "8", "--value-channels", "2", "--value-hidden", "8"], check=True,
                   capture_output=True)
    return str(path)


@pytest.fixture(scope="module")
def shogi_net(tmp_path_factory: pytest.TempPathFactory) -> str:
    return init_net(tmp_path_factory.mktemp("nets") / "shogi.pt", "shogi")


@pytest.fixture(scope="module")
def local_shogi(shogi_net: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("local") / "shogi"
    subprocess.run([MANAKA, "shogi", "selfplay", "--checkpoint", shogi_net, "-o", str(out), "--games",
                    str(SHOGI_GAMES), "--simulations", str(SEARCH["simulations"]), "--batch-size",
                    str(SEARCH["batch_size"]), "--threads", "1", "--seed", str(SEARCH["seed"]), "--max-plies",
                    str(SHOGI_PLIES), "--saz", "--device", "cpu", "-q"], check=True, capture_output=True,
                   env=ONE_TORCH_THREAD)
    return out


def assert_same_files(got: Path, want: Path, names: List[str]) -> None:
    assert sorted(p.name for p in got.iterdir()) == names
    for name in names:
        assert filecmp.cmp(got / name, want / name, shallow=False), f"{got / name} differs from {want / name}"


def test_shogi_on_ray_writes_the_local_commands_bytes(cluster: Cluster, shogi_net: str, local_shogi: Path,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "ray"
    s = selfplay("shogi", shogi_net, str(out), SHOGI_GAMES, search=SEARCH, max_plies=SHOGI_PLIES, saz=True,
                 games_per_task=2)
    assert (s.parts, s.played, s.skipped, s.actors) == (3, 3, 0, 2)
    assert_same_files(out, local_shogi, ["selfplay.mpk", "selfplay.saz"])
    assert s.positions == sum(1 for _ in _mpk_records(out / "selfplay.mpk"))
    assert not Path(str(out) + ".ray-work").exists()
    # The games differ from one another: no range played game 0 again.
    assert len(set(_game_move_lists(out / "selfplay.mpk"))) == SHOGI_GAMES


def test_a_killed_actor_is_restarted_and_its_range_played_again(cluster: Cluster, shogi_net: str,
                                                                 local_shogi: Path, tmp_path: Path) -> None:
    marker = tmp_path / "killed-once"
    out = tmp_path / "ray"
    s = selfplay("shogi", shogi_net, str(out), SHOGI_GAMES, search=SEARCH, max_plies=SHOGI_PLIES, saz=True,
                 games_per_task=2, fault_range=1, fault_marker=str(marker))
    assert marker.exists()  # the actor given range 1 did die
    assert s.played == 3
    assert_same_files(out, local_shogi, ["selfplay.mpk", "selfplay.saz"])
    assert not list(tmp_path.glob("*.tmp-*"))


def test_a_restarted_job_skips_the_ranges_done(cluster: Cluster, shogi_net: str, local_shogi: Path,
                                               tmp_path: Path) -> None:
    out = tmp_path / "ray"
    work = Path(str(out) + ".ray-work")
    # A first run stopped after its parts, before the join: no output, the parts kept.
    first = selfplay("shogi", shogi_net, str(out), SHOGI_GAMES, search=SEARCH, max_plies=SHOGI_PLIES, saz=True,
                     games_per_task=2, stop_before_join=True)
    assert first.played == 3 and not out.exists()
    assert sorted(p.name for p in (work / "parts").iterdir()) == ["p-00000", "p-00001", "p-00002"]
    # Restarted with one actor and no --games-per-task: the earlier cut into ranges is kept.
    s = selfplay("shogi", shogi_net, str(out), SHOGI_GAMES, search=SEARCH, max_plies=SHOGI_PLIES, saz=True,
                 actors=1)
    assert (s.parts, s.played, s.skipped) == (3, 0, 3)
    assert_same_files(out, local_shogi, ["selfplay.mpk", "selfplay.saz"])
    assert not work.exists()


def _mpk_records(path: Path) -> Iterator[int]:
    from manaka import stream

    for batch in stream.read_batches(str(path), 1 << 20):
        yield from range(len(batch))


def _game_move_lists(path: Path) -> List[bytes]:
    from manaka import stream

    batch = next(stream.read_batches(str(path), 1 << 20))
    games: List[bytes] = []
    for i in range(len(batch)):
        if batch.ply[i] == 0:
            games.append(b"")
        games[-1] += bytes(batch.packed[i])
    return games


def chess_arrays(directory: Path) -> Dict[str, np.ndarray]:
    meta = json.loads((directory / "selfplay.json").read_text())
    parts: Dict[str, List[np.ndarray]] = {}
    for shard in meta["shards"]:
        with np.load(directory / shard["file"]) as z:
            assert len(z["move_indices"]) == shard["positions"]
            for key in ("states", "move_indices", "outcomes", "visit_indices", "visit_counts"):
                parts.setdefault(key, []).append(z[key])
            parts.setdefault("row_visits", []).append(np.diff(z["visit_offsets"]))
    return {k: np.concatenate(v) for k, v in parts.items()}


def test_chess_on_ray_holds_the_local_self_plays_games(cluster: Cluster, tmp_path: Path) -> None:
    net = init_net(tmp_path / "chess.pt", "chess")
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the actors' count (ONE_TORCH_THREAD)
    try:
        played = search.chess_self_play(search.torch_evaluator(load_network(net, "chess")), CHESS_GAMES,
                                        search.SearchOptions(**SEARCH), max_plies=CHESS_PLIES,
                                        opening_plies=OPENING, progress=False)
    finally:
        torch.set_num_threads(threads)
    local = tmp_path / "local"
    want = json.loads(_native.write_chess_selfplay(str(local), played, SHARD, "{}"))
    out = tmp_path / "ray"
    s = selfplay("chess", net, str(out), CHESS_GAMES, search=SEARCH, max_plies=CHESS_PLIES, opening_plies=OPENING,
                 shard_positions=SHARD, games_per_task=2)
    got = json.loads((out / "selfplay.json").read_text())
    assert got == s.selfplay_json
    for key in ("games", "positions", "visit_entries", "results", "terminations", "game_offsets", "game_results",
                "game_terminations", "openings"):
        assert got[key] == want[key], key
    assert got["search"]["seed"] == SEARCH["seed"] and got["max_plies"] == CHESS_PLIES
    assert len({" ".join(o) for o in got["openings"]}) > 1  # each game its own opening: (seed, i)
    g, w = chess_arrays(out), chess_arrays(local)
    for key in w:
        assert np.array_equal(g[key], w[key]), key
    assert sum(sh["positions"] for sh in got["shards"]) == got["positions"]


def test_the_command_line_runs_the_job(cluster: Cluster, shogi_net: str, local_shogi: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli"
    args = [sys.executable, "-m", "manaka.ray", "selfplay", "--address", cluster.address, "--game", "shogi",
            "--checkpoint", shogi_net, "-o", str(out), "--games", str(SHOGI_GAMES), "--games-per-task", "2",
            "--max-plies", str(SHOGI_PLIES), "--saz", "--torch-threads", "1",
            *[a for name, value in SEARCH.items() for a in ("--" + name.replace("_", "-"), str(value))]]
    r = subprocess.run(args, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "manaka.ray selfplay: 3/3 ranges" in r.stderr and "positions/s" in r.stderr
    assert f"{SHOGI_GAMES} games" in r.stdout and "3 parts (3 played, 0 already done) on 2 actors" in r.stdout
    assert_same_files(out, local_shogi, ["selfplay.mpk", "selfplay.saz"])
    again = subprocess.run(args, capture_output=True, text=True)
    assert again.returncode != 0 and "exists; pass --overwrite" in again.stderr
