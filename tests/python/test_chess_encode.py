"""The corpus encodings against independent derivations from python-chess.

The planes of positions along seeded random games (with repetitions, so the
repetition plane is exercised) are recomputed here in numpy from a
python-chess Board, following the layout in docs/chess-position.md, and
must equal encode_planes; decode_planes must read them back to the same FEN.
The policy index of every legal move is recomputed from python-chess's move
squares and must equal move_index, and move_from_index must invert it.
"""

import random

import numpy as np
import pytest

import chess  # test-only oracle, python-chess, installed by the test extra
import manaka
from manaka import chess as mchess

STARTS = [
    chess.STARTING_FEN,
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "8/P1k5/K7/8/8/8/8/8 w - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "4k3/8/8/3n4/8/8/3B4/4K3 w - - 93 60",
]

# Queen-like directions N, NE, E, SE, S, SW, W, NW as (file step, rank step).
DIRECTIONS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]
KNIGHT_STEPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
UNDERPROMOTIONS = [chess.KNIGHT, chess.BISHOP, chess.ROOK]


def lockstep(seed: int, games: int):
    """(python-chess board with its stack, our board) at every ply of random games."""
    rng = random.Random(seed)
    for _ in range(games):
        fen = rng.choice(STARTS)
        theirs, ours = chess.Board(fen), mchess.Board(fen)
        for _ in range(rng.randint(5, 120)):
            yield theirs, ours
            moves = list(theirs.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            if len(theirs.move_stack) >= 2 and rng.random() < 0.4:
                last = theirs.move_stack[-2]
                back = chess.Move(last.to_square, last.from_square)
                move = back if back in moves else move
            theirs.push(move)
            ours.push_uci(move.uci())


def expected_planes(board: chess.Board) -> np.ndarray:
    """docs/chess-position.md's planes, from python-chess alone."""
    us = board.turn
    out = np.zeros((20, 8, 8), dtype=np.int8)
    for square, piece in board.piece_map().items():
        row = chess.square_rank(square) if us == chess.WHITE else 7 - chess.square_rank(square)
        plane = (0 if piece.color == us else 6) + piece.piece_type - 1
        out[plane, row, chess.square_file(square)] = 1
    out[12] = 1 if us == chess.WHITE else 0
    out[13] = board.has_kingside_castling_rights(us)
    out[14] = board.has_queenside_castling_rights(us)
    out[15] = board.has_kingside_castling_rights(not us)
    out[16] = board.has_queenside_castling_rights(not us)
    if board.ep_square is not None and board.has_legal_en_passant():
        ep = board.ep_square
        row = chess.square_rank(ep) if us == chess.WHITE else 7 - chess.square_rank(ep)
        out[17, row, chess.square_file(ep)] = 1
    out[18] = min(board.halfmove_clock, 100)
    out[19] = board.is_repetition(2)
    return out


def expected_index(board: chess.Board, move: chess.Move) -> int:
    """The AlphaZero index from the move's squares, in the mover's view."""
    flip = 0 if board.turn == chess.WHITE else 56
    origin, target = move.from_square ^ flip, move.to_square ^ flip
    df = chess.square_file(target) - chess.square_file(origin)
    dr = chess.square_rank(target) - chess.square_rank(origin)
    if move.promotion in UNDERPROMOTIONS:
        plane = 64 + (df + 1) * 3 + UNDERPROMOTIONS.index(move.promotion)
    elif (df, dr) in KNIGHT_STEPS:
        plane = 56 + KNIGHT_STEPS.index((df, dr))
    else:
        distance = max(abs(df), abs(dr))
        plane = DIRECTIONS.index((df // distance, dr // distance)) * 7 + distance - 1
    return origin * 73 + plane


def test_planes_match_python_chess():
    seen = {"black": 0, "ep": 0, "repeated": 0, "castling": 0}
    for theirs, ours in lockstep(seed=3, games=300):
        planes = mchess.encode_planes(ours)
        assert planes.dtype == np.int8 and planes.shape == (20, 8, 8)
        np.testing.assert_array_equal(planes, expected_planes(theirs), err_msg=theirs.fen())
        seen["black"] += theirs.turn == chess.BLACK
        seen["ep"] += planes[17].any()
        seen["repeated"] += planes[19].all()
        seen["castling"] += planes[13:17].any() and not planes[13:17].all()
    assert min(seen.values()) >= 20, seen


def test_planes_decode_to_the_same_position():
    count = 0
    for theirs, ours in lockstep(seed=4, games=80):
        board, repeated = mchess.decode_planes(mchess.encode_planes(ours))
        fields = theirs.fen().split()
        fields[4], fields[5] = str(min(theirs.halfmove_clock, 100)), "1"
        assert board.fen() == " ".join(fields)
        assert repeated == theirs.is_repetition(2)
        assert board.zobrist == ours.zobrist
        count += 1
    assert count > 2000


def test_move_index_matches_python_chess():
    moves = 0
    for n, (theirs, ours) in enumerate(lockstep(seed=5, games=250)):
        indices = set()
        for move in theirs.legal_moves:
            index = mchess.move_index(ours, mchess.Move.from_uci(move.uci()))
            assert index == expected_index(theirs, move), (theirs.fen(), move.uci())
            assert str(mchess.move_from_index(ours, index)) == move.uci()
            indices.add(index)
            moves += 1
        assert len(indices) == theirs.legal_moves.count()
        if n % 50 == 0:  # the whole range: only the legal moves' indices name a move
            named = {i for i in range(mchess.POLICY_SIZE) if mchess.move_from_index(ours, i) is not None}
            assert named == indices, theirs.fen()
    assert moves > 50000


def test_encode_game_is_one_call_of_the_same():
    rng = random.Random(9)
    theirs = chess.Board()
    for _ in range(80):
        moves = list(theirs.legal_moves)
        if not moves:
            break
        theirs.push(rng.choice(moves))
    ucis = [m.uci() for m in theirs.move_stack]
    states, indices = mchess.encode_game(chess.STARTING_FEN, ucis)
    assert states.shape == (len(ucis), 20, 8, 8) and states.dtype == np.int8
    assert indices.dtype == np.int32
    ours = mchess.Board()
    for i, uci in enumerate(ucis):
        np.testing.assert_array_equal(states[i], mchess.encode_planes(ours))
        assert indices[i] == mchess.move_index(ours, mchess.Move.from_uci(uci))
        ours.push_uci(uci)
    empty, none = mchess.encode_game("startpos", [])
    assert empty.shape == (0, 20, 8, 8) and none.shape == (0,)


def test_refusals():
    board = mchess.Board()
    with pytest.raises(manaka.InvalidDataError, match=r"illegal uci: 'e2e5' in rnbqkbnr"):
        mchess.move_index(board, mchess.Move.from_uci("e2e5"))
    assert mchess.move_from_index(board, -1) is None
    assert mchess.move_from_index(board, mchess.POLICY_SIZE) is None
    with pytest.raises(manaka.InvalidDataError, match=r"planes: expected shape \(20, 8, 8\), got \(8, 8\)"):
        mchess.decode_planes(np.zeros((8, 8), dtype=np.int8))
    planes = mchess.encode_planes(board)
    planes[12, 3, 3] = 0
    with pytest.raises(manaka.InvalidDataError,
                       match=r"plane 12 \(white to move\), row 3, column 3: the plane must be uniform"):
        mchess.decode_planes(planes)
    with pytest.raises(manaka.InvalidDataError, match=r"moves\[1\]: illegal uci: 'e2e4' in"):
        mchess.encode_game("startpos", ["e2e4", "e2e4"])
