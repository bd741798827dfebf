"""Each input of the report read through manaka's own readers into a Section:
its summary table, its figures (numbers first, figures.py) and board pictures.

Large inputs are sampled: shard sets by whole row groups spread evenly over
the set, streams and corpora by their first rows, VPD1 files by their
random_key order (already a uniform sample). Every section says how many rows
it drew from and how many the input has.
"""

from __future__ import annotations

import manaka

import json
import math
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Sequence

import numpy as np

from manaka import shogi
from manaka.report import boards
from manaka.report.figures import Figure, Series, curve, histogram, integer_histogram

__all__ = ["Section", "detect", "read_input", "shuffle_pairs", "policy_stats", "game_ids"]

# The fold's softmax temperature (fold/policy.h): how cp candidates become a
# policy target when a format stores no probabilities.
PACK_TEMPERATURE = 100.0
# Boards whose legal moves are counted (a sample of the sample).
LEGAL_SAMPLE = 400
# Rows per batch for the same-game statistic.
BATCH = 256
BLOCKS = 24


@dataclass
class Section:
    title: str
    path: str
    kind: str
    summary: list[tuple[str, str]] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)  # SVG text
    notes: list[str] = field(default_factory=list)


def detect(path: str) -> str:
    """shards | stream | saz | chess | vpd | corpus | metrics, from the
    content (magic bytes, parquet schema, JSON keys), not the name alone."""
    p = Path(path)
    if p.is_dir():
        if list(p.glob("shard_*.npz")):
            return "chess"
        files = sorted(p.glob("*.parquet"))
        if not files:
            raise ValueError(f"{path}: a directory with neither *.parquet nor shard_*.npz files")
        return "shards" if _is_shard(str(files[0])) else "corpus"
    with open(p, "rb") as f:
        head = f.read(16)
    if head.startswith(b"MPK1"):
        return "stream"
    if head.startswith(b"SQLite format 3"):
        return "vpd"
    if head.startswith(b"PK"):
        return "chess"
    if head.startswith(b"PAR1"):
        return "shards" if _is_shard(str(p)) else "corpus"
    if p.suffix == ".saz" or head[:4] in (b"SAZ2",):
        return "saz"
    if p.suffix in (".jsonl", ".ndjson", ".json"):
        with open(p) as f:
            first = json.loads(f.readline() or "{}")
        return "corpus" if "sfen" in first else "metrics"
    raise ValueError(f"{path}: not a format the report reads (MPK1, shards, SAZ2, chess npz, VPD1, "
                     "teacher corpus, metrics JSON lines)")


def _is_shard(path: str) -> bool:
    from manaka.shards import ShardFile

    try:
        ShardFile(path)
        return True
    except (manaka.Error, OSError):  # not a shard: the next reader is tried
        return False


def read_input(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    kind = detect(path)
    reader = {"shards": _shards, "stream": _stream, "saz": _saz, "chess": _chess, "vpd": _vpd,
              "corpus": _corpus, "metrics": _metrics}[kind]
    return reader(path, max_rows=max_rows, n_boards=n_boards, eval_coef=eval_coef)


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


def _legal_figure(packed_rows: np.ndarray) -> Figure:
    take = np.linspace(0, len(packed_rows) - 1, min(LEGAL_SAMPLE, len(packed_rows))).astype(int) if len(packed_rows) else []
    counts = [shogi.Board.unpack(bytes(packed_rows[i])).legal_move_count() for i in take]
    return integer_histogram(np.array(counts, dtype=np.int64), "legal_moves",
                             f"legal moves ({len(counts)} boards)", "legal moves", ylabel="boards")


def _shogi_material(packed_rows: np.ndarray) -> Figure:
    """Material balance (side to move minus the other) in pawn units,
    board bytes plus hands (P1 L3 N4 S5 G6 B8 R10, promoted as their base)."""
    kind_value = np.array([0, 10, 8, 6, 5, 4, 3, 1, 10, 8, 5, 4, 3, 1] + [0] * 242, dtype=np.int64)
    hand_value = np.array([1, 3, 4, 5, 6, 8, 10], dtype=np.int64)
    take = np.linspace(0, len(packed_rows) - 1, min(LEGAL_SAMPLE, len(packed_rows))).astype(int) if len(packed_rows) else []
    out = []
    for i in take:
        b = shogi.Board.unpack(bytes(packed_rows[i]))
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


def _shogi_boards(packed, offsets, mv, weights, n_boards: int, what: str, ply=None) -> list[str]:
    out = []
    for i in _spread(len(packed), n_boards):
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
    batches = [f.read_row_group(g) for f, g in chosen]
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
    sec.figures.append(_legal_figure(packed))
    sec.figures.append(_shogi_material(packed))
    sec.figures.append(_block_figure(ply))
    sec.notes.append("Shards hold folded boards, not games, so the shuffle is judged by ply: blocks of rows in "
                     "reading order should have the same mean ply within the perfect-shuffle band.")
    sec.boards = _shogi_boards(packed, offsets, mv, prob, n_boards, "prob", ply)
    return sec


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
    if len(packed):
        sec.figures.append(_legal_figure(packed))
        sec.figures.append(_shogi_material(packed))
    sec.figures.append(_shuffle_figure(game_ids(ply), "games as runs of rising ply"))
    sec.boards = _shogi_boards(packed, offsets, mv, weights, n_boards, what, ply)
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
    sec.figures.append(_legal_figure(c.packed[:n]))
    sec.figures.append(_shuffle_figure(c.game[:n], "game index"))
    sec.boards = _shogi_boards(c.packed[:n], offsets, c.mv, c.visits, n_boards, "visits", c.ply)
    return sec


# ---- teacher corpora ---------------------------------------------------------------------------

def _corpus(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka import teacher

    cols = ["sfen", "ply", "side", "cp", "cand_moves", "cand_cp", "result"]
    if path.endswith((".jsonl", ".ndjson", ".json")):
        with open(path) as f:
            rows = [json.loads(line) for _, line in zip(range(max_rows), f) if line.strip()]
        data = {k: [r.get(k) for r in rows] for k in cols}
        total = sum(1 for line in open(path) if line.strip())
    else:
        import pyarrow.dataset as ds

        dataset = ds.dataset(path, format="parquet")
        total = dataset.count_rows()
        data = {k: [] for k in cols}
        for b in dataset.to_batches(columns=cols):
            for k in cols:
                data[k] += b.column(k).to_pylist()
            if len(data["ply"]) >= max_rows:
                break
        data = {k: v[:max_rows] for k, v in data.items()}
    ply = np.array(data["ply"], dtype=np.int64)
    side = np.array(data["side"], dtype=np.int64)
    cp = np.array(data["cp"], dtype=np.int64)
    result = np.array(data["result"], dtype=np.int64)
    z = np.where(side == 0, result, -result)
    sec = Section(f"Teacher corpus {path}", path, "corpus")
    sec.summary = [("format", "teacher corpus"), ("rows", f"{total:,}"), ("rows drawn", f"{len(ply):,} (the first rows)")]
    sec.figures = [integer_histogram(ply, "ply", "ply", "ply"),
                   integer_histogram(z, "outcome", "result, side to move", "outcome")]
    ordinary = np.abs(cp) < 31680
    sec.figures.append(histogram(cp[ordinary], "cp", "root cp (mate scores left out)", "cp"))
    counts = np.array([len(m or []) for m in data["cand_moves"]], dtype=np.int64)
    sec.figures.append(integer_histogram(counts, "candidates", "candidates per position", "candidates"))
    offsets = np.concatenate([[0], np.cumsum(counts)])
    cand_cp = np.array([c for cc in data["cand_cp"] for c in (cc or [])], dtype=np.float64)
    if len(cand_cp) == offsets[-1]:
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
    except Exception as e:  # a corpus too small or one-sided to fit
        sec.notes.append(f"no calibration curve: {e}")
    sec.figures.append(_shuffle_figure(game_ids(ply), "games as runs of rising ply"))
    for i in _spread(len(ply), n_boards):
        moves = data["cand_moves"][i] or []
        a, b = int(offsets[i]), int(offsets[i + 1])
        w = weights[a:b] if len(cand_cp) == offsets[-1] else np.full(len(moves), 1.0 / max(1, len(moves)))
        targets = [(m, float(p)) for m, p in zip(moves, w)]
        caption = f"row {i}, ply {ply[i]}, cp {cp[i]}: " + ", ".join(f"{m} {p:.2f}" for m, p in targets[:4])
        packed = shogi.Board(data["sfen"][i]).pack()
        sec.boards.append(f"<figure class='board-figure'>{boards.shogi_svg(packed, targets, caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec


# ---- chess npz corpora -------------------------------------------------------------------------

def _chess(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka import chess
    from manaka.chess_corpus import inspect_shards, list_shards, read_shard

    shards = list_shards(path) if os.path.isdir(path) else [Path(path)]
    states, moves, outcomes = [], [], []
    for s in shards:
        st, mi, oc = read_shard(s)
        states.append(st)
        moves.append(mi)
        outcomes.append(oc)
        if sum(len(o) for o in outcomes) >= max_rows:
            break
    st, mi, oc = np.concatenate(states)[:max_rows], np.concatenate(moves)[:max_rows], np.concatenate(outcomes)[:max_rows]
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
    legal = [chess.decode_planes(st[i])[0].legal_move_count() for i in take]
    sec.figures.append(integer_histogram(np.array(legal, dtype=np.int64), "legal_moves",
                                         f"legal moves ({len(legal)} boards)", "legal moves", ylabel="boards"))
    for i in _spread(len(st), n_boards):
        game = chess.decode_planes(st[i])[0]
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

def _vpd(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        meta = db.execute("SELECT key, value FROM metadata ORDER BY key").fetchall()
        total = db.execute("SELECT count(*) FROM positions").fetchone()[0]
        rows = db.execute("SELECT ply, phase, piece_count, material_balance, legal_moves, result, fen "
                          "FROM positions ORDER BY random_key LIMIT ?", (max_rows,)).fetchall()
    finally:
        db.close()
    col = lambda i: np.array([r[i] if r[i] is not None else 0 for r in rows], dtype=np.int64)  # noqa: E731
    sec = Section(f"VPD1 positions {path}", path, "vpd")
    sec.summary = [("format", "VPD1 (SQLite)"), ("positions", f"{total:,}"),
                   ("rows drawn", f"{len(rows):,} in random_key order (a uniform sample)")]
    sec.summary += [(f"metadata: {k}", str(v)) for k, v in meta]
    sec.figures = [integer_histogram(col(0), "ply", "ply", "ply"),
                   integer_histogram(col(1), "phase", "phase", "phase"),
                   integer_histogram(col(2), "pieces", "pieces on the board", "pieces"),
                   integer_histogram(col(3), "material", "material balance", "material"),
                   integer_histogram(col(4), "legal_moves", "legal moves", "legal moves")]
    results = {"1-0": 1, "1/2-1/2": 0, "0-1": -1}
    sec.figures.append(integer_histogram(np.array([results.get(r[5], 0) for r in rows], dtype=np.int64), "outcome",
                                         "result, White's view (1-0 = 1)", "outcome"))
    for i in _spread(len(rows), n_boards):
        caption = f"{rows[i][6]} (ply {rows[i][0]}, result {rows[i][5]})"
        sec.boards.append(f"<figure class='board-figure'>{boards.chess_svg(rows[i][6], [], caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec


# ---- training metrics --------------------------------------------------------------------------

def _metrics(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    with open(path) as f:
        lines = [json.loads(line) for line in f if line.strip()]
    sec = Section(f"Training metrics {path}", path, "metrics")
    train = [m for m in lines if m.get("kind", "train") == "train"]
    epochs = [m for m in lines if m.get("kind") == "epoch"]
    sec.summary = [("format", "metrics JSON lines"), ("lines", str(len(lines))), ("train lines", str(len(train))),
                   ("epoch lines", str(len(epochs)))]
    if epochs:
        best = min(epochs, key=lambda m: m.get("val_loss", math.inf))
        sec.summary.append(("best epoch", f"{best.get('epoch')} (val_loss {best.get('val_loss')})"))

    def series(rows, xkey, ykeys):
        out = []
        for k in ykeys:
            pts = [(m[xkey], m[k]) for m in rows if isinstance(m.get(k), (int, float)) and xkey in m]
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
