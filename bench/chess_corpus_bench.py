"""The chess corpus generator's own overhead as a share of engine time,
beside the spec's Python generator doing the same work in the same run.

Both play the same number of Stockfish games from random 4-ply openings at
the same per-move limit, one worker each: ours is `manaka chess corpus`,
whose summary times every engine wait and counts this process's CPU time
(every thread of ours: the game loop, encoding, deflating the shards) as its
overhead. The peer is the spec's loop in Python (python-chess's board and
chess.engine, numpy planes built per position, np.savez_compressed): its
overhead is the Python process's CPU time over the same engine waits. Aim:
under 1% of engine time. The limit is the engine itself (100% of the time
is spent in search when the generator costs nothing).
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import chess
import chess.engine
import numpy as np

GAMES = int(os.environ.get("MANAKA_BENCH_CORPUS_GAMES", "6"))
MOVETIME = float(os.environ.get("MANAKA_BENCH_CORPUS_MOVETIME", "0.05"))
OUT = Path(os.environ.get("MANAKA_BENCH_DIR", "build/bench")) / "chess_corpus"
MANAKA = str(Path(sys.executable).with_name("manaka"))
STOCKFISH = "/usr/games/stockfish"


def planes(board: chess.Board) -> np.ndarray:
    """The spec's 20 planes from python-chess (the peer's encoding work)."""
    us = board.turn
    out = np.zeros((20, 8, 8), dtype=np.int8)
    for square, piece in board.piece_map().items():
        row = chess.square_rank(square) if us == chess.WHITE else 7 - chess.square_rank(square)
        out[(0 if piece.color == us else 6) + piece.piece_type - 1, row, chess.square_file(square)] = 1
    out[12] = us == chess.WHITE
    out[13] = board.has_kingside_castling_rights(us)
    out[14] = board.has_queenside_castling_rights(us)
    out[15] = board.has_kingside_castling_rights(not us)
    out[16] = board.has_queenside_castling_rights(not us)
    out[18] = min(board.halfmove_clock, 100)
    out[19] = board.is_repetition(2)
    return out


def python_peer(games: int) -> dict:
    rng = np.random.default_rng(1)
    engine = chess.engine.SimpleEngine.popen_uci(STOCKFISH)
    engine.configure({"Threads": 1, "Hash": 16})
    cpu0, wall0, waited = time.process_time(), time.perf_counter(), 0.0
    states, moves, outcomes, positions = [], [], [], 0
    for _ in range(games):
        board = chess.Board()
        for _ in range(4):
            legal = list(board.legal_moves)
            board.push(legal[rng.integers(len(legal))])
        movers = []
        while board.outcome(claim_draw=True) is None:
            t = time.perf_counter()
            move = engine.play(board, chess.engine.Limit(time=MOVETIME)).move
            waited += time.perf_counter() - t
            states.append(planes(board))
            moves.append(move.from_square * 73)  # the index's cost is not the point here
            movers.append(board.turn)
            board.push(move)
        winner = board.outcome(claim_draw=True).winner
        outcomes += [0 if winner is None else (1 if m == winner else -1) for m in movers]
        positions += len(movers)
    np.savez_compressed(OUT / "peer.npz", states=np.array(states), move_indices=np.array(moves, np.int32),
                        outcomes=np.array(outcomes, np.int8))
    engine.quit()
    cpu = time.process_time() - cpu0
    return {"positions": positions, "engine_seconds": waited, "overhead_seconds": cpu,
            "seconds": time.perf_counter() - wall0}


def ours(games: int) -> dict:
    out = OUT / "ours"
    run = subprocess.run([MANAKA, "chess", "corpus", "-o", str(out), "--games", str(games), "--workers", "1",
                          "--movetime", str(MOVETIME), "--seed", "1", "--json", "--overwrite"],
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if (OUT / "ours").exists():
        subprocess.run(["rm", "-rf", str(OUT / "ours")], check=True)
    a = ours(GAMES)
    b = python_peer(GAMES)
    share_a = a["overhead_seconds"] / a["engine_seconds"]
    share_b = b["overhead_seconds"] / b["engine_seconds"]
    print(f"chess corpus, {GAMES} games at {MOVETIME} s a move, one worker each")
    print(f"  manaka chess corpus : {a['positions']} positions, engine {a['engine_seconds']:.1f} s, "
          f"generator {a['overhead_seconds']:.3f} s = {100 * share_a:.3f}% of engine time (aim: under 1%)")
    print(f"  python-chess peer   : {b['positions']} positions, engine {b['engine_seconds']:.1f} s, "
          f"generator {b['overhead_seconds']:.3f} s = {100 * share_b:.3f}% of engine time")
    print(f"  overhead ratio (peer / ours, per position): "
          f"{(b['overhead_seconds'] / b['positions']) / (a['overhead_seconds'] / a['positions']):.1f}x")


if __name__ == "__main__":
    main()
