"""Each input of the report read through manaka's own readers into a Section:
its summary table, its figures (numbers first, figures.py) and board pictures.

Large inputs are sampled: shard sets by whole row groups spread evenly over
the set, streams and corpora by their first rows, VPD1 files by their
random_key order (already a uniform sample). Every section says how many rows
it drew from and how many the input has.

Bad input: a file the report cannot read is refused with InputError (a
ValueError), one line "<path>: <where>: <rule>" (a JSON line 1-based, a
parquet row 0-based within its file as `teacher convert` words them, a shard
row by file, row group and row as `stream export` words it, a VPD1 row by
its id). Rows the report can leave out (those `teacher convert` refuses for a
field, a VPD1 row with a null column) are left out and counted in
Section.skipped; values the figures cannot show (a shard's value_z outside
[-1, 1], a VPD1 file not marked complete) are said in Section.alarms.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import pyarrow as pa
import pyarrow.parquet as pq

import manaka
from manaka.report.sources.chess_corpus import read_chess
from manaka.report.sources.files import json_lines, parquet_files
from manaka.report.sources.metrics import read_metrics
from manaka.report.sources.saz import read_saz
from manaka.report.sources.section import READ_ERRORS, InputError, Section, Skipped, error_message, with_path
from manaka.report.sources.shards import read_shards
from manaka.report.sources.statistics import game_ids, policy_stats, shuffle_pairs
from manaka.report.sources.stream import read_stream
from manaka.report.sources.teacher_corpus import read_corpus
from manaka.report.sources.vpd import read_vpd

__all__ = ["Section", "Skipped", "InputError", "detect", "read_input", "shuffle_pairs", "policy_stats", "game_ids"]

# The reader of each kind detect tells apart.
_READERS: dict[str, Callable[..., Section]] = {
    "shards": read_shards, "stream": read_stream, "saz": read_saz, "chess": read_chess, "vpd": read_vpd,
    "corpus": read_corpus, "metrics": read_metrics}


def detect(path: str) -> str:
    """shards | stream | saz | chess | vpd | corpus | metrics, from the
    content (magic bytes, parquet schema, JSON keys), not the name alone."""
    p = Path(path)
    if p.is_dir():
        if list(p.glob("shard_*.npz")):
            return "chess"
        files = parquet_files(path)
        if not files:
            raise InputError(f"{path}: a directory with neither *.parquet nor shard_*.npz files")
        return _parquet_kind(files[0])
    with open(p, "rb") as f:
        head = f.read(16)
    if head.startswith(b"MPK1"):
        return "stream"
    if head.startswith(b"SQLite format 3"):
        return "vpd"
    if head.startswith(b"PK"):
        return "chess"
    if head.startswith(b"PAR1"):
        return _parquet_kind(path)
    if p.suffix == ".saz" or head[:4] in (b"SAZ2",):
        return "saz"
    if p.suffix in (".jsonl", ".ndjson", ".json"):
        lines = json_lines(path)
        first = next(lines, None)
        lines.close()
        return "corpus" if first is not None and "sfen" in first[1] else "metrics"
    raise InputError(f"{path}: not a format the report reads (MPK1, shards, SAZ2, chess npz, VPD1, "
                     "teacher corpus, metrics JSON lines)")


def _parquet_kind(path: str) -> str:
    """shards when manaka's shard reader opens the file; corpus when it has
    an sfen column; else the shard reader's reason (a shard with a broken
    footer is not taken for a corpus)."""
    from manaka.shards import ShardFile

    try:
        ShardFile(path)
        return "shards"
    except manaka.Error as e:
        shard_error = str(e)
    try:
        names = pq.read_schema(path).names
    except (pa.ArrowException, OSError) as e:
        raise InputError(error_message(path, e)) from e
    if "sfen" in names or "packed" not in names:
        return "corpus"
    raise InputError(with_path(path, shard_error))


def read_input(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    """The input's section. Errors of the readers under it come out as
    InputError naming the file; any other exception is a bug and is not caught."""
    try:
        kind = detect(path)
        reader = _READERS[kind]
        return reader(path, max_rows=max_rows, n_boards=n_boards, eval_coef=eval_coef)
    except InputError:
        raise
    except READ_ERRORS as e:
        raise InputError(error_message(path, e)) from e
