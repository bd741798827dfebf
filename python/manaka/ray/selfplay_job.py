"""Self-play on a Ray cluster: ``python -m manaka.ray selfplay ...``.

    python -m manaka.ray selfplay --game chess|shogi --checkpoint PATH -o OUT --games N
        [--actors K] [--cpus-per-actor C] [--torch-threads T] [--games-per-task G] [--simulations ...]
        [--max-plies P] [--saz] [--opening-plies P] [--shard-positions S] [--work-dir DIR]

One Ray actor per node (by default as many as the cluster has alive nodes,
each asking for a node's CPUs (the smallest node's), spread over the nodes) loads the checkpoint's
network once and runs the C++ search threads; the driver hands each actor a
range of game indices at a time, and the actor plays it (``first_game`` =
the range's start, so game i's noise, moves and chess opening come from
(seed, i) alone: the games are the local self-play's whatever the actor
count) and writes the range as a complete part into the work directory:
``parts/p-NNNNN/`` renamed into place with ``done.json``, as every Ray task
of manaka publishes (tasks.py). When every range is there the driver joins
the parts, in game order, into the output (selfplay/selfplay_parts.h):

  shogi  OUT/selfplay.mpk (+ selfplay.saz): the bytes `manaka shogi
         selfplay` writes with the same options, one file each;
  chess  OUT/: one self-play shard set (shard_NNNNNN.npz + selfplay.json),
         as the refinement writes it, except that a shard ends at each
         part's end (the positions are the same, their cut differs).

The output is complete or absent (storage.py: a URI gets the whole directory
uploaded under temporary names first). An actor that dies is restarted by
Ray (max_restarts) and its range is played again; a job restarted with the
same arguments skips every range whose part is there.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

import ray

from manaka._atomic import json_text
from manaka._core import search as _native
from manaka.ray import storage
from manaka.ray.tasks import (attempt_path, game_ranges, kill_once, open_work, part_dir, publish_dir, read_done,
                              report)

__all__ = ["selfplay", "RaySelfPlaySummary", "add_parser", "run"]

# The search options a command line may set, and their types (manaka.search.SearchOptions).
SEARCH_OPTIONS = {"simulations": int, "c_puct": float, "dirichlet_alpha": float, "dirichlet_epsilon": float,
                  "temperature": float, "temperature_plies": int, "batch_size": int, "threads": int,
                  "exact_batches": bool, "seed": int}
DEFAULT_MAX_PLIES = {"chess": 512, "shogi": 320}
DEFAULT_SHARD_POSITIONS = 10000  # the refinement's


@dataclass
class RaySelfPlaySummary:
    games: int = 0
    positions: int = 0
    parts: int = 0
    played: int = 0      # ranges played by this run
    skipped: int = 0     # ranges whose part was already there
    actors: int = 0
    output: str = ""
    seconds: float = 0.0
    selfplay_json: Dict[str, Any] = field(default_factory=dict)  # chess: the set's selfplay.json


@ray.remote(max_restarts=3, max_task_retries=3)
class _SelfPlayActor:
    """One per node: the network loaded once, ranges of games played on its search threads."""

    def __init__(self, game: str, checkpoint: str, device: str, torch_threads: int) -> None:
        import torch

        from manaka import search
        from manaka.selfplay import load_network

        # The network's floats depend on torch's thread count (its reductions
        # are cut per thread): set, not left to the worker's environment.
        torch.set_num_threads(torch_threads)
        self.game = game
        self.evaluate = search.torch_evaluator(load_network(checkpoint, game, device))

    def play(self, first: int, count: int, part: str, options: Dict[str, Any], max_plies: int,
             opening_plies: int, saz: bool, shard_positions: int, fault_marker: Optional[str]) -> Dict[str, Any]:
        from manaka import search

        done = read_done(part)
        if done is not None:  # a retried call whose first attempt published before dying
            return dict(done)
        if fault_marker is not None:
            kill_once(fault_marker)
        opts = search.SearchOptions(**options)
        tmp = attempt_path(part)
        if self.game == "shogi":
            summary, _ = search.shogi_self_play(self.evaluate, count, tmp, opts, max_plies=max_plies, saz=saz,
                                                first_game=first, progress=False)
            result = {"first": first, "games": int(summary["games"]), "positions": int(summary["positions"])}
        else:
            played = search.chess_self_play(self.evaluate, count, opts, max_plies=max_plies,
                                            opening_plies=opening_plies, first_game=first, progress=False)
            meta = json_text({"first_game": first})
            sp = json.loads(_native.write_chess_selfplay(tmp, played, shard_positions, meta))
            result = {"first": first, "games": int(sp["games"]), "positions": int(sp["positions"])}
        return dict(publish_dir(tmp, part, result))


def _worker_nodes() -> List[Dict[str, Any]]:
    # Alive nodes with CPUs: a head started with --num-cpus=0 runs no actor.
    return [n for n in ray.nodes() if n.get("Alive") and float(n.get("Resources", {}).get("CPU", 0)) > 0]


def selfplay(game: str, checkpoint: str, output: str, games: int, *, search: Optional[Dict[str, Any]] = None,
             max_plies: Optional[int] = None, opening_plies: int = 0, saz: bool = False,
             shard_positions: int = DEFAULT_SHARD_POSITIONS, actors: Optional[int] = None,
             cpus_per_actor: Optional[float] = None, gpus_per_actor: float = 0, device: str = "cpu",
             games_per_task: Optional[int] = None, torch_threads: int = 1,
             work_dir: Optional[str] = None, overwrite: bool = False,
             progress: bool = False, filesystem: Any = None, fault_range: Optional[int] = None,
             fault_marker: Optional[str] = None, stop_before_join: bool = False) -> RaySelfPlaySummary:
    """Self-play of ``games`` games on the Ray cluster this process is connected to (ray.init first).

    ``search`` holds SearchOptions' fields (shogi's default dirichlet_alpha is
    0.15, as the local command's). ``output`` is a local directory or a URI
    (storage.py; ``filesystem`` a pyarrow filesystem the path is on).
    fault_range, fault_marker and stop_before_join are for tests: the actor
    given range fault_range dies once (creating fault_marker); the driver
    stops once every part is there, as one killed before the join.

    ``torch_threads``: torch's CPU threads in each actor (default 1, as everywhere a network serves the
    search: its batches are too small to split, manaka.eval.DEFAULT_TORCH_THREADS); 0 gives the actor's
    CPUs, the count torch takes in a Ray worker. The actor always sets it: the network's floats depend on it."""
    start = time.monotonic()
    if game not in ("chess", "shogi"):
        raise ValueError(f"game must be chess or shogi, not {game!r}")
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    options = dict(search or {})
    for name in options:
        if name not in SEARCH_OPTIONS:
            raise ValueError(f"search: no option {name!r}")
    if game == "shogi":
        options.setdefault("dirichlet_alpha", 0.15)
    from manaka import search as _search

    _search.SearchOptions(**options).check()
    max_plies = DEFAULT_MAX_PLIES[game] if max_plies is None else max_plies
    checkpoint = os.path.abspath(checkpoint)
    dest = storage.resolve(output, filesystem)
    work = storage.work_dir_for(dest, work_dir, ".ray-work")
    nodes = _worker_nodes()
    if not nodes and (actors is None or cpus_per_actor is None):
        raise RuntimeError("the Ray cluster has no alive node with CPUs")
    k = actors or len(nodes)
    if k < 1:
        raise ValueError(f"actors must be at least 1, not {k}")
    if torch_threads < 0:
        raise ValueError(f"torch_threads must be 0 or more, not {torch_threads}")
    if games_per_task is not None and games_per_task < 1:
        raise ValueError(f"games_per_task must be at least 1, not {games_per_task}")
    ckpt = os.stat(checkpoint)
    job = {"game": game, "checkpoint": [checkpoint, ckpt.st_size, ckpt.st_mtime_ns], "games": games,
           "search": options, "max_plies": max_plies, "opening_plies": opening_plies, "saz": saz,
           "shard_positions": shard_positions}
    job_path = os.path.join(work, "job.json")
    try:
        with open(job_path) as f:
            found = json.load(f)
    except (FileNotFoundError, ValueError):
        found = {}
    # A restart on another cluster size keeps the earlier cut into ranges unless told otherwise.
    per_task = games_per_task or max(1, math.ceil(games / (4 * k)))
    if games_per_task is None and "games_per_task" in found and \
            {n: v for n, v in found.items() if n != "games_per_task"} == job:
        per_task = int(found["games_per_task"])
    job["games_per_task"] = per_task
    ranges = game_ranges(games, per_task)

    def refuse_existing() -> None:
        if storage.exists(dest) and not overwrite:
            raise FileExistsError(f"{output}: exists; pass --overwrite (overwrite=True) to replace it")

    open_work(work, job, ("parts",), refuse_existing)

    parts = [part_dir(work, r) for r in range(len(ranges))]
    summary = RaySelfPlaySummary(parts=len(ranges), actors=k)
    todo = [r for r in range(len(ranges)) if read_done(parts[r]) is None]
    summary.skipped = len(ranges) - len(todo)
    if todo:
        cpus = cpus_per_actor if cpus_per_actor is not None else min(float(n["Resources"]["CPU"]) for n in nodes)
        actor_class: Any = _SelfPlayActor  # ray.remote made it an ActorClass (its options)
        pool = [actor_class.options(num_cpus=cpus, num_gpus=gpus_per_actor, scheduling_strategy="SPREAD")
                .remote(game, checkpoint, device, torch_threads if torch_threads > 0 else max(1, int(cpus)))
                for _ in range(min(k, len(todo)))]
        _play_ranges(pool, todo, ranges, parts, options, max_plies, opening_plies, saz, shard_positions, progress,
                     fault_range, fault_marker)
        for actor in pool:
            ray.kill(actor)
    summary.played = len(todo)
    summary.positions = sum(int((read_done(p) or {}).get("positions", 0)) for p in parts)
    summary.games = games
    summary.output = output
    if stop_before_join:
        summary.seconds = time.monotonic() - start
        return summary

    # Every part is whole: the join writes the output (locally, or staged and uploaded).
    staged = dest.path if dest.local else os.path.join(work, "output")
    if not dest.local:
        shutil.rmtree(staged, ignore_errors=True)
    if game == "shogi":
        _native.join_shogi_selfplay(parts, staged, overwrite=overwrite or not dest.local)
    else:
        meta = {"search": options, "max_plies": max_plies, "opening_plies": opening_plies,
                "games_per_task": per_task}
        summary.selfplay_json = json.loads(_native.join_chess_selfplay(parts, staged, json_text(meta),
                                                                       overwrite=overwrite or not dest.local))
    if not dest.local:
        storage.publish_tree(staged, dest, overwrite=True)
    shutil.rmtree(work, ignore_errors=True)
    summary.seconds = time.monotonic() - start
    return summary


def _play_ranges(pool: List[Any], todo: List[int], ranges: List[Tuple[int, int]], parts: List[str],
                 options: Dict[str, Any], max_plies: int, opening_plies: int, saz: bool, shard_positions: int,
                 progress: bool, fault_range: Optional[int], fault_marker: Optional[str]) -> int:
    """Hands each actor one range at a time until every range is played;
    returns the positions played. An actor's failure (its restarts spent)
    fails the job once the ranges in flight have settled."""
    start = time.monotonic()
    queue = list(todo)
    running: Dict[Any, Any] = {}
    positions = done = 0
    error: Optional[BaseException] = None

    def give(actor: Any) -> None:
        r = queue.pop(0)
        first, count = ranges[r]
        marker = fault_marker if r == fault_range else None
        ref = actor.play.remote(first, count, parts[r], options, max_plies, opening_plies, saz, shard_positions, marker)
        running[ref] = actor

    for actor in pool:
        if queue:
            give(actor)
    while running:
        ready, _ = ray.wait(list(running), num_returns=1)
        actor = running.pop(ready[0])
        try:
            result = ray.get(ready[0])
        except Exception as e:  # noqa: BLE001 - re-raised below, after the rest
            error = error or e
            continue
        done += 1
        positions += int(result["positions"])
        if queue and error is None:
            give(actor)
        if progress:
            report("selfplay", "", done, len(todo), start, positions, "positions", what="ranges")
    if error is not None:
        raise error
    return positions


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("selfplay", help="self-play through the C++ search, one actor per node")
    p.add_argument("--game", choices=("chess", "shogi"), required=True)
    p.add_argument("--checkpoint", required=True, help="a checkpoint with best_net (python -m manaka.selfplay init)")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="a directory or a URI (s3://, gs://, ...)")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--actors", type=int, default=None, help="default: the cluster's alive nodes")
    p.add_argument("--cpus-per-actor", type=float, default=None, help="default: a node's CPUs")
    p.add_argument("--gpus-per-actor", type=float, default=0)
    p.add_argument("--device", default="cpu", help="the network's torch device in each actor (cpu, cuda)")
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch's threads in each actor (default 1: the search's batches are too small to split; "
                        "0: the actor's CPUs); the same games need the same count")
    p.add_argument("--games-per-task", type=int, default=None,
                   help="games in a range an actor plays and publishes whole (default: games / (4 x actors))")
    for name, kind in SEARCH_OPTIONS.items():
        if kind is bool:
            p.add_argument("--" + name.replace("_", "-"), action="store_true", default=None)
        else:
            p.add_argument("--" + name.replace("_", "-"), type=kind, default=None)
    p.add_argument("--max-plies", type=int, default=None, help="default: chess 512, shogi 320")
    p.add_argument("--saz", action="store_true", help="shogi: also selfplay.saz (SAZ2)")
    p.add_argument("--opening-plies", type=int, default=0, help="chess: random plies first")
    p.add_argument("--shard-positions", type=int, default=DEFAULT_SHARD_POSITIONS, help="chess: positions a shard")
    p.add_argument("--overwrite", action="store_true")
    return p


def run(args: argparse.Namespace) -> int:
    options = {n: getattr(args, n) for n in SEARCH_OPTIONS if getattr(args, n) is not None}
    s = selfplay(args.game, args.checkpoint, args.output, args.games, search=options, max_plies=args.max_plies,
                 opening_plies=args.opening_plies, saz=args.saz, shard_positions=args.shard_positions,
                 actors=args.actors, cpus_per_actor=args.cpus_per_actor, gpus_per_actor=args.gpus_per_actor,
                 device=args.device, games_per_task=args.games_per_task, torch_threads=args.torch_threads,
                 work_dir=args.work_dir, overwrite=args.overwrite, progress=True)
    actors = f"{s.actors} actor" + ("" if s.actors == 1 else "s")
    print(f"{s.games} games, {s.positions:,} positions in {s.parts} parts ({s.played} played, {s.skipped} already "
          f"done) on {actors}, {s.seconds:.2f} s -> {s.output}")
    return 0
