"""A newcomer's papercuts around matches: an Elo difference that is never printed as ``inf``, JSON that strict
parsers read (no ``Infinity`` / ``NaN``), torch's thread count defaulting to 1 wherever a network serves the
search, and the network's time a move in eval's progress line."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import types
from pathlib import Path
from typing import Any, Dict, List

import pytest

from manaka import chess as mchess
from manaka import eval as meval
from manaka._atomic import finite_json, json_text, write_json_atomically

ROOT = Path(__file__).resolve().parents[2]


def strict_loads(text: str) -> Any:
    """json.loads that refuses Infinity, -Infinity and NaN, as strict parsers (RFC 8259) do."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


# 1. The Elo difference, never inf.

def test_a_zero_score_prints_no_inf() -> None:
    s = mchess.match_score(0, 0, 2)
    assert math.isinf(s["elo_diff"])  # the arithmetic's, unbounded
    text = meval.elo_text(s)
    assert "inf" not in text and text.startswith("n/a at score 0")
    summary = {**s, "engine": "stockfish", "engine_elo": 1500, "movetime": 0.1, "num_games": 2}
    for line in (meval.format_summary(summary), meval._shogi_summary({**summary, "engine_elo": None})):
        assert "inf" not in line and "Elo difference n/a at score 0" in line, line
    assert "inf" not in meval.elo_text(mchess.match_score(2, 0, 0))
    assert meval.elo_text(mchess.match_score(2, 0, 0)).startswith("n/a at score 1")


def test_a_one_sided_interval_says_which_side() -> None:
    base = {"score": 0.9, "elo_diff": 381.7}
    assert meval.elo_text({**base, "elo_diff_low": 208.46, "elo_diff_high": math.inf}) == "+381.7 (95%: > +208.5)"
    assert meval.elo_text({**base, "elo_diff_low": None, "elo_diff_high": 20.0}) == "+381.7 (95%: < +20.0)"
    assert meval.elo_text({**base, "elo_diff_low": -50.0, "elo_diff_high": 80.0}, 0) == "+382 (95%: -50 .. +80)"
    # As the JSON writes it (null) and as the arithmetic gives it (-inf): the same text.
    assert meval.elo_text({"score": 0.0, "elo_diff": None, "elo_diff_low": None, "elo_diff_high": 114.4}) == \
        meval.elo_text({"score": 0.0, "elo_diff": -math.inf, "elo_diff_low": -math.inf, "elo_diff_high": 114.4}) == \
        "n/a at score 0 (95%: < +114.4)"


def test_the_recipes_summary_prints_no_inf() -> None:
    from manaka.train.recipe import format_summary

    s = mchess.match_score(0, 0, 2)
    r = {"games": 2, "wins": 0, "draws": 0, "losses": 2, **{k: s[k] for k in (
        "score", "win_rate", "elo_diff", "elo_diff_low", "elo_diff_high", "score_low", "score_high")}}
    summary = {"corpus": {"games": 10, "positions": 100, "engine": "e", "limit": "nodes 1"},
               "pretrain": {"parameters": 1, "epochs": 1, "val_top1": 0.1, "val_policy_ce": 1.0,
                            "val_value_mse": 0.1},
               "eval": {"by_elo": {"1500": r}}, "seconds": {"eval": 1.0}}
    text = format_summary(summary)
    assert "inf" not in text and "Elo difference n/a at score 0" in text
    assert "inf" not in format_summary(strict_loads(json_text(summary)))  # and from its JSON (nulls)


def test_the_score_interval_is_wilsons_over_games() -> None:
    # Wilson's score interval over N games, draws counted as half a point: honest at 0 of 2.
    def wilson(points: float, n: int, z: float = 1.959963984540054) -> tuple:
        p = points / n
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return centre - half, centre + half

    s = mchess.match_score(0, 0, 2)
    assert (s["score_low"], s["score_high"]) == pytest.approx(wilson(0, 2))  # 0 .. 0.658, not 0 .. 0


# 2. Strict JSON: non-finite floats are null.

def test_json_text_writes_null_for_non_finite_floats() -> None:
    obj = {"a": math.inf, "b": [-math.inf, math.nan, 1.5], "c": ({"d": math.nan},), "e": "x", "f": 3, "g": None}
    assert finite_json(obj) == {"a": None, "b": [None, None, 1.5], "c": [{"d": None}], "e": "x", "f": 3, "g": None}
    assert strict_loads(json_text(obj, indent=2)) == finite_json(obj)


def test_an_eval_with_a_zero_score_writes_strict_json(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
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
    threads: List[int] = []
    monkeypatch.setattr(torch, "set_num_threads", threads.append)

    def lost_both(player: Any, engine: str, num_games: int, **kw: Any) -> Dict[str, Any]:
        games = []
        for i in range(num_games):
            # Plies 4..11 after a 4-ply opening: the network (white in game 1) moved at 4, 6, 8 and 10.
            game = {"index": i, "player_color": "white" if i % 2 == 0 else "black", "result": "0-1" if i % 2 == 0
                    else "1-0", "termination": "CHECKMATE", "plies": 12, "opening_plies": 4, "player_score": 0.0,
                    "player_seconds": 0.5, "engine_seconds": 0.1}
            games.append(game)
            kw["progress"](game, mchess.match_score(0, 0, i + 1))
        return {**mchess.match_score(0, 0, num_games), "engine": "stand-in", "engine_elo": kw["elo"],
                "movetime": kw["movetime"], "seed": kw["seed"], "opening_plies": kw["opening_plies"], "pgn": None,
                "games": games}

    monkeypatch.setattr(mchess, "play_match", lost_both)
    ckpt = tmp_path / "net.pt"
    ckpt.write_bytes(b"")
    out = tmp_path / "m.json"
    assert meval.main(["--game", "chess", "--checkpoint", str(ckpt), "--num-games", "2", "--json", str(out)]) == 0
    printed = capsys.readouterr()
    assert "inf" not in printed.out and "Elo difference n/a at score 0" in printed.out
    # The progress line: the network's mean time a move, its 4 moves of game 1 and game 2's 4 (5, 7, 9, 11).
    assert "12 plies, 125 ms a move)" in printed.err
    text = out.read_text()
    assert "Infinity" not in text and "NaN" not in text
    summary = strict_loads(text)
    assert summary["score"] == 0.0 and summary["elo_diff"] is None and summary["elo_diff_low"] is None
    assert threads == [meval.DEFAULT_TORCH_THREADS] == [1]  # torch's threads: 1 by default


def test_the_shipped_model_cards_are_strict_json() -> None:
    cards = sorted((ROOT / "models").glob("*.json"))
    assert cards
    for card in cards:
        strict_loads(card.read_text())


def test_write_json_atomically_is_strict(tmp_path: Path) -> None:
    write_json_atomically(tmp_path / "s.json", {"elo_diff": -math.inf, "loss": math.nan})
    assert strict_loads((tmp_path / "s.json").read_text()) == {"elo_diff": None, "loss": None}


# 3. torch's threads: 1 by default wherever a network serves the search.

def test_evals_torch_threads_default_is_1() -> None:
    p = meval._parser()
    assert p.parse_args(["--game", "chess", "--checkpoint", "x"]).torch_threads == 1
    assert p.parse_args(["--game", "chess", "--checkpoint", "x", "--torch-threads", "0"]).torch_threads == 0
    assert "default 1" in " ".join(p.format_help().split())


def test_ray_selfplays_torch_threads_default_is_1() -> None:
    pytest.importorskip("ray")
    from manaka.ray import selfplay_job

    p = argparse.ArgumentParser()
    selfplay_job.add_parser(p.add_subparsers())
    args = p.parse_args(["selfplay", "--game", "chess", "--checkpoint", "c", "-o", "o", "--games", "2"])
    assert args.torch_threads == 1


def test_refine_and_the_recipes_torch_threads_default_is_1() -> None:
    from manaka.train.config import RefineConfig
    from manaka.train.recipe import EvalPhase

    assert RefineConfig().torch_threads == 1
    assert EvalPhase().torch_threads == 1


def test_shogi_selfplays_runner_sets_1_torch_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    from manaka import selfplay

    threads: List[int] = []
    monkeypatch.setattr(torch, "set_num_threads", threads.append)

    class Loaded(Exception):
        pass

    def load(*args: Any) -> Any:
        raise Loaded

    monkeypatch.setattr(selfplay, "load_network", load)
    with pytest.raises(Loaded):
        selfplay.run({"checkpoint": "c.pt", "game": "shogi", "device": "cpu"})
    assert threads == [1]
    with pytest.raises(Loaded):
        selfplay.run({"checkpoint": "c.pt", "game": "shogi", "device": "cpu", "torch_threads": 0})
    assert threads == [1]  # 0: torch's own count, nothing set


def test_native_shogi_selfplay_and_the_refine_config_default_to_1_torch_thread() -> None:
    import subprocess
    import tomllib

    manaka_bin = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
    out = subprocess.run([manaka_bin, "shogi", "selfplay", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "--torch-threads INT:in 0..1024=1" in out.stdout
    config = Path(__file__).resolve().parents[2] / "configs" / "chess-refine.toml"
    assert tomllib.loads(config.read_text())["torch_threads"] == 1
