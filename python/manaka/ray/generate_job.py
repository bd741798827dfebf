"""What the engine-game jobs share (``teacher_job``, ``corpus_job``): games
split into tasks by game index.

Game i of a run seeded with S is a function of (S, i) and the engine's
answers (src/teacher/game.h, src/corpus/game.h), so the native generator run
over games [N, N + M) (``--first-game N --games M``) plays exactly the games
N..N+M-1 of the whole run. A job is one Ray task per such range; each task
runs the native generator into a directory of its own under
``<OUTPUT>.ray-work/parts/`` and publishes it whole (tasks.publish_dir). The
driver then assembles the output from the parts, in game order, into a
staging directory and renames it onto the output: the output is complete or
absent. A restarted job with the same arguments (``job.json``) skips every
range whose part is published.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from manaka.ray.tasks import read_done, run_round, write_json

__all__ = ["RayGenerateSummary", "game_ranges", "manaka_executable"]

MAX_RETRIES = 3


@dataclass
class RayGenerateSummary:
    output: str = ""
    games: int = 0
    positions: int = 0
    parts: List[Dict[str, Any]] = field(default_factory=list)  # each task's result, in game order
    tasks: int = 0    # tasks run by this call
    skipped: int = 0  # ranges whose part was already published (a restart)
    seconds: float = 0.0


def game_ranges(games: int, per_task: int) -> List[Tuple[int, int]]:
    """(first_game, games) of each task: [0, games) cut every per_task games."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if per_task < 1:
        raise ValueError(f"games_per_task must be at least 1, not {per_task}")
    return [(first, min(per_task, games - first)) for first in range(0, games, per_task)]


def manaka_executable() -> str:
    """The `manaka` command installed beside this Python (on every node)."""
    return str(Path(sys.executable).with_name("manaka"))


def part_dir(work: str, index: int) -> str:
    return os.path.join(work, "parts", f"p-{index:05d}")


def new_tmp(final: str) -> str:
    """A fresh directory beside final for one attempt of its task."""
    tmp = f"{final}.tmp-{uuid.uuid4().hex}"
    os.makedirs(tmp)
    return tmp


def maybe_fault(index: int, fault_task: Optional[int], fault_marker: Optional[str]) -> None:
    # Test hook: task fault_task's first attempt creates the marker and kills
    # its worker process, as a lost node would; without a marker every
    # attempt fails.
    if index != fault_task:
        return
    if fault_marker is None:
        raise RuntimeError(f"task {index}: failed on purpose (fault_task)")
    try:
        fd = os.open(fault_marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(1)


def remove_output(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def run_job(name: str, output: str, job: Dict[str, Any], ranges: List[Tuple[int, int]], overwrite: bool,
            progress: bool, submit: Callable[[int, int, int, str], Any],
            assemble: Callable[[List[str], str], None]) -> RayGenerateSummary:
    """The driver of a generation job: opens (or resumes) the work directory,
    runs one task per missing range, assembles the parts into a staging
    directory and renames it onto output."""
    start = time.monotonic()
    work = output + ".ray-work"
    job_path = os.path.join(work, "job.json")
    try:
        with open(job_path) as f:
            same_job = json.load(f) == job
    except (FileNotFoundError, ValueError):
        same_job = False
    if os.path.lexists(output) and not overwrite:
        raise FileExistsError(f"{output}: exists; pass overwrite=True (--overwrite) to replace it")
    if not same_job:
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(os.path.join(work, "parts"))
        write_json(job_path, job)

    done = [read_done(part_dir(work, i)) for i in range(len(ranges))]
    todo = [i for i, d in enumerate(done) if d is None]
    refs = [submit(i, ranges[i][0], ranges[i][1], work) for i in todo]
    results = run_round(name, "games", refs, progress, lambda r: int(r["positions"]), "positions")
    for i, r in zip(todo, results):
        done[i] = r

    # Every part is whole: assemble beside the output, then one rename.
    staging = f"{output}.tmp-{uuid.uuid4().hex}"
    try:
        assemble([part_dir(work, i) for i in range(len(ranges))], staging)
        remove_output(output)
        os.rename(staging, output)
    except BaseException:
        remove_output(staging)
        raise
    shutil.rmtree(work, ignore_errors=True)
    parts = [dict(d) for d in done if d is not None]
    return RayGenerateSummary(output=output, games=sum(g for _, g in ranges),
                              positions=sum(int(p["positions"]) for p in parts), parts=parts, tasks=len(todo),
                              skipped=len(ranges) - len(todo), seconds=time.monotonic() - start)


def print_summary(s: RayGenerateSummary) -> None:
    print(f"{s.output}: {s.games} games, {s.positions} positions, {len(s.parts)} parts, {s.seconds:.2f} s"
          + (f" ({s.skipped} tasks already done)" if s.skipped else ""))
