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

import manaka

import json
import math
import os
import re
import sqlite3
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Generator, Optional, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from manaka import shogi
from manaka.report import boards
from manaka.report.figures import Figure, Series, curve, histogram, integer_histogram

__all__ = ["Section", "Skipped", "InputError", "detect", "read_input", "shuffle_pairs", "policy_stats", "game_ids"]

# The fold's softmax temperature (fold/policy.h): how cp candidates become a
# policy target when a format stores no probabilities.
PACK_TEMPERATURE = 100.0
# Boards whose legal moves are counted (a sample of the sample).
LEGAL_SAMPLE = 400
# Rows per batch for the same-game statistic.
BATCH = 256
BLOCKS = 24


class InputError(ValueError):
    """An input the report refuses: one line naming the file, where in it
    (line, row, row group, record, byte) and the rule it breaks."""


@dataclass
class Skipped:
    """Rows of one input left out of its figures for one reason."""

    reason: str      # teacher convert's name where it has one (missing_value, out_of_range, ...)
    text: str        # what the reason means
    count: int = 0
    first: str = ""  # the first one: "<path>: <where>: <rule>"
    unit: str = "rows"


@dataclass
class Section:
    title: str
    path: str
    kind: str
    summary: list[tuple[str, str]] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)  # SVG text
    notes: list[str] = field(default_factory=list)
    skipped: dict[str, Skipped] = field(default_factory=dict)  # by reason, in the order first met
    alarms: list[str] = field(default_factory=list)  # what the reader of the figures must know

    def skip(self, reason: str, text: str, first: str, unit: str = "rows") -> None:
        s = self.skipped.setdefault(reason, Skipped(reason, text, 0, first, unit))
        s.count += 1

    @property
    def rows_skipped(self) -> int:
        return sum(s.count for s in self.skipped.values())


def _with_path(path: str, message: str) -> str:
    """A library's message, led by the input's path unless it names it (or a file in it) already."""
    return message if message.startswith(path) else f"{path}: {message}"


def _reason(e: BaseException) -> str:
    """A reader's error as a rule broken, without the path: the OS's reason
    ("Permission denied", not "[Errno 13] ..."), SQLite's with its name."""
    if isinstance(e, OSError) and not isinstance(e, manaka.Error) and e.strerror:
        return e.strerror
    # Arrow's messages may run over lines ("...\nDeserializing page header failed."): one line.
    text = "; ".join(line.strip() for line in str(e).splitlines() if line.strip())
    return f"SQLite: {text}" if isinstance(e, sqlite3.Error) else text


def _error_message(path: str, e: BaseException) -> str:
    """One line for a reader's error, led by the file it names, else by the input's path."""
    if isinstance(e, OSError) and not isinstance(e, manaka.Error) and e.strerror \
            and isinstance(e.filename, (str, bytes)):
        return _with_path(path, f"{os.fsdecode(e.filename)}: {e.strerror}")
    return _with_path(path, _reason(e))


# What manaka's readers and the libraries under them raise for a file they
# cannot read; anything else is a bug of the report and keeps its traceback.
_READ_ERRORS = (manaka.Error, pa.ArrowException, sqlite3.Error, OSError)


def detect(path: str) -> str:
    """shards | stream | saz | chess | vpd | corpus | metrics, from the
    content (magic bytes, parquet schema, JSON keys), not the name alone."""
    p = Path(path)
    if p.is_dir():
        if list(p.glob("shard_*.npz")):
            return "chess"
        files = _parquet_files(path)
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
        lines = _json_lines(path)
        first = next(lines, None)
        lines.close()
        return "corpus" if first is not None and "sfen" in first[1] else "metrics"
    raise InputError(f"{path}: not a format the report reads (MPK1, shards, SAZ2, chess npz, VPD1, "
                     "teacher corpus, metrics JSON lines)")


def _parquet_files(path: str) -> list[str]:
    """A directory's *.parquet in name order, names starting with . or _ left
    out (as pyarrow and `teacher convert` do); a file is itself."""
    if not os.path.isdir(path):
        return [path]
    return [str(f) for f in sorted(Path(path).glob("*.parquet")) if not f.name.startswith((".", "_"))]


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
        raise InputError(_error_message(path, e)) from e
    if "sfen" in names or "packed" not in names:
        return "corpus"
    raise InputError(_with_path(path, shard_error))


def _json_lines(path: str) -> Generator[tuple[int, dict], None, None]:
    """(line number from 1, object) of each non-blank line, read as they are
    asked for; a line that is not UTF-8 or not a JSON object refuses the file."""
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw.decode("utf-8").rstrip())  # columns count from the line's start
            except UnicodeDecodeError as e:
                raise InputError(f"{path}: line {n}: not UTF-8 text (byte {e.start + 1} of the line)") from e
            except json.JSONDecodeError as e:
                msg = e.msg[:-3] if e.msg.endswith(" at") else e.msg  # "Invalid control character at"
                raise InputError(f"{path}: line {n}: not a JSON object ({msg} at column {e.colno})") from e
            if not isinstance(value, dict):
                raise InputError(f"{path}: line {n}: not a JSON object (a JSON {_json_type(value)})")
            yield n, value


def _json_type(v: Any) -> str:
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array"}.get(type(v), "null")


def read_input(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    """The input's section. Errors of the readers under it come out as
    InputError naming the file; any other exception is a bug and is not caught."""
    try:
        kind = detect(path)
        reader = {"shards": _shards, "stream": _stream, "saz": _saz, "chess": _chess, "vpd": _vpd,
                  "corpus": _corpus, "metrics": _metrics}[kind]
        return reader(path, max_rows=max_rows, n_boards=n_boards, eval_coef=eval_coef)
    except InputError:
        raise
    except _READ_ERRORS as e:
        raise InputError(_error_message(path, e)) from e


# ---- shared statistics -------------------------------------------------------------------------

def policy_stats(offsets: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row with candidates: the entropy (nats) and top-1 probability of
    the weights normalised to sum 1."""
    offsets = np.asarray(offsets, dtype=np.int64)
    w = np.asarray(weights, dtype=np.float64)
    has = np.diff(offsets) > 0
    starts = offsets[:-1][has]
    if starts.size == 0:
        return np.zeros(0), np.zeros(0)
    total = np.add.reduceat(w, starts)
    wlogw = np.where(w > 0, w * np.log(np.where(w > 0, w, 1.0)), 0.0)
    ok = total > 0
    s = np.where(ok, total, 1.0)
    entropy = np.log(s) - np.add.reduceat(wlogw, starts) / s
    top1 = np.maximum.reduceat(w, starts) / s
    return entropy[ok], top1[ok]


def game_ids(ply: np.ndarray) -> np.ndarray:
    """Games as runs of rows whose ply keeps increasing (how streams and
    corpora lay games out): a new game where ply does not exceed the last."""
    ply = np.asarray(ply, dtype=np.int64)
    starts = np.ones(len(ply), dtype=bool)
    starts[1:] = ply[1:] <= ply[:-1]
    return np.cumsum(starts) - 1


def shuffle_pairs(game: np.ndarray, batch: int = BATCH) -> tuple[np.ndarray, float]:
    """Same-game pairs in each batch of `batch` consecutive rows, and what a
    perfect shuffle gives on average: C(B, 2) * sum n_g (n_g - 1) / (N (N - 1))."""
    game = np.asarray(game, dtype=np.int64)
    n = len(game) // batch * batch
    pairs = []
    for b in range(0, n, batch):
        _, c = np.unique(game[b:b + batch], return_counts=True)
        pairs.append(int((c * (c - 1) // 2).sum()))
    _, sizes = np.unique(game, return_counts=True)
    N = len(game)
    expected = batch * (batch - 1) / 2 * float((sizes * (sizes - 1)).sum()) / (N * (N - 1)) if N > 1 else 0.0
    return np.array(pairs, dtype=np.int64), expected


def _shuffle_figure(game: np.ndarray, what: str) -> Figure:
    pairs, expected = shuffle_pairs(game)
    x = np.arange(len(pairs))
    return curve("shuffle", f"same-game pairs per batch of {BATCH}", "batch", "pairs",
                 [Series("in reading order", x, pairs, "o"),
                  Series(f"perfect shuffle ({expected:.2f})", x, np.full(len(x), expected), "--")],
                 note=f"mean {pairs.mean() if len(pairs) else 0:.2f} pairs per batch against {expected:.2f} "
                      f"for a perfect shuffle ({what})")


def _block_figure(ply: np.ndarray) -> Figure:
    """Mean ply of 24 consecutive blocks, beside the band a perfect shuffle
    keeps them in (mean +- 2 sigma / sqrt(block rows)); `manaka shards inspect`'s statistic."""
    ply = np.asarray(ply, dtype=np.float64)
    rows = len(ply) // BLOCKS
    if rows == 0:
        return curve("blocks", "ply by block (too few rows)", "block", "mean ply", [])
    means = ply[:rows * BLOCKS].reshape(BLOCKS, rows).mean(axis=1)
    mu, band = ply[:rows * BLOCKS].mean(), 2 * ply[:rows * BLOCKS].std() / math.sqrt(rows)
    x = np.arange(BLOCKS)
    ratio = means.std() / (band / 2) if band > 0 else 0.0
    return curve("blocks", f"mean ply of {BLOCKS} blocks in reading order", "block", "mean ply",
                 [Series("block mean", x, means, "o"), Series("perfect shuffle, +2 sigma", x, np.full(BLOCKS, mu + band), "--"),
                  Series("perfect shuffle, -2 sigma", x, np.full(BLOCKS, mu - band), "--")],
                 note=f"spread {ratio:.2f} times what a perfect shuffle gives (about 1.0 when shuffled)")


def _common(ply, value_z=None, value_q=None) -> list[Figure]:
    figs = [integer_histogram(ply, "ply", "ply", "ply")]
    if value_z is not None:
        vz = np.asarray(value_z, dtype=np.float64)
        figs.append(histogram(vz[np.isfinite(vz)], "value_z", "value_z (game result, side to move)", "value_z",
                              range_=(-1.0, 1.0), bins=40))
    if value_q is not None:
        figs.append(histogram(value_q, "value_q", "value_q (search value, side to move)", "value_q",
                              range_=(-1.0, 1.0), bins=40))
    return figs


def _policy_figures(offsets, weights, what: str) -> list[Figure]:
    counts = np.diff(np.asarray(offsets, dtype=np.int64))
    entropy, top1 = policy_stats(offsets, weights)
    hi = max(1.0, float(entropy.max()) if entropy.size else 1.0)
    return [integer_histogram(counts, "candidates", "candidates per position", "candidates"),
            histogram(entropy, "entropy", f"policy entropy ({what})", "nats", range_=(0.0, hi), bins=40),
            histogram(top1, "top1", f"top-1 probability ({what})", "probability", range_=(0.0, 1.0), bins=40)]


Where = Callable[[int], str]  # row i of the drawn rows -> "<path>: <where>" of it in its file


def _locator(parts: Sequence[tuple[str, int]]) -> Where:
    """Where row i of parts read one after another lies: each part is (the
    text before its row number, its row count)."""
    starts = np.cumsum([0] + [n for _, n in parts])

    def where(i: int) -> str:
        k = int(np.searchsorted(starts, i, side="right")) - 1
        return f"{parts[k][0]}{i - int(starts[k])}"
    return where


def _unpack(packed_rows: np.ndarray, i: int, where: Where) -> shogi.Board:
    """Row i's board; one that breaks a rule refuses the input, named as `stream export` names it."""
    try:
        return shogi.Board.unpack(bytes(packed_rows[i]))
    except manaka.InvalidDataError as e:
        raise InputError(f"{where(i)}: packed: {e}") from e


def _legal_figure(packed_rows: np.ndarray, where: Where) -> Figure:
    take = np.linspace(0, len(packed_rows) - 1, min(LEGAL_SAMPLE, len(packed_rows))).astype(int) if len(packed_rows) else []
    counts = [_unpack(packed_rows, int(i), where).legal_move_count() for i in take]
    return integer_histogram(np.array(counts, dtype=np.int64), "legal_moves",
                             f"legal moves ({len(counts)} boards)", "legal moves", ylabel="boards")


def _shogi_material(packed_rows: np.ndarray, where: Where) -> Figure:
    """Material balance (side to move minus the other) in pawn units,
    board bytes plus hands (P1 L3 N4 S5 G6 B8 R10, promoted as their base)."""
    kind_value = np.array([0, 10, 8, 6, 5, 4, 3, 1, 10, 8, 5, 4, 3, 1] + [0] * 242, dtype=np.int64)
    hand_value = np.array([1, 3, 4, 5, 6, 8, 10], dtype=np.int64)
    take = np.linspace(0, len(packed_rows) - 1, min(LEGAL_SAMPLE, len(packed_rows))).astype(int) if len(packed_rows) else []
    out = []
    for i in take:
        b = _unpack(packed_rows, int(i), where)
        me = 1 if b.turn else 0
        total = 0
        for sq in range(81):
            byte = b.piece_on(sq)
            if byte != 0xFF:
                total += (1 if (byte >> 4) == me else -1) * int(kind_value[byte & 0x0F])
        total += int(np.dot(b.hand(me), hand_value)) - int(np.dot(b.hand(1 - me), hand_value))
        out.append(total)
    return integer_histogram(np.array(out, dtype=np.int64), "material", f"material balance, side to move ({len(out)} boards)",
                             "pawn units", ylabel="boards")


def _spread(n: int, k: int) -> list[int]:
    return sorted(set(np.linspace(0, n - 1, min(k, n)).astype(int).tolist())) if n else []


def _shogi_boards(packed, offsets, mv, weights, n_boards: int, what: str, where: Where, ply=None) -> list[str]:
    out = []
    for i in _spread(len(packed), n_boards):
        _unpack(packed, i, where)
        a, b = int(offsets[i]), int(offsets[i + 1])
        w = np.asarray(weights[a:b], dtype=np.float64)
        s = w.sum()
        order = np.argsort(-w)[:8]
        targets = [(shogi.move16_to_usi(int(mv[a + j])), float(w[j] / s) if s > 0 else 0.0) for j in order]
        caption = f"row {i}" + (f", ply {int(ply[i])}" if ply is not None else "") + f": {what} " + \
            ", ".join(f"{u} {p:.2f}" for u, p in targets[:4])
        out.append(f"<figure class='board-figure'>{boards.shogi_svg(bytes(packed[i]), targets, caption)}"
                   f"<figcaption>{caption}</figcaption></figure>")
    return out


def _softmax_cp(offsets, cp, temperature=PACK_TEMPERATURE) -> np.ndarray:
    """Per row softmax of cp / temperature (the fold's policy from cp)."""
    offsets = np.asarray(offsets, dtype=np.int64)
    cp = np.asarray(cp, dtype=np.float64)
    counts = np.diff(offsets)
    starts = offsets[:-1][counts > 0]
    if starts.size == 0:
        return np.zeros_like(cp)
    top = np.repeat(np.maximum.reduceat(cp, starts), counts[counts > 0])
    e = np.exp((cp - top) / temperature)
    return e / np.repeat(np.add.reduceat(e, starts), counts[counts > 0])


def _concat_offsets(parts: Sequence[np.ndarray]) -> np.ndarray:
    out, base = [np.zeros(1, dtype=np.int64)], 0
    for o in parts:
        o = np.asarray(o, dtype=np.int64)
        out.append(o[1:] - o[0] + base)
        base = int(out[-1][-1]) if len(o) > 1 else base
    return np.concatenate(out)


# ---- shard sets ------------------------------------------------------------------------------

def _shards(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka.shards import NULL_CP, ShardFile, list_shards

    files = [ShardFile(p) for p in list_shards(path, require_complete=False)]
    groups = [(f, g) for f in files for g in range(f.num_row_groups)]
    total = sum(f.num_rows for f in files)
    per_group = max(1, total // max(1, len(groups)))
    k = min(len(groups), max(1, math.ceil(max_rows / per_group)))
    chosen = [groups[i] for i in _spread(len(groups), k)]
    batches = [f.read_row_group(g) for f, g in chosen]  # a read error names the file and row group
    where = _locator([(f"{f.path}: row group {g} row ", len(b)) for (f, g), b in zip(chosen, batches)])
    cat = lambda name: np.concatenate([getattr(b, name) for b in batches])  # noqa: E731
    packed, ply, vz, vq, weight = cat("packed"), cat("ply"), cat("value_z"), cat("value_q"), cat("weight")
    offsets = _concat_offsets([b.cand_offsets for b in batches if b.cand_offsets is not None])
    mv, prob, cp = cat("mv"), cat("prob"), cat("cp")
    sec = Section(f"Shard set {path}", path, "shards")
    meta = files[0].metadata
    sec.summary = [("format", "parquet shard set (manaka pack)"), ("files", str(len(files))),
                   ("rows", f"{total:,}"), ("row groups", f"{len(groups):,}"),
                   ("rows drawn", f"{len(ply):,} from {len(chosen)} row groups spread over the set"),
                   ("records folded in (drawn rows)", f"{int(weight.sum()):,}")]
    sec.summary += [(f"footer: {k_}", v) for k_, v in meta.items()]
    sec.figures = _common(ply, vz, vq)
    sec.figures.append(integer_histogram(weight, "weight", "fold weight (records per row)", "weight", logy=True))
    sec.figures += _policy_figures(offsets, prob, "prob")
    has_cp = cp != NULL_CP
    if has_cp.any():
        sec.figures.append(histogram(cp[has_cp], "cp", "candidate cp", "cp"))
    sec.figures.append(_legal_figure(packed, where))
    sec.figures.append(_shogi_material(packed, where))
    sec.figures.append(_block_figure(ply))
    sec.notes.append("Shards hold folded boards, not games, so the shuffle is judged by ply: blocks of rows in "
                     "reading order should have the same mean ply within the perfect-shuffle band.")
    sec.alarms += _shard_row_alarms(vz, vq, offsets, where)
    sec.boards = _shogi_boards(packed, offsets, mv, prob, n_boards, "prob", where, ply)
    return sec


def _shard_row_alarms(vz: np.ndarray, vq: np.ndarray, offsets: np.ndarray, where: Where) -> list[str]:
    """Drawn rows `stream export` refuses (`manaka pack` never writes them):
    a mean outside [-1, 1] or NaN, no candidate. They stay in the row counts;
    the alarm says which figures leave them out."""
    out = []
    n = len(vz)
    for name, v in (("value_z", vz), ("value_q", vq)):
        bad = np.flatnonzero(~((v >= -1.0) & (v <= 1.0)))
        if bad.size:
            i = int(bad[0])
            out.append(f"{_rows_have(bad.size, n)} {name} not within [-1, 1] (stream export refuses such rows), "
                       f"left out of the {name} figure; the first: {where(i)}: {name} {float(v[i]):g}")
    empty = np.flatnonzero(np.diff(np.asarray(offsets, dtype=np.int64)) == 0)
    if empty.size:
        out.append(f"{_rows_have(empty.size, n)} no candidate (stream export refuses such rows), drawn as 0 in the "
                   f"candidates figure and left out of entropy and top-1; the first: {where(int(empty[0]))}")
    return out


def _rows_have(k: int, n: int) -> str:
    return f"{k:,} of the {n:,} rows drawn {'has' if k == 1 else 'have'}"


# ---- MPK1 streams ----------------------------------------------------------------------------

def _stream(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka.stream import NO_CP, NO_VISITS, Reader
    from manaka.stream import inspect as stream_inspect

    batches = []
    rows = 0
    with Reader(path) as r:
        header = r.header
        for b in r.batches(65536):
            batches.append(b)
            rows += len(b)
            if rows >= max_rows:
                break
    cat = lambda name: np.concatenate([getattr(b, name) for b in batches]) if batches else np.zeros(0)  # noqa: E731
    packed, ply, vz, vq = cat("packed"), cat("ply"), cat("value_z"), cat("value_q")
    offsets = _concat_offsets([b.cand_offsets for b in batches if b.cand_offsets is not None])
    mv, visits, cp = cat("mv"), cat("visits"), cat("cp")
    sec = Section(f"MPK1 stream {path}", path, "stream")
    sec.summary = [("format", "MPK1 raw stream")]
    sec.summary += [(f"header: {k}", str(getattr(header, k))) for k in
                    ("version", "packed_len", "pov", "policy_source", "eval_coef", "mate_scale", "mate_slack",
                     "fv_scale", "flags")]
    if os.path.getsize(path) <= 2 << 30:
        info = stream_inspect(path)
        for k in ("records", "candidates", "games"):
            if k in info:
                sec.summary.append((k, json.dumps(info[k]) if not isinstance(info[k], (int, float)) else f"{info[k]:,}"))
    sec.summary.append(("rows drawn", f"{len(ply):,} (the first records)"))
    sec.figures = _common(ply, vz, vq)
    by_visits = len(visits) > 0 and bool((visits != NO_VISITS).all())
    weights = visits.astype(np.float64) if by_visits else _softmax_cp(offsets, np.where(cp == NO_CP, -1e4, cp))
    what = "visits" if by_visits else f"softmax of cp / {PACK_TEMPERATURE:g}"
    sec.figures += _policy_figures(offsets, weights, what)
    if len(cp) and (cp != NO_CP).any():
        sec.figures.append(histogram(cp[cp != NO_CP], "cp", "candidate cp", "cp"))
        coef = float(header.eval_coef) or (eval_coef or 0.0)
        if coef > 0:
            sec.figures.append(_stream_calibration(offsets, cp, vz, coef, header.mate_scale, header.mate_slack))
    where = _locator([(f"{path}: record ", len(ply))])
    if len(packed):
        sec.figures.append(_legal_figure(packed, where))
        sec.figures.append(_shogi_material(packed, where))
    sec.figures.append(_shuffle_figure(game_ids(ply), "games as runs of rising ply"))
    sec.boards = _shogi_boards(packed, offsets, mv, weights, n_boards, what, where, ply)
    return sec


def _stream_calibration(offsets, cp, value_z, coef: float, mate_scale: int, mate_slack: int) -> Figure:
    """A teacher stream's observed score (value_z turned to 0 / 0.5 / 1) by
    the best candidate's cp, beside sigmoid(cp / eval_coef) of its header."""
    offsets = np.asarray(offsets, dtype=np.int64)
    counts = np.diff(offsets)
    has = counts > 0
    best = np.maximum.reduceat(np.asarray(cp, dtype=np.float64), offsets[:-1][has])
    score = (1.0 + np.asarray(value_z, dtype=np.float64)[has]) / 2
    threshold = mate_scale - (mate_slack or 320) if mate_scale else np.inf
    keep = (np.abs(best) < threshold) & np.isfinite(score)
    best, score = best[keep], score[keep]
    edges = np.arange(-2000, 2001, 100, dtype=np.float64)
    which = np.clip(np.digitize(best, edges) - 1, 0, len(edges) - 2)
    n = np.bincount(which, minlength=len(edges) - 1)
    x = np.bincount(which, weights=best, minlength=len(edges) - 1)[n > 0] / n[n > 0]
    y = np.bincount(which, weights=score, minlength=len(edges) - 1)[n > 0] / n[n > 0]
    grid = np.linspace(-2000, 2000, 200)
    return curve("calibration", "expected score against the best candidate's cp", "cp (side to move)", "score",
                 [Series("observed (binned)", x, y, "o"),
                  Series(f"header eval_coef {coef:g}", grid, 1 / (1 + np.exp(-grid / coef)), "--")],
                 note=f"{len(best):,} records; mate scores left out")


# ---- SAZ2 chunks -----------------------------------------------------------------------------

def _saz(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka.sazpack import decode_sazpack_columns

    # Policy moves are drawn, not trusted: a chunk whose policy holds an
    # illegal move still gets its report (`manaka saz validate` judges it).
    c = decode_sazpack_columns(path, check_policy_legality=False)
    n = min(len(c), max_rows)
    offsets = c.policy_offsets[:n + 1]
    sec = Section(f"SAZ2 chunk {path}", path, "saz")
    results, result_counts = np.unique(c.game_result, return_counts=True)
    sec.summary = [("format", "SAZ2 sazpack chunk"), ("games", f"{c.games:,}"), ("positions", f"{len(c):,}"),
                   ("policy entries", f"{len(c.mv):,}"), ("rows drawn", f"{n:,}"),
                   ("game results (code: games)", ", ".join(f"{int(r)}: {int(k)}" for r, k in zip(results, result_counts)))]
    sec.figures = _common(c.ply[:n], c.value_z[:n], c.value_q[:n])
    sec.figures += _policy_figures(offsets, c.visits[:int(offsets[-1])], "visits")
    sec.figures.append(integer_histogram(np.diff(c.game_offsets), "game_length", "positions per game", "positions",
                                         ylabel="games"))
    where = _locator([(f"{path}: position ", n)])
    sec.figures.append(_legal_figure(c.packed[:n], where))
    sec.figures.append(_shuffle_figure(c.game[:n], "game index"))
    sec.boards = _shogi_boards(c.packed[:n], offsets, c.mv, c.visits, n_boards, "visits", where, c.ply)
    return sec


# ---- teacher corpora ---------------------------------------------------------------------------

# The fields the report draws, in the order `teacher convert` checks them, and
# the shape each column must have (teacher/corpus_parquet_reader.cpp). The
# played move, which convert needs too, is neither drawn nor checked here.
CORPUS_FIELDS = ("sfen", "ply", "side", "cp", "cand_moves", "cand_cp", "result")
_SHAPES = {"sfen": "a string", "ply": "an integer", "side": "an integer", "cp": "an integer",
           "cand_moves": "a list of strings", "cand_cp": "a list of integers", "result": "an integer"}
# teacher convert's refusals that need no position: a row breaking one is
# left out of the figures and counted under the same name.
CORPUS_REASONS = {"missing_value": "a field is null, absent or of the wrong type",
                  "out_of_range": "a value is out of range",
                  "length_mismatch": "its candidate lists differ in length",
                  "no_candidates": "it has no candidates"}
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_USI = re.compile(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]")


def _is_int(v: Any) -> bool:
    return type(v) is int and _INT64_MIN <= v <= _INT64_MAX  # a JSON true or 1.0 is not one


def _has_value(name: str, v: Any) -> bool:
    shape = _SHAPES[name]
    if shape == "a string":
        return isinstance(v, str)
    if shape == "an integer":
        return _is_int(v)
    if not isinstance(v, list):
        return False
    return all(isinstance(e, str) for e in v) if shape == "a list of strings" else all(_is_int(e) for e in v)


def corpus_refusal(row: dict) -> Optional[tuple[str, str]]:
    """(reason, detail) of the first of `teacher convert`'s position-free
    rules the row breaks, worded as convert words it; None when it breaks none."""
    for k in CORPUS_FIELDS:
        if not _has_value(k, row.get(k)):
            return "missing_value", f"field {k} is null, absent or of the wrong type"
    side, result, ply, moves, cps = row["side"], row["result"], row["ply"], row["cand_moves"], row["cand_cp"]
    if side not in (0, 1):
        return "out_of_range", f"side {side}, must be 0 or 1"
    if not -1 <= result <= 1:
        return "out_of_range", f"result {result}, must be 1, -1 or 0"
    if not 0 <= ply <= 65535:
        return "out_of_range", f"ply {ply}, must be 0..65535"
    if len(moves) > 65535:
        return "out_of_range", f"{len(moves)} candidates, at most 65535 fit a record"
    for c in cps:
        if not -32767 <= c <= 32767:
            return "out_of_range", f"candidate cp {c}, must be -32767..32767"
    if len(moves) != len(cps):
        return "length_mismatch", f"{len(moves)} cand_moves but {len(cps)} cand_cp"
    if not moves:
        return "no_candidates", "no candidates"
    return None


def _is_text(t: pa.DataType) -> bool:
    if pa.types.is_dictionary(t):
        return _is_text(t.value_type)
    return pa.types.is_string(t) or pa.types.is_large_string(t) or getattr(pa.types, "is_string_view", bool)(t)


def _has_shape(t: pa.DataType, shape: str) -> bool:
    if shape == "a string":
        return _is_text(t)
    if shape == "an integer":
        return pa.types.is_integer(t)
    if not (pa.types.is_list(t) or pa.types.is_large_list(t)):
        return False
    return _is_text(t.value_type) if shape == "a list of strings" else pa.types.is_integer(t.value_type)


def _open_corpus_file(file: str) -> pq.ParquetFile:
    """A corpus parquet file with the report's columns in their shapes, refused as `teacher convert` refuses it."""
    try:
        pf = pq.ParquetFile(file)
    except (pa.ArrowException, OSError) as e:
        raise InputError(_error_message(file, e)) from e
    schema = pf.schema_arrow
    for k in CORPUS_FIELDS:
        index = schema.get_field_index(k)  # -1 when absent or repeated
        if index < 0:
            pf.close()
            found = "appears twice" if k in schema.names else "is missing"
            raise InputError(f'{file}: no column "{k}" for field {k} (the column {found}; columns: '
                             f'{", ".join(schema.names)})')
        t = schema.field(index).type
        if not _has_shape(t, _SHAPES[k]):
            pf.close()
            raise InputError(f'{file}: column "{k}" (field {k}) is {t}, expected {_SHAPES[k]}')
    return pf


def _corpus_file_rows(file: str) -> int:
    """The file's row count, its columns checked (every file of a directory before any row is read)."""
    with _open_corpus_file(file) as pf:
        return pf.metadata.num_rows


def _parquet_corpus_rows(files: Sequence[str]) -> Generator[tuple[str, str, dict], None, None]:
    """(file, "row N" 0-based within the file, row) in file and row order; a
    row group that does not decode refuses the input, named by file and row group."""
    for file in files:
        with _open_corpus_file(file) as pf:
            base = 0
            for g in range(pf.num_row_groups):
                try:
                    for b in pf.iter_batches(batch_size=8192, row_groups=[g], columns=list(CORPUS_FIELDS)):
                        cols = {k: b.column(k).to_pylist() for k in CORPUS_FIELDS}
                        for i in range(b.num_rows):
                            yield file, f"row {base + i}", {k: cols[k][i] for k in CORPUS_FIELDS}
                        base += b.num_rows
                except (pa.ArrowException, OSError) as e:
                    raise InputError(f"{file}: row group {g}: {_reason(e)}") from e


def _corpus(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from itertools import islice

    from manaka import teacher

    sec = Section(f"Teacher corpus {path}", path, "corpus")
    rows: Generator[tuple[str, str, dict], None, None]
    if path.endswith((".jsonl", ".ndjson", ".json")):
        with open(path, "rb") as f:
            total = sum(1 for line in f if line.strip())
        rows = ((path, f"line {n}", r) for n, r in _json_lines(path))
    else:
        files = _parquet_files(path)
        total = sum(_corpus_file_rows(f) for f in files)
        rows = _parquet_corpus_rows(files)
    data: dict[str, list] = {k: [] for k in CORPUS_FIELDS}
    wheres: list[tuple[str, str]] = []
    examined = 0
    for file, pos, row in islice(rows, max_rows):
        examined += 1
        refusal = corpus_refusal(row)
        if refusal is not None:
            sec.skip(refusal[0], CORPUS_REASONS[refusal[0]], f"{file}: {pos}: {refusal[1]}")
            continue
        for k in CORPUS_FIELDS:
            data[k].append(row[k])
        wheres.append((file, pos))
    rows.close()  # the file it has open
    ply = np.array(data["ply"], dtype=np.int64)
    side = np.array(data["side"], dtype=np.int64)
    cp = np.array(data["cp"], dtype=np.int64)
    result = np.array(data["result"], dtype=np.int64)
    z = np.where(side == 0, result, -result)
    sec.summary = [("format", "teacher corpus"), ("rows", f"{total:,}"),
                   ("rows drawn", f"{len(ply):,} of the first {examined:,} rows")]
    sec.figures = [integer_histogram(ply, "ply", "ply", "ply"),
                   integer_histogram(z, "outcome", "result, side to move", "outcome")]
    ordinary = np.abs(cp) < 31680
    sec.figures.append(histogram(cp[ordinary], "cp", "root cp (mate scores left out)", "cp"))
    counts = np.array([len(m) for m in data["cand_moves"]], dtype=np.int64)
    sec.figures.append(integer_histogram(counts, "candidates", "candidates per position", "candidates"))
    offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    cand_cp = np.array([c for cc in data["cand_cp"] for c in cc], dtype=np.float64)  # as long as the moves: checked
    weights = _softmax_cp(offsets, np.clip(cand_cp, -30000, 30000))
    entropy, top1 = policy_stats(offsets, weights)
    sec.figures.append(histogram(entropy, "entropy", f"policy entropy (softmax of cp / {PACK_TEMPERATURE:g})",
                                 "nats", range_=(0.0, max(1.0, float(entropy.max()) if entropy.size else 1.0))))
    sec.figures.append(histogram(top1, "top1", "top-1 probability", "probability", range_=(0.0, 1.0)))
    try:
        fit = teacher.fit_coef(path)
        bins = fit["calibration"]
        x = np.array([b["mean_cp"] for b in bins])
        observed = np.array([b["mean_score"] for b in bins])
        grid = np.linspace(x.min() if len(x) else -1000, x.max() if len(x) else 1000, 200)
        series = [Series("observed (binned)", x, observed, "o"),
                  Series(f"fitted eval_coef {fit['eval_coef']:.0f}", grid, 1 / (1 + np.exp(-grid / fit["eval_coef"])), "-")]
        if eval_coef:
            series.append(Series(f"configured eval_coef {eval_coef:g}", grid, 1 / (1 + np.exp(-grid / eval_coef)), "--"))
        hi = "inf" if fit["hi"] is None else f"{fit['hi']:.0f}"
        sec.figures.append(curve("calibration", "expected score against cp", "cp (side to move)", "score", series,
                                 note=f"eval_coef {fit['eval_coef']:.1f} (95% interval {fit['lo']:.0f} .. {hi}) "
                                      f"from {fit['rows']:,} rows of {fit['games']:,} games"))
        sec.summary.append(("fitted eval_coef", f"{fit['eval_coef']:.1f} (95% interval {fit['lo']:.0f} .. {hi})"))
    except manaka.InvalidDataError as e:  # a corpus too small or one-sided to fit
        sec.notes.append(f"no calibration curve: {e}")
    sec.figures.append(_shuffle_figure(game_ids(ply), "games as runs of rising ply"))
    for i in _spread(len(ply), n_boards):
        file, pos = wheres[i]
        at = pos if file == path else f"{os.path.basename(file)} {pos}"
        # Only the pictured rows are parsed: a bad SFEN or move there is said, not drawn.
        try:
            packed = shogi.Board(data["sfen"][i]).pack()
        except manaka.InvalidDataError as e:
            sec.notes.append(f"{file}: {pos}: {e}; teacher convert refuses the row (bad_sfen), so it has no picture")
            continue
        moves = data["cand_moves"][i]
        a, b = int(offsets[i]), int(offsets[i + 1])
        targets = [(m, float(p)) for m, p in zip(moves, weights[a:b]) if _USI.fullmatch(m)]
        if len(targets) < len(moves):
            bad = next(m for m in moves if not _USI.fullmatch(m))
            sec.notes.append(f"{file}: {pos}: candidate {json.dumps(bad)} is not a USI move; teacher convert refuses "
                             f"the row (unparsable_move); {len(moves) - len(targets)} of its candidates are left out "
                             "of its picture")
        caption = f"{at}, ply {ply[i]}, cp {cp[i]}: " + ", ".join(f"{m} {p:.2f}" for m, p in targets[:4])
        sec.boards.append(f"<figure class='board-figure'>{boards.shogi_svg(packed, targets, caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec


# ---- chess npz corpora -------------------------------------------------------------------------

def _chess(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka import chess
    from manaka.chess_corpus import inspect_shards, list_shards, read_shard

    shards = list_shards(path) if os.path.isdir(path) else [Path(path)]
    states, moves, outcomes = [], [], []
    parts = []
    for s in shards:
        st, mi, oc = read_shard(s)
        states.append(st)
        moves.append(mi)
        outcomes.append(oc)
        parts.append((f"{s}: row ", len(oc)))
        if sum(len(o) for o in outcomes) >= max_rows:
            break
    st, mi, oc = np.concatenate(states)[:max_rows], np.concatenate(moves)[:max_rows], np.concatenate(outcomes)[:max_rows]
    where = _locator(parts)

    def decode(i: int) -> Any:
        try:
            return chess.decode_planes(st[i])[0]
        except manaka.InvalidDataError as e:
            raise InputError(f"{where(i)}: planes: {e}") from e

    info = inspect_shards(path)
    sec = Section(f"Chess corpus {path}", path, "chess")
    sec.summary = [("format", "chess npz corpus"), ("shards", str(len(shards))), ("rows drawn", f"{len(oc):,}")]
    sec.summary += [(k, str(v)) for k, v in info.items() if not isinstance(v, (list, dict))]
    sec.figures = [integer_histogram(oc, "outcome", "outcome, side to move", "outcome"),
                   integer_histogram(mi % 73, "move_plane", "policy move plane (index mod 73)", "plane")]
    # Pieces and material from the planes: 0-5 the mover's P N B R Q K, 6-11 the other's.
    value = np.array([1, 3, 3, 5, 9, 0], dtype=np.int64)
    pieces = st[:, :12].reshape(len(st), 12, 64).sum(axis=2).astype(np.int64)
    material = pieces[:, :6] @ value - pieces[:, 6:12] @ value
    sec.figures.append(integer_histogram(pieces.sum(axis=1), "pieces", "pieces on the board", "pieces"))
    sec.figures.append(integer_histogram(material, "material", "material balance, side to move", "pawn units"))
    take = _spread(len(st), LEGAL_SAMPLE)
    legal = [decode(i).legal_move_count() for i in take]
    sec.figures.append(integer_histogram(np.array(legal, dtype=np.int64), "legal_moves",
                                         f"legal moves ({len(legal)} boards)", "legal moves", ylabel="boards"))
    for i in _spread(len(st), n_boards):
        game = decode(i)
        mv = chess.move_from_index(game, int(mi[i]))
        targets = []
        if mv:
            sq = lambda s: "abcdefgh"[s % 8] + str(s // 8 + 1)  # noqa: E731
            targets = [(sq(mv.from_square) + sq(mv.to_square), 1.0)]
        caption = f"row {i}, outcome {int(oc[i])}: played " + (targets[0][0] if targets else "?")
        sec.boards.append(f"<figure class='board-figure'>{boards.chess_svg(game.fen(), targets, caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec


# ---- VPD1 ------------------------------------------------------------------------------------

# The positions columns the report draws: integers, and the FEN.
VPD_INT_COLUMNS = ("ply", "phase", "piece_count", "material_balance", "legal_moves")
_VPD_RESULTS = {"1-0": 1, "1/2-1/2": 0, "0-1": -1}


def _vpd(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    # Read-only through a file: URI, the path quoted (a '?' or '#' in a name is not a URI part).
    uri = Path(path).absolute().as_uri() + "?mode=ro"
    step = "open"
    try:
        db = sqlite3.connect(uri, uri=True)
        try:
            step = "table metadata"
            meta = db.execute("SELECT key, value FROM metadata ORDER BY key").fetchall()
            step = "table positions"
            total = db.execute("SELECT count(*) FROM positions").fetchone()[0]
            rows = db.execute(f"SELECT id, {', '.join(VPD_INT_COLUMNS)}, result, fen "
                              "FROM positions ORDER BY random_key LIMIT ?", (max_rows,)).fetchall()
        finally:
            db.close()
    except sqlite3.Error as e:  # not SQLite, cut short, or not a VPD1 file's tables
        raise InputError(f"{path}: {step}: {_reason(e)}") from e
    sec = Section(f"VPD1 positions {path}", path, "vpd")
    kept = []
    for r in rows:
        bad = next((c for c, v in zip(VPD_INT_COLUMNS, r[1:6]) if not _is_int(v)), None)
        if bad is None and not (isinstance(r[7], str) and r[7].split()):
            bad = "fen"
        if bad is not None:
            what = "text" if bad == "fen" else "an integer"
            sec.skip("missing_value", "a column is null or of the wrong type",
                     f"{path}: positions row id {r[0]}: column {bad} is null or not {what}")
            continue
        kept.append(r)
    col = lambda i: np.array([r[i] for r in kept], dtype=np.int64)  # noqa: E731
    sec.summary = [("format", "VPD1 (SQLite)"), ("positions", f"{total:,}"),
                   ("rows drawn", f"{len(kept):,} of {len(rows):,} read in random_key order (a uniform sample)")]
    sec.summary += [(f"metadata: {k}", str(v)) for k, v in meta]
    complete = dict(meta).get("complete")
    if complete != "true":
        sec.alarms.append(f"{path}: the VPD1 file is not marked complete (metadata complete = "
                          f"{json.dumps(complete)}): a build that did not finish; `manaka vpd report` refuses it, "
                          "the figures draw what it holds")
    sec.figures = [integer_histogram(col(1), "ply", "ply", "ply"),
                   integer_histogram(col(2), "phase", "phase", "phase"),
                   integer_histogram(col(3), "pieces", "pieces on the board", "pieces"),
                   integer_histogram(col(4), "material", "material balance", "material"),
                   integer_histogram(col(5), "legal_moves", "legal moves", "legal moves")]
    known = [_VPD_RESULTS[r[6]] for r in kept if r[6] in _VPD_RESULTS]
    sec.figures.append(integer_histogram(np.array(known, dtype=np.int64), "outcome",
                                         "result, White's view (1-0 = 1)", "outcome"))
    if len(known) < len(kept):
        other = Counter(str(r[6]) for r in kept if r[6] not in _VPD_RESULTS)
        sec.alarms.append(f"{_rows_have(len(kept) - len(known), len(kept))} a result other than 1-0, 0-1 or 1/2-1/2 ("
                         + ", ".join(f"{json.dumps(k)}: {n:,}" for k, n in other.most_common(5))
                         + "), left out of the outcome figure")
    for i in _spread(len(kept), n_boards):
        caption = f"{kept[i][7]} (ply {kept[i][1]}, result {kept[i][6]})"
        sec.boards.append(f"<figure class='board-figure'>{boards.chess_svg(kept[i][7], [], caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec


# ---- training metrics --------------------------------------------------------------------------

# The numbers of a manaka.train metrics line the figures draw.
METRIC_KEYS = ("step", "epoch", "loss", "policy_ce", "value_mse", "lr", "train_loss", "val_loss", "val_top1")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _metrics(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    sec = Section(f"Training metrics {path}", path, "metrics")
    lines = []
    for n, m in _json_lines(path):
        bad = next((k for k in METRIC_KEYS if k in m and not _is_number(m[k])), None)
        if bad is not None:
            # The line's other numbers are still drawn; those that are not are left out.
            sec.skip("not_a_number", "a value is not a finite number, left out of its figure",
                     f"{path}: line {n}: {bad} is {json.dumps(m[bad])[:40]}, not a finite number", unit="lines")
            m = {k: v for k, v in m.items() if k not in METRIC_KEYS or _is_number(v)}
        lines.append(m)
    train = [m for m in lines if m.get("kind", "train") == "train"]
    epochs = [m for m in lines if m.get("kind") == "epoch"]
    sec.summary = [("format", "metrics JSON lines"), ("lines", str(len(lines))), ("train lines", str(len(train))),
                   ("epoch lines", str(len(epochs)))]
    scored = [m for m in epochs if "val_loss" in m]
    if scored:
        best = min(scored, key=lambda m: m["val_loss"])
        sec.summary.append(("best epoch", f"{best.get('epoch')} (val_loss {best['val_loss']})"))

    def series(rows, xkey, ykeys):
        out = []
        for k in ykeys:
            pts = [(m[xkey], m[k]) for m in rows if k in m and xkey in m]
            if pts:
                x, y = zip(*pts)
                out.append(Series(k, np.array(x, float), np.array(y, float), "-o" if len(pts) < 30 else "-"))
        return out

    loss = series(train, "step", ["loss", "policy_ce", "value_mse"])
    if loss:
        sec.figures.append(curve("loss", "training loss", "step", "loss", loss))
    lr = series(train, "step", ["lr"])
    if lr:
        sec.figures.append(curve("lr", "learning rate", "step", "lr", lr))
    val = series(epochs, "epoch", ["train_loss", "val_loss"])
    if val:
        sec.figures.append(curve("val_loss", "loss by epoch", "epoch", "loss", val))
    acc = series(epochs, "epoch", ["val_top1"])
    if acc:
        sec.figures.append(curve("accuracy", "validation top-1 accuracy", "epoch", "top-1", acc))
    return sec
