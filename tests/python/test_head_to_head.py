"""Network against network: `manaka.chess.play_head_to_head` and `python -m manaka.eval --opponent`.

The games are replayed by python-chess (every move legal, the outcome the record states), the pairs share
their openings with colours swapped, and a deterministic player against itself must score exactly 0.5:
the second game of each pair is the first with the names swapped."""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import chess.pgn

from manaka import chess as mchess
from test_chess_match import check_games

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "models" / "chess-6x64-cpu.pt"


def first_legal(board: mchess.Board) -> mchess.Move:
    return board.legal_moves[0]


def random_player(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda board: rng.choice(board.legal_moves)


def test_two_players_replay_by_python_chess_with_their_names(tmp_path: Path) -> None:
    pgn = tmp_path / "h2h.pgn"
    s = mchess.play_head_to_head(first_legal, random_player(3), 4, seed=5, pgn=str(pgn), player_name="manaka",
                                 opponent_name="random")
    assert (s["num_games"], s["opponent"], s["engine"]) == (4, "random", "random")
    check_games(s, pgn.read_text(), 4)
    stream = io.StringIO(pgn.read_text())
    for info in s["games"]:
        game = chess.pgn.read_game(stream)
        assert game is not None and game.headers["Event"] == "manaka head-to-head"
        other = "Black" if info["player_color"] == "white" else "White"
        assert game.headers[other] == "random"
        # The player's moves are its script's: the first legal move in manaka's order.
        board = mchess.Board()
        for i, uci in enumerate(info["moves"]):
            mine = (i % 2 == 0) == (info["player_color"] == "white")
            if i >= 4 and mine:
                assert uci == str(board.legal_moves[0])
            board.push_uci(uci)


def test_a_deterministic_player_against_itself_scores_one_half() -> None:
    s = mchess.play_head_to_head(first_legal, first_legal, 6, seed=1)
    for a, b in zip(s["games"][::2], s["games"][1::2]):
        assert a["moves"] == b["moves"] and a["player_score"] + b["player_score"] == 1.0
    assert s["score"] == 0.5 and s["wins"] == s["losses"]


def run_eval(*args: Any) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "manaka.eval", *map(str, args)], capture_output=True, text=True,
                          timeout=600)


def test_eval_opponent_plays_two_checkpoints_each_with_its_settings(tmp_path: Path) -> None:
    # The shipped network against itself: the same network on both sides, so every pair scores 1/2.
    r = run_eval("--checkpoint", SHIPPED, "--opponent", SHIPPED, "--games", 4, "--simulations", 2,
                 "--pgn", tmp_path / "h.pgn", "--json", tmp_path / "h.json")
    assert r.returncode == 0, r.stderr
    s = json.loads((tmp_path / "h.json").read_text())
    assert s["score"] == 0.5 and s["num_games"] == 4
    assert s["player_settings"] == s["opponent_settings"] == {"simulations": 2, "search_batch": 16, "c_puct": 1.5}
    assert s["opponent_checkpoint"] == str(SHIPPED)
    assert "Elo difference +0.0" in r.stdout and "(the first's view)" in r.stdout
    stream = io.StringIO((tmp_path / "h.pgn").read_text())
    whites = []
    while (game := chess.pgn.read_game(stream)) is not None:
        whites.append(game.headers["White"])
    assert whites == [f"manaka {SHIPPED} search 2"] * 4  # both sides have one file name: named by their paths

    r = run_eval("--checkpoint", SHIPPED, "--opponent", SHIPPED, "--games", 2, "--elo", 1500)
    assert r.returncode == 2 and "--opponent plays two networks" in r.stderr
    r = run_eval("--game", "shogi", "--checkpoint", SHIPPED, "--opponent", SHIPPED, "--games", 2)
    assert r.returncode == 2 and "head-to-head matches are for chess networks" in r.stderr
    r = run_eval("--checkpoint", SHIPPED, "--opponent", tmp_path / "h.pgn", "--games", 2, "--simulations", 0)
    assert r.returncode == 1 and "h.pgn" in r.stderr and "Traceback" not in r.stderr
    r = run_eval("--checkpoint", SHIPPED, "--opponent", SHIPPED, "--games", 2, "--pgn", SHIPPED, "--overwrite")
    assert r.returncode != 0 and SHIPPED.stat().st_size > 1000  # an input is never an output


def test_pgn_name_is_the_file_name_when_the_two_differ(tmp_path: Path) -> None:
    other = tmp_path / "other.pt"
    other.write_bytes(SHIPPED.read_bytes())
    r = run_eval("--checkpoint", SHIPPED, "--opponent", other, "--games", 2, "--simulations", 0, "--json")
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout)
    assert s["player"] == "manaka chess-6x64-cpu.pt" and s["opponent"] == "manaka other.pt"
    assert os.path.exists(other)
