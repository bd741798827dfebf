"""manaka.chess against python-chess, an independent implementation.

Seeded random legal games from the initial position and from Kiwipete, biased
towards castling, en passant, promotion and double pushes, are played on a
python-chess Board and on ours in lockstep (our side through push_uci). At
every position the two must agree on the legal moves, the FEN, check, the
castling rights, the en-passant square, the side to move, both counters and
the piece on every square (its symbol, type and colour); a Board built from
python-chess's FEN (with the en-passant square after every double push) must
agree too, and legal_move_counts over all of them must equal python-chess's
counts.
"""

import copy
import random

import numpy as np
import pytest

import chess  # test-only oracle, python-chess, installed by the test extra
import manaka
from manaka import chess as mchess
from test_chess_oracle import python_perft

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
PIECE_VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
CASTLING_BITS = ((chess.BB_H1, 1), (chess.BB_A1, 2), (chess.BB_H8, 4), (chess.BB_A8, 8))


def is_special(board: chess.Board, move: chess.Move) -> bool:
    """Castling, en passant, promotion or a double push: the rare rules."""
    return (board.is_castling(move) or board.is_en_passant(move) or move.promotion is not None
            or (board.piece_type_at(move.from_square) == chess.PAWN
                and abs(move.to_square - move.from_square) == 16))


def lockstep_games(seed: int, target: int) -> list[tuple[chess.Board, mchess.Board]]:
    """(python-chess board, our board) copies along random games, about target pairs."""
    rng = random.Random(seed)
    pairs = []
    while len(pairs) < target:
        fen = rng.choice([chess.STARTING_FEN, KIWIPETE])
        theirs, ours = chess.Board(fen), mchess.Board(fen)
        for _ in range(rng.randint(10, 200)):
            pairs.append((theirs.copy(stack=False), ours.copy()))
            moves = list(theirs.legal_moves)
            if not moves or len(pairs) >= target:
                break
            special = [m for m in moves if is_special(theirs, m)]
            move = rng.choice(special if special and rng.random() < 0.3 else moves)
            assert str(ours.push_uci(move.uci())) == move.uci()
            theirs.push(move)
    return pairs


PAIRS = lockstep_games(seed=23, target=3000)


def castling_mask(board: chess.Board) -> int:
    return sum(bit for square_bb, bit in CASTLING_BITS if board.castling_rights & square_bb)


def material(board: chess.Board, color: chess.Color) -> int:
    return sum(v * len(board.pieces(pt, color)) for pt, v in PIECE_VALUE.items())


def assert_same(theirs: chess.Board, ours: mchess.Board) -> None:
    fen = theirs.fen()
    assert ours.fen() == fen
    assert ours.normalized_fen() == " ".join(fen.split()[:5] + ["1"])
    assert sorted(m.uci() for m in ours.legal_moves) == sorted(m.uci() for m in theirs.legal_moves), fen
    assert ours.legal_move_count() == theirs.legal_moves.count(), fen
    assert ours.is_check() == theirs.is_check(), fen
    assert ours.castling_mask == castling_mask(theirs), fen
    assert ours.ep_square == theirs.ep_square, fen
    assert ours.turn is theirs.turn, fen
    assert ours.halfmove_clock == theirs.halfmove_clock, fen
    assert ours.fullmove_number == theirs.fullmove_number, fen
    for square in chess.SQUARES:
        piece, mine = theirs.piece_at(square), ours.piece_at(square)
        if piece is None or mine is None:
            assert piece is mine, (fen, square)
        else:
            assert (mine.symbol(), mine.piece_type, mine.color) == (piece.symbol(), piece.piece_type, piece.color)
    assert ours.piece_count() == chess.popcount(theirs.occupied), fen
    assert ours.material(chess.WHITE) == material(theirs, chess.WHITE), fen
    assert ours.material(chess.BLACK) == material(theirs, chess.BLACK), fen
    assert ours.non_pawn_material() == (material(theirs, chess.WHITE) + material(theirs, chess.BLACK)
                                        - len(theirs.pieces(chess.PAWN, chess.WHITE))
                                        - len(theirs.pieces(chess.PAWN, chess.BLACK))), fen


def test_games_cover_the_rare_rules():
    boards = [theirs for theirs, _ in PAIRS]
    assert sum(b.has_legal_en_passant() for b in boards) >= 20
    assert sum(b.ep_square is not None and not b.has_legal_en_passant() for b in boards) >= 100
    assert sum(any(b.is_castling(m) for m in b.legal_moves) for b in boards) >= 100
    assert sum(any(m.promotion for m in b.legal_moves) for b in boards) >= 20
    assert sum(b.is_check() for b in boards) >= 100
    assert sum(b.castling_rights not in (0, chess.BB_CORNERS) for b in boards) >= 100


def test_boards_played_by_push_uci_match_python_chess():
    for theirs, ours in PAIRS:
        assert_same(theirs, ours)


def test_boards_read_from_fen_match_python_chess():
    # en_passant="fen" writes the square after every double push, so reading
    # it back gives python-chess's ep_square even when no capture is legal.
    for theirs, _ in PAIRS:
        assert_same(theirs, mchess.Board(theirs.fen(en_passant="fen")))


def test_is_legal_agrees_on_legal_and_illegal_moves():
    rng = random.Random(5)
    for theirs, ours in PAIRS[::10]:
        for move in theirs.legal_moves:
            assert ours.is_legal(mchess.Move.from_uci(move.uci()))
        for move in theirs.pseudo_legal_moves:
            assert ours.is_legal(mchess.Move.from_uci(move.uci())) == theirs.is_legal(move), (theirs.fen(), move)
        for _ in range(20):
            move = chess.Move(rng.randrange(64), rng.randrange(64))
            if move.from_square != move.to_square:
                ours_move = mchess.Move(move.from_square, move.to_square)
                assert ours.is_legal(ours_move) == theirs.is_legal(move), (theirs.fen(), move.uci())
    board = mchess.Board()
    for text in ["e7e8q", "0000"]:
        assert not board.is_legal(mchess.Move.from_uci(text))
    for text in ["", "e2", "e2e4x", "i2i4", "E2E4"]:
        with pytest.raises(manaka.InvalidDataError):
            mchess.Move.from_uci(text)


def test_legal_move_counts_equal_python_chess():
    fens = [theirs.fen(en_passant="fen") for theirs, _ in PAIRS]
    counts = mchess.legal_move_counts(fens)
    assert isinstance(counts, np.ndarray) and counts.dtype == np.int32 and counts.shape == (len(fens),)
    assert counts.tolist() == [theirs.legal_moves.count() for theirs, _ in PAIRS]
    assert mchess.legal_move_counts(tuple(fens[:3])).tolist() == counts[:3].tolist()
    empty = mchess.legal_move_counts([])
    assert empty.dtype == np.int32 and empty.shape == (0,)


def test_legal_move_counts_name_the_bad_fen():
    with pytest.raises(manaka.InvalidDataError, match=r'^fens\[1\]: fen "x": offset 0: '):
        mchess.legal_move_counts([chess.STARTING_FEN, "x", chess.STARTING_FEN])
    with pytest.raises(TypeError):
        mchess.legal_move_counts(chess.STARTING_FEN)  # a str is not a list of FENs


def test_push_uci_refuses_illegal_and_unparsable_moves_naming_them():
    board = mchess.Board()
    start = board.fen()
    with pytest.raises(manaka.InvalidDataError) as e:
        board.push_uci("e2e5")
    assert str(e.value) == f"illegal uci: 'e2e5' in {start}"
    with pytest.raises(manaka.InvalidDataError) as e:
        board.push_uci("e2")
    assert str(e.value).startswith(f"invalid uci: 'e2' in {start}: ")
    with pytest.raises(manaka.InvalidDataError, match="illegal uci: '0000'"):
        board.push_uci("0000")  # the null move is never legal here
    with pytest.raises(ValueError):  # the manaka.Error tree derives from ValueError
        board.push_uci("e1g1")
    assert board.fen() == start  # a refused move leaves the board as it was


def test_invalid_fen_raises_with_the_cores_message():
    cases = {
        "8/8/8/8/8/8/8/8 w - - 0 1": 'fen "8/8/8/8/8/8/8/8 w - - 0 1": White has 0 kings, expected exactly one',
        "4k3/8/8/8/8/8/8/4K3 w K - 0 1":
            'fen "4k3/8/8/8/8/8/8/4K3 w K - 0 1": castling right K needs the White king on e1 and a White rook on h1',
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1":
            'fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1": '
            "offset 44: expected the side to move 'w' or 'b', got 'x'",
        "": 'fen "": offset 0: expected a board, got the end',
    }
    for fen, message in cases.items():
        with pytest.raises(manaka.InvalidDataError) as e:
            mchess.Board(fen)
        assert str(e.value) == message
        with pytest.raises(manaka.InvalidDataError):
            mchess.perft(fen, 1)


def test_start_position_and_constants():
    assert mchess.STARTING_FEN == chess.STARTING_FEN
    assert mchess.Board().fen() == mchess.Board("startpos").fen() == chess.STARTING_FEN
    assert mchess.WHITE is chess.WHITE and mchess.BLACK is chess.BLACK
    assert [mchess.PAWN, mchess.KNIGHT, mchess.BISHOP, mchess.ROOK, mchess.QUEEN, mchess.KING] == list(
        chess.PIECE_TYPES)
    board = mchess.Board(KIWIPETE)
    assert repr(board) == f"Board('{KIWIPETE}')"
    assert board.castling_mask == 15 and board.ep_square is None and board.turn is True
    assert mchess.Board("4k3/8/8/8/8/8/8/4K2R w K - 5 9").castling_mask == 1


def test_copy_is_independent():
    board = mchess.Board()
    for other in (board.copy(), copy.copy(board)):
        other.push_uci("e2e4")
        assert board.fen() == chess.STARTING_FEN
        assert other.ep_square == chess.E3 and other.turn is False


def test_arguments_are_checked():
    board = mchess.Board()
    with pytest.raises(TypeError):
        board.material(0)  # colours are python-chess's bools; 0 would mean White in the core
    with pytest.raises(IndexError):
        board.piece_at(64)
    with pytest.raises(IndexError):
        board.piece_at(-1)


def test_perft():
    assert mchess.perft(chess.STARTING_FEN, 3) == 8902
    assert mchess.perft("startpos", 0) == 1
    assert mchess.perft(KIWIPETE, 3) == 97862


def test_perft_matches_python_chess_on_random_positions():
    for theirs, _ in random.Random(3).sample(PAIRS, 10):
        fen = theirs.fen(en_passant="fen")
        assert mchess.perft(fen, 2) == python_perft(theirs.copy(stack=False), 2), fen
