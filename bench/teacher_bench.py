"""Teacher data: conversion rows/s beside a plain Python converter, and the
generator's own overhead as a share of engine time.

1. Conversion. A synthetic teacher corpus of a million rows (games of random
   legal candidates, up to five a row, the move played drawn from them, so
   each row follows the previous one as `manaka teacher generate` writes them;
   a few rows in the mate band) is built once under build/bench (untimed),
   with a shuffled copy beside it. Each file is converted by `manaka teacher
   convert` and by bench/teacher_convert_py.py (pyarrow + cshogi, the same
   derivations), in the same run; the outputs must be byte-identical. Aim:
   at least 20x. Game order lets the converter reuse the previous row's
   position (one SFEN printed and compared instead of one parsed); shuffled
   rows are each parsed, which is the Python converter's cost either way.
2. Generation. `manaka teacher generate` plays a few fairy-stockfish games;
   its summary times every engine wait, and everything else the workers did
   is the generator's overhead. Aim: under 2% of engine time.
"""

import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent))
import teacher_convert_py  # noqa: E402

from manaka import shogi  # noqa: E402

ROWS = int(os.environ.get("MANAKA_BENCH_TEACHER_ROWS", "1000000"))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = str(Path(sys.executable).with_name("manaka"))
FAIRY = "/usr/games/fairy-stockfish"
EVAL_COEF, MATE_SCALE = 600.0, 32000


def build_corpus(path: Path, rows: int) -> None:
    rng = random.Random(20261130)
    cols = {k: [] for k in teacher_convert_py.FIELDS}
    while len(cols["sfen"]) < rows:
        pos = shogi.Board()
        result = rng.choice([1, -1, 1, -1, 0])
        for ply in range(rng.randint(20, 200)):
            legal = [m.usi() for m in pos.legal_moves]
            if not legal or len(cols["sfen"]) >= rows:
                break
            cands = rng.sample(legal, min(5, len(legal)))
            cps = sorted((rng.randint(-3000, 3000) for _ in cands), reverse=True)
            root = cps[0] + rng.randint(-50, 50)
            if rng.random() < 0.05:  # a mate score, either way
                root = rng.choice([1, -1]) * (MATE_SCALE - rng.randint(1, 300))
            cols["sfen"].append(pos.sfen())
            cols["ply"].append(ply)
            cols["side"].append(ply % 2)
            cols["cp"].append(root)
            cols["cand_moves"].append(cands)
            cols["cand_cp"].append(cps)
            cols["move"].append(rng.choice(cands))
            cols["result"].append(result)
            pos.push_usi(cols["move"][-1])  # the next row is the position after the played move
    schema = pa.schema([("sfen", pa.string()), ("ply", pa.int32()), ("side", pa.int8()), ("cp", pa.int32()),
                        ("cand_moves", pa.list_(pa.string())), ("cand_cp", pa.list_(pa.int32())),
                        ("move", pa.string()), ("result", pa.int8())])
    tmp = path.with_suffix(".tmp")
    pq.write_table(pa.table(cols, schema=schema), tmp, compression="zstd", row_group_size=65536)
    tmp.rename(path)


def shuffled_copy(path: Path, out: Path) -> None:
    table = pq.read_table(path)
    order = pa.array(random.Random(7).sample(range(len(table)), len(table)))
    tmp = out.with_suffix(".tmp")
    pq.write_table(table.take(order), tmp, compression="zstd", row_group_size=65536)
    tmp.rename(out)


def bench_convert(corpus: Path, label: str) -> None:
    ours, peer = OUT / "teacher-manaka.mpk", OUT / "teacher-python.mpk"
    cmd = [MANAKA, "teacher", "convert", str(corpus), "-o", str(ours), "--eval-coef", str(EVAL_COEF),
           "--mate-scale", str(MATE_SCALE), "--json", "--overwrite"]
    runs, cpus = [], []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        summary = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        runs.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    t_ours, cpu_ours = min(runs), min(cpus)
    start, cpu = time.perf_counter(), time.process_time()
    rows, written, refused = teacher_convert_py.convert([str(corpus)], str(peer), EVAL_COEF, MATE_SCALE)
    t_peer, cpu_peer = time.perf_counter() - start, time.process_time() - cpu
    same = ours.read_bytes() == peer.read_bytes()
    print(f"teacher convert, {label}: {rows} rows ({summary['records_written']} records, "
          f"{summary['refused_total']} refused; python peer {written} / {sum(refused.values())})")
    print(f"  manaka teacher convert   {rows / t_ours:10.0f} rows/s  ({t_ours:.2f} s wall, {cpu_ours:.2f} s CPU; "
          f"best of 3, process included)")
    print(f"  python (pyarrow+cshogi)  {rows / t_peer:10.0f} rows/s  ({t_peer:.2f} s wall, {cpu_peer:.2f} s CPU; "
          f"in process)")
    print(f"  ratio                    {t_peer / t_ours:10.1f}x  wall (aim >= 20x); {cpu_peer / cpu_ours:.1f}x CPU time")
    print(f"  outputs byte-identical   {same}")
    if not same:
        sys.exit("teacher bench: the two converters disagree")


def bench_generate() -> None:
    if not os.access(FAIRY, os.X_OK):
        print("teacher generate: skipped (no fairy-stockfish)")
        return
    for depth in (1, 4):
        out = OUT / f"teacher-gen-d{depth}.parquet"
        out.unlink(missing_ok=True)
        cmd = [MANAKA, "teacher", "generate", "--engine", FAIRY, "--games", "4", "--multipv", "5", "--depth",
               str(depth), "--workers", "1", "--max-plies", "160", "--seed", "1", "-o", str(out), "--json"]
        s = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        n = max(s["positions"], 1)
        print(f"teacher generate, fairy-stockfish depth {depth}, multipv 5: {s['positions']} positions, "
              f"{s['games_completed']} games")
        print(f"  engine time         {1e3 * s['engine_seconds'] / n:8.3f} ms a position")
        print(f"  generator overhead  {1e3 * s['overhead_seconds'] / n:8.4f} ms a position = "
              f"{100 * s['overhead_share']:.2f}% of engine time (aim < 2%)")
        print(f"  generator CPU       {1e3 * s['generator_cpu_seconds'] / n:8.4f} ms a position")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    corpus = OUT / f"teacher-corpus-v2-{ROWS}.parquet"
    if not corpus.exists():
        build_corpus(corpus, ROWS)
    shuffled = OUT / f"teacher-corpus-v2-{ROWS}-shuffled.parquet"
    if not shuffled.exists():
        shuffled_copy(corpus, shuffled)
    bench_convert(corpus, "game order")
    bench_convert(shuffled, "shuffled")
    bench_generate()


if __name__ == "__main__":
    main()
