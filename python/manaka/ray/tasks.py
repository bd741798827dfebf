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
from typing import Any, Callable, List, Optional

import ray


def write_json(path: str, value: Any) -> None:
    tmp = f"{path}.tmp-{uuid.uuid4().hex}"
    with open(tmp, "w") as f:
        json.dump(value, f)
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
            took = time.monotonic() - start
            eta = took / done * (len(refs) - done)
            rate = f", {units:,} {unit}, {units / max(took, 1e-9):,.0f} {unit}/s" if count is not None else ""
            print(f"manaka.ray {job}: {name} {done}/{len(refs)} tasks{rate}, {took:.1f} s, ETA {eta:.1f} s",
                  file=sys.stderr, flush=True)
    if error is not None:
        raise error
    return ray.get(refs)
