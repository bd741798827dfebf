"""Shogi matches against fairy-stockfish (match/shogi_match.h, python -m manaka.eval --game shogi).

The oracle is cshogi: every CSA record is parsed by its CSA parser and
replayed on its board, each move legal, the result the one the match
reports; a game's end is checked against cshogi's board (mate: no legal move).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import cshogi
import cshogi.CSA
import pytest

import manaka
from manaka import shogi
from manaka._core import match

ENGINE = "/usr/games/fairy-stockfish"
CSHOGI_WIN = {None: 0, "black": 1, "white": 2}


def random_player(seed: int):
    rng = random.Random(seed)

    def play(moves: list[str]) -> str:
        board = shogi.Board()
        for m in moves:
            board.push_usi(m)
        return str(rng.choice(list(board.legal_moves)))

    return play


def replay(text: str) -> tuple[cshogi.Board, list[str], int, list[str]]:
    parsed = cshogi.CSA.Parser.parse_str(text)[0]
    board = cshogi.Board(parsed.sfen)
    usi = []
    for m in parsed.moves:
        assert board.is_legal(m), (cshogi.move_to_usi(m), board.sfen())
        usi.append(cshogi.move_to_usi(m))
        board.push(m)
    return board, usi, parsed.win, parsed.names


def test_games_replay_in_cshogi_with_the_result_they_state(tmp_path: Path) -> None:
    seen = []
    r = match.play_shogi_match(random_player(1), ENGINE, 4, elo=1350, movetime=0.01, max_plies=80,
                               csa=str(tmp_path / "csa"), progress=lambda g, s: seen.append(s["num_games"]),
                               seed=3)
    assert seen == [1, 2, 3, 4] and r["num_games"] == 4 and "Fairy-Stockfish" in r["engine"]
    assert sorted(p.name for p in (tmp_path / "csa").iterdir()) == ["1.csa", "2.csa", "3.csa", "4.csa"]
    for g in r["games"]:
        text = (tmp_path / "csa" / f"{g['index'] + 1}.csa").read_text()
        assert text == g["csa"]
        board, moves, win, names = replay(text)
        assert moves == g["moves"]
        engine_side = 1 if g["player_color"] == "black" else 0
        assert "fairy" in names[engine_side].lower() and "UCI_Elo 1350" in names[engine_side]
        assert names[1 - engine_side] == "manaka"
        assert win == CSHOGI_WIN[g["winner"]], (g["termination"], g["winner"])
        if g["termination"] == "no_legal_move":
            assert board.is_game_over() and g["winner"] == ("white" if board.turn == cshogi.BLACK else "black")
        elif g["termination"] == "ply_limit":
            assert len(moves) == 80 and g["player_score"] == 0.5
    # Pairs: one opening, the player Black then White.
    a, b = r["games"][0], r["games"][1]
    assert (a["player_color"], b["player_color"]) == ("black", "white")
    assert a["moves"][:4] == b["moves"][:4] and r["games"][2]["moves"][:4] != a["moves"][:4]
    # The record set is whole or absent: a second run does not replace it unasked.
    with pytest.raises(manaka.UsageError, match="exists; pass --overwrite"):
        match.play_shogi_match(random_player(1), ENGINE, 1, movetime=0.01, csa=str(tmp_path / "csa"))


def test_eval_command_plays_a_checkpoint_through_the_search(tmp_path: Path) -> None:
    init = tmp_path / "init.pt"
    subprocess.run([sys.executable, "-m", "manaka.selfplay", "init", "--game", "shogi", "-o", str(init),
                    "--blocks", "1", "--channels", "8"], check=True, capture_output=True)
    proc = subprocess.run([sys.executable, "-m", "manaka.eval", "--game", "shogi", "--checkpoint", str(init),
                           "--num-games", "2", "--movetime", "0.01", "--simulations", "8", "--max-plies", "60",
                           "--csa", str(tmp_path / "games"), "--json", str(tmp_path / "m.json"),
                           "--torch-threads", "1"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((tmp_path / "m.json").read_text())
    assert summary["num_games"] == 2 and summary["simulations"] == 8 and summary["engine_elo"] is None
    assert "score:" in proc.stdout and "game 2/2: network white" in proc.stderr
    for n in (1, 2):
        board, moves, win, names = replay((tmp_path / "games" / f"{n}.csa").read_text())
        assert names[(n - 1) % 2] == "manaka init.pt search 8"
    # --simulations 0: the raw policy's best legal move plays.
    proc = subprocess.run([sys.executable, "-m", "manaka.eval", "--game", "shogi", "--checkpoint", str(init),
                           "--num-games", "1", "--movetime", "0.01", "--simulations", "0", "--max-plies", "40",
                           "--csa", str(tmp_path / "raw")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    board, moves, win, names = replay((tmp_path / "raw" / "1.csa").read_text())
    assert names[0] == "manaka init.pt" and len(moves) > 4
    # --pgn is chess's; a shogi record is CSA.
    proc = subprocess.run([sys.executable, "-m", "manaka.eval", "--game", "shogi", "--checkpoint", str(init),
                           "--pgn", str(tmp_path / "x.pgn")], capture_output=True, text=True)
    assert proc.returncode == 2 and "--pgn is for chess" in proc.stderr
