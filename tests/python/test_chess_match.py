"""Games against the real Stockfish (movetime 20 ms): manaka.chess.play_match,
its score arithmetic, and the evaluation command. python-chess is the
test-only oracle: it parses the PGN and replays every game to its end."""

from __future__ import annotations

import io
import math
import os
import random
import sys
import types
from pathlib import Path
from typing import Any, Dict, List, Tuple

import chess.pgn
import pytest

import manaka
from manaka import chess as mchess
from manaka import eval as meval

STOCKFISH = "/usr/games/stockfish"


def random_player(seed: int) -> Any:
    rng = random.Random(seed)
    return lambda board: rng.choice(board.legal_moves)


def first_legal_index(board: mchess.Board) -> int:
    return mchess.move_index(board, board.legal_moves[0])


def check_games(summary: Dict[str, Any], pgn_text: str, opening_plies: int) -> None:
    games = summary["games"]
    parsed: List[chess.pgn.Game] = []
    stream = io.StringIO(pgn_text)
    while (g := chess.pgn.read_game(stream)) is not None:
        parsed.append(g)
    assert len(parsed) == len(games) == summary["num_games"]
    for info, game in zip(games, parsed):
        assert not game.errors
        assert game.headers["Result"] == info["result"]
        assert game.headers["Opening"] == f"random, {opening_plies} plies"
        board = game.board()
        moves = list(game.mainline_moves())
        assert [m.uci() for m in moves] == info["moves"]
        for m in moves:
            assert board.outcome(claim_draw=True) is None  # no move after the end
            board.push(m)
        outcome = board.outcome(claim_draw=True)
        assert outcome is not None
        assert outcome.result() == info["result"]
        assert outcome.termination.name == info["termination"] == game.headers["ManakaTermination"]
        player = "white" if info["index"] % 2 == 0 else "black"
        assert info["player_color"] == player
        name_tag = "White" if player == "white" else "Black"
        assert game.headers[name_tag] == "manaka"
    # Pairs: the same opening with colours swapped; pairs differ.
    openings = [tuple(g["moves"][:opening_plies]) for g in games]
    for p in range(0, len(games), 2):
        assert openings[p] == openings[p + 1]
    assert len(set(openings[::2])) == len(games) // 2
    wins = sum(g["player_score"] == 1.0 for g in games)
    losses = sum(g["player_score"] == 0.0 for g in games)
    assert (summary["wins"], summary["losses"], summary["draws"]) == (wins, losses, len(games) - wins - losses)


def test_random_player_two_pairs_replay_by_python_chess(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    seen: List[int] = []
    summary = mchess.play_match(
        random_player(1), STOCKFISH, 4, elo=1350, movetime=0.02, seed=5, pgn=str(pgn),
        progress=lambda game, score: seen.append(score["num_games"]),
    )
    assert seen == [1, 2, 3, 4]
    assert summary["engine"].startswith("Stockfish")
    assert summary["engine_elo"] == 1350
    text = pgn.read_text()
    assert text == "".join(g["pgn"] for g in summary["games"])
    check_games(summary, text, 4)


def test_first_legal_player_by_policy_index(tmp_path: Path) -> None:
    summary = mchess.play_match(first_legal_index, STOCKFISH, 2, movetime=0.02, seed=9, opening_plies=2)
    check_games(summary, "".join(g["pgn"] for g in summary["games"]), 2)
    assert summary["pgn"] is None


def test_same_seed_same_openings_other_seed_other_openings() -> None:
    def openings(seed: int) -> List[List[str]]:
        s = mchess.play_match(first_legal_index, STOCKFISH, 2, movetime=0.01, seed=seed)
        return [g["moves"][:4] for g in s["games"]]

    assert openings(3) == openings(3)
    assert openings(3) != openings(4)


def test_match_score_known_values() -> None:
    even = mchess.match_score(3, 4, 3)
    assert even["score"] == 0.5 and abs(even["elo_diff"]) < 1e-9
    assert even["win_rate"] == 0.3 and not even["passed"]
    q = mchess.match_score(75, 0, 25)
    assert q["elo_diff"] == pytest.approx(190.8485, abs=1e-3)
    # Wilson's interval of 75 of 100: 0.6570 .. 0.8245, as published tables give it.
    low, high = 0.656955, 0.824548
    assert (q["score_low"], q["score_high"]) == pytest.approx((low, high), abs=1e-6)
    assert q["elo_diff_low"] == pytest.approx(-400 * math.log10(1 / low - 1), abs=1e-3)
    assert q["elo_diff_high"] == pytest.approx(-400 * math.log10(1 / high - 1), abs=1e-3)
    assert q["passed"]
    assert mchess.match_score(50, 0, 50)["passed"]  # exactly 0.50
    assert mchess.match_score(2, 0, 0)["elo_diff"] == float("inf")
    with pytest.raises(manaka.UsageError, match="no games"):
        mchess.match_score(0, 0, 0)


def test_illegal_move_is_refused_naming_it(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    with pytest.raises(manaka.InvalidDataError, match=r"game 1, ply 1: the player's move e2e5 is illegal in rnbqkbnr"):
        mchess.play_match(lambda board: "e2e5", STOCKFISH, 2, movetime=0.02, opening_plies=0, pgn=str(pgn))
    assert not pgn.exists()
    with pytest.raises(manaka.InvalidDataError, match="'zz' is not UCI"):
        mchess.play_match(lambda board: "zz", STOCKFISH, 2, movetime=0.02, opening_plies=0)
    with pytest.raises(manaka.UsageError, match=r"the player returned 1\.5"):
        mchess.play_match(lambda board: 1.5, STOCKFISH, 2, movetime=0.02, opening_plies=0)


def test_player_exception_propagates_unchanged() -> None:
    def broken(board: mchess.Board) -> str:
        raise KeyError("the network's own bug")

    with pytest.raises(KeyError, match="the network's own bug"):
        mchess.play_match(broken, STOCKFISH, 2, movetime=0.02)


def test_elo_outside_the_range_is_refused_naming_it() -> None:
    with pytest.raises(manaka.UsageError, match=r"1350\.\.2850"):
        mchess.play_match(first_legal_index, STOCKFISH, 2, elo=1000)
    with pytest.raises(manaka.UsageError, match=r"1350\.\.2850"):
        mchess.play_match(first_legal_index, STOCKFISH, 2, elo=3000)


def test_existing_pgn_is_kept_without_overwrite(tmp_path: Path) -> None:
    pgn = tmp_path / "games.pgn"
    pgn.write_text("keep me")
    with pytest.raises(manaka.UsageError):
        mchess.play_match(first_legal_index, STOCKFISH, 2, movetime=0.01, pgn=str(pgn))
    assert pgn.read_text() == "keep me"


def test_policy_player_takes_the_best_legal_logit() -> None:
    import numpy as np

    board = mchess.Board()
    best = mchess.move_index(board, mchess.Move.from_uci("g1f3"))
    illegal = next(i for i in range(mchess.POLICY_SIZE) if mchess.move_from_index(board, i) is None)
    logits = np.zeros(mchess.POLICY_SIZE, dtype=np.float32)
    logits[best] = 5.0
    logits[illegal] = 9.0  # higher, but no legal move: never chosen

    def policy(planes: Any) -> Any:
        assert planes.shape == (20, 8, 8)
        return logits

    assert meval.policy_player(policy)(board) == mchess.Move.from_uci("g1f3")


def test_eval_refuses_simulations_and_a_missing_train_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ckpt = tmp_path / "net.pt"
    ckpt.write_bytes(b"")
    args = ["--game", "chess", "--checkpoint", str(ckpt), "--num-games", "2"]
    assert meval.main(args + ["--simulations", "-1"]) == 2
    assert "--simulations: -1 is out of range" in capsys.readouterr().err
    assert meval.main(args + ["--simulations", "8"]) == 1  # the search is built; the empty checkpoint is not one
    assert "checkpoint" in capsys.readouterr().err
    assert meval.main(args + ["--elo", "1000"]) == 2
    assert "1350..2850" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "manaka.train", None)  # import manaka.train fails
    assert meval.main(args) == 2
    assert "manaka.train (the network and its checkpoints) is not installed" in capsys.readouterr().err


def test_eval_command_end_to_end_with_a_stand_in_network(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import torch

    class Uniform(torch.nn.Module):  # type: ignore[misc,name-defined]
        def forward(self, x: Any) -> Any:
            return torch.zeros(x.shape[0], 4672), torch.zeros(x.shape[0], 1)

    class Trainer:  # manaka.train's: load_from_checkpoint(path, device) -> .best_net
        def __init__(self) -> None:
            self.best_net = Uniform()

        @classmethod
        def load_from_checkpoint(cls, path: str, device: str = "cpu") -> "Trainer":
            return cls()

    train = types.ModuleType("manaka.train")
    train.Trainer = Trainer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "manaka.train", train)
    ckpt = tmp_path / "net.pt"
    ckpt.write_bytes(b"")
    pgn = tmp_path / "eval.pgn"
    rc = meval.main(["--game", "chess", "--checkpoint", str(ckpt), "--num-games", "2", "--movetime", "0.02",
                     "--pgn", str(pgn)])
    out = capsys.readouterr()
    assert rc == 0, out.err
    assert "game 1/2: network white" in out.err and "game 2/2: network black" in out.err
    assert "games: 2" in out.out and "criterion win_rate >= 0.50: " in out.out
    first = chess.pgn.read_game(io.StringIO(pgn.read_text()))
    assert first is not None and len(list(first.mainline_moves())) > 4


# The player's score from the result and its colour, through the real match:
# a scripted UCI engine (a bash script, as tests/fixtures/engine's) and a
# scripted player both play the next move of one fixed line, so each game of a
# pair is that line, with the player White in the first and Black in the second.
SCRIPTED_ENGINE = """#!/bin/bash
line=({line})
ply=0
while IFS= read -r cmd; do
  read -r -a words <<< "$cmd"
  case "${{words[0]}}" in
    uci)
      echo "id name scripted"
      echo "option name UCI_LimitStrength type check default false"
      echo "option name UCI_Elo type spin default 1350 min 1350 max 2850"
      echo uciok ;;
    isready) echo readyok ;;
    position)
      ply=0; counting=0
      for w in "${{words[@]}}"; do
        [ $counting = 1 ] && ply=$((ply + 1))
        [ "$w" = moves ] && counting=1
      done ;;
    go)
      echo "info depth 1 score cp 0 pv ${{line[$ply]}}"
      echo "bestmove ${{line[$ply]}}" ;;
    quit) exit 0 ;;
  esac
done
"""

SCRIPTED_LINES = {
    "white mates": ["e2e4", "f7f6", "d2d4", "g7g5", "d1h5"],  # 3. Qh5#: 1-0
    "black mates": ["f2f3", "e7e5", "g2g4", "d8h4"],  # fool's mate: 0-1
    "repetition": ["g1f3", "g8f6", "f3g1", "f6g8"] * 3,  # knights out and back: a draw
}


@pytest.mark.parametrize("name", list(SCRIPTED_LINES))
def test_player_score_follows_the_result_and_the_players_colour(name: str, tmp_path: Path) -> None:
    line = SCRIPTED_LINES[name]
    engine = tmp_path / "engine.sh"
    engine.write_text(SCRIPTED_ENGINE.format(line=" ".join(line)))
    engine.chmod(0o755)
    # python-chess plays the line to its end: the result, independently of manaka.
    board = chess.Board()
    for uci in line:
        if board.outcome(claim_draw=True) is not None:
            break
        board.push_uci(uci)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None
    result = outcome.result()
    assert result == {"white mates": "1-0", "black mates": "0-1", "repetition": "1/2-1/2"}[name]

    calls: List[List[Tuple[int, bool]]] = []  # per game: (plies so far, side to move) at each call

    def player(b: mchess.Board) -> str:
        plies = len(b.move_stack)
        if not calls or plies <= calls[-1][-1][0]:
            calls.append([])  # back to the start: the next game
        calls[-1].append((plies, b.turn))
        return line[plies]

    summary = mchess.play_match(player, str(engine), 2, movetime=0.01, opening_plies=0)
    games = summary["games"]
    check_games(summary, "".join(g["pgn"] for g in games), 0)
    assert len(calls) == 2
    assert {turn for _, turn in calls[0]} == {mchess.WHITE}  # game 1: the player moves White
    assert {turn for _, turn in calls[1]} == {mchess.BLACK}  # game 2: the player moves Black
    # Points for the player, written out: White wins "1-0", Black wins "0-1".
    points = {("1-0", "white"): 1.0, ("1-0", "black"): 0.0,
              ("0-1", "white"): 0.0, ("0-1", "black"): 1.0,
              ("1/2-1/2", "white"): 0.5, ("1/2-1/2", "black"): 0.5}
    for g, colour in zip(games, ["white", "black"]):
        assert g["moves"] == [m.uci() for m in board.move_stack]
        assert (g["result"], g["player_color"]) == (result, colour)
        assert g["player_score"] == points[(result, colour)]
    expected = [points[(result, "white")], points[(result, "black")]]
    assert (summary["wins"], summary["draws"], summary["losses"]) == (
        expected.count(1.0), expected.count(0.5), expected.count(0.0))
    assert summary["score"] == sum(expected) / 2
