"""Our shogi rules against cshogi, an independent implementation.

Random legal playouts visit >= 10,000 positions; at each one the legal move
sets must be identical, the SFEN must round-trip, and the 96-byte packed
position must equal one built here from cshogi's own board (so the layout is
checked against the spec's text, not against our packer).
"""

import random

import cshogi
import pytest

from manaka import shogi

# cshogi piece codes (1..14, +16 for White) to the spec's kind numbers
# K R B G S N L P +R +B +S +N +L +P = 0..13.
CSHOGI_TO_KIND = {1: 7, 2: 6, 3: 5, 4: 4, 5: 2, 6: 1, 7: 3, 8: 0,
                  9: 13, 10: 12, 11: 11, 12: 10, 13: 9, 14: 8}


def packed_from_cshogi(board: cshogi.Board) -> bytes:
    """The spec's 96-byte layout, built from cshogi's board."""
    out = bytearray([0xFF] * 81)
    for csq, piece in enumerate(board.pieces):
        if piece == 0:
            continue
        file, rank = csq // 9 + 1, csq % 9 + 1
        colour = 1 if piece >= 16 else 0
        out[(9 - file) * 9 + (rank - 1)] = colour << 4 | CSHOGI_TO_KIND[piece & 15]
    black, white = board.pieces_in_hand  # both P L N S G B R, as the spec's hands
    out += bytes(black) + bytes(white) + bytes([board.turn])
    return bytes(out)


def playouts(seed: int, target: int):
    """Yields (cshogi board, our position) pairs along random legal games."""
    rng = random.Random(seed)
    seen = 0
    while seen < target:
        board, ours = cshogi.Board(), shogi.Board()
        for _ in range(rng.randint(20, 260)):
            yield board, ours
            seen += 1
            moves = [cshogi.move_to_usi(m) for m in board.legal_moves]
            if not moves or seen >= target:
                break
            # Prefer drops now and then so hands, nifu and pawn-drop mates occur.
            drops = [m for m in moves if "*" in m]
            move = rng.choice(drops if drops and rng.random() < 0.3 else moves)
            board.push_usi(move)
            ours.push_usi(move)


def test_ten_thousand_positions_agree_with_cshogi():
    checked = drops_seen = 0
    for board, ours in playouts(seed=20261130, target=10_000):
        expected = sorted(cshogi.move_to_usi(m) for m in board.legal_moves)
        got = sorted(m.usi() for m in ours.legal_moves)
        assert got == expected, f"legal moves differ at {board.sfen()}"
        assert ours.is_check() == board.is_check(), board.sfen()
        sfen = board.sfen()
        assert ours.sfen() == sfen
        assert shogi.Board(sfen).sfen() == sfen
        packed = ours.pack()
        assert packed == packed_from_cshogi(board), sfen
        # The packed position has no move number; everything else returns.
        assert shogi.Board.unpack(packed).sfen().rsplit(" ", 1)[0] == sfen.rsplit(" ", 1)[0]
        drops_seen += any("*" in m for m in expected)
        checked += 1
    assert checked == 10_000
    assert drops_seen > 1000


@pytest.mark.parametrize("sfen,depth", [
    ("startpos", 3),
    ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1", 2),
    ("8k/9/9/9/9/9/9/9/K8 b RBGSNLPrb3g3s3n3l17p 1", 1),
    # A pawn drop on 1b would mate: the rules forbid it (uchifuzume).
    ("8k/6G2/9/7N1/9/9/9/9/K8 b P 1", 2),
])
def test_perft_agrees_with_cshogi(sfen, depth):
    board = cshogi.Board() if sfen == "startpos" else cshogi.Board(sfen)

    def count(b, d):
        if d == 1:
            return len(list(b.legal_moves))
        total = 0
        for m in list(b.legal_moves):
            b.push(m)
            total += count(b, d - 1)
            b.pop()
        return total

    assert shogi.perft(sfen, depth) == count(board, depth)
