"""manaka's long jobs as Ray tasks: ``python -m manaka.ray JOB ...``.

    python -m manaka.ray pack STREAM... -o PREFIX --buckets K [--seed S] ...
    python -m manaka.ray teacher-generate --engine PATH --games N --games-per-task M -o OUT ...
    python -m manaka.ray chess-corpus -o DIR --games N --games-per-task M ...

One module per job (``pack_job``, ``teacher_job``, ``corpus_job``; the two
generation jobs share ``generate_job``); ``tasks`` holds what every job's tasks share
(outputs trusted only once whole, rounds of tasks with a progress line).
docs/distributed.md says how to run each on a real cluster.

The package is named ``ray`` inside ``manaka``; every import in it is
absolute, so ``import ray`` is Ray itself.
"""

from manaka.ray.corpus_job import chess_corpus
from manaka.ray.generate_job import RayGenerateSummary
from manaka.ray.pack_job import RayPackSummary, pack
from manaka.ray.teacher_job import teacher_generate

__all__ = ["pack", "RayPackSummary", "teacher_generate", "chess_corpus", "RayGenerateSummary"]
