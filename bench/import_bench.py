"""Import: records/s of `manaka stream import --from psv` beside a numpy +
cshogi converter of the same file, and beside reading the same bytes.

A PackedSfenValue file (MANAKA_BENCH_IMPORT_RECORDS records, default
1,000,000, from random legal playouts written with cshogi's own encoders; a
few in the mate band) is built once under build/bench (untimed). Then, in one
run:
  read     the file's bytes read in 4 MiB chunks: the limit
  manaka   `manaka stream import --from psv` on every core
  python   np.fromfile + a cshogi loop doing the same work (decode, legality,
           squash, MPK1 bytes); its output must be byte-identical
Aim: manaka at least 20x the Python converter in wall time. The import
converts on every core and the Python loop runs on one, so the wall ratio is
the per-CPU-second ratio times the cores the import gets: both are printed,
with the cores each side kept busy (CPU seconds / wall seconds) and the load
average, which says how much of the machine others were using.
"""

import json
import math
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

import cshogi
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from teacher_convert_py import CANDIDATE, RECORD_HEAD, move16, packed_position  # noqa: E402

RECORDS = int(os.environ.get("MANAKA_BENCH_IMPORT_RECORDS", "1000000"))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = str(Path(sys.executable).with_name("manaka"))
EVAL_COEF, MATE_SCALE = 600.0, 32000


def build_psv(path: Path, n: int) -> None:
    rng = random.Random(20261201)
    recs = np.zeros(n, cshogi.PackedSfenValue)
    i = 0
    while i < n:
        board = cshogi.Board()
        result = rng.choice([1, -1, 0])
        for ply in range(rng.randint(20, 200)):
            moves = list(board.legal_moves)
            if not moves or i >= n:
                break
            move = rng.choice(moves)
            board.to_psfen(recs[i : i + 1]["sfen"])
            score = rng.randint(-3000, 3000) if rng.random() > 0.02 else rng.choice([1, -1]) * (MATE_SCALE - rng.randint(1, 300))
            recs[i]["score"] = score
            recs[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
            recs[i]["gamePly"] = ply
            recs[i]["game_result"] = result if ply % 2 == 0 else -result
            board.push(move)
            i += 1
    recs.tofile(path)


def read_bytes(path: Path) -> int:
    n = 0
    with open(path, "rb", buffering=0) as f:
        while chunk := f.read(4 << 20):
            n += len(chunk)
    return n


def python_convert(src: Path, dst: Path) -> int:
    """numpy + cshogi: the same records manaka writes, or the count refused."""
    import struct

    coef = struct.unpack("<f", struct.pack("<f", EVAL_COEF))[0]
    threshold = MATE_SCALE - 320
    recs = np.fromfile(src, cshogi.PackedSfenValue)
    board = cshogi.Board()
    written = 0
    with open(dst, "wb") as f:
        f.write(struct.pack("<4sHHBBHHHfI", b"MPK1", 1, 96, 0, 1, MATE_SCALE, 0, 0, EVAL_COEF, 0))
        for start in range(0, len(recs), 65536):
            out = bytearray()
            for sfen, score, mv, ply, result, _ in recs[start : start + 65536].tolist():
                board.set_psfen(np.frombuffer(sfen, np.uint8) if isinstance(sfen, bytes) else np.asarray(sfen, np.uint8))
                m = board.move_from_psv(mv)
                if not board.is_legal(m) or result not in (-1, 0, 1) or score == -32768:
                    continue
                q = (1.0 if score > 0 else -1.0) if abs(score) >= threshold else math.tanh(score / (2.0 * coef))
                out += RECORD_HEAD.pack(ply, float(result), q, 1)
                out += packed_position(board)
                out += CANDIDATE.pack(move16(cshogi.move_to_usi(m)), 0, score)
                written += 1
            f.write(out)
    return written


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    src = OUT / f"import_{RECORDS}.psv"
    if not src.exists() or src.stat().st_size != RECORDS * 40:
        t = time.perf_counter()
        build_psv(src, RECORDS)
        print(f"built {src} ({RECORDS} records) in {time.perf_counter() - t:.1f} s")
    t = time.perf_counter()
    size = read_bytes(src)
    read_s = time.perf_counter() - t
    ours = OUT / "import_manaka.mpk"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    summary = json.loads(subprocess.run(
        [MANAKA, "stream", "import", "--from", "psv", str(src), "-o", str(ours), "--eval-coef", str(EVAL_COEF),
         "--mate-scale", str(MATE_SCALE), "--overwrite", "--json"],
        check=True, capture_output=True, text=True).stdout)
    manaka_s = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    manaka_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    theirs = OUT / "import_python.mpk"
    t, cpu = time.perf_counter(), time.process_time()
    written = python_convert(src, theirs)
    python_s, python_cpu = time.perf_counter() - t, time.process_time() - cpu
    assert summary["records_written"] == written, (summary["records_written"], written)
    assert ours.read_bytes() == theirs.read_bytes(), "the outputs differ"
    n = RECORDS
    load = os.getloadavg()[0]
    print(f"import psv: {n} records ({size / 1e6:.0f} MB), {os.cpu_count()} cores, load average {load:.1f}")
    print(f"  read bytes      {n / read_s:14,.0f} records/s  ({read_s:.3f} s, the limit)")
    print(f"  manaka import   {n / manaka_s:14,.0f} records/s  ({manaka_s:.3f} s, process start included; "
          f"{manaka_cpu / n * 1e6:.2f} CPU-us a record; {manaka_cpu / manaka_s:.2f} cores busy)")
    print(f"  numpy + cshogi  {n / python_s:14,.0f} records/s  ({python_s:.3f} s; {python_cpu / n * 1e6:.2f} CPU-us a record; "
          f"{python_cpu / python_s:.2f} cores busy)")
    print(f"  manaka / python {python_s / manaka_s:.1f}x wall (aim 20x), {python_cpu / manaka_cpu:.1f}x per CPU-second; "
          f"read / manaka {manaka_s / read_s:.1f}x")


if __name__ == "__main__":
    main()
