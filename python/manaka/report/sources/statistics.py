"""Statistics and figures that several kinds of input share: ply and value
histograms, policy entropy and top-1, the same-game shuffle check, legal
moves and material of shogi boards, board pictures with their targets, and
where a drawn row lies in its file."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

import manaka
from manaka import shogi
from manaka.report import boards
from manaka.report.figures import Figure, Series, curve, histogram, integer_histogram
from manaka.report.sources.section import InputError


# The fold's softmax temperature (fold/policy.h): how cp candidates become a
# policy target when a format stores no probabilities.
PACK_TEMPERATURE = 100.0
# Boards whose legal moves are counted (a sample of the sample).
LEGAL_SAMPLE = 400
# Rows per batch for the same-game statistic.
BATCH = 256


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


def shuffle_figure(game: np.ndarray, what: str) -> Figure:
    pairs, expected = shuffle_pairs(game)
    x = np.arange(len(pairs))
    return curve("shuffle", f"same-game pairs per batch of {BATCH}", "batch", "pairs",
                 [Series("in reading order", x, pairs, "o"),
                  Series(f"perfect shuffle ({expected:.2f})", x, np.full(len(x), expected), "--")],
                 note=f"mean {pairs.mean() if len(pairs) else 0:.2f} pairs per batch against {expected:.2f} "
                      f"for a perfect shuffle ({what})")


def common_figures(ply, value_z=None, value_q=None) -> list[Figure]:
    figs = [integer_histogram(ply, "ply", "ply", "ply")]
    if value_z is not None:
        vz = np.asarray(value_z, dtype=np.float64)
        figs.append(histogram(vz[np.isfinite(vz)], "value_z", "value_z (game result, side to move)", "value_z",
                              range_=(-1.0, 1.0), bins=40))
    if value_q is not None:
        figs.append(histogram(value_q, "value_q", "value_q (search value, side to move)", "value_q",
                              range_=(-1.0, 1.0), bins=40))
    return figs


def policy_figures(offsets, weights, what: str) -> list[Figure]:
    counts = np.diff(np.asarray(offsets, dtype=np.int64))
    entropy, top1 = policy_stats(offsets, weights)
    hi = max(1.0, float(entropy.max()) if entropy.size else 1.0)
    return [integer_histogram(counts, "candidates", "candidates per position", "candidates"),
            histogram(entropy, "entropy", f"policy entropy ({what})", "nats", range_=(0.0, hi), bins=40),
            histogram(top1, "top1", f"top-1 probability ({what})", "probability", range_=(0.0, 1.0), bins=40)]


Where = Callable[[int], str]  # row i of the drawn rows -> "<path>: <where>" of it in its file


def locator(parts: Sequence[tuple[str, int]]) -> Where:
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


def legal_figure(packed_rows: np.ndarray, where: Where) -> Figure:
    take = np.linspace(0, len(packed_rows) - 1, min(LEGAL_SAMPLE, len(packed_rows))).astype(int) if len(packed_rows) else []
    counts = [_unpack(packed_rows, int(i), where).legal_move_count() for i in take]
    return integer_histogram(np.array(counts, dtype=np.int64), "legal_moves",
                             f"legal moves ({len(counts)} boards)", "legal moves", ylabel="boards")


def shogi_material(packed_rows: np.ndarray, where: Where) -> Figure:
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


def spread(n: int, k: int) -> list[int]:
    return sorted(set(np.linspace(0, n - 1, min(k, n)).astype(int).tolist())) if n else []


def shogi_boards(packed, offsets, mv, weights, n_boards: int, what: str, where: Where, ply=None) -> list[str]:
    out = []
    for i in spread(len(packed), n_boards):
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


def softmax_cp(offsets, cp, temperature=PACK_TEMPERATURE) -> np.ndarray:
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


def concat_offsets(parts: Sequence[np.ndarray]) -> np.ndarray:
    out, base = [np.zeros(1, dtype=np.int64)], 0
    for o in parts:
        o = np.asarray(o, dtype=np.int64)
        out.append(o[1:] - o[0] + base)
        base = int(out[-1][-1]) if len(o) > 1 else base
    return np.concatenate(out)
