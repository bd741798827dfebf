"""Teacher corpora (parquet files or JSON lines), drawn from their first
rows; rows `teacher convert` refuses for a field are left out and counted."""

from __future__ import annotations

import json
import os
import re
from typing import Any, Generator, Optional, Sequence

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

import manaka
from manaka import shogi
from manaka.report import boards
from manaka.report.figures import Series, curve, histogram, integer_histogram
from manaka.report.sources.files import is_int, json_lines, parquet_files
from manaka.report.sources.section import InputError, Section, error_message, error_reason
from manaka.report.sources.statistics import PACK_TEMPERATURE, game_ids, policy_stats, shuffle_figure, softmax_cp, spread

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
_USI = re.compile(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]")


def _has_value(name: str, v: Any) -> bool:
    shape = _SHAPES[name]
    if shape == "a string":
        return isinstance(v, str)
    if shape == "an integer":
        return is_int(v)
    if not isinstance(v, list):
        return False
    return all(isinstance(e, str) for e in v) if shape == "a list of strings" else all(is_int(e) for e in v)


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
        raise InputError(error_message(file, e)) from e
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
                    raise InputError(f"{file}: row group {g}: {error_reason(e)}") from e


def read_corpus(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from itertools import islice

    from manaka import teacher

    sec = Section(f"Teacher corpus {path}", path, "corpus")
    rows: Generator[tuple[str, str, dict], None, None]
    if path.endswith((".jsonl", ".ndjson", ".json")):
        with open(path, "rb") as f:
            total = sum(1 for line in f if line.strip())
        rows = ((path, f"line {n}", r) for n, r in json_lines(path))
    else:
        files = parquet_files(path)
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
    weights = softmax_cp(offsets, np.clip(cand_cp, -30000, 30000))
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
    sec.figures.append(shuffle_figure(game_ids(ply), "games as runs of rising ply"))
    for i in spread(len(ply), n_boards):
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
