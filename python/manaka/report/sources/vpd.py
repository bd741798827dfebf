"""VPD1 position files (SQLite), drawn in their random_key order (already a
uniform sample); a row with a null column is left out and counted."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Optional

import numpy as np

from manaka.report import boards
from manaka.report.figures import integer_histogram
from manaka.report.sources.files import is_int
from manaka.report.sources.section import InputError, Section, error_reason, rows_have
from manaka.report.sources.statistics import spread

# The positions columns the report draws: integers, and the FEN.
VPD_INT_COLUMNS = ("ply", "phase", "piece_count", "material_balance", "legal_moves")
_VPD_RESULTS = {"1-0": 1, "1/2-1/2": 0, "0-1": -1}


def read_vpd(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
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
        raise InputError(f"{path}: {step}: {error_reason(e)}") from e
    sec = Section(f"VPD1 positions {path}", path, "vpd")
    kept = []
    for r in rows:
        bad = next((c for c, v in zip(VPD_INT_COLUMNS, r[1:6]) if not is_int(v)), None)
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
        sec.alarms.append(f"{rows_have(len(kept) - len(known), len(kept))} a result other than 1-0, 0-1 or 1/2-1/2 ("
                         + ", ".join(f"{json.dumps(k)}: {n:,}" for k, n in other.most_common(5))
                         + "), left out of the outcome figure")
    for i in spread(len(kept), n_boards):
        caption = f"{kept[i][7]} (ply {kept[i][1]}, result {kept[i][6]})"
        sec.boards.append(f"<figure class='board-figure'>{boards.chess_svg(kept[i][7], [], caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec
