"""``python -m manaka.ray JOB ...``: each job's module adds its subcommand."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

import ray

from manaka.ray import corpus_job, pack_job, selfplay_job, teacher_job

JOBS = {"pack": pack_job, "teacher-generate": teacher_job, "chess-corpus": corpus_job, "selfplay": selfplay_job}


def connect(address: str) -> None:
    if address == "local":
        ray.init(include_dashboard=False)
    else:
        ray.init(address=address)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m manaka.ray", description="manaka's long jobs as Ray tasks")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, job in JOBS.items():
        p = job.add_parser(sub)
        p.add_argument("--work-dir", default=None,
                       help="the tasks' files, on a path every node sees (default: the output's path + .ray-work; "
                            "required when the output is a URI)")
        p.add_argument("--address", default="auto",
                       help="auto: the cluster `ray start` made on this node; local: a Ray of this process; "
                            "or HOST:PORT")
    args = parser.parse_args(argv)
    connect(args.address)
    try:
        return int(JOBS[args.command].run(args))
    finally:
        ray.shutdown()


if __name__ == "__main__":
    sys.exit(main())
