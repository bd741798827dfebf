"""manaka's long jobs as Ray tasks: ``python -m manaka.ray JOB ...``.

    python -m manaka.ray pack STREAM... -o PREFIX --buckets K [--seed S] ...

One module per job (``pack_job``); ``tasks`` holds what every job's tasks share
(outputs trusted only once whole, rounds of tasks with a progress line).
docs/distributed.md says how to run each on a real cluster.

The package is named ``ray`` inside ``manaka``; every import in it is
absolute, so ``import ray`` is Ray itself.
"""

from manaka.ray.pack_job import RayPackSummary, pack

__all__ = ["pack", "RayPackSummary"]
