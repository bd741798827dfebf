"""The whole recipe in one resumable command, for either game (docs/chess-training.md and
docs/shogi-training.md, "The recipe")::

    python -m manaka.train recipe --config configs/chess-cpu.toml
    python -m manaka.train recipe --config configs/shogi-cpu.toml

Phases, in order, each skipped when its output is complete and continued
when it was interrupted:

1. corpus: chess: ``manaka chess corpus`` into ``<run_dir>/corpus`` (the
   command itself continues a stopped corpus from its manifest and refuses a
   directory made with other options); shogi: fairy-stockfish's teacher
   games, converted and packed into ``<run_dir>/shards/train`` and
   ``shards/val`` (``shogi_corpus.py``);
2. pretrain: ``manaka.train.pretrain`` into ``<run_dir>/pretrained.pt``
   (``--resume`` semantics: an interrupted run continues at the epoch after
   its last completed one; a finished one is skipped);
3. refine (only with a ``[refine]`` table): the AlphaZero refinement in
   ``<run_dir>/refine`` from pretrained.pt, resumed from its newest
   iteration like ``python -m manaka.train train``;
4. eval: for each Elo, ``games`` games against Stockfish (shogi:
   fairy-stockfish) in chunks of ``chunk_games``
   (``<run_dir>/eval/<match>/elo_NNNN/chunk_NNN.json`` and ``.pgn``, shogi's
   ``chunk_NNN/<n>.csa``, each written whole); a chunk already written is not played
   again. ``<match>`` names the network and the settings of both sides
   (``pretrained-sims400-batch16-cpuct1.5-movetime0.05``), so a chunk is
   never counted for another network or other settings.

Then ``<run_dir>/summary.json`` (games, positions, held-out accuracy, each
Elo's score with its interval, seconds per phase) and, with ``model_out``,
the network as a small checkpoint of the spec's contract with the summary
beside it (``<model_out minus .pt>.json``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, TextIO, Union

from manaka._atomic import write_json_atomically
from manaka.train.config import (ConfigError, PlayConfig, PretrainConfig, RefineConfig, _build, _check, _check_refine,
                                 _read_toml, config_to_dict)
from manaka.train.shogi_corpus import ShogiCorpusPhase, check_shogi_corpus, run_shogi_corpus

__all__ = ["CorpusPhase", "EvalPhase", "RecipeConfig", "ShogiCorpusPhase", "RecipeError", "load_recipe_config", "recipe_config_from_dict",
           "run_recipe", "slim_checkpoint"]

PathLike = Union[str, os.PathLike]


class RecipeError(RuntimeError):
    """A phase that cannot go on (a corpus of another recipe, a missing engine, a bad checkpoint): one line."""


@dataclass
class CorpusPhase:
    """``manaka chess corpus``'s options (docs/chess-corpus.md); one of nodes, depth, movetime limits a move."""
    games: int = 10000
    nodes: int = 1000              # Stockfish's nodes a move (the spec's 0.05 s is movetime = 0.05)
    depth: int = 0
    movetime: float = 0.0          # seconds a move; the spec's limit, slower and machine-dependent
    workers: int = 0               # 0: one per core
    seed: int = 1
    opening_plies: int = 4         # the spec's random opening
    shard_size: int = 10000        # the spec's positions per shard
    scores: bool = True            # store the engine's scores (the value target of value_score_weight)
    engine: str = "/usr/games/stockfish"


@dataclass
class EvalPhase:
    """The match against Stockfish (docs/match.md) for each Elo; the network plays with ``pretrain.play``."""
    games: int = 100               # the spec's 100 games, colours swapped in pairs
    elos: list = field(default_factory=lambda: [1500])
    movetime: float = 0.05         # the engine's seconds a move
    seed: int = 0                  # openings: chunk k is play_match's seed + k
    opening_plies: int = 4
    chunk_games: int = 10          # games per resumable chunk (even: both colours of each opening)
    torch_threads: int = 1         # torch's CPU threads while searching (1: small batches run best)
    workers: int = 1               # chunks played at once, each in a process of its own (a core each)
    engine: str = ""               # "": /usr/games/stockfish (chess), /usr/games/fairy-stockfish (shogi)
    max_plies: int = 320           # shogi: a game reaching this ply is a draw (chess ends by its own rules)


def eval_engine(config: "RecipeConfig") -> str:
    from manaka.eval import ENGINES

    return config.eval.engine or ENGINES[config.game]


@dataclass
class RecipeConfig:
    game: str = "chess"            # chess or shogi: the corpus phase's kind, pretrain.game, the eval's engine
    run_dir: str = "runs/chess-cpu"
    model_out: str = ""            # the network's slim checkpoint is copied here when done ("" copies none)
    corpus: Union[CorpusPhase, ShogiCorpusPhase] = field(default_factory=CorpusPhase)
    pretrain: PretrainConfig = field(default_factory=PretrainConfig)
    eval: EvalPhase = field(default_factory=EvalPhase)
    refine: Optional[RefineConfig] = None  # a [refine] table turns the phase on


_OWN_PRETRAIN_KEYS = ("corpus", "validation", "output", "metrics", "game")  # the recipe's, under run_dir


def recipe_config_from_dict(data: dict) -> RecipeConfig:
    """A checked ``RecipeConfig``; unknown keys are refused naming them (``pretrain.model.chanels``)."""
    data = dict(data)
    for key in _OWN_PRETRAIN_KEYS:
        if key in data.get("pretrain", {}):
            raise ConfigError(f"'pretrain.{key}' is the recipe's own (under run_dir; the game: the top-level "
                              "'game'); leave it out")
    game = data.get("game", "chess")
    if game not in ("chess", "shogi"):
        raise ConfigError(f"'game' must be chess or shogi, got {game!r}")
    corpus_table = data.pop("corpus", {})
    if not isinstance(corpus_table, dict):
        raise ConfigError("'corpus' must be a table")
    refine_table = data.pop("refine", None)
    if refine_table is not None and not isinstance(refine_table, dict):
        raise ConfigError("'refine' must be a table")
    if refine_table is not None and "run_dir" in refine_table:
        raise ConfigError("'refine.run_dir' is the recipe's own (run_dir/refine); leave it out")
    config: RecipeConfig = _build(RecipeConfig, data, "")
    config.corpus = _build(ShogiCorpusPhase if game == "shogi" else CorpusPhase, corpus_table, "corpus.")
    # The shards' paths stand in until the run directory is known; _check wants shogi's validation named.
    config.pretrain = dataclasses.replace(config.pretrain, game=game,
                                          validation="shards/val" if game == "shogi" else "")
    _check(config.pretrain)
    if refine_table is not None and game == "shogi":
        raise ConfigError("'refine' is for chess (the shogi recipe pre-trains and evaluates)")
    if refine_table is not None:
        refine = _check_refine(_build(RefineConfig, refine_table, "refine."))
        if refine.model != config.pretrain.model:
            raise ConfigError("'refine.model' must be pretrain.model (the refinement starts from its network)")
        config.refine = refine
    _check_phases(config)
    return config


def _check_phases(config: RecipeConfig) -> None:
    c, e = config.corpus, config.eval
    if isinstance(c, ShogiCorpusPhase):
        check_shogi_corpus(c)
    else:
        _check_chess_corpus(config, c)
    if e.games < 1 or e.chunk_games < 1:
        raise ConfigError("'eval.games' and 'eval.chunk_games' must be at least 1")
    if not e.elos or not all(isinstance(x, int) and not isinstance(x, bool) for x in e.elos):
        raise ConfigError(f"'eval.elos' must be a list of integers, got {e.elos!r}")
    if not e.movetime > 0:
        raise ConfigError(f"'eval.movetime' must be positive, got {e.movetime}")
    if e.workers < 1:
        raise ConfigError(f"'eval.workers' must be at least 1, got {e.workers}")
    if e.torch_threads < 0:
        raise ConfigError(f"'eval.torch_threads' must be at least 0, got {e.torch_threads}")
    if e.max_plies < 1:
        raise ConfigError(f"'eval.max_plies' must be at least 1, got {e.max_plies}")


def _check_chess_corpus(config: RecipeConfig, c: CorpusPhase) -> None:
    if c.games < 1:
        raise ConfigError(f"'corpus.games' must be at least 1, got {c.games}")
    limits = [name for name, v in (("nodes", c.nodes), ("depth", c.depth), ("movetime", c.movetime)) if v]
    if len(limits) != 1:
        raise ConfigError(f"set exactly one of 'corpus.nodes', 'corpus.depth', 'corpus.movetime' (got "
                          f"{', '.join(limits) or 'none'})")
    if min(c.nodes, c.depth, c.workers, c.opening_plies) < 0 or c.movetime < 0 or c.shard_size < 1:
        raise ConfigError("'corpus' values must not be negative (shard_size at least 1)")
    if config.pretrain.value_score_weight > 0 and not c.scores:
        raise ConfigError("'pretrain.value_score_weight' > 0 needs 'corpus.scores' = true")


def load_recipe_config(path: PathLike) -> RecipeConfig:
    try:
        return recipe_config_from_dict(_read_toml(path))
    except ConfigError as e:
        raise ConfigError(f"{os.fspath(path)}: {e}") from None


class _Log:
    def __init__(self, stream: Optional[TextIO]) -> None:
        self.stream = stream

    def __call__(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(f"recipe: {text}\n")
            self.stream.flush()


def _manaka_command() -> str:
    beside = Path(sys.executable).with_name("manaka")
    found = str(beside) if beside.exists() else shutil.which("manaka")
    if not found:
        raise RecipeError("the `manaka` command is not installed beside this Python (pip install manaka)")
    return found


def _corpus_args(c: CorpusPhase, out: Path) -> list[str]:
    args = ["chess", "corpus", "-o", os.fspath(out), "--games", str(c.games), "--seed", str(c.seed),
            "--opening-plies", str(c.opening_plies), "--shard-size", str(c.shard_size), "--engine", c.engine,
            "--workers", str(c.workers)]
    if c.nodes:
        args += ["--nodes", str(c.nodes)]
    elif c.depth:
        args += ["--depth", str(c.depth)]
    else:
        args += ["--movetime", repr(c.movetime)]
    if c.scores:
        args.append("--scores")
    return args


def _corpus_manifest(out: Path) -> Optional[dict]:
    manifest = out / "corpus.json"
    return json.loads(manifest.read_text()) if manifest.exists() else None


def _run_corpus(config: RecipeConfig, run_dir: Path, log: _Log, quiet: bool) -> dict:
    if isinstance(config.corpus, ShogiCorpusPhase):
        return run_shogi_corpus(config.corpus, run_dir, _manaka_command(), log, quiet)
    out = run_dir / "corpus"
    c = config.corpus
    manifest = _corpus_manifest(out)
    # The command itself checks a corpus's options (refusing one made otherwise) and does nothing to a whole one.
    args = [_manaka_command(), *_corpus_args(c, out), "--json"]
    if manifest is not None and manifest.get("games", 0) >= c.games:
        log(f"corpus: {out} holds {manifest['games']} games, checking its options")
    elif manifest is not None:
        log(f"corpus: continuing {out} from {manifest['games']} of {c.games} games")
    else:
        log(f"corpus: {c.games} games into {out}")
    proc = subprocess.run(args, stdout=subprocess.PIPE, stderr=None if not quiet else subprocess.DEVNULL, text=True)
    if proc.returncode != 0:
        raise RecipeError(f"corpus phase failed ({' '.join(args[1:3])} exited {proc.returncode}; its message is "
                          "above)")
    summary = json.loads(proc.stdout)
    return {"games": summary["corpus_games"], "positions": summary["corpus_positions"], "played": summary["games"],
            "played_results": summary["results"], "results": summary["corpus_results"],
            "limit": summary["limit"], "engine": summary["engine"]}


def _pretrain_config(config: RecipeConfig, run_dir: Path) -> PretrainConfig:
    # shogi: the shard sets the corpus phase packed; chess: the corpus directory (its last shards validate).
    shogi = config.game == "shogi"
    return dataclasses.replace(config.pretrain,
                               corpus=os.fspath(run_dir / "shards" / "train" if shogi else run_dir / "corpus"),
                               validation=os.fspath(run_dir / "shards" / "val") if shogi else "",
                               output=os.fspath(run_dir / "pretrained.pt"),
                               metrics=os.fspath(run_dir / "pretrain-metrics.jsonl"))


def _run_pretrain(config: RecipeConfig, run_dir: Path, log: _Log, progress: Optional[TextIO]) -> dict:
    from manaka.train import checkpoint
    from manaka.train.pretrain import overlap_summary, pretrain

    pc = _pretrain_config(config, run_dir)
    state = checkpoint.resume_path(Path(pc.output))
    resume = state.exists()
    if resume:
        done = bool(checkpoint.load(state)["done"])
        log(f"pretrain: {'complete, skipped' if done else 'continuing'} ({pc.output})")
    else:
        log(f"pretrain: {pc.model.blocks} blocks x {pc.model.channels} channels into {pc.output}")
    result = pretrain(pc, resume=resume, overwrite=not resume, progress=progress)
    best = next((h for h in result.history if h["epoch"] == result.best_epoch), result.history[-1])
    out = {"checkpoint": pc.output, "parameters": result.parameters, "epochs": result.epochs_completed,
           "best_epoch": result.best_epoch, "val_top1": best["val_top1"], "val_policy_ce": best["val_policy_ce"],
           "val_value_mse": best["val_value_mse"], "val_outcome_mse": best.get("val_outcome_mse"),
           "val_positions": best["val_positions"]}
    if "value_sign" in result.data:  # shogi: does the value point the teacher's way (value_sign.py)
        out["value_sign"] = result.data["value_sign"]
        out["overlap"] = overlap_summary(result.data["overlap"])
    return out


def _run_refine(config: RecipeConfig, run_dir: Path, pretrained: str, log: _Log) -> dict:
    from manaka.train.refine import refine

    assert config.refine is not None
    rc = dataclasses.replace(config.refine, run_dir=os.fspath(run_dir / "refine"))
    log(f"refine: {rc.iterations} iteration(s) of {rc.games_per_iteration} games in {rc.run_dir}")
    result = refine(rc, pretrained)
    return {"checkpoint": result.checkpoint, "first_iteration": result.first_iteration,
            "last_iteration": result.last_iteration}


def _chunks(e: EvalPhase) -> list[int]:
    """Games in each chunk: chunk_games each, the last fewer."""
    full, rest = divmod(e.games, e.chunk_games)
    return [e.chunk_games] * full + ([rest] if rest else [])


def match_name(checkpoint_path: str, e: EvalPhase, play: PlayConfig) -> str:
    """The folder of one match's chunks: what decides its games besides the seed."""
    return (f"{Path(checkpoint_path).stem}-sims{play.simulations}-batch{play.batch_size}-cpuct{play.c_puct:g}"
            f"-movetime{e.movetime:g}-plies{e.opening_plies}")


def _make_player(game: str, checkpoint_path: str, e: EvalPhase, play: PlayConfig) -> Callable:
    """The network's player for the game's match, with ``play``'s search settings."""
    from manaka import Error
    from manaka import eval as evaluation

    if e.torch_threads > 0:
        import torch

        torch.set_num_threads(e.torch_threads)
    try:
        make = evaluation.shogi_player if game == "shogi" else evaluation.chess_player
        return make(checkpoint_path, play.simulations, seed=e.seed, batch_size=play.batch_size, c_puct=play.c_puct)
    except Error as err:
        raise RecipeError(f"eval: {err}") from None


def _play_chunk(game: str, player: Callable, checkpoint_path: str, e: EvalPhase, elo: int, k: int, n: int,
                folder: Path) -> dict:
    """Chunk k of the match at ``elo``: n games, written whole (JSON, and PGN or a CSA directory); its record."""
    from manaka import Error, chess
    from manaka._core import match

    started = time.monotonic()
    name = f"manaka {Path(checkpoint_path).name}"
    try:
        if game == "shogi":
            m = match.play_shogi_match(player, e.engine, n, elo=elo, movetime=e.movetime, seed=e.seed + k,
                                       opening_plies=e.opening_plies, max_plies=e.max_plies,
                                       csa=os.fspath(folder / f"chunk_{k:03d}"), overwrite=True, player_name=name)
        else:
            m = chess.play_match(player, e.engine, n, elo=elo, movetime=e.movetime, seed=e.seed + k,
                                 opening_plies=e.opening_plies, pgn=os.fspath(folder / f"chunk_{k:03d}.pgn"),
                                 overwrite=True, player_name=name)
    except Error as err:
        # Plain text: a worker's exception crosses to the parent by pickling.
        raise RecipeError(f"eval at UCI_Elo {elo}, chunk {k}: {err}") from None
    chunk = {"wins": m["wins"], "draws": m["draws"], "losses": m["losses"],
             "plies": sum(int(g["plies"]) for g in m["games"]), "seconds": time.monotonic() - started,
             "seed": e.seed + k}
    write_json_atomically(folder / f"chunk_{k:03d}.json", chunk)
    return chunk


_worker_player = None  # set in an eval worker process by its first chunk; the parent never sets it


def _worker_chunk(game: str, checkpoint_path: str, e: EvalPhase, play: PlayConfig, elo: int, k: int, n: int,
                  folder: Path) -> dict:
    """_play_chunk in a spawned worker process: its chunks share one network."""
    global _worker_player
    if _worker_player is None:
        _worker_player = _make_player(game, checkpoint_path, e, play)
    return _play_chunk(game, _worker_player, checkpoint_path, e, elo, k, n, folder)


def _run_eval(config: RecipeConfig, run_dir: Path, checkpoint_path: str, log: _Log) -> dict:
    from manaka import chess

    game, play = config.game, config.pretrain.play
    e = dataclasses.replace(config.eval, engine=eval_engine(config))
    match = match_name(checkpoint_path, e, play)
    folders = {elo: run_dir / "eval" / match / f"elo_{elo}" for elo in e.elos}
    todo = []
    for elo, folder in folders.items():
        folder.mkdir(parents=True, exist_ok=True)
        todo += [(elo, k, n) for k, n in enumerate(_chunks(e)) if not (folder / f"chunk_{k:03d}.json").exists()]

    def played(finished: int, elo: int, k: int, c: dict) -> None:
        log(f"eval: {finished}/{len(todo)} chunks: UCI_Elo {elo}, chunk {k}: +{c['wins']} ={c['draws']} "
            f"-{c['losses']} in {c['seconds']:.0f} s")

    if todo and e.workers > 1:
        # Chunks on worker processes, each with its own network and engine.
        import concurrent.futures
        import multiprocessing

        log(f"eval: {len(todo)} chunk(s) on {min(e.workers, len(todo))} worker processes")
        with concurrent.futures.ProcessPoolExecutor(min(e.workers, len(todo)),
                                                    mp_context=multiprocessing.get_context("spawn")) as pool:
            running = {pool.submit(_worker_chunk, game, checkpoint_path, e, play, elo, k, n, folders[elo]): (elo, k)
                       for elo, k, n in todo}
            for finished, done in enumerate(concurrent.futures.as_completed(running), 1):
                elo, k = running[done]
                # A RecipeError of a worker ends the phase here; the chunks written stay.
                played(finished, elo, k, done.result())
    elif todo:
        player = _make_player(game, checkpoint_path, e, play)
        for finished, (elo, k, n) in enumerate(todo, 1):
            played(finished, elo, k, _play_chunk(game, player, checkpoint_path, e, elo, k, n, folders[elo]))
    results = {}
    for elo, folder in folders.items():
        wins = draws = losses = plies = 0
        for k, _ in enumerate(_chunks(e)):
            chunk = json.loads((folder / f"chunk_{k:03d}.json").read_text())
            wins, draws, losses = wins + chunk["wins"], draws + chunk["draws"], losses + chunk["losses"]
            plies += chunk["plies"]
        s = chess.match_score(wins, draws, losses)
        log(f"eval: UCI_Elo {elo}: {wins + draws + losses}/{e.games} games  +{wins} ={draws} -{losses}  "
            f"score {s['score']:.3f}")
        results[str(elo)] = {"games": wins + draws + losses, "wins": wins, "draws": draws, "losses": losses,
                             "score": s["score"], "win_rate": s["win_rate"], "elo_diff": s["elo_diff"],
                             "elo_diff_low": s["elo_diff_low"], "elo_diff_high": s["elo_diff_high"],
                             "score_low": s["score_low"], "score_high": s["score_high"],
                             "mean_plies": plies / max(1, wins + draws + losses)}
    return {"match": match, "engine": e.engine, "movetime": e.movetime, "simulations": play.simulations,
            "search_batch": play.batch_size, "c_puct": play.c_puct, "by_elo": results}


def slim_checkpoint(source: PathLike, out: PathLike, play: Optional[dict] = None) -> None:
    """The checkpoint ``source`` as a small one of the same contract: ``candidate_net`` is ``best_net``'s tensors
    (stored once) and ``optimizer`` a fresh AdamW's state (no moments), so a 1 M-parameter network is ~4 MB.
    ``play`` replaces the config's play settings (what ``python -m manaka.eval`` plays with by default)."""
    import torch

    from manaka.train import checkpoint
    from manaka.train.network import PolicyValueNet
    from manaka.train.trainer import Trainer

    raw = checkpoint.load(source)
    trainer = Trainer.load_from_checkpoint(source)
    net: PolicyValueNet = trainer.best_net
    fresh = torch.optim.AdamW(net.parameters(), lr=1e-3)
    best = {k: v.detach().clone() for k, v in raw["best_net"].items()}
    config = dict(raw["config"])
    if play is not None:
        config["play"] = dict(play)
    slim = {"iteration": raw["iteration"], "config": config, "best_net": best, "candidate_net": best,
            "optimizer": fresh.state_dict(), "_pretrain_epoch": raw.get("_pretrain_epoch", 0)}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    checkpoint.save_atomic(slim, Path(out))


def format_summary(s: dict) -> str:
    from manaka.eval import elo_text

    lines = [f"corpus: {s['corpus']['games']:,} games, {s['corpus']['positions']:,} positions "
             f"({s['corpus']['engine']}, {s['corpus']['limit']})"]
    if "validation_games" in s["corpus"]:
        c = s["corpus"]
        lines.append(f"shards: {c['rows']:,} training rows, {c['validation_rows']:,} validation rows from "
                     f"{c['validation_games']:,} games of their own")
    p = s["pretrain"]
    lines.append(f"network: {p['parameters']:,} parameters, {p['epochs']} epoch(s), held-out top-1 "
                 f"{p['val_top1']:.3f}, policy CE {p['val_policy_ce']:.3f}, value MSE {p['val_value_mse']:.3f}")
    sign = p.get("value_sign")
    if sign and sign.get("agree") is not None:
        lines.append(f"value sign: the network agrees with the teacher on {sign['agree']:.3f} of {sign['rows']:,} "
                     f"held-out positions with |value_q| >= {sign['min_abs']}")
    if s.get("refine"):
        lines.append(f"refine: iterations {s['refine']['first_iteration']}..{s['refine']['last_iteration']}")
    ev = s["eval"]
    for elo, r in ev["by_elo"].items():
        lines.append(f"UCI_Elo {elo}: {r['games']} games +{r['wins']} ={r['draws']} -{r['losses']}  score "
                     f"{r['score']:.3f} (95%: {r['score_low']:.3f} .. {r['score_high']:.3f})  Elo difference "
                     f"{elo_text(r, 0)}")
    secs = s["seconds"]
    lines.append("seconds: " + ", ".join(f"{k} {v:,.0f}" for k, v in secs.items()))
    return "\n".join(lines)


def run_recipe(config: RecipeConfig, *, progress: Optional[TextIO] = sys.stderr) -> dict:
    """Runs (or resumes) every phase; returns the summary also written to ``<run_dir>/summary.json``."""
    log = _Log(progress)
    run_dir = Path(config.run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    own = run_dir / "recipe.json"
    described: dict[str, Any] = {
        "game": config.game, "corpus": dataclasses.asdict(config.corpus),
        "pretrain": {k: v for k, v in config_to_dict(config.pretrain).items()
                     if k not in _OWN_PRETRAIN_KEYS + ("play", "device", "torch_threads", "log_every",
                                                       "progress_seconds")}}
    if own.exists():
        before = json.loads(own.read_text())
        if before.get("game", "chess") != config.game:
            raise RecipeError(f"{run_dir} holds a {before.get('game', 'chess')} recipe's run (recipe.json); give "
                              "another run_dir")
        # Keys the recipe took over later (pretrain.game, .validation) were written by older runs: not compared.
        before["pretrain"] = {k: v for k, v in before.get("pretrain", {}).items() if k not in _OWN_PRETRAIN_KEYS}
        for phase in ("corpus", "pretrain"):
            if before.get(phase) != described[phase]:
                changed = sorted(k for k in set(before.get(phase, {})) | set(described[phase])
                                 if before.get(phase, {}).get(k) != described[phase].get(k))
                raise RecipeError(f"{run_dir} holds another recipe's run: its {phase} differs in "
                                  f"{', '.join(changed)} (recipe.json); give another run_dir")
    else:
        write_json_atomically(own, described)
    seconds: dict[str, float] = {}
    t = time.monotonic()
    corpus = _run_corpus(config, run_dir, log, quiet=progress is None)
    seconds["corpus"] = time.monotonic() - t
    t = time.monotonic()
    pretrained = _run_pretrain(config, run_dir, log, progress)
    seconds["pretrain"] = time.monotonic() - t
    network = pretrained["checkpoint"]
    refined = None
    if config.refine is not None:
        t = time.monotonic()
        refined = _run_refine(config, run_dir, network, log)
        network = refined["checkpoint"]
        seconds["refine"] = time.monotonic() - t
    t = time.monotonic()
    evaluated = _run_eval(config, run_dir, network, log)
    seconds["eval"] = time.monotonic() - t
    summary = {"run_dir": os.fspath(run_dir), "network": network, "corpus": corpus, "pretrain": pretrained,
               "refine": refined, "eval": evaluated, "seconds": seconds}
    write_json_atomically(run_dir / "summary.json", summary)
    if config.model_out:
        out = Path(config.model_out)
        slim_checkpoint(network, out, dataclasses.asdict(config.pretrain.play))
        write_json_atomically(out.with_suffix(".json"), {**summary, "model": os.fspath(out)})
        log(f"model: {out} and {out.with_suffix('.json')}")
    return summary
