"""MPK1 raw streams, drawn from their first records, with a teacher
stream's calibration against its header's eval_coef."""

from __future__ import annotations

import json
import os
from typing import Optional

import numpy as np

from manaka.report.figures import Figure, Series, curve, histogram
from manaka.report.sources.section import Section
from manaka.report.sources.statistics import (PACK_TEMPERATURE, common_figures, concat_offsets, game_ids, legal_figure,
                                              locator, policy_figures, shogi_boards, shogi_material, shuffle_figure,
                                              softmax_cp)


def read_stream(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
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
    offsets = concat_offsets([b.cand_offsets for b in batches if b.cand_offsets is not None])
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
    sec.figures = common_figures(ply, vz, vq)
    by_visits = len(visits) > 0 and bool((visits != NO_VISITS).all())
    weights = visits.astype(np.float64) if by_visits else softmax_cp(offsets, np.where(cp == NO_CP, -1e4, cp))
    what = "visits" if by_visits else f"softmax of cp / {PACK_TEMPERATURE:g}"
    sec.figures += policy_figures(offsets, weights, what)
    if len(cp) and (cp != NO_CP).any():
        sec.figures.append(histogram(cp[cp != NO_CP], "cp", "candidate cp", "cp"))
        coef = float(header.eval_coef) or (eval_coef or 0.0)
        if coef > 0:
            sec.figures.append(_stream_calibration(offsets, cp, vz, coef, header.mate_scale, header.mate_slack))
    where = locator([(f"{path}: record ", len(ply))])
    if len(packed):
        sec.figures.append(legal_figure(packed, where))
        sec.figures.append(shogi_material(packed, where))
    sec.figures.append(shuffle_figure(game_ids(ply), "games as runs of rising ply"))
    sec.boards = shogi_boards(packed, offsets, mv, weights, n_boards, what, where, ply)
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
