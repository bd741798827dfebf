"""What the tasks of every Ray job share.

A task's output is trusted only once whole: it is written under a temporary
name and renamed into place as the task's last step, with ``done.json`` (the
task's result) inside, so a retried or restarted job can tell work done from
work lost. A round is a list of tasks the driver waits for, printing a
progress line on stderr as each one ends.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import uuid
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple

import ray

from manaka._atomic import json_text


def attempt_path(final: str) -> str:
    """A fresh name beside final for one attempt of the task that writes it
    (a retried attempt never meets a dead one's files)."""
    return f"{final}.tmp-{uuid.uuid4().hex}"


def part_dir(work: str, index: int) -> str:
    """Part index of a job split into parts (ranges of games) in its work directory."""
    return os.path.join(work, "parts", f"p-{index:05d}")


def write_json(path: str, value: Any) -> None:
    tmp = attempt_path(path)
    with open(tmp, "w") as f:
        f.write(json_text(value))
    os.replace(tmp, path)


def read_done(directory: str) -> Optional[Any]:
    try:
        with open(os.path.join(directory, "done.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def publish_dir(tmp: str, final: str, result: Any) -> Any:
    """Writes done.json into tmp and renames tmp onto final (a retried task
    that lost the race keeps the winner's, which holds the same bytes)."""
    write_json(os.path.join(tmp, "done.json"), result)
    try:
        os.rename(tmp, final)
    except OSError:
        shutil.rmtree(tmp, ignore_errors=True)
        done = read_done(final)
        if done is None:
            raise
        return done
    return result


def open_work(work: str, job: Dict[str, Any], subdirs: Iterable[str],
              before_fresh: Optional[Callable[[], None]] = None) -> bool:
    """Resumes the work directory of the same job (its job.json equal to job),
    or starts it afresh: before_fresh (e.g. refusing to replace an output),
    then an empty work directory with subdirs and job.json. True on a resume."""
    try:
        with open(os.path.join(work, "job.json")) as f:
            if json.load(f) == job:
                return True
    except (FileNotFoundError, ValueError):
        pass
    if before_fresh is not None:
        before_fresh()
    shutil.rmtree(work, ignore_errors=True)
    for sub in subdirs:
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    os.makedirs(work, exist_ok=True)
    write_json(os.path.join(work, "job.json"), job)
    return False


def game_ranges(games: int, per_task: int) -> List[Tuple[int, int]]:
    """(first_game, games) of each task: [0, games) cut every per_task games."""
    if games < 1:
        raise ValueError(f"games must be at least 1, not {games}")
    if per_task < 1:
        raise ValueError(f"games_per_task must be at least 1, not {per_task}")
    return [(first, min(per_task, games - first)) for first in range(0, games, per_task)]


def kill_once(marker: str) -> None:
    """Test hook: the first caller creates marker and its worker process dies,
    as on a lost node; later callers (Ray's retries) go on."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(1)


def fault(index: int, fault_index: Optional[int], marker: Optional[str]) -> None:
    """Test hook of the task jobs: task fault_index dies once (kill_once), or,
    without a marker, fails on every attempt."""
    if index != fault_index:
        return
    if marker is None:
        raise RuntimeError(f"task {index}: failed on purpose (fault test hook)")
    kill_once(marker)


def report(job: str, name: str, done: int, total: int, start: float, units: Optional[int] = None,
           unit: str = "records", what: str = "tasks") -> None:
    """The driver's progress line on stderr: the round's (name's) tasks done
    of total, with units (records, rows, positions) their rate, elapsed and ETA."""
    took = time.monotonic() - start
    eta = took / max(done, 1) * (total - done)
    rate = f", {units:,} {unit}, {units / max(took, 1e-9):,.0f} {unit}/s" if units is not None else ""
    round_name = f"{name} " if name else ""
    print(f"manaka.ray {job}: {round_name}{done}/{total} {what}{rate}, {took:.1f} s, ETA {eta:.1f} s",
          file=sys.stderr, flush=True)


def run_round(job: str, name: str, refs: List[Any], progress: bool,
              count: Optional[Callable[[Any], int]] = None, unit: str = "records") -> List[Any]:
    """ray.get of a round's tasks in order, with a progress line per task done
    (tasks, and with count, the units its results hold and their rate).
    A failed task (its retries spent) fails the round once every other task
    has settled, so what they wrote stays for a restart."""
    start = time.monotonic()
    pending = list(refs)
    done = 0
    units = 0
    error: Optional[BaseException] = None
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        try:
            result = ray.get(ready[0])
        except Exception as e:  # noqa: BLE001 - re-raised below, after the rest
            error = error or e
            continue
        done += 1
        if count is not None:
            units += count(result)
        if progress:
            report(job, name, done, len(refs), start, units if count is not None else None, unit)
    if error is not None:
        raise error
    return ray.get(refs)
