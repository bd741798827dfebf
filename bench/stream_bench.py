"""MPK1 read-and-validate throughput beside `cat` of the same file, same run.

A synthetic self-play stream of >= 1 GB (37 candidates a record, 404 bytes
a record) is built once under build/bench (untimed), read once to warm the
page cache, then timed through `manaka stream validate` (every record decoded
and validated: its position unpacked, its moves distinct) and through
`cat FILE > /dev/null`.

The records are ones the reader accepts: each position is drawn from a pool
of positions met along random legal games (manaka.shogi), and each record's
37 moves are distinct (distinct destinations, random origins).

MANAKA_BENCH_BIN times another `manaka` binary on the same file (to compare
builds).
"""

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from manaka import shogi, stream

N_CAND = 37
POOL = 50_000
TARGET_BYTES = 1 << 30
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = os.environ.get("MANAKA_BENCH_BIN", str(Path(sys.executable).with_name("manaka")))


def record_dtype(n_cand: int) -> np.dtype:
    # ply u16 | value_z f32 | value_q f32 | n_cand u16 | packed u8[96] | (mv u16, visits u32, cp i16) x n
    cand = np.dtype([("mv", "<u2"), ("visits", "<u4"), ("cp", "<i2")])
    return np.dtype([("ply", "<u2"), ("value_z", "<f4"), ("value_q", "<f4"), ("n_cand", "<u2"),
                     ("packed", "u1", 96), ("cand", cand, n_cand)])


def position_pool(n: int, seed: int) -> np.ndarray:
    """n packed positions (n, 96) met along random legal games from the initial position."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        pos = shogi.Board()
        for _ in range(rng.randint(10, 160)):
            moves = pos.legal_move16s()
            if len(moves) == 0:
                break
            out.append(pos.pack())
            pos.push(shogi.Move.from_move16(int(rng.choice(list(moves)))))
    return np.frombuffer(b"".join(out[:n]), dtype=np.uint8).reshape(n, 96)


def build_stream(path: Path) -> int:
    dt = record_dtype(N_CAND)
    per_block = 65536
    blocks = -(-(TARGET_BYTES) // (dt.itemsize * per_block))
    rng = np.random.default_rng(1)
    pool = position_pool(POOL, 1)
    header = stream.Writer(str(path), stream.selfplay_header())
    header.close()
    with open(path, "ab") as f:
        for _ in range(blocks):
            r = np.zeros(per_block, dt)
            r["ply"] = rng.integers(0, 300, per_block)
            r["value_z"] = rng.integers(-1, 2, per_block)
            r["value_q"] = rng.uniform(-1, 1, per_block)
            r["n_cand"] = N_CAND
            r["packed"] = pool[rng.integers(0, POOL, per_block)]
            to = np.argsort(rng.random((per_block, 81)), axis=1)[:, :N_CAND]
            origin = rng.integers(0, 81, (per_block, N_CAND))
            r["cand"]["mv"] = to | origin << 7
            r["cand"]["visits"] = rng.integers(1, 60, (per_block, N_CAND))
            r["cand"]["cp"] = stream.NO_CP
            f.write(r.tobytes())
    return blocks * per_block


def timed(cmd: str) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, shell=True, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    path = OUT / "selfplay-1g-positions.mpk"  # not selfplay-1g.mpk: its random boards are refused
    if not path.exists() or path.stat().st_size < TARGET_BYTES:
        build_stream(path)
    size = path.stat().st_size
    records = stream.validate(str(path))  # also warms the page cache
    t_cat = min(timed(f"cat '{path}' > /dev/null") for _ in range(3))
    t_ours = min(timed(f"'{MANAKA}' stream validate -q '{path}'") for _ in range(3))
    mb = size / 1e6
    print(f"MPK1 read+validate, {size / 2**30:.2f} GiB, {records} records of {N_CAND} candidates")
    print(f"  manaka stream validate {mb / t_ours:8.0f} MB/s {records / t_ours / 1e6:6.2f} M records/s")
    print(f"  cat (page cache)       {mb / t_cat:8.0f} MB/s")
    print(f"  ratio                  {t_cat / t_ours:8.2f}x of cat")


if __name__ == "__main__":
    main()
