"""`manaka vpd build` ingestion and `manaka vpd label` throughput.

Ingestion: a Lichess-like archive (random legal games with Lichess's tag
set and a [%clk] comment after every move, as its monthly dumps carry),
written once under build/bench and compressed with zstd (untimed). Timed,
best of 2: `manaka vpd build` on 1 thread and on every core (SAN validated,
positions sampled, features computed, SQLite written), beside the bare
`zstd -dc` of the same file (the limit of one decompressing reader) and
python-chess reading the first games of the same text (read_game plus
walking the mainline, extrapolated). Rates are MB of decompressed PGN per
second of wall time; "a core" divides the all-core rate by the threads
used, and "per CPU second" divides by the CPU time the build used (user +
system), which a loaded machine does not distort. The two builds must write
the same file.

Labeling: `manaka vpd label` with Stockfish (nodes 10000, one worker) on
the first positions of the built file: positions a second, and the
labeler's overhead beside the engine's time (wall time minus the time spent
waiting for the engine, over the latter; the probe that asks the engine
whether it reports WDL is in the overhead).
"""

from __future__ import annotations

import hashlib
import io
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.pgn

GAMES = int(os.environ.get("MANAKA_BENCH_VPD_GAMES", "20000"))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench"))
MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
STOCKFISH = "/usr/games/stockfish"
LABEL_POSITIONS = int(os.environ.get("MANAKA_BENCH_LABEL_POSITIONS", "300"))


def lichess_like(rng: random.Random, n: int) -> str:
    board = chess.Board()
    sans = []
    clock = [180, 180]
    for _ in range(rng.randint(20, 140)):
        legal = list(board.legal_moves)
        if not legal:
            break
        move = rng.choice(legal)
        sans.append(board.san(move))
        side = 0 if board.turn == chess.WHITE else 1
        clock[side] = max(0, clock[side] - rng.randint(0, 6))
        board.push(move)
        sans[-1] += f" {{ [%clk 0:{clock[side] // 60:02d}:{clock[side] % 60:02d}] }}"
    result = board.result(claim_draw=False) if board.is_game_over() else rng.choice(["1-0", "0-1", "1/2-1/2"])
    tags = [("Event", "Rated Blitz game"), ("Site", f"https://lichess.org/{n:08x}"), ("Date", "2024.05.01"),
            ("Round", "-"), ("White", f"player{rng.randint(1, 99999)}"), ("Black", f"player{rng.randint(1, 99999)}"),
            ("Result", result), ("UTCDate", "2024.05.01"), ("UTCTime", "12:00:00"),
            ("WhiteElo", str(rng.randint(800, 2800))), ("BlackElo", str(rng.randint(800, 2800))),
            ("WhiteRatingDiff", "+5"), ("BlackRatingDiff", "-5"), ("ECO", "B01"),
            ("Opening", "Scandinavian Defense"), ("TimeControl", "180+0"), ("Termination", "Normal")]
    movetext = []
    for i, san in enumerate(sans):
        movetext.append((f"{i // 2 + 1}. " if i % 2 == 0 else f"{i // 2 + 1}... ") + san)
    return "".join(f'[{k} "{v}"]\n' for k, v in tags) + "\n" + " ".join(movetext) + f" {result}\n\n"


def build_archive(path: Path) -> None:
    rng = random.Random(2024)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as f:
        for n in range(GAMES):
            f.write(lichess_like(rng, n))
    subprocess.run(["zstd", "-q", "-f", "-3", str(tmp), "-o", str(path)], check=True)
    tmp.unlink()


def timed(cmd: list[str], runs: int = 2) -> tuple[float, float, subprocess.CompletedProcess]:
    """The best wall time of runs, the CPU time (user + system) of that run, and its process."""
    best, cpu, proc = float("inf"), 0.0, None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, SOURCE_DATE_EPOCH="1"))
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert proc.returncode == 0, proc.stderr
        if wall < best:
            best, cpu = wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert proc is not None
    return best, cpu, proc


def python_chess_rate(text: str, budget_games: int = 400) -> float:
    f = io.StringIO(text)
    start = time.perf_counter()
    read = 0
    for _ in range(budget_games):
        game = chess.pgn.read_game(f)
        if game is None:
            break
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
    read = f.tell()
    return read / 1e6 / (time.perf_counter() - start)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    archive = OUT / f"lichess-like-{GAMES}.pgn.zst"
    if not archive.exists():
        build_archive(archive)
    raw = subprocess.run(["zstd", "-dc", str(archive)], capture_output=True, check=True).stdout
    mb = len(raw) / 1e6
    t_zstd, _, _ = timed(["sh", "-c", f"zstd -dc {archive} > /dev/null"], runs=3)
    cores = os.cpu_count() or 1
    one = OUT / "vpd-bench-1.vpd"
    many = OUT / f"vpd-bench-{cores}.vpd"
    target = str(GAMES * 2)
    t_one, cpu_one, _ = timed([MANAKA, "vpd", "build", str(archive), "-o", str(one), "--overwrite", "-q",
                               "--threads", "1", "--target", target])
    t_many, cpu_many, _ = timed([MANAKA, "vpd", "build", str(archive), "-o", str(many), "--overwrite", "-q",
                                 "--threads", str(cores), "--target", target])
    same = hashlib.sha256(one.read_bytes()).digest() == hashlib.sha256(many.read_bytes()).digest()
    assert same, "the 1-thread and the all-core builds differ"
    pc = python_chess_rate(raw.decode())
    load = os.getloadavg()[0]
    print(f"vpd build, {archive.name}: {mb:.1f} MB of PGN ({archive.stat().st_size / 1e6:.1f} MB zstd), {GAMES} games;"
          f" {cores} cores, load {load:.1f} before")
    print(f"  manaka, 1 thread       {mb / t_one:8.1f} MB/s wall  ({t_one:.2f} s; CPU {cpu_one:.2f} s = "
          f"{mb / cpu_one:.1f} MB per CPU second)")
    print(f"  manaka, {cores:2d} threads     {mb / t_many:8.1f} MB/s wall  ({t_many:.2f} s; {mb / t_many / cores:.1f} MB/s a "
          f"core; CPU {cpu_many:.2f} s)  same file: {same}")
    print(f"  python-chess read_game {pc:8.2f} MB/s  (the first 400 games)")
    print(f"  zstd -dc (the limit)   {mb / t_zstd:8.1f} MB/s")

    if not Path(STOCKFISH).exists():
        print(f"  labeling: {STOCKFISH} is not installed")
        return
    labeled = OUT / "vpd-bench-label.vpd"
    shutil.copy(one, labeled)
    _, _, proc = timed([MANAKA, "vpd", "label", str(labeled), "--engine", STOCKFISH, "--nodes", "10000", "--workers", "1",
                     "--max", str(LABEL_POSITIONS)], runs=1)
    m = re.search(r"([\d.]+) s, ([\d.]+) positions/s; engine ([\d.]+) s", proc.stdout)
    assert m, proc.stdout
    wall, rate, engine = map(float, m.groups())
    print(f"vpd label, Stockfish nodes 10000, 1 worker, {LABEL_POSITIONS} positions")
    print(f"  {rate:8.1f} positions/s; searches {engine:.2f} s of {wall:.2f} s: overhead "
          f"{(wall - engine) / engine * 100:.1f} % of engine time")


if __name__ == "__main__":
    main()
