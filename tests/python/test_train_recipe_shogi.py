"""`python -m manaka.train recipe` for shogi on a tiny config: fairy-stockfish's teacher games through
`teacher generate`, `teacher convert` and `pack`, pre-training from the shards, the match with CSA
records; each step skipped when complete, a part cut short played again. The shards and the records
are read back by pyarrow and cshogi, not by manaka."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import cshogi
import cshogi.CSA
import pyarrow.parquet as pq
import torch

from manaka.train import CHECKPOINT_KEYS
from test_train_recipe import recipe
from test_train_recipe import write_config as recipe_config

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
FAIRY = "/usr/games/fairy-stockfish"

TINY = """
game = "shogi"
run_dir = "{run}"
model_out = "{model}"
[corpus]
games = 4
validation_games = 2
part_games = 2
nodes = 100
multipv = 3
workers = 1
max_plies = 120
opening_plies = 0
[pretrain]
epochs = 1
batch_size = 64
torch_threads = 1
[pretrain.model]
blocks = 1
channels = 8
value_channels = 2
value_hidden = 8
[pretrain.play]
simulations = 4
batch_size = 4
[eval]
games = 2
chunk_games = 2
elos = [1350]
movetime = 0.01
max_plies = 60
"""

def write_config(tmp: Path, **changes: str) -> Path:
    return recipe_config(tmp, TINY, "tiny-shogi.pt", **changes)


def test_the_shogi_recipe_runs_every_phase_then_skips_each(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    first = recipe(config)
    assert first.returncode == 0, first.stderr
    summary = json.loads(first.stdout)
    run = tmp_path / "run"
    assert summary == json.loads((run / "summary.json").read_text())

    # The corpus: parts of the project's own commands, training and validation games apart.
    corpus = run / "corpus"
    assert sorted(p.name for p in corpus.iterdir()) == ["train-0000.parquet", "train-0001.parquet",
                                                         "val-0000.parquet"]
    c = summary["corpus"]
    assert (c["games"], c["validation_games"], c["limit"], c["multipv"]) == (4, 2, "nodes 100", 3)
    train_rows = sum(pq.read_metadata(p).num_rows for p in (run / "shards" / "train").glob("*.parquet"))
    val_rows = sum(pq.read_metadata(p).num_rows for p in (run / "shards" / "val").glob("*.parquet"))
    assert c["rows"] == train_rows > 0 and c["validation_rows"] == val_rows > 0
    teacher = sum(pq.read_metadata(p).num_rows for p in corpus.glob("train-*.parquet"))
    assert c["positions"] == teacher >= train_rows  # folding merges repeated positions, never adds
    footer = pq.read_metadata(next((run / "shards" / "train").glob("*.parquet"))).metadata
    assert float(footer[b"eval_coef"]) == 2000.0 and footer[b"policy_source"] == b"1"

    p = summary["pretrain"]
    assert p["epochs"] == 1 and 0 <= p["val_top1"] <= 1 and p["value_sign"]["min_abs"] == 0.5
    # Every game starts from the initial position: the sets share boards, counted (and JSON can hold it).
    assert p["overlap"]["shared_rows"] >= 1 and p["overlap"]["opening_rows"] >= 1
    assert summary["network"] == str(run / "pretrained.pt")

    # The match: CSA records cshogi reads, the result each states the one counted.
    r = summary["eval"]["by_elo"]["1350"]
    assert r["games"] == 2 == r["wins"] + r["draws"] + r["losses"]
    assert summary["eval"]["engine"] == FAIRY
    match = summary["eval"]["match"]
    records = sorted((run / "eval" / match / "elo_1350" / "chunk_000").glob("*.csa"))
    assert [x.name for x in records] == ["1.csa", "2.csa"]
    for record in records:
        kifu = cshogi.CSA.Parser.parse_file(str(record))[0]
        board = cshogi.Board(kifu.sfen)
        for move in kifu.moves:
            assert board.is_legal(move), record
            board.push(move)
    assert "UCI_Elo 1350: 2 games" in first.stderr and "shards: " in first.stderr

    model = tmp_path / "models" / "tiny-shogi.pt"
    slim = torch.load(model, weights_only=True)
    assert set(slim) == set(CHECKPOINT_KEYS) and slim["config"]["game"] == "shogi"
    assert slim["config"]["play"] == {"simulations": 4, "batch_size": 4, "c_puct": 1.5}

    # Again: nothing is played or written again.
    stamps = {q: q.stat().st_mtime_ns for q in [*corpus.iterdir(), *(run / "shards").rglob("*.parquet"),
                                                run / "train.mpk", run / "val.mpk"]}
    again = recipe(config)
    assert again.returncode == 0, again.stderr
    assert "pretrain: complete, skipped" in again.stderr and "corpus: train:" not in again.stderr
    assert {q: q.stat().st_mtime_ns for q in stamps} == stamps
    assert json.loads(again.stdout)["eval"] == summary["eval"]


def test_a_part_cut_short_is_played_again_and_other_options_are_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path)
    run = tmp_path / "run"
    (run / "corpus" / "train-0001.parquet.partial").mkdir(parents=True)  # as a killed generate leaves it
    first = recipe(config)
    assert first.returncode == 0, first.stderr
    assert "corpus: train: 4 of 4 games to play, 2 part(s) of 2" in first.stderr
    assert not list((run / "corpus").glob("*.partial"))
    # The same games whatever was cut short: game indices and the seed decide them.
    redo = tmp_path / "redo.parquet"
    done = subprocess.run([MANAKA, "teacher", "generate", "--engine", FAIRY, "--games", "2", "--first-game", "2",
                           "--multipv", "3", "--nodes", "100", "--workers", "1", "--seed", "1", "--opening-plies",
                           "0", "--max-plies", "120", "-o", str(redo), "-q"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert pq.read_table(redo).equals(pq.read_table(run / "corpus" / "train-0001.parquet"))

    other = recipe(write_config(tmp_path, **{"nodes = 100": "nodes = 200"}))
    assert other.returncode == 1 and "its corpus differs in nodes" in other.stderr
    chess = recipe(write_config(tmp_path, **{'game = "shogi"': 'game = "chess"', "validation_games = 2\n": "",
                                             "part_games = 2\n": "", "multipv = 3\n": "", "max_plies = 120\n": ""}))
    assert chess.returncode == 1 and "holds a shogi recipe's run" in chess.stderr
    refine = recipe(write_config(tmp_path, **{"[eval]": "[refine]\niterations = 1\n[eval]"}))
    assert refine.returncode == 2 and "'refine' is for chess" in refine.stderr
    mate = recipe(write_config(tmp_path, **{"max_plies = 120\n": "max_plies = 120\nmate_scale = 500\n"}))
    assert mate.returncode == 2 and "'corpus.mate_scale' in 1000..32767" in mate.stderr


def test_the_shipped_shogi_config_loads() -> None:
    from manaka.train.recipe import ShogiCorpusPhase, load_recipe_config

    config = load_recipe_config(Path(__file__).resolve().parents[2] / "configs" / "shogi-cpu.toml")
    assert config.game == "shogi" and config.pretrain.game == "shogi"
    assert isinstance(config.corpus, ShogiCorpusPhase) and config.corpus.engine == FAIRY
    assert config.pretrain.play.simulations == 800 and config.eval.elos == [1350, 1500, 1700]
