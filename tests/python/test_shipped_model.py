"""The shipped chess network (models/chess-6x64-cpu.pt): the spec's checkpoint contract, its play
settings, legal moves through the search, and a card (models/README.md) whose numbers are the run's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import chess as pychess
import pytest
import torch

from manaka import chess, search
from manaka import eval as meval
from manaka.train import CHECKPOINT_KEYS, Trainer

MODELS = Path(__file__).resolve().parents[2] / "models"
MODEL = MODELS / "chess-6x64-cpu.pt"


def test_the_checkpoint_has_the_contract_and_its_play_settings():
    raw = torch.load(MODEL, weights_only=True)
    assert set(raw) == set(CHECKPOINT_KEYS) and raw["iteration"] == 0
    card = json.loads((MODELS / "chess-6x64-cpu.json").read_text())
    assert raw["config"]["play"] == card["play"] == {"simulations": 800, "batch_size": 16, "c_puct": 1.5}
    assert meval.play_settings(str(MODEL))["simulations"] == 800
    trainer = Trainer.load_from_checkpoint(MODEL)
    assert trainer.next_iteration == 1
    for k, v in raw["best_net"].items():
        assert torch.equal(trainer.best_net.state_dict()[k].cpu(), v)
    assert MODEL.stat().st_size < 4_000_000


def test_it_plays_legal_moves_through_the_search():
    torch.set_num_threads(1)
    evaluate = meval.load_evaluator(str(MODEL))
    board = pychess.Board()
    moves: list[str] = []
    for _ in range(6):
        r = search.chess_search(evaluate, chess.STARTING_FEN, moves, search.SearchOptions(simulations=32,
                                                                                          batch_size=8))
        move = pychess.Move.from_uci(r["move"])
        assert move in board.legal_moves
        board.push(move)
        moves.append(r["move"])
    # White's queen stands en prise on h5 to the knight on f6: the search takes it (the value head knows
    # material; no rule says so).
    fen = "rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 3 3"
    r = search.chess_search(evaluate, fen, [], search.SearchOptions(simulations=200, batch_size=16))
    assert r["move"] == "f6h5"


def test_the_card_states_the_runs_numbers():
    card = json.loads((MODELS / "chess-6x64-cpu.json").read_text())
    text = (MODELS / "README.md").read_text()
    flat = " ".join(text.split())
    for m in card["matches"]:
        line = next(row for row in text.splitlines()
                    if row.startswith(f"| {m['label']} | {m['elo']} | {m['simulations']} | {m['games']} | {m['wins']} |"))
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[3:8] == [str(m["games"]), str(m["wins"]), str(m["draws"]), str(m["losses"]),
                              f"{m['score']:.3f}"], line
        assert cells[8] == f"{m['score_low']:.2f} .. {m['score_high']:.2f}", line
        assert cells[9].startswith(f"{m['elo_diff']:+.0f} "), line
        assert cells[10] == f"{m['win_rate']:.2f}", line
        s = chess.match_score(m["wins"], m["draws"], m["losses"])  # the interval is the match's own
        assert (s["score"], s["elo_diff_low"]) == (m["score"], m["elo_diff_low"])
        assert (s["score_low"], s["score_high"]) == pytest.approx((m["score_low"], m["score_high"]), abs=1e-12)
    # The recipe's own evaluation, with the shipped settings, is its 800-simulation row at 1500.
    recipe = card["eval"]["by_elo"]["1500"]
    assert card["eval"]["simulations"] == card["play"]["simulations"] == 800
    assert card["eval"]["match"] == "pretrained-sims800-batch16-cpuct1.5-movetime0.05-plies4"
    row = [m for m in card["matches"] if (m["label"], m["elo"], m["simulations"]) == ("recipe", 1500, 800)]
    assert len(row) == 1 and row[0]["wins"] == recipe["wins"] and row[0]["games"] == recipe["games"] >= 100
    assert f"a win rate of {recipe['win_rate']:.2f} and a score of {recipe['score']:.3f} over 100 games" in flat
    p = card["pretrain"]
    c = card["corpus"]
    assert f"{c['games']:,} games" in text and f"{c['positions']:,} positions" in text
    shares = [f"{r} {100 * n / c['games']:.1f}%" for r, n in c["results"].items()]
    assert f"Results: {shares[0]}, draws {shares[1].split()[1]}, {shares[2]}" in text
    assert f"{p['parameters']:,}" in text and f"top-1 {p['val_top1']:.3f}" in text
    assert f"{card['play']['simulations']} simulations a move" in text
    assert re.search(r"recipe --config configs/chess-cpu.toml --model-out models/chess-6x64-cpu.pt", text)
