"""The shogi network encodings and game outcomes against cshogi.

The functions are imported from manaka._core.shogi (python/manaka/shogi.py
belongs to the Position surface and does not re-export them yet).

- Planes: recomputed here in numpy from cshogi's board (pieces by square,
  hands, side to move), following the layout in docs/shogi-network.md, and
  the repetition plane from cshogi's is_draw (the position occurred before);
  they must equal encode_planes / encode_game, and decode_planes must read
  them back.
- Policy index: recomputed here from the USI text of every legal move
  (cshogi's list), must equal move_index; move_from_index must invert it.
- Outcomes: along random games steered into repetitions and checks, the
  fourfold repetition and perpetual-check rule is judged here from cshogi's
  zobrist hashes and is_check, mate from cshogi's is_game_over, and must
  equal game_outcomes; a perpetual check we call must be one cshogi calls too.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import cshogi
import numpy as np
import pytest

import manaka
from manaka._core import shogi as core

# cshogi piece codes (1..14, +16 for White) to shogi/types.h's Kind (the
# plane order K R B G S N L P +R +B +S +N +L +P).
CSHOGI_TO_KIND = {1: 7, 2: 6, 3: 5, 4: 4, 5: 2, 6: 1, 7: 3, 8: 0,
                  9: 13, 10: 12, 11: 11, 12: 10, 13: 9, 14: 8}
HAND_LETTERS = "PLNSGBR"  # drop planes 132 + this index
# Queen-like directions N, NE, E, SE, S, SW, W, NW as (column step, row step),
# row 0 the mover's far side, column 0 the mover's left.
DIRECTIONS = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)]
REPEATED = {cshogi.REPETITION_DRAW, cshogi.REPETITION_WIN, cshogi.REPETITION_LOSE}


def cell(file: int, rank: int, white: bool) -> int:
    """The (row, column) cell of a square as the mover sees it, row * 9 + column."""
    if white:
        file, rank = 10 - file, 10 - rank
    return (rank - 1) * 9 + (9 - file)


def usi_square(text: str) -> tuple[int, int]:
    return int(text[0]), ord(text[1]) - ord("a") + 1


def packed_from_cshogi(board: cshogi.Board) -> bytes:
    """The 96-byte packed position (shogi/pack.h), built from cshogi's board."""
    out = bytearray([0xFF] * 81)
    for csq, piece in enumerate(board.pieces):
        if piece:
            file, rank = csq // 9 + 1, csq % 9 + 1
            out[(9 - file) * 9 + (rank - 1)] = (1 if piece >= 16 else 0) << 4 | CSHOGI_TO_KIND[piece & 15]
    black, white = board.pieces_in_hand
    return bytes(out) + bytes(black) + bytes(white) + bytes([board.turn])


def expected_planes(board: cshogi.Board, repeated: bool) -> np.ndarray:
    planes = np.zeros((44, 81), dtype=np.int8)
    mover = board.turn
    for csq, piece in enumerate(board.pieces):
        if piece == 0:
            continue
        file, rank = csq // 9 + 1, csq % 9 + 1
        colour = 1 if piece >= 16 else 0
        plane = (0 if colour == mover else 14) + CSHOGI_TO_KIND[piece & 15]
        planes[plane, cell(file, rank, mover == cshogi.WHITE)] = 1
    hands = board.pieces_in_hand  # both P L N S G B R
    for k in range(7):
        planes[28 + k, :] = hands[mover][k]
        planes[35 + k, :] = hands[1 - mover][k]
    planes[42, :] = int(repeated)
    planes[43, :] = int(mover == cshogi.WHITE)
    return planes.reshape(44, 9, 9)


def expected_index(usi: str, white: bool) -> int:
    if usi[1] == "*":
        return cell(*usi_square(usi[2:4]), white) * 139 + 132 + HAND_LETTERS.index(usi[0])
    origin = cell(*usi_square(usi[0:2]), white)
    target = cell(*usi_square(usi[2:4]), white)
    dc, dr = target % 9 - origin % 9, target // 9 - origin // 9
    if (dc, dr) in ((-1, -2), (1, -2)):
        shape = 64 if dc == -1 else 65
    else:
        distance = max(abs(dc), abs(dr))
        unit = (dc // distance, dr // distance)
        assert dc in (0, unit[0] * distance) and dr in (0, unit[1] * distance), usi
        shape = DIRECTIONS.index(unit) * 8 + distance - 1
    return origin * 139 + shape + (66 if usi.endswith("+") else 0)


def steered_game(rng: random.Random, plies: int) -> list[str]:
    """A random game steered into repetitions and checks: a four-ply cycle
    back to the same position is played again, moves back to a position seen
    before are preferred, and in some games one side prefers checks, so
    fourfold repetitions and perpetual checks occur."""
    board = cshogi.Board()
    keys = [(board.zobrist_hash(), board.turn)]
    seen = set(keys)
    checker = rng.choice([cshogi.BLACK, cshogi.WHITE, None])
    moves: list[str] = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        back, checks = [], []
        for m in legal:
            board.push(m)
            if (board.zobrist_hash(), board.turn) in seen:
                back.append(m)
            if board.is_check():
                checks.append(m)
            board.pop()
        r = rng.random()
        again = board.move_from_usi(moves[-4]) if len(keys) > 4 and keys[-1] == keys[-5] else None
        if again in legal and r < 0.9:
            m = again
        elif checks and board.turn == checker and r < 0.8:
            m = rng.choice([c for c in checks if c in back] or checks)
        elif back and r < 0.6:
            m = rng.choice(back)
        else:
            m = rng.choice(legal)
        board.push(m)
        keys.append((board.zobrist_hash(), board.turn))
        seen.add(keys[-1])
        moves.append(cshogi.move_to_usi(m))
    return moves


def lockstep(moves: list[str]) -> Iterator[cshogi.Board]:
    """cshogi's board at the start and after each move."""
    board = cshogi.Board()
    yield board
    for usi in moves:
        board.push_usi(usi)
        yield board


def oracle_outcome(hashes: list[tuple[int, int]], checks: list[bool], board: cshogi.Board,
                   max_plies: int) -> tuple[str | None, str | None]:
    """Sennichite judged from cshogi's hashes and checks, then mate, then the ply limit."""
    now = len(hashes) - 1
    same = [i for i in range(now + 1) if hashes[i] == hashes[now]]
    if len(same) >= 4:
        first = same[-4]
        # Move i (first < i <= now) was made by the side to move before it
        # (Black moves first), and gave check when position i is in check.
        all_checks = [all(checks[i] for i in range(first + 1, now + 1) if (i - 1) % 2 == side) for side in (0, 1)]
        if all_checks[0] and not all_checks[1]:
            return "perpetual_check", "white"
        if all_checks[1] and not all_checks[0]:
            return "perpetual_check", "black"
        return "repetition", None
    if board.is_game_over():
        return "no_legal_move", "white" if board.turn == cshogi.BLACK else "black"
    if max_plies and now >= max_plies:
        return "ply_limit", None
    return None, None


def test_planes_agree_with_cshogi() -> None:
    rng = random.Random(20261201)
    positions = repeated_seen = white_seen = hands_seen = 0
    while positions < 10_000:
        moves = steered_game(rng, rng.randint(20, 240))
        states, indices = core.encode_game("startpos", moves)
        assert states.shape == (len(moves), 44, 9, 9) and states.dtype == np.int8
        assert indices.shape == (len(moves),) and indices.dtype == np.int32
        for i, board in enumerate(lockstep(moves)):
            if i == len(moves):
                break
            repeated = board.is_draw() in REPEATED
            expected = expected_planes(board, repeated)
            assert np.array_equal(states[i], expected), f"planes differ at {board.sfen()}"
            white = board.turn == cshogi.WHITE
            assert indices[i] == expected_index(moves[i], white), (moves[i], board.sfen())
            if i % 20 == 0:
                sfen = board.sfen()
                assert np.array_equal(core.encode_planes(sfen, repeated), expected)
                packed = packed_from_cshogi(board)
                assert np.array_equal(core.encode_planes(packed, repeated), expected)
                back, back_repeated = core.decode_planes(expected)
                assert back.rsplit(" ", 1)[0] == sfen.rsplit(" ", 1)[0] and back_repeated == repeated
            positions += 1
            repeated_seen += repeated
            white_seen += white
            hands_seen += int(expected[28:42].any())
    assert repeated_seen > 100 and white_seen > 4000 and hands_seen > 4000  # 211 repeated with this seed


def test_every_legal_move_index_agrees_and_inverts() -> None:
    rng = random.Random(7)
    checked = drops = promotions = 0
    positions = 0
    while positions < 300:
        moves = steered_game(rng, rng.randint(10, 200))
        for board in lockstep(moves):
            if rng.random() > 0.15:
                continue
            sfen = board.sfen()
            white = board.turn == cshogi.WHITE
            legal = [cshogi.move_to_usi(m) for m in board.legal_moves]
            indices = set()
            for usi in legal:
                index = core.move_index(sfen, usi)
                assert index == expected_index(usi, white), (usi, sfen)
                assert core.move_from_index(sfen, index) == usi
                indices.add(index)
                drops += "*" in usi
                promotions += usi.endswith("+")
            assert len(indices) == len(legal)
            checked += len(legal)
            positions += 1
    assert checked > 10_000 and drops > 1000 and promotions > 100


def test_outcomes_agree_with_cshogi() -> None:
    rng = random.Random(99)
    ends: dict[str, int] = {}
    for game in range(150):
        max_plies = rng.choice([0, 0, 60])
        moves = steered_game(rng, 300)
        got = core.game_outcomes("startpos", moves, max_plies)
        assert len(got) == len(moves) + 1
        hashes: list[tuple[int, int]] = []
        checks: list[bool] = []
        for i, board in enumerate(lockstep(moves)):
            hashes.append((board.zobrist_hash(), board.turn))
            checks.append(board.is_check())
            repeated, termination, winner = got[i]
            assert repeated == (board.is_draw() in REPEATED), board.sfen()
            assert (termination, winner) == oracle_outcome(hashes, checks, board, max_plies), (game, i, board.sfen())
            if termination == "perpetual_check":
                # cshogi judges the checks since the previous occurrence only:
                # a subset of ours, so it must call it too, for the same side.
                side_to_move_wins = (winner == "black") == (board.turn == cshogi.BLACK)
                assert board.is_draw() == (cshogi.REPETITION_WIN if side_to_move_wins else cshogi.REPETITION_LOSE)
            if termination is not None:
                ends[termination] = ends.get(termination, 0) + 1
                break
    assert set(ends) == {"repetition", "perpetual_check", "no_legal_move", "ply_limit"}, ends


def test_refusals_name_the_input() -> None:
    with pytest.raises(manaka.InvalidDataError, match=r"illegal usi: '7g7e' in lnsgkgsnl"):
        core.move_index("startpos", "7g7e")
    with pytest.raises(manaka.InvalidDataError, match=r"moves\[1\]: illegal usi: '7g7f'"):
        core.game_outcomes("startpos", ["7g7f", "7g7f"])
    planes = core.encode_planes("startpos")
    planes[3, 4, 4] = 2
    with pytest.raises(manaka.InvalidDataError, match=r"plane 3 \(our gold\), row 4, column 4: expected 0 or 1, got 2"):
        core.decode_planes(planes)
    with pytest.raises(manaka.InvalidDataError, match=r"expected shape \(44, 9, 9\), got \(44, 81\)"):
        core.decode_planes(planes.reshape(44, 81))
    assert core.move_from_index("startpos", -1) is None
    assert core.move_from_index("startpos", core.POLICY_SIZE) is None
    assert core.PLANE_NB == 44 and core.POLICY_SIZE == 11259
