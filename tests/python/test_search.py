"""manaka.search: the C++ search with Python networks, checked with python-chess."""

from __future__ import annotations

import chess
import numpy as np
import pytest

import manaka
from manaka import search


def test_a_mate_in_one_is_found_with_a_uniform_network() -> None:
    fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
    r = search.chess_search(search.uniform_evaluator(), fen, [], search.SearchOptions(simulations=200))
    board = chess.Board(fen)
    board.push_uci(r["move"])
    assert board.is_checkmate()
    assert r["value"] > 0.5
    assert sum(v for _, v, _ in r["visits"]) + 1 == r["simulations"]
    assert {u for u, _, _ in r["visits"]} == {m.uci() for m in chess.Board(fen).legal_moves}


def test_the_history_is_seen_by_the_rules() -> None:
    # Knights out and back twice: the start position is on the board for the
    # third time, so python-chess's outcome(claim_draw=True) ends the game,
    # and the search, given the same moves, refuses to search it; six plies
    # in, the game goes on and the search runs.
    moves = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"]
    board = chess.Board()
    for m in moves:
        board.push_uci(m)
    assert board.outcome(claim_draw=True) is not None
    with pytest.raises(manaka.UsageError, match="over"):
        search.chess_search(search.uniform_evaluator(), chess.STARTING_FEN, moves)
    r = search.chess_search(search.uniform_evaluator(), chess.STARTING_FEN, moves[:6],
                            search.SearchOptions(simulations=64))
    assert r["simulations"] == 64
    with pytest.raises(manaka.InvalidDataError, match=r"moves\[1\]"):
        search.chess_search(search.uniform_evaluator(), chess.STARTING_FEN, ["e2e4", "e2e4"])


def test_self_play_replays_in_python_chess_and_repeats_with_a_seed() -> None:
    opts = search.SearchOptions(simulations=16, batch_size=4, seed=3)
    a = search.chess_self_play(search.uniform_evaluator(), 2, opts, max_plies=60, opening_plies=2, progress=False)
    b = search.chess_self_play(search.uniform_evaluator(), 2, opts, max_plies=60, opening_plies=2, progress=False)
    for key in ("states", "move_indices", "outcomes", "visit_indices", "visit_counts", "root_values"):
        assert np.array_equal(a[key], b[key]), key
    offsets = a["game_offsets"]
    for g in range(2):
        board = chess.Board()
        for m in a["openings"][g].split():
            board.push_uci(m)
        for i in range(offsets[g], offsets[g + 1]):
            # The planes are the corpus's encoding of python-chess's board.
            mine = manaka.chess.encode_planes(manaka.chess.Board(board.fen()))
            assert np.array_equal(a["states"][i][:19], mine[:19])
            move = manaka.chess.move_from_index(manaka.chess.Board(board.fen()), int(a["move_indices"][i]))
            assert move is not None
            lo, hi = a["visit_offsets"][i], a["visit_offsets"][i + 1]
            assert a["visit_counts"][lo:hi].sum() == 15
            board.push_uci(str(move))
        over = board.outcome(claim_draw=True)
        n = offsets[g + 1] - offsets[g]
        assert (over is not None) or n == 60
        result = over.result() if over else "1/2-1/2"
        assert a["results"][g] == result
        winner = over.winner if over else None
        for k, i in enumerate(range(offsets[g], offsets[g + 1])):
            mover = (k + len(a["openings"][g].split())) % 2 == 0  # True: White
            expected = 0 if winner is None else (1 if winner == mover else -1)
            assert a["outcomes"][i] == expected


def test_the_networks_exception_comes_back_as_itself() -> None:
    class Broken(Exception):
        pass

    def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise Broken("no model")

    with pytest.raises(Broken, match="no model"):
        search.chess_self_play(evaluate, 3, search.SearchOptions(threads=2), progress=False)


def test_wrong_shapes_and_options_are_refused() -> None:
    def short(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return np.zeros((planes.shape[0], 10), np.float32), np.zeros(planes.shape[0], np.float32)

    with pytest.raises(manaka.UsageError, match="wrong shape"):
        search.chess_search(short, chess.STARTING_FEN)
    with pytest.raises(manaka.UsageError, match="simulations"):
        search.chess_search(search.uniform_evaluator(), chess.STARTING_FEN, options=search.SearchOptions(simulations=0))
    with pytest.raises(TypeError, match="no option"):
        search.SearchOptions(simulation=3)


def test_a_torch_network_drives_the_search() -> None:
    import torch

    from manaka.train.config import ModelConfig
    from manaka.train.network import PolicyValueNet

    torch.manual_seed(0)
    net = PolicyValueNet(ModelConfig(blocks=1, channels=8, value_channels=2, value_hidden=8))
    r = search.chess_search(search.torch_evaluator(net), chess.STARTING_FEN, [],
                            search.SearchOptions(simulations=32, batch_size=8))
    assert chess.Move.from_uci(r["move"]) in chess.Board().legal_moves
    assert r["stats"]["positions"] >= 1
