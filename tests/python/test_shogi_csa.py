"""CSA records (manaka.shogi.csa_record, shogi/csa.h) read back by cshogi's CSA parser.

Random games, steered into repetitions and checks (test_shogi_encode's
steered_game), played until the rules end them: the parser must give back
the start, every move, the names and the result our rules decided (cshogi's
win: 1 Black, 2 White, 0 a draw).
"""

from __future__ import annotations

import random

import cshogi
import cshogi.CSA
import pytest

import manaka
from manaka import shogi
from manaka._core import shogi as core
from test_shogi_encode import steered_game

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
CSHOGI_WIN = {None: 0, "black": 1, "white": 2}
ENDING = {"no_legal_move": "%TORYO", "repetition": "%SENNICHITE", "ply_limit": "%MAX_MOVES"}


def played_out(moves: list[str], max_plies: int) -> tuple[list[str], tuple]:
    """The moves up to the first position the rules end, and that ending."""
    outcomes = core.game_outcomes(START, moves, max_plies)
    for i, (_, termination, winner) in enumerate(outcomes):
        if termination is not None:
            return moves[:i], (termination, winner)
    return moves, (None, None)


def test_records_read_back_by_cshogi() -> None:
    rng = random.Random(4)
    endings = set()
    for game in range(120):
        moves, (termination, winner) = played_out(steered_game(rng, 300), 200)
        text = shogi.csa_record(moves, black="manaka", white="Fairy-Stockfish 11.1", event="test",
                                max_plies=200)
        parsed = cshogi.CSA.Parser.parse_str(text)[0]
        assert parsed.names == ["manaka", "Fairy-Stockfish 11.1"]
        assert parsed.sfen == START
        assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves, game
        if termination is None:
            assert parsed.endgame == "%CHUDAN"
            continue
        endings.add(termination)
        if termination == "perpetual_check":
            loser = "-" if winner == "black" else "+"
            assert parsed.endgame == f"%{loser}ILLEGAL_ACTION"
        else:
            assert parsed.endgame == ENDING[termination]
        assert parsed.win == CSHOGI_WIN[winner], (game, termination, winner)
    assert endings == {"no_legal_move", "repetition", "perpetual_check", "ply_limit"}, endings


def test_a_start_with_hands_and_promoted_pieces() -> None:
    sfen = "ln1g3+Rl/1ks1g4/ppppp2pp/5p3/7N1/2P6/PPSPPPP1P/1K5S1/LN1G1G2L w BS2Prbn 40"
    board = cshogi.Board(sfen)
    moves = [cshogi.move_to_usi(m) for m in list(board.legal_moves)[:1]]
    text = shogi.csa_record(moves, start=sfen, black="a", white="b")
    assert "\nPI\n" not in text and "\nP+00KA00GI00FU00FU\n" in text and "\nP-00HI00KA00KE\n" in text
    parsed = cshogi.CSA.Parser.parse_str(text)[0]
    assert cshogi.Board(parsed.sfen).sfen().rsplit(" ", 1)[0] == cshogi.Board(sfen).sfen().rsplit(" ", 1)[0]
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == moves


def test_refusals() -> None:
    with pytest.raises(manaka.InvalidDataError, match=r"moves\[1\]: illegal usi: '7g7f'"):
        shogi.csa_record(["7g7f", "7g7f"])
    with pytest.raises(manaka.UsageError, match="a CSA name is one line"):
        shogi.csa_record([], black="a\nb")
