"""``python -m manaka.ray JOB ...``: each job's module adds its subcommand."""

from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Optional, Sequence

import ray

from manaka import Error as ManakaError
from manaka.ray import corpus_job, pack_job, selfplay_job, teacher_job

JOBS = {"pack": pack_job, "teacher-generate": teacher_job, "chess-corpus": corpus_job, "selfplay": selfplay_job}


class ConnectError(Exception):
    """No Ray to join at the address given."""


def connect(address: Optional[str]) -> None:
    """Joins the Ray named by ``address``; with none given and no RAY_ADDRESS, starts one here."""
    if address is None and not os.environ.get("RAY_ADDRESS"):
        # What a user trying the command on a laptop expects; a cluster is joined only when named.
        print(f"manaka.ray: no --address and no RAY_ADDRESS: starting a local Ray on this machine "
              f"({os.cpu_count()} CPUs)", file=sys.stderr)
        address = "local"
    if address == "local":
        ray.init(include_dashboard=False)
        return
    try:
        ray.init(address=address)  # None: RAY_ADDRESS's
    except ConnectionError as e:
        named = f"--address {address}" if address is not None else f"RAY_ADDRESS={os.environ['RAY_ADDRESS']}"
        hint = ("no Ray cluster runs on this node (`ray start --head` starts one; without --address a local Ray "
                "is started)" if address == "auto" else "; ".join(str(e).splitlines()))
        raise ConnectError(f"{named}: {hint}") from e


_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def failure_line(e: BaseException) -> str:
    """One line for a job that failed: a task's own error (its retries spent) rather than Ray's
    traceback of it, without colour codes, so a log holds what went wrong and where."""
    if isinstance(e, ray.exceptions.RayTaskError):
        # Ray raises an instance of both RayTaskError and the cause's class, whose str is Ray's traceback.
        cause = getattr(e, "cause", None) or e
        what = f"a task failed (its retries spent): {type(cause).__name__}: {cause}"
    else:
        what = f"{type(e).__name__}: {e}"
    return " ".join(_ANSI.sub("", what).split())


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m manaka.ray", description="manaka's long jobs as Ray tasks")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, job in JOBS.items():
        p = job.add_parser(sub)
        p.add_argument("--work-dir", default=None,
                       help="the tasks' files, on a path every node sees (default: the output's path + .ray-work; "
                            "required when the output is a URI)")
        p.add_argument("--address", default=None,
                       help="auto: the cluster `ray start` made on this node; local: a Ray of this process; "
                            "or HOST:PORT (default: RAY_ADDRESS's cluster, else a local Ray)")
    args = parser.parse_args(argv)
    if not sys.stderr.isatty():
        os.environ.setdefault("RAY_COLOR_PREFIX", "0")  # Ray's forwarded worker lines, uncoloured in a log
    try:
        connect(args.address)
    except ConnectError as e:
        print(f"python -m manaka.ray {args.command}: {e}", file=sys.stderr)
        return 2
    try:
        return int(JOBS[args.command].run(args))
    except (ray.exceptions.RayTaskError, ManakaError, OSError, ValueError) as e:
        print(f"python -m manaka.ray {args.command}: {failure_line(e)}", file=sys.stderr)
        return 1
    finally:
        ray.shutdown()


if __name__ == "__main__":
    sys.exit(main())
