"""``manaka teacher generate`` as Ray tasks: ``python -m manaka.ray teacher-generate ...``.

    python -m manaka.ray teacher-generate --engine PATH --games N (--depth D | --nodes N)
        -o OUT --games-per-task M [--multipv K] [--workers W] [--seed S]
        [--opening-plies P] [--max-plies L] [--mate-scale C] [--engine-option NAME=VALUE ...]
        [--engine-timeout SECONDS] [--address auto|local|HOST:PORT (default: RAY_ADDRESS, else local)] [--overwrite]

One task per range of M games (generate_job): each runs the native
generator (``manaka._core.teacher.generate`` with ``first_game``) with W
engines into a part of its own. OUT is a directory of those parts,
``part-00000.parquet``, ... in game order, one per task: joining them into
one parquet file would decode and re-encode every row, and a directory of
parquet files is already what ``manaka teacher convert``, ``fit-coef`` and
pyarrow (``pq.read_table(OUT)``) take as one corpus. Its rows are the rows
of ``manaka teacher generate -o OUT.parquet`` with the same options (a depth
or node limit), in the same order.
"""

from __future__ import annotations

import argparse
import os
import shutil
from typing import Any, Dict, Mapping, Optional

import ray

from manaka import teacher
from manaka._core import teacher as _native
from manaka.ray.generate_job import (MAX_RETRIES, RayGenerateSummary, new_tmp,
                                     print_summary, run_job)
from manaka.ray.tasks import fault, part_dir, publish_dir

__all__ = ["teacher_generate", "add_parser", "run"]

PART = "part.parquet"
_DEFAULTS = _native.generate_defaults()  # the defaults, defined once in C++ (teacher/generate.h)


@ray.remote(max_retries=MAX_RETRIES, retry_exceptions=True)
def _generate_task(options: Dict[str, Any], index: int, first_game: int, games: int, work: str,
                   fault_task: Optional[int], fault_marker: Optional[str]) -> Dict[str, Any]:
    fault(index, fault_task, fault_marker)
    final = part_dir(work, index)
    tmp = new_tmp(final)
    s = teacher.generate(options["engine"], os.path.join(tmp, PART), games=games, first_game=first_game,
                         multipv=options["multipv"], depth=options["depth"], nodes=options["nodes"],
                         workers=options["workers"], seed=options["seed"], opening_plies=options["opening_plies"],
                         max_plies=options["max_plies"], mate_scale=options["mate_scale"],
                         engine_options=options["engine_options"], engine_timeout=options["engine_timeout"])
    result = {"first_game": first_game, "games": games, "positions": int(s["positions"]),
              "games_completed": int(s["games_completed"]), "games_lost": int(s["games_lost"]),
              "games_illegal": int(s["games_illegal"])}
    return dict(publish_dir(tmp, final, result))


def _assemble(parts: list, staging: str) -> None:
    os.makedirs(staging)
    for k, part in enumerate(parts):
        src, dst = os.path.join(part, PART), os.path.join(staging, f"part-{k:05d}.parquet")
        try:
            os.link(src, dst)
        except OSError:
            shutil.copyfile(src, dst)


def teacher_generate(engine: str, output: str, *, games: int, games_per_task: int,
                     depth: Optional[int] = None, nodes: Optional[int] = None,
                     multipv: int = _DEFAULTS["multipv"], workers: int = 1,
                     seed: int = _DEFAULTS["seed"], opening_plies: int = _DEFAULTS["opening_plies"],
                     max_plies: int = _DEFAULTS["max_plies"],
                     mate_scale: int = _DEFAULTS["mate_scale"],
                     engine_options: Optional[Mapping[str, str]] = None,
                     engine_timeout: float = _DEFAULTS["engine_timeout"], overwrite: bool = False,
                     work_dir: Optional[str] = None, filesystem: Any = None,
                     progress: bool = False, fault_task: Optional[int] = None,
                     fault_marker: Optional[str] = None) -> RayGenerateSummary:
    """`manaka teacher generate` on the Ray cluster this process is connected
    to (ray.init first): output becomes a directory of parquet parts in game
    order. fault_task and fault_marker are for tests (tasks.fault)."""
    if depth is None and nodes is None:
        raise ValueError("teacher_generate: give depth or nodes")
    options = {"engine": os.path.abspath(engine) if os.path.exists(engine) else engine, "multipv": multipv,
               "depth": depth, "nodes": nodes, "workers": workers, "seed": seed, "opening_plies": opening_plies,
               "max_plies": max_plies, "mate_scale": mate_scale,
               "engine_options": {str(k): str(v) for k, v in (engine_options or {}).items()},
               "engine_timeout": engine_timeout}
    return run_job("teacher-generate", output, {"options": options}, games, games_per_task, workers,
                   _generate_task, options, _assemble, overwrite, progress, work_dir, filesystem, fault_task,
                   fault_marker)


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("teacher-generate",
                       help="manaka teacher generate as Ray tasks, one per range of games (a directory of parts)")
    p.add_argument("--engine", required=True, help="USI engine executable, at this path on every node")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--games-per-task", type=int, required=True)
    p.add_argument("-o", "--output", required=True, help="the corpus: a directory of parquet parts")
    limit = p.add_mutually_exclusive_group(required=True)
    limit.add_argument("--depth", type=int)
    limit.add_argument("--nodes", type=int)
    p.add_argument("--multipv", type=int, default=_DEFAULTS["multipv"])
    p.add_argument("--workers", type=int, default=1, help="engines per task (the CPUs each task asks Ray for)")
    p.add_argument("--seed", type=int, default=_DEFAULTS["seed"])
    p.add_argument("--opening-plies", type=int, default=_DEFAULTS["opening_plies"])
    p.add_argument("--max-plies", type=int, default=_DEFAULTS["max_plies"])
    p.add_argument("--mate-scale", type=int, default=_DEFAULTS["mate_scale"])
    p.add_argument("--engine-option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--engine-timeout", type=float, default=_DEFAULTS["engine_timeout"])
    p.add_argument("--overwrite", action="store_true")
    return p


def run(args: argparse.Namespace) -> int:
    engine_options = {}
    for kv in args.engine_option:
        name, sep, value = kv.partition("=")
        if not sep:
            raise SystemExit(f"--engine-option {kv!r}: expected NAME=VALUE")
        engine_options[name] = value
    s = teacher_generate(args.engine, args.output, games=args.games, games_per_task=args.games_per_task,
                         depth=args.depth, nodes=args.nodes, multipv=args.multipv, workers=args.workers,
                         seed=args.seed, opening_plies=args.opening_plies, max_plies=args.max_plies,
                         mate_scale=args.mate_scale, engine_options=engine_options,
                         engine_timeout=args.engine_timeout, overwrite=args.overwrite,
                         work_dir=args.work_dir, progress=True)
    print_summary(s)
    return 0
