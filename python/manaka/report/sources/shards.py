"""Shard sets (`manaka pack` parquet shards, a directory or one file),
sampled by whole row groups spread evenly over the set."""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from manaka.report.figures import Figure, Series, curve, histogram, integer_histogram
from manaka.report.sources.section import Section, rows_have
from manaka.report.sources.statistics import (Where, common_figures, concat_offsets, legal_figure, locator, policy_figures,
                                              shogi_boards, shogi_material, spread)

# Blocks of rows in reading order the ply-by-block statistic compares.
BLOCKS = 24


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


def read_shards(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka.shards import NULL_CP, ShardFile, list_shards

    files = [ShardFile(p) for p in list_shards(path, require_complete=False)]
    groups = [(f, g) for f in files for g in range(f.num_row_groups)]
    total = sum(f.num_rows for f in files)
    per_group = max(1, total // max(1, len(groups)))
    k = min(len(groups), max(1, math.ceil(max_rows / per_group)))
    chosen = [groups[i] for i in spread(len(groups), k)]
    batches = [f.read_row_group(g) for f, g in chosen]  # a read error names the file and row group
    where = locator([(f"{f.path}: row group {g} row ", len(b)) for (f, g), b in zip(chosen, batches)])
    cat = lambda name: np.concatenate([getattr(b, name) for b in batches])  # noqa: E731
    packed, ply, vz, vq, weight = cat("packed"), cat("ply"), cat("value_z"), cat("value_q"), cat("weight")
    offsets = concat_offsets([b.cand_offsets for b in batches if b.cand_offsets is not None])
    mv, prob, cp = cat("mv"), cat("prob"), cat("cp")
    sec = Section(f"Shard set {path}", path, "shards")
    meta = files[0].metadata
    sec.summary = [("format", "parquet shard set (manaka pack)"), ("files", str(len(files))),
                   ("rows", f"{total:,}"), ("row groups", f"{len(groups):,}"),
                   ("rows drawn", f"{len(ply):,} from {len(chosen)} row groups spread over the set"),
                   ("records folded in (drawn rows)", f"{int(weight.sum()):,}")]
    sec.summary += [(f"footer: {k_}", v) for k_, v in meta.items()]
    sec.figures = common_figures(ply, vz, vq)
    sec.figures.append(integer_histogram(weight, "weight", "fold weight (records per row)", "weight", logy=True))
    sec.figures += policy_figures(offsets, prob, "prob")
    has_cp = cp != NULL_CP
    if has_cp.any():
        sec.figures.append(histogram(cp[has_cp], "cp", "candidate cp", "cp"))
    sec.figures.append(legal_figure(packed, where))
    sec.figures.append(shogi_material(packed, where))
    sec.figures.append(_block_figure(ply))
    sec.notes.append("Shards hold folded boards, not games, so the shuffle is judged by ply: blocks of rows in "
                     "reading order should have the same mean ply within the perfect-shuffle band.")
    sec.alarms += _shard_row_alarms(vz, vq, offsets, where)
    sec.boards = shogi_boards(packed, offsets, mv, prob, n_boards, "prob", where, ply)
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
            out.append(f"{rows_have(bad.size, n)} {name} not within [-1, 1] (stream export refuses such rows), "
                       f"left out of the {name} figure; the first: {where(i)}: {name} {float(v[i]):g}")
    empty = np.flatnonzero(np.diff(np.asarray(offsets, dtype=np.int64)) == 0)
    if empty.size:
        out.append(f"{rows_have(empty.size, n)} no candidate (stream export refuses such rows), drawn as 0 in the "
                   f"candidates figure and left out of entropy and top-1; the first: {where(int(empty[0]))}")
    return out
