"""The chess pipeline end to end, tiny: a few Stockfish games into a corpus,
a tiny network pre-trained on it, and a two-game evaluation against the real
Stockfish. Each step is its own command, as a user runs them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import chess.pgn

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))

TINY = """
corpus = "{corpus}"
output = "{out}"
metrics = ""
seed = 0
device = "cpu"
epochs = 1
batch_size = 64
patience = 1
val_fraction = 0.05
log_every = 100
progress_seconds = 30.0

[model]
blocks = 1
channels = 8
value_channels = 2
value_hidden = 16
"""


def test_corpus_pretrain_and_evaluate(tmp_path):
    corpus = tmp_path / "corpus"
    run = subprocess.run([MANAKA, "chess", "corpus", "-o", str(corpus), "--games", "4", "--workers", "2",
                          "--nodes", "200", "--seed", "3", "--shard-size", "100", "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    made = json.loads(run.stdout)
    assert made["games"] == 4 and made["shards"] >= 2

    out = tmp_path / "pretrained.pt"
    config = tmp_path / "tiny.toml"
    config.write_text(TINY.format(corpus=corpus, out=out))
    run = subprocess.run([sys.executable, "-m", "manaka.train", "pretrain", "--config", str(config)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    trained = json.loads(run.stdout.strip().splitlines()[-1])
    assert trained["epochs_completed"] == 1 and out.exists()

    pgn = tmp_path / "eval.pgn"
    run = subprocess.run([sys.executable, "-m", "manaka.eval", "--game", "chess", "--checkpoint", str(out),
                          "--num-games", "2", "--elo", "1350", "--movetime", "0.02", "--pgn", str(pgn),
                          "--json", str(tmp_path / "eval.json")],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "games: 2" in run.stdout and "criterion win_rate >= 0.50" in run.stdout
    record = json.loads((tmp_path / "eval.json").read_text())
    assert record["num_games"] == 2 == record["wins"] + record["draws"] + record["losses"]
    assert f"wins {record['wins']}  draws {record['draws']}" in run.stdout
    assert (record["engine_elo"], record["simulations"], record["checkpoint"]) == (1350, 0, str(out))
    with open(pgn) as f:
        games = [chess.pgn.read_game(f), chess.pgn.read_game(f)]
    assert all(g is not None for g in games)
    # A pair: the same opening, colours swapped.
    assert games[0].headers["White"] == games[1].headers["Black"]
    opening = int(games[0].headers["Opening"].split(", ")[1].split()[0])
    assert list(games[0].mainline_moves())[:opening] == list(games[1].mainline_moves())[:opening]
