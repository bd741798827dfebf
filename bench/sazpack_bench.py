"""SAZ2 decode throughput from Python: manaka beside rsshogi 1.7.0, same file, same run.

A file of >= 100 MB is built once under build/bench (untimed): 400 random
legal self-play games (30-200 positions, 5-60 policy entries each, visits
summing to about 800) repeated to size, written by manaka and checked to
decode identically with rsshogi. It is read once to warm the page cache, then
each path is timed (best of 3):

  objects  decode_sazpack_file: a list of SazGame (one Python object per game,
           the positions behind it), rsshogi's and ours.
  walk     the same, then every field of every position and entry read from
           Python into flat arrays: what the reference needs to produce columns.
  columns  manaka's decode_sazpack_columns: numpy arrays, one row per position,
           every board replayed from the stem, every policy move checked legal
           (and once more with check_policy_legality=False). rsshogi has no
           such path: the ratios are against its walk, the way to the same
           arrays with it (boards not even replayed), and against its bare
           object decode.
"""

import os
import random
import struct
import time
from pathlib import Path

import numpy as np

from manaka import sazpack, shogi

try:
    import rsshogi.sazpack as rs
except ImportError:  # pragma: no cover
    rs = None

TARGET_BYTES = 100 * 1000 * 1000 + 1
DISTINCT_GAMES = 400
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))


def split(rng: random.Random, k: int, total: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(k - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [total])]


def random_game(rng: random.Random) -> sazpack.SazGame:
    pos = shogi.Board()
    positions = []
    n = rng.randint(30, 200)
    for i in range(n):
        legal = [m.usi() for m in pos.legal_moves]
        if not legal:
            break
        k = min(len(legal), rng.randint(5, 60))
        moves = rng.sample(legal, k)
        w, d, loss = split(rng, 3, 65535)
        wdl = sazpack.SazWdl(w, d, loss)
        policy = [sazpack.SazPolicyEntry(mv=m, prior=p, raw_prior=r, visits=v, lower=0, upper=2)
                  for m, p, r, v in zip(moves, split(rng, k, 65535), split(rng, k, 65535), split(rng, k, 800))]
        positions.append(sazpack.SazPosition(
            played=moves[0], root_wdl=wdl, outcome_wdl=wdl, raw_wdl=wdl, raw_mate=rng.randint(0, 65535),
            raw_moves_left=rng.randint(0, 6400), plies_left=n - i, requested_visits=800, target_weight_milli=1000,
            exploration_flags=1, policy=policy, mate=None if rng.random() < 0.9 else rng.randint(-40, 40)))
        pos.push_usi(moves[0])
    return sazpack.SazGame(stem=shogi.Board().sfen(), game_result=rng.choice([0, 1, 2]), termination_reason=0,
                           entering_king_rule=3, positions=positions)


def build_file(path: Path) -> None:
    rng = random.Random(1)
    chunk = sazpack.write_sazpack([random_game(rng) for _ in range(DISTINCT_GAMES)])
    payload = chunk[10:]
    copies = -(-(TARGET_BYTES - 10) // len(payload))
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(chunk[:6] + struct.pack("<I", len(payload) * copies))
        for _ in range(copies):
            f.write(payload)
    os.replace(tmp, path)


def best_of(n: int, fn):
    best, out = float("inf"), None
    for _ in range(n):
        out = None
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def walk(games) -> int:
    """Every field of every position and entry into flat arrays, from Python."""
    rows, entries = [], []
    for g in games:
        for p in g.positions:
            r, o, w = p.root_wdl, p.outcome_wdl, p.raw_wdl
            rows.append((p.played, r.win, r.draw, r.loss, o.win, o.draw, o.loss, w.win, w.draw, w.loss,
                         p.raw_mate, p.raw_moves_left, p.plies_left, p.requested_visits, p.target_weight_milli,
                         p.exploration_flags, p.mate))
            for e in p.policy:
                entries.append((e.mv, e.prior, e.raw_prior, e.visits, e.lower, e.upper))
    np.array([e[1:] for e in entries], dtype=np.uint32)
    return len(rows)


def line(label: str, seconds: float, mb: float, games: int, ref: float = None, ref_label: str = "") -> None:
    ratio = f"   {ref / seconds:6.2f}x {ref_label}" if ref else ""
    print(f"  {label:44s} {mb / seconds:8.1f} MB/s {games / seconds:10.0f} games/s{ratio}")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "selfplay-100m.sazpack"
    if not path.exists() or path.stat().st_size < TARGET_BYTES:
        build_file(path)
    size = path.stat().st_size
    path.read_bytes()  # warm the page cache
    mb = size / 1e6

    t_ours, games = best_of(3, lambda: sazpack.decode_sazpack_file(path))
    n_games = len(games)
    n_positions = sum(len(g.positions) for g in games[:DISTINCT_GAMES]) * (n_games // DISTINCT_GAMES)
    del games
    t_cols, cols = best_of(3, lambda: sazpack.decode_sazpack_columns(path))
    n_entries = len(cols.mv)
    assert len(cols) == n_positions
    del cols
    t_cols_fast, _ = best_of(3, lambda: sazpack.decode_sazpack_columns(path, check_policy_legality=False))
    print(f"SAZ2 decode, {mb:.1f} MB: {n_games} games, {n_positions} positions, {n_entries} policy entries")
    if rs is None:
        print("  rsshogi is not installed (pip install rsshogi==1.7.0): no reference figures")
        line("manaka  decode_sazpack_file (objects)", t_ours, mb, n_games)
        line("manaka  decode_sazpack_columns", t_cols, mb, n_games)
        line("manaka  decode_sazpack_columns, no legality", t_cols_fast, mb, n_games)
        return

    t_ref, ref_games = best_of(3, lambda: rs.decode_sazpack_file(str(path)))
    assert len(ref_games) == n_games
    del ref_games
    t_ref_walk, _ = best_of(1, lambda: walk(rs.decode_sazpack_file(str(path))))
    t_our_walk, _ = best_of(1, lambda: walk(sazpack.decode_sazpack_file(path)))

    print("  objects")
    line("rsshogi 1.7.0  decode_sazpack_file", t_ref, mb, n_games)
    line("manaka         decode_sazpack_file", t_ours, mb, n_games, t_ref, "of rsshogi's speed")
    print("  objects, then every field read into arrays")
    line("rsshogi 1.7.0  decode + walk", t_ref_walk, mb, n_games)
    line("manaka         decode + walk", t_our_walk, mb, n_games, t_ref_walk, "of rsshogi's speed")
    print("  columns (numpy, boards replayed; rsshogi has no columnar path)")
    line("manaka         decode_sazpack_columns", t_cols, mb, n_games, t_ref_walk, "vs rsshogi decode + walk")
    print(f"  {'':44s} {'':35s} {t_ref / t_cols:6.2f}x vs rsshogi objects alone")
    line("manaka         ... check_policy_legality=False", t_cols_fast, mb, n_games, t_ref_walk,
         "vs rsshogi decode + walk")
    print(f"  {'':44s} {'':35s} {t_ref / t_cols_fast:6.2f}x vs rsshogi objects alone")


if __name__ == "__main__":
    main()
