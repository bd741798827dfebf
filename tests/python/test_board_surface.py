"""The one Python surface of manaka.shogi and manaka.chess (docs/python.md),
played in lockstep with independent implementations: cshogi for shogi,
python-chess for chess. Along random games both boards must offer the same
legal moves (compared as the text of our Move objects), agree on the side to
move, push and pop the same moves and keep the same move stack; our Move's
fields must equal the oracle's, and so must a chess Piece's; a slice of
legal_moves is the list's slice. The deprecated names must warn and still
work, and nothing else here may warn (DeprecationWarning is an error in this
module outside pytest.warns).
"""

import random

import chess
import cshogi
import pytest

import manaka
from manaka import chess as mchess
from manaka import shogi

pytestmark = pytest.mark.filterwarnings("error::DeprecationWarning")

# cshogi's hand order (HPAWN 0 .. HROOK 6) as our piece kinds.
CSHOGI_HAND_KIND = [shogi.PAWN, shogi.LANCE, shogi.KNIGHT, shogi.SILVER, shogi.GOLD, shogi.BISHOP, shogi.ROOK]


def mpk1_square(cshogi_square: int) -> int:
    """cshogi numbers 1a = 0 .. 9i = 80 file by file from file 1; MPK1 from file 9."""
    return (8 - cshogi_square // 9) * 9 + cshogi_square % 9


def assert_shogi_move_fields(ours: shogi.Move, theirs: int) -> None:
    usi = cshogi.move_to_usi(theirs)
    assert str(ours) == ours.usi() == usi and repr(ours) == f"Move.from_usi('{usi}')"
    assert ours.to_square == mpk1_square(cshogi.move_to(theirs)), usi
    assert ours.promotion is bool(cshogi.move_is_promotion(theirs)), usi
    if cshogi.move_is_drop(theirs):
        assert ours.drop == CSHOGI_HAND_KIND[cshogi.move_drop_hand_piece(theirs)], usi
        assert ours.from_square == ours.to_square, usi
    else:
        assert ours.drop is None and ours.from_square == mpk1_square(cshogi.move_from(theirs)), usi
    assert shogi.Move.from_usi(usi) == ours and hash(shogi.Move.from_usi(usi)) == hash(ours)
    assert shogi.Move.from_move16(ours.move16) == ours and ours.move16 == shogi.move16_from_usi(usi)


def test_shogi_lockstep_with_cshogi() -> None:
    rng = random.Random(20261201)
    plies = drops = pops = 0
    while plies < 600:
        theirs, ours = cshogi.Board(), shogi.Board()
        history: list[str] = []
        for _ in range(rng.randint(20, 160)):
            assert ours.sfen() == theirs.sfen()
            # cshogi's turn is BLACK 0 / WHITE 1; ours is the bool with the same value.
            assert ours.turn == theirs.turn and isinstance(ours.turn, bool)
            assert ours.turn is (shogi.BLACK if theirs.turn == cshogi.BLACK else shogi.WHITE)
            expected = {cshogi.move_to_usi(m): m for m in theirs.legal_moves}
            legal = ours.legal_moves
            assert sorted(str(m) for m in legal) == sorted(expected), theirs.sfen()
            assert len(legal) == legal.count() == ours.legal_move_count() == len(expected)
            assert [m.move16 for m in legal] == ours.legal_move16s().tolist()
            if not legal:
                break
            for m in legal:
                assert m in legal and ours.is_legal(m)
                assert_shogi_move_fields(m, expected[str(m)])
            move = rng.choice(legal)
            if rng.random() < 0.2:  # the same move through push_usi, which returns it
                assert ours.push_usi(str(move)) == move
            else:
                ours.push(move)
            theirs.push(expected[str(move)])
            history.append(str(move))
            drops += move.drop is not None
            plies += 1
            assert [m.usi() for m in ours.move_stack] == history
            assert ours.peek() == move
            if rng.random() < 0.15:  # take it back and play it again
                assert ours.pop() == move
                theirs.pop()
                assert ours.sfen() == theirs.sfen() and ours.turn == theirs.turn
                assert [m.usi() for m in ours.move_stack] == history[:-1]
                ours.push(move)
                theirs.push(expected[str(move)])
                pops += 1
        while ours.move_stack:  # unwind the whole game
            ours.pop()
            theirs.pop()
            assert ours.sfen() == theirs.sfen()
        assert ours.sfen() == shogi.Board().sfen()
    assert drops > 10 and pops > 20


def test_chess_lockstep_with_python_chess() -> None:
    rng = random.Random(20261201)
    plies = promotions = castles = pops = 0
    while plies < 1500:
        theirs, ours = chess.Board(), mchess.Board()
        for _ in range(rng.randint(20, 200)):
            assert ours.fen() == theirs.fen()
            assert ours.turn is theirs.turn and (ours.turn == mchess.WHITE) == (theirs.turn == chess.WHITE)
            expected = {m.uci(): m for m in theirs.legal_moves}
            legal = ours.legal_moves
            assert sorted(str(m) for m in legal) == sorted(expected), theirs.fen()
            assert len(legal) == legal.count() == theirs.legal_moves.count()
            if not legal:
                break
            for m in legal:
                them = expected[str(m)]
                assert (m.from_square, m.to_square, m.promotion) == (them.from_square, them.to_square, them.promotion)
                assert repr(m) == repr(them) and m.uci() == them.uci()
                assert mchess.Move(m.from_square, m.to_square, m.promotion) == m and m in legal
                assert mchess.move_from_index(ours, mchess.move_index(ours, m)) == m
            # Prefer castling and promotions now and then, so both occur.
            special = [m for m in legal if m.promotion is not None or theirs.is_castling(expected[str(m)])]
            move = rng.choice(special if special and rng.random() < 0.5 else list(legal))
            san = theirs.san(expected[str(move)])
            assert ours.san(move) == san
            if rng.random() < 0.2:
                assert ours.push_san(san) == move
            elif rng.random() < 0.2:
                assert ours.push_uci(move.uci()) == move
            else:
                ours.push(move)
            castles += theirs.is_castling(expected[str(move)])
            theirs.push(expected[str(move)])
            promotions += move.promotion is not None
            plies += 1
            assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
            assert ours.peek() == move
            if rng.random() < 0.15:
                assert ours.pop() == move and str(theirs.pop()) == str(move)
                assert ours.fen() == theirs.fen()
                ours.push(move)
                theirs.push(expected[str(move)])
                pops += 1
    assert castles > 3 and promotions > 3 and pops > 20


def test_colours_are_bools_that_equal_cshogi_and_python_chess() -> None:
    # Shogi: BLACK (sente) moves first and is False, equal to cshogi's 0.
    assert shogi.BLACK is False and shogi.WHITE is True
    assert shogi.BLACK == cshogi.BLACK == 0 and shogi.WHITE == cshogi.WHITE == 1
    board = shogi.Board()
    assert board.turn is shogi.BLACK and cshogi.Board().turn == board.turn
    board.push_usi("7g7f")
    assert board.turn is shogi.WHITE and "b" not in board.sfen().split()[1]
    assert shogi.Board("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2").turn is shogi.WHITE
    # hand() takes the constants and the old ints alike.
    sfen = "8k/9/9/9/9/9/9/9/K8 b 2Pr 1"
    assert shogi.Board(sfen).hand(shogi.BLACK) == shogi.Board(sfen).hand(0) == [2, 0, 0, 0, 0, 0, 0]
    assert shogi.Board(sfen).hand(shogi.WHITE) == shogi.Board(sfen).hand(1) == [0, 0, 0, 0, 0, 0, 1]
    # Chess: python-chess's bools, WHITE (who moves first) True.
    assert mchess.WHITE is chess.WHITE is True and mchess.BLACK is chess.BLACK is False
    assert mchess.Board().turn is chess.Board().turn is mchess.WHITE


def test_shogi_move_values() -> None:
    m = shogi.Move.from_usi("7g7f")
    # MPK1 squares: 7g = (9 - 7) * 9 + 6 = 24, 7f = 23.
    assert m.move16 == 3095 and (m.from_square, m.to_square, m.promotion, m.drop) == (24, 23, False, None)
    assert shogi.Move(24, 23) == m and shogi.Move(24, 23, promotion=True).usi() == "7g7f+"
    drop = shogi.Move(40, 40, drop=shogi.PAWN)
    assert drop.usi() == "P*5e" and drop.move16 == 10408 and drop == shogi.Move.from_usi("P*5e")
    assert shogi.Move.from_usi("8h2b+").move16 == 18496
    assert len({m, shogi.Move.from_move16(3095), drop}) == 2 and m != drop
    with pytest.raises(AttributeError):
        m.to_square = 3  # type: ignore[misc]
    for bad in [lambda: shogi.Move(20, 20), lambda: shogi.Move(40, 40, drop=shogi.KING),
                lambda: shogi.Move(40, 40, promotion=True, drop=shogi.PAWN), lambda: shogi.Move(39, 40, drop=shogi.ROOK),
                lambda: shogi.Move.from_usi("7g7"), lambda: shogi.Move.from_move16(0x8000)]:
        with pytest.raises(manaka.InvalidDataError):
            bad()
    with pytest.raises(ValueError, match="to_square: 81 is out of range"):
        shogi.Move(0, 81)
    board = shogi.Board()
    with pytest.raises(manaka.InvalidDataError, match=r"illegal usi: '7g7e' in "):
        board.push(shogi.Move.from_usi("7g7e"))
    with pytest.raises(IndexError, match="pop from an empty move stack"):
        board.pop()
    assert repr(board) == f"Board('{board.sfen()}')"


def test_chess_move_values() -> None:
    m = mchess.Move.from_uci("e7e8q")
    assert (m.from_square, m.to_square, m.promotion) == (chess.E7, chess.E8, chess.QUEEN)
    assert m == mchess.Move(chess.E7, chess.E8, mchess.QUEEN) and hash(m) == hash(mchess.Move.from_uci("e7e8q"))
    assert repr(m) == repr(chess.Move.from_uci("e7e8q")) == "Move.from_uci('e7e8q')"
    assert str(mchess.Move.null()) == "0000" and not mchess.Move.null() and m
    assert mchess.Move.from_uci("0000") == mchess.Move.null() == mchess.Move(0, 0)
    with pytest.raises(AttributeError):
        m.promotion = None  # type: ignore[misc]
    for bad in [lambda: mchess.Move(chess.E2, chess.E2), lambda: mchess.Move(chess.E2, chess.E4, mchess.QUEEN),
                lambda: mchess.Move.from_uci("e2e9")]:
        with pytest.raises(manaka.InvalidDataError):
            bad()
    board = mchess.Board()
    with pytest.raises(manaka.InvalidDataError, match=r"illegal uci: 'e2e5' in rnbqkbnr"):
        board.push(mchess.Move.from_uci("e2e5"))
    assert board.parse_uci("g1f3") == mchess.Move(chess.G1, chess.F3)


def test_legal_moves_is_a_light_sequence() -> None:
    cases: list[tuple[shogi.LegalMoves | mchess.LegalMoves, type, int]] = [
        (shogi.Board().legal_moves, shogi.Move, 30), (mchess.Board().legal_moves, mchess.Move, 20)]
    for legal, move_type, count in cases:
        assert legal and len(legal) == count
        assert legal[-1] == list(legal)[-1] and legal[0] == next(iter(legal))
        assert isinstance(legal[0], move_type) and None not in legal and 3095 not in legal
        with pytest.raises(IndexError):
            legal[len(legal)]
        assert repr(legal).startswith(f"<LegalMoves ({legal[0]}, ")
        every = list(legal)
        for cut in (slice(3), slice(-2, None), slice(None, None, -1), slice(1, -1, 4), slice(-3, 2, -2),
                    slice(5, 2), slice(-100, 100), slice(None, None, 7)):
            assert legal[cut] == every[cut], cut
        assert isinstance(legal[:3], list)
        with pytest.raises(ValueError):
            legal[::0]
    mate = mchess.Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert not mate.legal_moves and len(mate.legal_moves) == 0


def test_piece_is_python_chess_s() -> None:
    for symbol in "PNBRQKpnbrqk":
        theirs, ours = chess.Piece.from_symbol(symbol), mchess.Piece.from_symbol(symbol)
        assert (ours.piece_type, ours.color, ours.symbol(), str(ours), repr(ours)) == (
            theirs.piece_type, theirs.color, theirs.symbol(), str(theirs), repr(theirs))
        assert ours.unicode_symbol() == theirs.unicode_symbol()
        assert ours.unicode_symbol(invert_color=True) == theirs.unicode_symbol(invert_color=True)
        assert ours == mchess.Piece(theirs.piece_type, theirs.color)
        assert hash(ours) == hash(mchess.Piece(theirs.piece_type, theirs.color))
    assert mchess.Piece(mchess.KNIGHT, mchess.WHITE) != mchess.Piece(mchess.KNIGHT, mchess.BLACK)
    assert len({mchess.Piece.from_symbol(s) for s in "PPpNn"}) == 4
    assert mchess.Board().piece_at(chess.E8) == mchess.Piece(mchess.KING, mchess.BLACK)
    assert mchess.Board().piece_at(chess.E4) is None
    assert mchess.Piece.from_symbol("P") != "P" and mchess.Piece.from_symbol("P") != 1
    for bad in ("x", "", "PP", "1"):
        with pytest.raises(manaka.InvalidDataError, match="not a piece symbol"):
            mchess.Piece.from_symbol(bad)
    with pytest.raises(ValueError, match="piece_type"):
        mchess.Piece(7, mchess.WHITE)
    with pytest.raises(TypeError):
        mchess.Piece(mchess.PAWN, 1)  # type: ignore[arg-type]


def test_deprecated_names_warn_and_still_work() -> None:
    with pytest.warns(DeprecationWarning, match="manaka.shogi.Position is deprecated"):
        from manaka.shogi import Position
    assert Position is shogi.Board
    with pytest.warns(DeprecationWarning, match="Position is deprecated"):
        old = shogi.Position("startpos")
    assert isinstance(old, shogi.Board) and old.sfen() == shogi.Board().sfen()
    with pytest.warns(DeprecationWarning, match=r"legal_moves\(\) is deprecated"):
        texts = old.legal_moves()
    assert sorted(texts) == sorted(str(m) for m in old.legal_moves) and all(isinstance(t, str) for t in texts)
    with pytest.warns(DeprecationWarning, match=r"push\(move16\) is deprecated"):
        old.push(3095)
    assert [str(m) for m in old.move_stack] == ["7g7f"]
    with pytest.warns(DeprecationWarning, match="is_legal"):
        assert old.is_legal("3c3d") and not old.is_legal("7g7f")
    with pytest.warns(DeprecationWarning, match="text in legal_moves"):
        assert "3c3d" in old.legal_moves and "3c3x" not in old.legal_moves
    with pytest.warns(DeprecationWarning, match="comparing a Move with text"):
        assert old.pop() == "7g7f"
    with pytest.raises(AttributeError):
        shogi.NoSuchName

    board = mchess.Board()
    with pytest.warns(DeprecationWarning, match="is_legal"):
        assert board.is_legal("e2e4") and not board.is_legal("e2e5") and not board.is_legal("x")
    with pytest.warns(DeprecationWarning, match="san"):
        assert board.san("g1f3") == "Nf3"
    with pytest.warns(DeprecationWarning, match="move_index"):
        assert mchess.move_index(board, "e2e4") == mchess.move_index(board, mchess.Move.from_uci("e2e4"))
    with pytest.warns(DeprecationWarning, match="text in legal_moves"):
        assert "e2e4" in board.legal_moves
    with pytest.warns(DeprecationWarning, match="comparing a Move with text"):
        assert board.push_uci("e2e4") == "e2e4" and not (board.peek() != "e2e4")
    king = board.piece_at(chess.E1)
    assert king is not None
    with pytest.warns(DeprecationWarning, match=r"unpacking a Piece as the \(color, piece_type\) tuple"):
        color, kind = king
    assert (color, kind) == (True, chess.KING)
    with pytest.warns(DeprecationWarning, match="indexing a Piece"):
        assert king[0] is True and king[1] == chess.KING
    with pytest.warns(DeprecationWarning, match="comparing a Piece"):
        assert king == (True, chess.KING) and king != (False, chess.KING) and (True, chess.KING) == king
