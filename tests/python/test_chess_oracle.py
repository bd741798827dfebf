"""Our chess rules against python-chess, an independent implementation.

Seeded random legal games from the initial position and from Kiwipete visit
a few thousand positions; at each one `manaka chess moves -` must list the
same legal moves (UCI, sorted) as python-chess, and `manaka chess fen -` must
print the FEN python-chess's Board.fen() prints, from input that carries the
en-passant square after every double push (Board.fen(en_passant="fen")). Each
command runs once over all positions, one FEN a line. Perft at depth 3 on
random positions is compared with a perft over python-chess's own moves.

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import os
import random
import subprocess
import sys
from pathlib import Path

import chess  # test-only oracle, python-chess, installed by the test extra

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def is_special(board: chess.Board, move: chess.Move) -> bool:
    """Castling, en passant, promotion or a double push: the rare rules."""
    return (board.is_castling(move) or board.is_en_passant(move) or move.promotion is not None
            or (board.piece_type_at(move.from_square) == chess.PAWN
                and abs(move.to_square - move.from_square) == 16))


def playouts(seed: int, target: int) -> list[chess.Board]:
    """Copies of the boards along random legal games, about target of them."""
    rng = random.Random(seed)
    boards = []
    while len(boards) < target:
        board = chess.Board(rng.choice([chess.STARTING_FEN, KIWIPETE]))
        for _ in range(rng.randint(10, 200)):
            boards.append(board.copy(stack=False))
            moves = list(board.legal_moves)
            if not moves or len(boards) >= target:
                break
            # Prefer the rare rules now and then so that they occur often.
            special = [m for m in moves if is_special(board, m)]
            board.push(rng.choice(special if special and rng.random() < 0.3 else moves))
    return boards


BOARDS = playouts(seed=11, target=4000)


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([MANAKA, "chess", *args], input=stdin, capture_output=True, text=True, timeout=120)


def test_positions_cover_the_rare_rules():
    assert sum(b.has_legal_en_passant() for b in BOARDS) >= 20
    assert sum(any(b.is_castling(m) for m in b.legal_moves) for b in BOARDS) >= 100
    assert sum(any(m.promotion for m in b.legal_moves) for b in BOARDS) >= 20
    assert sum(b.is_check() for b in BOARDS) >= 100
    assert any(b.is_checkmate() or b.is_stalemate() for b in BOARDS)


def test_legal_moves_match_python_chess():
    fens = [b.fen(en_passant="fen") for b in BOARDS]
    out = run("moves", "-", stdin="\n".join(fens) + "\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split("\n")
    assert lines[-1] == "" and len(lines) == len(BOARDS) + 1
    for board, fen, line in zip(BOARDS, fens, lines):
        expected = sorted(m.uci() for m in board.legal_moves)
        assert line.split() == expected, fen


def test_fen_matches_python_chess():
    fens = [b.fen(en_passant="fen") for b in BOARDS]
    out = run("fen", "-", stdin="\n".join(fens) + "\n")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == len(BOARDS)
    for board, fen, line in zip(BOARDS, fens, lines):
        assert line == board.fen(), fen
    # The raw en-passant square is dropped exactly where no capture is legal.
    assert any(f != b.fen() for f, b in zip(fens, BOARDS))


def test_four_field_fens_and_normalized_fens():
    boards = BOARDS[::7]
    four = [" ".join(b.fen(en_passant="fen").split()[:4]) for b in boards]
    out = run("fen", "-", stdin="\n".join(four) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [" ".join(b.fen().split()[:4] + ["0", "1"]) for b in boards]
    out = run("fen", "--normalized", "-", stdin="\n".join(b.fen() for b in boards) + "\n")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [" ".join(b.fen().split()[:5] + ["1"]) for b in boards]


def python_perft(board: chess.Board, depth: int) -> int:
    if depth == 1:
        return board.legal_moves.count()
    nodes = 0
    for move in board.legal_moves:
        board.push(move)
        nodes += python_perft(board, depth - 1)
        board.pop()
    return nodes


def test_perft_matches_python_chess():
    rng = random.Random(5)
    boards = [b for b in rng.sample(BOARDS, 40) if not b.is_game_over()][:20]
    assert len(boards) == 20
    for board in boards:
        out = run("perft", board.fen(), "3")
        assert out.returncode == 0, out.stderr
        assert int(out.stdout) == python_perft(board, 3), board.fen()


def test_single_fen_commands():
    out = run("moves", "startpos")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == sorted(m.uci() for m in chess.Board().legal_moves)
    out = run("fen", KIWIPETE)
    assert (out.returncode, out.stdout) == (0, KIWIPETE + "\n")
    out = run("perft", "startpos", "4")
    assert (out.returncode, out.stdout) == (0, "197281\n")


def test_refusals_exit_one_and_name_the_fault():
    out = run("fen", "8/8/8/8/8/8/8/8 w - - 0 1")
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr == 'manaka: fen "8/8/8/8/8/8/8/8 w - - 0 1": White has 0 kings, expected exactly one\n'
    out = run("moves", "-", stdin=f"{chess.STARTING_FEN}\n{chess.STARTING_FEN} x\n")
    assert out.returncode == 1
    assert len(out.stdout.splitlines()) == 1  # the first line's moves came out before the refusal
    assert out.stderr.startswith(f'manaka: line 2: fen "{chess.STARTING_FEN} x": offset 56: ')
