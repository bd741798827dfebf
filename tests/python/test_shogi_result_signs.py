"""The signs of the shogi training targets, checked against independent oracles.

A winner swapped in value_z, in a SAZ2 game_result or outcome_wdl, or a root
value or engine score read from the wrong side, passes any test that only
checks that value_z alternates or that games are draws at the ply limit. Here
games are played until one side is mated, cshogi replays them and says who is
mated, and every target must name that side:

- self-play (`manaka.search.shogi_self_play`, the library `manaka shogi
  selfplay` runs) with a network that counts material from its planes, so the
  values it returns mean something: value_z, game_result, outcome_wdl, the
  proven bound of the mating move, value_q / root_wdl before the mate, and
  raw_wdl and value_q against the material cshogi counts for the side to move;
- `manaka teacher generate` with fairy-stockfish: the `result` column (Black's
  view) and the `cp` column (the side to move's view), and their conversion.

The seeds and options are fixed: every game they give ends in mate, a few
seconds in all on two cores.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cshogi
import numpy as np
import pyarrow.parquet as pq
import pytest
import rsshogi.sazpack as rs
from rsshogi.record import GameResult

import manaka
from manaka import search, teacher

BIN = Path(sys.executable).parent / "manaka"
FAIRY = "/usr/games/fairy-stockfish"
BLACK, WHITE = 0, 1

# Material, counted twice: by cshogi from a board, and by the test network from
# its input planes (docs/shogi-network.md). Pieces are worth what a beginner's
# book says; the king nothing.
CSHOGI_VALUE = {cshogi.PAWN: 1, cshogi.LANCE: 3, cshogi.KNIGHT: 4, cshogi.SILVER: 5, cshogi.GOLD: 6,
                cshogi.BISHOP: 8, cshogi.ROOK: 10, cshogi.PROM_PAWN: 6, cshogi.PROM_LANCE: 6,
                cshogi.PROM_KNIGHT: 6, cshogi.PROM_SILVER: 6, cshogi.PROM_BISHOP: 10, cshogi.PROM_ROOK: 12}
HAND_VALUE = [1, 3, 4, 5, 6, 8, 10]  # pawn, lance, knight, silver, gold, bishop, rook: cshogi's and the planes' order
# Planes 0-13 (the mover's) and 14-27 (the opponent's): king, rook, bishop, gold, silver, knight, lance, pawn,
# dragon, horse, promoted silver, promoted knight, promoted lance, tokin.
PLANE_VALUE = np.array([0, 10, 8, 6, 5, 4, 3, 1, 12, 10, 6, 6, 6, 6], np.float32)
SCALE = 20.0  # the test network's value is tanh(material / SCALE)


def material_for_side_to_move(board: Any) -> int:
    """cshogi's board: the side to move's material minus the opponent's."""
    total = 0
    for sq in range(81):
        piece = board.piece(sq)
        if piece:
            total += CSHOGI_VALUE.get(piece & 15, 0) * (1 if piece < 16 else -1)
    for color, sign in ((BLACK, 1), (WHITE, -1)):
        total += sign * sum(v * n for v, n in zip(HAND_VALUE, board.pieces_in_hand[color]))
    return total if board.turn == BLACK else -total


def material_network(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Uniform logits; the value is the material balance read from the planes,
    which show the board as the mover sees it, so it is the mover's."""
    p = planes.astype(np.float32)
    hand = np.array(HAND_VALUE, np.float32)
    mine = p[:, 0:14].sum(axis=(2, 3)) @ PLANE_VALUE + p[:, 28:35, 0, 0] @ hand
    theirs = p[:, 14:28].sum(axis=(2, 3)) @ PLANE_VALUE + p[:, 35:42, 0, 0] @ hand
    return np.zeros((len(p), search.SHOGI_POLICY_SIZE), np.float32), np.tanh((mine - theirs) / SCALE)


def wdl_value(wdl: Any) -> float:
    return float(wdl.win - wdl.loss) / 65535


# --- self-play -------------------------------------------------------------------------------------------------


@dataclass
class PlayedGame:
    saz: Any  # rsshogi SazGame
    first: int  # its first MPK1 record
    turns: list[int]  # the side to move at each recorded position (cshogi)
    material: list[int]  # cshogi's material balance there, for the side to move
    mated: int | None  # the side cshogi finds mated after the last move, None when the game did not end in mate


@dataclass
class SelfPlay:
    summary: dict[str, Any]
    batch: Any  # the MPK1 records
    games: list[PlayedGame]


MAX_PLIES = 400


@pytest.fixture(scope="module")
def selfplay(tmp_path_factory: pytest.TempPathFactory) -> SelfPlay:
    out = tmp_path_factory.mktemp("signs") / "sp"
    options = search.SearchOptions(simulations=32, batch_size=4, threads=2, dirichlet_alpha=0.15, seed=1)
    summary, _ = search.shogi_self_play(material_network, 6, str(out), options, max_plies=MAX_PLIES, saz=True,
                                        progress=False)
    batch = next(manaka.stream.read_batches(str(out / "selfplay.mpk"), 1 << 20))
    games = []
    first = 0
    for g in rs.decode_sazpack_file(str(out / "selfplay.saz")):
        board = cshogi.Board()
        turns, material = [], []
        for k, p in enumerate(g.positions):
            # The MPK1 record and the SAZ2 position are the same position, and cshogi's.
            mine = manaka.shogi.Board.unpack(bytes(batch.packed[first + k]))
            assert mine.sfen().rsplit(" ", 1)[0] == board.sfen().rsplit(" ", 1)[0]
            turns.append(int(board.turn))
            material.append(material_for_side_to_move(board))
            assert board.is_legal(board.move_from_usi(p.played))
            board.push_usi(p.played)
        games.append(PlayedGame(g, first, turns, material, int(board.turn) if board.is_game_over() else None))
        first += len(g.positions)
    assert first == len(batch) == summary["positions"]
    return SelfPlay(summary, batch, games)


def test_selfplay_value_z_and_saz_results_name_the_side_cshogi_finds_mated(selfplay: SelfPlay) -> None:
    winners = []
    for g in selfplay.games:
        n = len(g.turns)
        z = selfplay.batch.value_z[g.first:g.first + n]
        if g.mated is None:  # only a ply-limit draw may end otherwise with these options
            assert n == MAX_PLIES and g.saz.game_result == GameResult.DRAW_BY_MAX_PLIES, (n, g.saz.game_result)
            assert not np.any(z)
            continue
        winner = 1 - g.mated
        winners.append(winner)
        assert g.saz.game_result == (GameResult.BLACK_WIN if winner == BLACK else GameResult.WHITE_WIN)
        assert g.saz.termination_reason == 0  # NoLegalMoves
        want = np.array([1.0 if t == winner else -1.0 for t in g.turns], np.float32)
        np.testing.assert_array_equal(z, want)  # the winner's positions +1, the loser's -1
        for t, p in zip(g.turns, g.saz.positions):
            o = p.outcome_wdl
            assert (o.win, o.draw, o.loss) == ((65535, 0, 0) if t == winner else (0, 0, 65535))
        assert [p.plies_left for p in g.saz.positions] == list(range(n, 0, -1))
    # Mates by both sides, so a winner fixed to one colour cannot pass; the summary agrees.
    assert winners.count(BLACK) >= 1 and winners.count(WHITE) >= 1, winners
    assert (selfplay.summary["black_wins"], selfplay.summary["white_wins"]) == (winners.count(BLACK),
                                                                                winners.count(WHITE))
    assert selfplay.summary["terminations"]["no_legal_move"] == len(winners)


def test_selfplay_root_value_before_the_mate_favours_the_mating_side(selfplay: SelfPlay) -> None:
    mates = 0
    for g in selfplay.games:
        if g.mated is None:
            continue
        mates += 1
        last = g.saz.positions[-1]
        assert g.turns[-1] == 1 - g.mated  # the mating side is to move at the last recorded position
        q = float(selfplay.batch.value_q[g.first + len(g.turns) - 1])
        assert q > 0.5, q  # value_q: the root's mean value for the side to move, who mates next
        assert wdl_value(last.root_wdl) > 0.5 and abs(wdl_value(last.root_wdl) - q) < 1e-3
        (entry,) = [e for e in last.policy if e.mv == last.played]
        assert (entry.lower, entry.upper) == (2, 2)  # the mating move: a proven Win for the side that plays it
        assert entry.visits > 0
    assert mates >= 2


def test_selfplay_values_are_the_side_to_moves(selfplay: SelfPlay) -> None:
    """raw_wdl is the network's value at the root: the material cshogi counts
    for the side to move, squashed; value_q, the search's mean, agrees in sign
    wherever one side is a rook or more ahead."""
    agree = clear = 0
    for g in selfplay.games:
        q = selfplay.batch.value_q[g.first:g.first + len(g.turns)]
        raw = np.array([wdl_value(p.raw_wdl) for p in g.saz.positions])
        np.testing.assert_allclose(raw, np.tanh(np.array(g.material) / SCALE), atol=1e-4)
        np.testing.assert_allclose(q, [wdl_value(p.root_wdl) for p in g.saz.positions], atol=1e-4)
        for m, v in zip(g.material, q):
            if abs(m) >= 10:
                clear += 1
                agree += (m > 0) == (v > 0)
    assert clear >= 100 and agree >= 0.95 * clear, (agree, clear)


# --- teacher generate -------------------------------------------------------------------------------------------

MATE_BAND = 32000 - 320  # generate's scores: mates at |cp| >= mate_scale - 320


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], list[list[dict[str, Any]]]]:
    d = tmp_path_factory.mktemp("teacher_signs")
    # One worker: byte for byte reproducible. Depth 2, two candidates, played to the end: four mates in ~2 s.
    r = subprocess.run([str(BIN), "teacher", "generate", "--engine", FAIRY, "--games", "4", "--depth", "2",
                        "--multipv", "2", "--seed", "7", "--max-plies", "400", "--workers", "1",
                        "-o", str(d / "c.parquet"), "--json", "-q"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    rows = pq.read_table(d / "c.parquet").to_pylist()
    games: list[list[dict[str, Any]]] = []
    for row in rows:  # no opening plies: each game's first row is ply 0
        if row["ply"] == 0:
            games.append([])
        games[-1].append(row)
    return d, json.loads(r.stdout), games


def test_generate_result_is_blacks_view_of_the_side_cshogi_finds_mated(
        generated: tuple[Path, dict[str, Any], list[list[dict[str, Any]]]]) -> None:
    d, summary, games = generated
    assert len(games) == summary["games_completed"] == 4 and summary["games_illegal"] == 0
    results = []
    for g in games:
        board = cshogi.Board(g[0]["sfen"])
        for row in g:
            assert board.sfen().split()[:3] == row["sfen"].split()[:3] and board.turn == row["side"]
            board.push_usi(row["move"])
        assert board.is_game_over(), "a game that did not end in mate: choose other options"
        result = 1 if board.turn == WHITE else -1  # the side to move is mated; result is Black's view
        results.append(result)
        assert {row["result"] for row in g} == {result}
    assert sorted(set(results)) == [-1, 1], results  # mates by both sides
    assert summary["results"] == {"black_won": results.count(1), "white_won": results.count(-1), "draws": 0}
    assert summary["endings"]["no_legal_move"] == 4

    # The conversion turns it to the side to move's view: +1 at the winner's positions.
    teacher.convert(d / "c.parquet", d / "t.mpk", eval_coef=600, mate_scale=32000)
    batch = next(manaka.stream.read_batches(str(d / "t.mpk"), 1 << 20))
    want = [float(r["result"]) if r["side"] == BLACK else -float(r["result"]) for g in games for r in g]
    winner_to_move = [r["result"] == (1 if r["side"] == BLACK else -1) for g in games for r in g]
    np.testing.assert_array_equal(batch.value_z, want)
    np.testing.assert_array_equal(batch.value_z > 0, winner_to_move)
    ends = np.cumsum([len(g) for g in games]) - 1
    assert np.all(batch.value_q[ends] == 1.0) and np.all(batch.value_z[ends] == 1.0)  # mate next, by the mover


def test_generate_cp_is_the_side_to_moves(
        generated: tuple[Path, dict[str, Any], list[list[dict[str, Any]]]]) -> None:
    _, _, games = generated
    agree = clear = 0
    for g in games:
        board = cshogi.Board(g[0]["sfen"])
        for k, row in enumerate(g):
            assert row["cand_cp"][0] == row["cp"] and row["cand_cp"] == sorted(row["cand_cp"], reverse=True)
            m = material_for_side_to_move(board)
            # Late positions (the second half), a rook or more ahead, no mate found yet.
            if 2 * k >= len(g) and abs(m) >= 10 and abs(row["cp"]) < MATE_BAND:
                clear += 1
                agree += (m > 0) == (row["cp"] > 0)
            board.push_usi(row["move"])
        # The last position: the mover mates with the move played, and the engine scores it so.
        last = g[-1]
        assert last["cp"] >= MATE_BAND and last["cand_cp"][last["cand_moves"].index(last["move"])] >= MATE_BAND
    assert clear >= 50 and agree >= 0.9 * clear, (agree, clear)
