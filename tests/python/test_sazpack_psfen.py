"""YaneuraOu PackedSfen (the SAZ2 stem) against cshogi 1.1.0 and rsshogi 1.7.0.

The positions are those of the shogi oracle test (random legal playouts,
seed 20261130, 10,000 positions), plus handicap-like positions with pieces
taken off the board, which PackedSfen stores as boxed pieces.
"""

import random

import cshogi
import numpy as np
import pytest

from manaka import InvalidDataError, shogi
from manaka import sazpack
from test_shogi_oracle import playouts

import rsshogi.sazpack as rs  # test-only oracle, installed by the test extra


def cshogi_psfen(board: cshogi.Board) -> bytes:
    buf = np.zeros(32, np.uint8)
    board.to_psfen(buf)
    return buf.tobytes()


def cshogi_sfen_of(psfen: bytes) -> str:
    board = cshogi.Board()
    board.set_psfen(np.frombuffer(psfen, np.uint8))
    return board.sfen()


def rsshogi_psfen(sfen: str) -> bytes:
    return rs.SazGame(stem=sfen, game_result=0, termination_reason=0, entering_king_rule=0,
                      positions=[]).stem_packed_sfen


def without_move_number(sfen: str) -> str:
    return sfen.rsplit(" ", 1)[0]


def test_oracle_positions_agree_with_cshogi_and_rsshogi():
    checked = with_hands = 0
    for board, _ in playouts(seed=20261130, target=10_000):
        sfen = board.sfen()
        ours = sazpack.to_packed_sfen(sfen)
        assert ours == cshogi_psfen(board), sfen
        assert ours == rsshogi_psfen(sfen), sfen
        assert without_move_number(sazpack.from_packed_sfen(ours)) == without_move_number(sfen)
        assert without_move_number(cshogi_sfen_of(ours)) == without_move_number(sfen)
        with_hands += " - " not in sfen
        checked += 1
    assert checked == 10_000
    assert with_hands > 5_000


def test_boxed_pieces_agree_with_cshogi_and_rsshogi():
    # Take 1-6 random non-king pieces off the board of playout positions.
    rng = random.Random(7)
    checked = 0
    for i, (board, _) in enumerate(playouts(seed=11, target=4_000)):
        if i % 2:
            continue
        squares = [sq for sq, pc in enumerate(board.pieces) if pc not in (0, 8, 24)]  # not empty, not a king
        pieces = list(board.pieces)
        for sq in rng.sample(squares, min(len(squares), rng.randint(1, 6))):
            pieces[sq] = 0
        stripped = cshogi.Board(board.sfen())
        stripped.set_pieces(pieces, board.pieces_in_hand)
        sfen = stripped.sfen()
        try:
            shogi.Board(sfen)
        except InvalidDataError:
            continue  # taking a piece off exposed the king of the side not to move
        ours = sazpack.to_packed_sfen(sfen)
        assert ours == cshogi_psfen(stripped), sfen
        assert ours == rsshogi_psfen(sfen), sfen
        assert without_move_number(sazpack.from_packed_sfen(ours)) == without_move_number(sfen)
        checked += 1
    assert checked > 1_000


def test_refusals_name_the_bit_and_rule():
    with pytest.raises(InvalidDataError, match="packed sfen bit 8: both kings on square 0"):
        sazpack.from_packed_sfen(bytes(32))
    with pytest.raises(InvalidDataError, match="a packed sfen is 32 bytes, got 31"):
        sazpack.from_packed_sfen(bytes(31))
    start = sazpack.to_packed_sfen("startpos")
    with pytest.raises(InvalidDataError, match="runs past bit 256"):
        sazpack.from_packed_sfen(start[:31] + b"\xff")
