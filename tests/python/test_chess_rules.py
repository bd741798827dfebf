"""Game-ending rules and Zobrist keys against python-chess 1.11.2.

Seeded random games are played on a python-chess Board and on ours in
lockstep, from the initial position and from endgames and middlegames chosen
so that every ending occurs: shuffling moves (a piece stepping back to where
it came from two plies earlier, knight and king moves that are neither
captures nor pawn moves) make repetitions, starts with a high halfmove clock
reach the fifty- and seventy-five-move rules, checking and game-ending moves
find mates and stalemates, and captures in minor-piece endings leave
insufficient material (where play goes on, to its stalemates).
At every ply both boards must give the same outcome(claim_draw=True) and
outcome(claim_draw=False) (termination and winner), and two positions must
have equal Zobrist keys exactly when python-chess's _transposition_key() is
equal. The counts of each termination are checked, so a run that never
reached a rare case fails.
"""

import collections
import random

import pytest

import chess  # test-only oracle, python-chess, installed by the test extra
from manaka import chess as mchess

# (fen, weight): where the games start.
STARTS = [
    (chess.STARTING_FEN, 3),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 1),  # en passant at once
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1),
    ("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1", 2),  # back-rank mates
    ("2r3k1/5ppp/8/8/8/8/5PPP/2R3K1 w - - 88 30", 2),
    ("4k3/8/8/3n4/8/8/3B4/4K3 w - - 90 60", 2),  # a capture leaves insufficient material
    ("8/2n5/4k3/8/8/3K4/2B5/8 w - - 130 80", 2),  # the seventy-five-move rule
    ("4k3/8/8/8/8/8/8/R3K3 w Q - 94 60", 2),
    ("7k/8/5K2/6Q1/8/8/8/8 w - - 120 70", 2),  # stalemates
    ("k7/8/2K5/8/8/8/8/1Q6 w - - 60 70", 2),
    ("8/8/8/8/8/5k2/6p1/6K1 b - - 0 70", 2),
    ("k7/2K4p/1P6/8/8/8/8/8 w - - 97 80", 1),  # fifty moves with pawn moves only
    ("k1K5/2Q4R/8/B7/8/8/8/8 w - - 99 80", 1),  # every move that would reach 100 mates or stalemates
    ("7k/8/5K2/8/8/8/8/1B6 w - - 0 70", 2),  # stalemates with insufficient material
    ("7k/8/6K1/8/8/8/3N4/8 w - - 0 70", 2),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", 1),  # castling rights lost while shuffling
]
GAMES = 2000
MAX_PLIES = 60


def ends_the_game(board: chess.Board, move: chess.Move) -> bool:
    """The move mates or stalemates."""
    board.push(move)
    try:
        return not any(board.generate_legal_moves())
    finally:
        board.pop()


def pick(board: chess.Board, rng: random.Random, p_back: float, p_quiet: float) -> chess.Move:
    moves = list(board.legal_moves)
    if len(board.move_stack) >= 2 and rng.random() < p_back:
        last = board.move_stack[-2]
        back = chess.Move(last.to_square, last.from_square)
        if back in moves:
            return back
    if rng.random() < 0.1:
        ends = [m for m in moves if ends_the_game(board, m)]
        if ends:
            return rng.choice(ends)
    if rng.random() < 0.15:
        checks = [m for m in moves if board.gives_check(m)]
        if checks:
            return rng.choice(checks)
    if rng.random() < p_quiet:
        quiet = [m for m in moves if not board.is_zeroing(m)]
        shuffles = [m for m in quiet if board.piece_type_at(m.from_square) in (chess.KNIGHT, chess.KING)]
        if shuffles or quiet:
            return rng.choice(shuffles or quiet)
    return rng.choice(moves)


def pair(outcome) -> tuple | None:
    return None if outcome is None else (outcome.termination.name, outcome.winner)


def compare_methods(theirs: chess.Board, ours: mchess.Board) -> None:
    fen = theirs.fen()
    assert ours.is_repetition(2) == theirs.is_repetition(2), fen
    assert ours.is_repetition() == theirs.is_repetition(), fen
    assert ours.is_fivefold_repetition() == theirs.is_fivefold_repetition(), fen
    assert ours.is_seventyfive_moves() == theirs.is_seventyfive_moves(), fen
    assert ours.is_fifty_moves() == theirs.is_fifty_moves(), fen
    assert ours.can_claim_fifty_moves() == theirs.can_claim_fifty_moves(), fen
    assert ours.can_claim_threefold_repetition() == theirs.can_claim_threefold_repetition(), fen
    assert ours.can_claim_draw() == theirs.can_claim_draw(), fen
    assert ours.is_insufficient_material() == theirs.is_insufficient_material(), fen
    for color in (chess.WHITE, chess.BLACK):
        assert ours.has_insufficient_material(color) == theirs.has_insufficient_material(color), fen
    assert ours.is_checkmate() == theirs.is_checkmate(), fen
    assert ours.is_stalemate() == theirs.is_stalemate(), fen
    assert ours.result(claim_draw=True) == theirs.result(claim_draw=True), fen
    assert ours.is_game_over() == theirs.is_game_over(), fen


def play(seed: int, games: int):
    """Plays the games, comparing at every ply; returns the counters."""
    rng = random.Random(seed)
    starts = [fen for fen, weight in STARTS for _ in range(weight)]
    counts = collections.Counter()
    key_of = {}  # transposition key -> our key
    tk_of = {}  # our key -> transposition key
    for _ in range(games):
        fen = rng.choice(starts)
        theirs, ours = chess.Board(fen), mchess.Board(fen)
        p_back, p_quiet = rng.choice([0.0, 0.5, 0.9]), rng.choice([0.3, 0.8, 0.97])
        ended = False
        for ply in range(MAX_PLIES + 1):
            claimed = theirs.outcome(claim_draw=True)
            final = theirs.outcome(claim_draw=False)
            where = (theirs.fen(), [m.uci() for m in theirs.move_stack])
            assert pair(ours.outcome(claim_draw=True)) == pair(claimed), where
            assert pair(ours.outcome(claim_draw=False)) == pair(final), where

            tk, key = theirs._transposition_key(), ours.zobrist
            assert key_of.setdefault(tk, key) == key, where
            assert tk_of.setdefault(key, tk) == tk, where

            counts["plies"] += 1
            if claimed is not None:
                counts["claim", claimed.termination.name] += 1
            if claimed is not None and claimed.termination == chess.Termination.THREEFOLD_REPETITION \
                    and not theirs.is_repetition(3):
                counts["threefold claimed by the next move"] += 1
            if claimed is not None and claimed.termination == chess.Termination.FIFTY_MOVES \
                    and theirs.halfmove_clock == 99:
                counts["fifty claimed by the next move"] += 1
            if theirs.is_stalemate() and theirs.is_insufficient_material():
                counts["stalemate with insufficient material"] += 1
            if theirs.halfmove_clock == 99 and not theirs.can_claim_fifty_moves() \
                    and any(not theirs.is_zeroing(m) for m in theirs.legal_moves):
                counts["fifty refused: every move to 100 ends the game"] += 1
            if theirs.has_legal_en_passant():
                counts["legal en passant"] += 1
            if ply % 5 == 0:
                compare_methods(theirs, ours)
            if final is not None and not ended:
                counts["final", final.termination.name] += 1
                ended = True
            # Play goes on in a drawn ending with moves left, to reach its
            # stalemates (insufficient material is decided first).
            insufficient = final is not None and final.termination == chess.Termination.INSUFFICIENT_MATERIAL
            if ply == MAX_PLIES or (ended and not (insufficient and any(theirs.generate_legal_moves()))):
                counts["final", "none"] += not ended
                break
            move = pick(theirs, rng, p_back, p_quiet)
            if ply % 11 == 3:  # pop and push again: the history survives a take-back
                assert ours.push_uci(move.uci()).uci() == move.uci()
                assert ours.pop().uci() == move.uci()
            theirs.push(move)
            assert ours.push_uci(move.uci()).uci() == move.uci()
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in theirs.move_stack]
    return counts, key_of


def test_outcomes_and_keys_match_python_chess():
    counts, key_of = play(seed=13, games=GAMES)
    print(sorted(counts.items(), key=str))
    # Every termination occurred, the claims too, and the rare ways to them.
    for name, least in [("CHECKMATE", 100), ("STALEMATE", 80), ("INSUFFICIENT_MATERIAL", 200),
                        ("SEVENTYFIVE_MOVES", 100), ("FIVEFOLD_REPETITION", 250)]:
        assert counts["final", name] >= least, (name, counts)
    assert counts["claim", "FIFTY_MOVES"] >= 5000, counts
    assert counts["claim", "THREEFOLD_REPETITION"] >= 2000, counts
    assert counts["threefold claimed by the next move"] >= 800, counts
    assert counts["fifty claimed by the next move"] >= 150, counts
    assert counts["legal en passant"] >= 50, counts
    assert counts["stalemate with insufficient material"] >= 20, counts
    assert counts["fifty refused: every move to 100 ends the game"] >= 30, counts
    assert len(key_of) >= 20000


def test_termination_enum_and_outcome():
    board = mchess.Board()
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        board.push_uci(uci)
    outcome = board.outcome()
    assert outcome.termination == mchess.Termination.CHECKMATE
    assert outcome.termination.name == "CHECKMATE"
    assert outcome.winner is False
    assert outcome.result() == "0-1"
    assert board.result() == "0-1" and board.is_game_over() and board.is_checkmate()
    assert [t.name for t in mchess.Termination] == [t.name for t in list(chess.Termination)[:7]]
    assert mchess.Board().outcome(claim_draw=True) is None
    with pytest.raises(TypeError):
        mchess.Board().outcome(True)  # keyword-only, as python-chess's


def test_pop_and_copy():
    board = mchess.Board()
    with pytest.raises(IndexError, match="pop from an empty move stack"):
        board.pop()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        board.push_uci(uci)
    assert board.is_repetition(2)
    assert board.copy().is_repetition(2)
    assert not board.copy(stack=False).is_repetition(2)
    assert board.copy(stack=False).move_stack == []
    assert board.root().fen() == chess.STARTING_FEN
    assert board.pop() == mchess.Move.from_uci("f6g8")
    assert [str(m) for m in board.move_stack] == ["g1f3", "g8f6", "f3g1"]
    assert not board.is_repetition(2)
    assert board.zobrist == mchess.Board(board.fen()).zobrist
