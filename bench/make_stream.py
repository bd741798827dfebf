#!/usr/bin/env python3
"""Writes a synthetic MPK1 stream for benchmarking `manaka pack`.

    python bench/make_stream.py out.mpk [--records 2000000] [--repeat 0.065]
        [--selfplay] [--seed 1]

Records are written with raw struct/numpy packing (the layout of
src/stream/format.h), so the generator needs nothing of manaka:

  teacher (default)  policy_source 1, mate_scale 32000, mate_slack 100,
                     fv_scale 16, eval_coef 600; 1-5 candidates (mostly 5,
                     like a MultiPV 5 corpus), cp sorted high to low, about 7%
                     of rows led by a mate score; visits absent.
  --selfplay         policy_source 0, every centipawn field 0; 1-80
                     candidates with visit counts; cp absent (NO_CP).

--repeat is the share of records whose board also appears in another record
(the published teacher corpus: 6.47%); such boards come in pairs, placed at
random in the stream, and the second record lists mostly the same moves.
Boards are valid positions (the stream reader refuses any other), built to
be valid by construction and to look like shogi positions to a compressor:
81 square bytes, mostly empty (0xFF), about 30 pieces, hands and a side to
move. White's king stands on rank 1 and Black's on rank 9; pawns on ranks 3
and 7 (at most one a file); on ranks 4-6 up to 16 step pieces (gold, silver
or promoted silver, knight or promoted knight, promoted lance) of either
colour, none of which can reach a king's rank; every piece not on the board
(rooks and bishops always) in a random hand. No king is in check, so either
side may be to move.
"""
import argparse
import struct
import sys

import numpy as np

NO_CP = -32768
HEADER = struct.Struct("<IHHBBHHHfI")
CHUNK = 1 << 16


def square(file, rank):
    """MPK1 square index: (9 - file) * 9 + (rank - 1); file and rank may be arrays."""
    return (9 - file) * 9 + (rank - 1)


# Board bytes: colour << 4 | kind (K R B G S N L P +R +B +S +N +L +P = 0..13).
GOLD, SILVER, KNIGHT, PRO_SILVER, PRO_KNIGHT, PRO_LANCE = 3, 4, 5, 10, 11, 12
# The 16 step pieces that may stand on ranks 4-6, as (kind, promoted kind,
# hand index P L N S G B R = 0..6).
MIDDLE = [(GOLD, GOLD, 4)] * 4 + [(SILVER, PRO_SILVER, 3)] * 4 + [(KNIGHT, PRO_KNIGHT, 2)] * 4 + \
         [(PRO_LANCE, PRO_LANCE, 1)] * 4


def boards(rng, n):
    """n random valid 96-byte positions (see the module docstring)."""
    b = np.full((n, 96), 0xFF, dtype=np.uint8)
    rows = np.arange(n)
    b[:, 81:95] = 0
    b[rows, square(rng.integers(1, 10, size=n), 1)] = 0x10  # White's king, rank 1
    b[rows, square(rng.integers(1, 10, size=n), 9)] = 0x00  # Black's king, rank 9
    pawns = np.zeros(n, dtype=np.int64)
    for f in range(1, 10):
        black = rng.random(n) < 0.8
        white = rng.random(n) < 0.8
        b[black, square(f, 7)] = 0x07
        b[white, square(f, 3)] = 0x17
        pawns += black.astype(np.int64) + white.astype(np.int64)
    # Ranks 4-6: 27 squares; slot i takes the i-th of a random permutation.
    middle = np.array([square(f, r) for f in range(1, 10) for r in (4, 5, 6)])
    places = middle[np.argsort(rng.random((n, len(middle))), axis=1)[:, :len(MIDDLE)]]
    for i, (kind, promoted, hand) in enumerate(MIDDLE):
        on_board = rng.random(n) < 0.8
        colour = rng.integers(0, 2, size=n).astype(np.uint8)
        k = np.where(rng.random(n) < 0.5, kind, promoted).astype(np.uint8)
        b[rows[on_board], places[on_board, i]] = (colour << 4 | k)[on_board]
        off = rows[~on_board]
        np.add.at(b, (off, 81 + 7 * colour[~on_board] + hand), 1)
    # Rooks and bishops (2 each) in random hands; the pawns not on the board too.
    for hand, count in ((6, 2), (5, 2)):
        for _ in range(count):
            np.add.at(b, (rows, 81 + 7 * rng.integers(0, 2, size=n) + hand), 1)
    left = 18 - pawns
    black_pawns = rng.integers(0, left + 1)
    b[:, 81] = black_pawns
    b[:, 88] = left - black_pawns
    b[:, 95] = rng.integers(0, 2, size=n)
    return b


def moves(rng, n, k):
    """(n, k) distinct move16s per row: distinct destinations, random origins."""
    to = np.argsort(rng.random((n, 81)), axis=1)[:, :k].astype(np.uint16)
    origin = rng.integers(0, 81, size=(n, k), dtype=np.uint16)
    return (origin << 7) | to


def write_chunk(out, rng, n, selfplay, share_from, prev):
    """Writes n records; rows with share_from >= 0 reuse board/moves from prev."""
    kmax = 80 if selfplay else 5
    if selfplay:
        ncand = rng.integers(1, kmax + 1, size=n)
    else:
        ncand = np.where(rng.random(n) < 0.8, 5, rng.integers(1, 6, size=n))
    b = boards(rng, n)
    mv = moves(rng, n, kmax)
    dup = share_from >= 0
    if dup.any() and prev is not None:
        src = share_from[dup]
        b[dup] = prev[0][src]
        mv[dup] = prev[1][src]
        # One move changed: a new origin for the first, destinations stay distinct.
        origin = rng.integers(0, 81, size=int(dup.sum()), dtype=np.uint16)
        mv[dup, 0] = (origin << 7) | (mv[dup, 0] & 0x7F)
        ncand[dup] = prev[2][src]
    if selfplay:
        visits = rng.integers(1, 41, size=(n, kmax)).astype(np.uint32)
        cp = np.full((n, kmax), NO_CP, dtype=np.int16)
    else:
        visits = np.zeros((n, kmax), dtype=np.uint32)
        cp = -np.sort(-rng.integers(-3000, 3000, size=(n, kmax)), axis=1)
        mate = rng.random(n) < 0.07
        cp[mate, 0] = 32000 - rng.integers(1, 30, size=int(mate.sum()))
        cp = cp.astype(np.int16)
    ply = rng.integers(0, 320, size=n).astype(np.uint16)
    vz = rng.integers(-1, 2, size=n).astype(np.float32)
    vq = rng.uniform(-1, 1, size=n).astype(np.float32)

    size = 12 + 96 + 8 * ncand
    off = np.concatenate(([0], np.cumsum(size)[:-1]))
    buf = np.zeros(int(size.sum()), dtype=np.uint8)

    def put(offsets, values, dtype):
        raw = np.ascontiguousarray(values.astype(dtype)).view(np.uint8).reshape(len(offsets), -1)
        idx = offsets[:, None] + np.arange(raw.shape[1])
        buf[idx] = raw

    put(off, ply, "<u2")
    put(off + 2, vz, "<f4")
    put(off + 6, vq, "<f4")
    put(off + 10, ncand, "<u2")
    buf[off[:, None] + 12 + np.arange(96)] = b
    for k in range(kmax):
        rows = np.nonzero(ncand > k)[0]
        c = off[rows] + 108 + 8 * k
        put(c, mv[rows, k], "<u2")
        put(c + 2, visits[rows, k], "<u4")
        put(c + 6, cp[rows, k], "<i2")
    out.write(buf.tobytes())
    return b, mv, ncand


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--records", type=int, default=2_000_000)
    ap.add_argument("--repeat", type=float, default=0.065)
    ap.add_argument("--selfplay", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    if a.selfplay:
        header = HEADER.pack(0x314B504D, 1, 96, 0, 0, 0, 0, 0, 0.0, 0)
    else:
        header = HEADER.pack(0x314B504D, 1, 96, 0, 1, 32000, 16, 100, 600.0, 0)
    with open(a.out, "wb") as out:
        out.write(header)
        prev = None
        done = 0
        while done < a.records:
            n = min(CHUNK, a.records - done)
            # Half of the repeated share are second copies of a board of the
            # previous chunk (so every repeat has a partner).
            share = np.full(n, -1)
            if prev is not None:
                second = rng.random(n) < a.repeat / 2
                share[second] = rng.integers(0, len(prev[0]), size=int(second.sum()))
            prev = write_chunk(out, rng, n, a.selfplay, share, prev)
            done += n
    print(f"{a.out}: {a.records} records", file=sys.stderr)


if __name__ == "__main__":
    main()
