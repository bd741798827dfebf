"""`python -m manaka.train recipe`: every phase on a tiny config, each skipped when complete and continued
when cut short; bad input named in one line with what was completed kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from manaka.train import CHECKPOINT_KEYS, Trainer

MANAKA = str(Path(sys.executable).with_name("manaka"))

TINY = """
run_dir = "{run}"
model_out = "{model}"
[corpus]
games = 6
nodes = 200
workers = 1
seed = 2
shard_size = 100
[pretrain]
epochs = 1
batch_size = 64
value_score_weight = 0.5
val_fraction = 0.2
torch_threads = 1
[pretrain.model]
blocks = 1
channels = 8
value_channels = 2
value_hidden = 8
[pretrain.play]
simulations = 8
batch_size = 4
[eval]
games = 4
chunk_games = 2
elos = [1350]
movetime = 0.01
"""


def write_config(tmp: Path, template: str = TINY, model: str = "tiny.pt", **changes: str) -> Path:
    text = template.format(run=tmp / "run", model=tmp / "models" / model)
    for old, new in changes.items():
        assert old in text
        text = text.replace(old, new)
    path = tmp / "recipe.toml"
    path.write_text(text)
    return path


def recipe(config: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "manaka.train", "recipe", "--config", str(config)],
                          capture_output=True, text=True, timeout=600)


def test_every_phase_runs_then_each_is_skipped(tmp_path):
    config = write_config(tmp_path)
    first = recipe(config)
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    run = tmp_path / "run"
    assert summary == json.loads((run / "summary.json").read_text())
    assert summary["corpus"]["games"] == 6 and summary["corpus"]["limit"] == "nodes 200"
    assert summary["pretrain"]["epochs"] == 1 and 0 <= summary["pretrain"]["val_top1"] <= 1
    r = summary["eval"]["by_elo"]["1350"]
    assert r["games"] == 4 == r["wins"] + r["draws"] + r["losses"]
    match = summary["eval"]["match"]
    assert match == "pretrained-sims8-batch4-cpuct1.5-movetime0.01-plies4"
    assert sorted(p.name for p in (run / "eval" / match / "elo_1350").iterdir()) == [
        "chunk_000.json", "chunk_000.pgn", "chunk_001.json", "chunk_001.pgn"]
    assert "UCI_Elo 1350: 4 games" in first.stderr

    # The shipped form: the contract's keys, candidate = best, no optimizer moments, the play settings.
    model = tmp_path / "models" / "tiny.pt"
    slim = torch.load(model, weights_only=True)
    assert set(slim) == set(CHECKPOINT_KEYS)
    assert slim["iteration"] == 0 and slim["optimizer"]["state"] == {}
    assert slim["config"]["play"] == {"simulations": 8, "batch_size": 4, "c_puct": 1.5}
    full = torch.load(run / "pretrained.pt", weights_only=True)
    for k, v in full["best_net"].items():
        assert torch.equal(slim["best_net"][k], v) and torch.equal(slim["candidate_net"][k], v)
    assert Trainer.load_from_checkpoint(model).next_iteration == 1
    card = json.loads((tmp_path / "models" / "tiny.json").read_text())
    assert card["eval"] == summary["eval"] and card["model"] == str(model)

    stamps = {p: p.stat().st_mtime_ns for p in (run / "eval" / match / "elo_1350").iterdir()}
    again = recipe(config)
    assert again.returncode == 0, again.stderr
    assert "checking its options" in again.stderr and "pretrain: complete, skipped" in again.stderr
    assert {p: p.stat().st_mtime_ns for p in stamps} == stamps  # no game played again
    repeat = json.loads(again.stdout)
    assert repeat["eval"] == summary["eval"]
    # A skipped corpus still reports its games' results (its shards'), though none was played now.
    assert repeat["corpus"]["played"] == 0 and repeat["corpus"]["results"] == summary["corpus"]["results"]
    assert sum(summary["corpus"]["results"].values()) == 6


def test_a_stopped_corpus_and_a_missing_chunk_are_continued(tmp_path):
    config = write_config(tmp_path)
    corpus = tmp_path / "run" / "corpus"
    part = subprocess.run([MANAKA, "chess", "corpus", "-o", str(corpus), "--games", "3", "--workers", "1",
                           "--nodes", "200", "--seed", "2", "--opening-plies", "4", "--shard-size", "100",
                           "--scores", "-q"], capture_output=True, text=True)
    assert part.returncode == 0, part.stderr
    first = recipe(config)
    assert first.returncode == 0, first.stderr
    assert "continuing" in first.stderr and "from 3 of 6 games" in first.stderr
    assert json.loads(first.stdout)["corpus"]["games"] == 6
    folder = tmp_path / "run" / "eval" / json.loads(first.stdout)["eval"]["match"] / "elo_1350"
    kept = (folder / "chunk_000.json").stat().st_mtime_ns
    (folder / "chunk_001.json").unlink()  # as if stopped during the second chunk
    again = recipe(config)
    assert again.returncode == 0, again.stderr
    assert (folder / "chunk_000.json").stat().st_mtime_ns == kept
    assert (folder / "chunk_001.json").exists()
    assert json.loads(again.stdout)["eval"]["by_elo"]["1350"]["games"] == 4

    # Other play settings are another match: played in full, the first one's chunks left as they are.
    stamps = {p: p.stat().st_mtime_ns for p in folder.iterdir()}
    other = recipe(write_config(tmp_path, **{"simulations = 8": "simulations = 6",
                                              "movetime = 0.01": "movetime = 0.01\nworkers = 2"}))
    assert other.returncode == 0, other.stderr
    assert "eval: 2 chunk(s) on 2 worker processes" in other.stderr
    match = json.loads(other.stdout)["eval"]["match"]
    assert match == "pretrained-sims6-batch4-cpuct1.5-movetime0.01-plies4"
    assert "pretrain: complete, skipped" in other.stderr
    assert sorted(p.name for p in (tmp_path / "run" / "eval" / match / "elo_1350").glob("*.json")) == [
        "chunk_000.json", "chunk_001.json"]
    assert {p: p.stat().st_mtime_ns for p in folder.iterdir()} == stamps


def test_bad_input_is_one_line_and_keeps_what_was_done(tmp_path):
    bad_key = recipe(write_config(tmp_path, **{"blocks = 1": "blokcs = 1"}))
    assert bad_key.returncode == 2
    assert "unknown key 'pretrain.model.blokcs'" in bad_key.stderr and len(bad_key.stderr.splitlines()) == 1
    own_key = recipe(write_config(tmp_path, **{"[pretrain]\n": "[pretrain]\ncorpus = \"elsewhere\"\n"}))
    assert own_key.returncode == 2 and "'pretrain.corpus' is the recipe's own" in own_key.stderr

    no_engine = recipe(write_config(tmp_path, **{"movetime = 0.01": "movetime = 0.01\nengine = \"/no/stockfish\""}))
    assert no_engine.returncode == 1
    last = no_engine.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m manaka.train recipe: eval at UCI_Elo 1350") and "/no/stockfish" in last
    assert (tmp_path / "run" / "pretrained.pt").exists()  # the completed phases stay
    # The same from a worker process: its error crosses back as the one line.
    no_engine = recipe(write_config(tmp_path, **{
        "movetime = 0.01": "movetime = 0.01\nworkers = 2\nengine = \"/no/stockfish\""}))
    assert no_engine.returncode == 1
    last = no_engine.stderr.strip().splitlines()[-1]
    assert last.startswith("python -m manaka.train recipe: eval at UCI_Elo 1350") and "/no/stockfish" in last
    assert "Traceback" not in no_engine.stderr

    other = recipe(write_config(tmp_path, **{"nodes = 200": "nodes = 300"}))
    assert other.returncode == 1
    assert "holds another recipe's run: its corpus differs in nodes" in other.stderr

    garbage = tmp_path / "garbage.pt"
    garbage.write_bytes(b"not a checkpoint")
    ev = subprocess.run([sys.executable, "-m", "manaka.eval", "--game", "chess", "--checkpoint", str(garbage),
                         "--num-games", "2"], capture_output=True, text=True)
    assert ev.returncode == 1 and "garbage.pt" in ev.stderr and len(ev.stderr.strip().splitlines()) == 1
