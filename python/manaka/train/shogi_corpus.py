"""The shogi recipe's corpus phase: the project's own commands, each step resumable.

1. ``manaka teacher generate`` with fairy-stockfish, ``part_games`` games a
   part file (``<run_dir>/corpus/train-NNNN.parquet``, then the validation
   games' ``val-NNNN.parquet``, played with game indices after the training
   ones, so no game is in both); a part is written whole by the command, and
   one cut short (its ``.partial`` directory) is played again;
2. ``manaka teacher convert`` of each set into ``train.mpk`` and ``val.mpk``;
3. ``manaka pack`` of each into ``shards/train/`` and ``shards/val/``.

Each output appears complete or not at all, so a step whose output exists is
skipped; ``recipe.json`` has already refused a run directory made with other
options.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from manaka.train.config import ConfigError

__all__ = ["ShogiCorpusPhase", "check_shogi_corpus", "run_shogi_corpus"]


@dataclass
class ShogiCorpusPhase:
    """A teacher corpus of fairy-stockfish's games (docs/teacher.md), converted and packed (docs/shogi-training.md)."""
    games: int = 1000              # training games
    validation_games: int = 50     # held-out games, packed into a shard set of their own
    part_games: int = 50           # games a part file: what a stopped run plays again at most
    nodes: int = 2000              # the engine's nodes a position (one of nodes, depth)
    depth: int = 0
    multipv: int = 5               # candidates a position: the policy target's moves
    workers: int = 0               # engine processes at once (0: one per core)
    seed: int = 1
    opening_plies: int = 4         # random legal plies before the engine plays
    max_plies: int = 320           # a game reaching this ply is a draw
    engine: str = "/usr/games/fairy-stockfish"
    eval_coef: float = 2000.0      # value_q = tanh(cp / (2 eval_coef)); `teacher fit-coef` measures it
    mate_scale: int = 32000
    temperature: float = 100.0     # the candidates' softmax temperature in centipawns (pack)
    pack_seed: int = 0             # pack's shuffle seed


def check_shogi_corpus(c: ShogiCorpusPhase) -> None:
    if c.games < 1 or c.validation_games < 1 or c.part_games < 1:
        raise ConfigError("'corpus.games', 'corpus.validation_games' and 'corpus.part_games' must be at least 1")
    limits = [name for name, v in (("nodes", c.nodes), ("depth", c.depth)) if v]
    if len(limits) != 1:
        raise ConfigError(f"set exactly one of 'corpus.nodes', 'corpus.depth' (got {', '.join(limits) or 'none'})")
    if min(c.nodes, c.depth, c.workers, c.opening_plies) < 0 or c.multipv < 1 or c.max_plies < 1:
        raise ConfigError("'corpus' values must not be negative (multipv and max_plies at least 1)")
    if not (c.eval_coef >= 1 and c.temperature > 0 and 1000 <= c.mate_scale <= 32767):
        raise ConfigError("'corpus.eval_coef' must be at least 1, 'corpus.temperature' positive and "
                          "'corpus.mate_scale' in 1000..32767 (teacher generate's range)")


def _parts(first: int, games: int, part_games: int) -> list[tuple[int, int]]:
    """(first game, games) of each part of the range [first, first + games)."""
    return [(first + s, min(part_games, games - s)) for s in range(0, games, part_games)]


def _command(manaka: str, args: list[str], step: str, quiet: bool) -> str:
    """Runs one manaka command (its progress on this stderr); its stdout, or RecipeError naming the step."""
    from manaka.train.recipe import RecipeError

    proc = subprocess.run([manaka, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL if quiet else None,
                          text=True)
    if proc.returncode != 0:
        raise RecipeError(f"corpus phase failed: {step} (manaka {' '.join(args[:2])} exited {proc.returncode}; "
                          "its message is above)")
    return proc.stdout


def run_shogi_corpus(c: ShogiCorpusPhase, run_dir: Path, manaka: str, log: Callable[[str], None],
                     quiet: bool) -> dict:
    """Generates, converts and packs what is missing; the phase's summary, with the shard sets' paths."""
    import pyarrow.parquet as pq

    corpus = run_dir / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    limit = ["--nodes", str(c.nodes)] if c.nodes else ["--depth", str(c.depth)]
    sets = {"train": _parts(0, c.games, c.part_games), "val": _parts(c.games, c.validation_games, c.part_games)}
    summary: dict = {"engine": c.engine, "limit": " ".join(limit).lstrip("-"), "multipv": c.multipv,
                     "eval_coef": c.eval_coef, "temperature": c.temperature}
    for name, parts in sets.items():
        files = [corpus / f"{name}-{k:04d}.parquet" for k in range(len(parts))]
        todo = [(f, p) for f, p in zip(files, parts) if not f.exists()]
        if todo:
            log(f"corpus: {name}: {sum(n for _, (_, n) in todo)} of {sum(n for _, n in parts)} games to play, "
                f"{len(todo)} part(s) of {c.part_games}")
        started = time.monotonic()
        for done, (f, (first, n)) in enumerate(todo, 1):
            shutil.rmtree(f"{f}.partial", ignore_errors=True)  # a part cut short is played again, whole
            _command(manaka, ["teacher", "generate", "--engine", c.engine, "--games", str(n), "--first-game",
                              str(first), "--multipv", str(c.multipv), *limit, "--workers", str(c.workers),
                              "--seed", str(c.seed), "--opening-plies", str(c.opening_plies), "--max-plies",
                              str(c.max_plies), "--mate-scale", str(c.mate_scale), "-o", os.fspath(f), "-q"],
                     f"{name} games {first}..{first + n - 1}", quiet)
            took = time.monotonic() - started
            log(f"corpus: {name}: part {done}/{len(todo)} ({f.name}, games {first}..{first + n - 1}, "
                f"{pq.read_metadata(f).num_rows:,} positions), {took:.0f} s, ETA {took / done * (len(todo) - done):.0f} s")
        positions = sum(pq.read_metadata(f).num_rows for f in files)
        stream = run_dir / f"{name}.mpk"
        if not stream.exists():
            _command(manaka, ["teacher", "convert", *map(os.fspath, files), "-o", os.fspath(stream), "--eval-coef",
                              repr(c.eval_coef), "--mate-scale", str(c.mate_scale), "--json", "-q"],
                     f"converting the {name} games", quiet)
        shards = run_dir / "shards" / name
        if not any(shards.glob("shard-*.parquet")):
            log(f"corpus: packing {stream.name} into {shards}/")
            _command(manaka, ["pack", os.fspath(stream), "-o", f"{shards}/", "--temperature", repr(c.temperature),
                              "--seed", str(c.pack_seed + (name == "val")), "--overwrite", "-q"],
                     f"packing {stream.name}", quiet)
        key = "" if name == "train" else "validation_"
        summary[f"{key}games"] = sum(n for _, n in parts)
        summary[f"{key}positions"] = positions
        summary[f"{key}shards"] = os.fspath(shards)
        summary[f"{key}rows"] = sum(pq.read_metadata(p).num_rows for p in sorted(shards.glob("shard-*.parquet")))
    return summary

