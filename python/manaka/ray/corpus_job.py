"""``manaka chess corpus`` as Ray tasks: ``python -m manaka.ray chess-corpus ...``.

    python -m manaka.ray chess-corpus -o DIR --games N --games-per-task M
        [--nodes N | --depth D | --movetime SECONDS] [--workers W] [--seed S]
        [--opening-plies P] [--shard-size K] [--engine PATH] [--hash MB] [--pgn]
        [--address auto|local|HOST:PORT (default: RAY_ADDRESS, else local)] [--overwrite]

One task per range of M games (generate_job): each runs ``manaka chess
corpus --first-game F --games M`` (the executable beside this Python) with
W engines into a corpus directory of its own. The driver joins the parts in
game order (``manaka._core.chess_corpus.join_parts``, src/chess_corpus/manifest.h):
one corpus directory, shards renumbered ``shard_000000.npz``, ..., one
``corpus.json`` over all of them. Its records, read in shard order, are the
records of ``manaka chess corpus`` with the same options (a node or depth
limit); where the shards are cut differs (each part ends with a short one).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from typing import Any, Dict, List, Optional

import ray

from manaka._core import chess_corpus as _native
from manaka.ray.generate_job import (MAX_RETRIES, RayGenerateSummary, manaka_executable,
                                     new_tmp, print_summary, run_job)
from manaka.ray.tasks import fault, part_dir, publish_dir

__all__ = ["chess_corpus", "add_parser", "run"]



@ray.remote(max_retries=MAX_RETRIES, retry_exceptions=True)
def _corpus_task(args: List[str], index: int, first_game: int, games: int, work: str,
                 fault_task: Optional[int], fault_marker: Optional[str]) -> Dict[str, Any]:
    fault(index, fault_task, fault_marker)
    final = part_dir(work, index)
    tmp = new_tmp(final)
    cmd = [manaka_executable(), "chess", "corpus", "-o", tmp, "--games", str(games), "--first-game",
           str(first_game), "--json", *args]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"games [{first_game}, {first_game + games}): {' '.join(cmd)} failed "
                           f"({run.returncode}): {run.stderr.strip()}")
    s = json.loads(run.stdout)
    result = {"first_game": first_game, "games": int(s["corpus_games"]), "positions": int(s["corpus_positions"]),
              "shards": int(s["shards"]), "engine": s["engine"]}
    return dict(publish_dir(tmp, final, result))


def _assemble(parts: List[str], staging: str) -> None:
    _native.join_parts(parts, staging)


def chess_corpus(output: str, *, games: int, games_per_task: int, nodes: Optional[int] = None,
                 depth: Optional[int] = None, movetime: Optional[float] = None, workers: int = 1,
                 seed: Optional[int] = None, opening_plies: Optional[int] = None, shard_size: Optional[int] = None,
                 engine: Optional[str] = None, hash_mb: Optional[int] = None, pgn: bool = False,
                 overwrite: bool = False, work_dir: Optional[str] = None, filesystem: Any = None,
                 progress: bool = False, fault_task: Optional[int] = None,
                 fault_marker: Optional[str] = None) -> RayGenerateSummary:
    """`manaka chess corpus` on the Ray cluster this process is connected to
    (ray.init first): one corpus directory, the parts joined in game order.
    Give nodes or depth for games that do not depend on where they ran; an
    option left None is the command's default.
    fault_task and fault_marker are for tests (tasks.fault)."""
    if sum(x is not None for x in (nodes, depth, movetime)) > 1:
        raise ValueError("chess_corpus: give at most one of nodes, depth, movetime")
    args = ["--workers", str(workers)]
    for flag, value in (("--nodes", nodes), ("--depth", depth), ("--movetime", movetime), ("--seed", seed),
                        ("--opening-plies", opening_plies), ("--shard-size", shard_size), ("--engine", engine),
                        ("--hash", hash_mb)):
        if value is not None:
            args += [flag, str(value)]
    if pgn:
        args.append("--pgn")
    return run_job("chess-corpus", output, {"args": args}, games, games_per_task, workers, _corpus_task, args,
                   _assemble, overwrite, progress, work_dir, filesystem, fault_task, fault_marker)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("chess-corpus",
                       help="manaka chess corpus as Ray tasks, one per range of games (one corpus directory)")
    p.add_argument("-o", "--output", required=True, help="the corpus directory (written whole at the end)")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--games-per-task", type=int, required=True)
    limit = p.add_mutually_exclusive_group()
    limit.add_argument("--nodes", type=int)
    limit.add_argument("--depth", type=int)
    limit.add_argument("--movetime", type=float, help="seconds a move (games then depend on the machine)")
    p.add_argument("--workers", type=int, default=1, help="engines per task (the CPUs each task asks Ray for)")
    p.add_argument("--seed", type=int)
    p.add_argument("--opening-plies", type=int)
    p.add_argument("--shard-size", type=int)
    p.add_argument("--engine", help="UCI engine, at this path on every node (the command's default: Stockfish)")
    p.add_argument("--hash", type=int, dest="hash_mb", help="engine hash in MB")
    p.add_argument("--pgn", action="store_true")
    p.add_argument("--overwrite", action="store_true")
    return p


def run(args: argparse.Namespace) -> int:
    s = chess_corpus(args.output, games=args.games, games_per_task=args.games_per_task, nodes=args.nodes,
                     depth=args.depth, movetime=args.movetime, workers=args.workers, seed=args.seed,
                     opening_plies=args.opening_plies, shard_size=args.shard_size, engine=args.engine,
                     hash_mb=args.hash_mb, pgn=args.pgn, overwrite=args.overwrite,
                     work_dir=args.work_dir, progress=True)
    print_summary(s)
    return 0
