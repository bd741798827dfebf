"""What the engine-game jobs share (``teacher_job``, ``corpus_job``): games
split into tasks by game index.

Game i of a run seeded with S is a function of (S, i) and the engine's
answers (src/teacher/game.h, src/chess_corpus/game.h), so the native generator run
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

import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from manaka.ray import storage
from manaka.ray.tasks import attempt_path, game_ranges, open_work, part_dir, read_done, run_round

__all__ = ["RayGenerateSummary", "manaka_executable"]

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


def manaka_executable() -> str:
    """The `manaka` command installed beside this Python (on every node)."""
    return str(Path(sys.executable).with_name("manaka"))


def new_tmp(final: str) -> str:
    """A fresh directory beside final for one attempt of its task."""
    tmp = attempt_path(final)
    os.makedirs(tmp)
    return tmp


def remove_output(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    elif os.path.lexists(path):
        os.remove(path)


def run_job(name: str, output: str, job: Dict[str, Any], games: int, games_per_task: int, workers: int,
            task: Any, payload: Any, assemble: Callable[[List[str], str], None], overwrite: bool,
            progress: bool, work_dir: Optional[str] = None, filesystem: Any = None,
            fault_task: Optional[int] = None, fault_marker: Optional[str] = None) -> RayGenerateSummary:
    """The driver of a generation job: opens (or resumes) the work directory,
    runs one task per missing range of games (``task.remote(payload, i,
    first, n, work, fault_task, fault_marker)``, asking Ray for ``workers``
    CPUs: its engines), assembles the parts into a staging directory and
    renames it onto output (a local path), or uploads it (a URI, or a path on
    ``filesystem``: storage.publish_tree). ``job`` holds the job's own
    arguments, recorded in job.json beside the games and their split."""
    if not 1 <= workers <= 256:
        raise ValueError(f"workers must be 1..256, not {workers}")
    ranges = game_ranges(games, games_per_task)
    job = {"job": name, **job, "games": games, "games_per_task": games_per_task}
    remote = task.options(num_cpus=workers)
    start = time.monotonic()
    dest = storage.resolve(output, filesystem)
    work = storage.work_dir_for(dest, work_dir, ".ray-work")
    if storage.exists(dest) and not overwrite:
        raise FileExistsError(f"{output}: exists; pass overwrite=True (--overwrite) to replace it")
    open_work(work, job, ("parts",))

    done = [read_done(part_dir(work, i)) for i in range(len(ranges))]
    todo = [i for i, d in enumerate(done) if d is None]
    refs = [remote.remote(payload, i, ranges[i][0], ranges[i][1], work, fault_task, fault_marker) for i in todo]
    results = run_round(name, "games", refs, progress, lambda r: int(r["positions"]), "positions")
    for i, r in zip(todo, results):
        done[i] = r

    # Every part is whole: assemble beside the output, then one rename (or the upload).
    staging = attempt_path(dest.path) if dest.local else os.path.join(work, "output")
    try:
        remove_output(staging)
        assemble([part_dir(work, i) for i in range(len(ranges))], staging)
        if dest.local:
            remove_output(dest.path)
            os.rename(staging, dest.path)
        else:
            storage.publish_tree(staging, dest, overwrite=True)
    finally:
        remove_output(staging)
    shutil.rmtree(work, ignore_errors=True)
    parts = [dict(d) for d in done if d is not None]
    return RayGenerateSummary(output=output, games=sum(g for _, g in ranges),
                              positions=sum(int(p["positions"]) for p in parts), parts=parts, tasks=len(todo),
                              skipped=len(ranges) - len(todo), seconds=time.monotonic() - start)


def print_summary(s: RayGenerateSummary) -> None:
    print(f"{s.output}: {s.games} games, {s.positions} positions, {len(s.parts)} parts, {s.seconds:.2f} s"
          + (f" ({s.skipped} tasks already done)" if s.skipped else ""))
