"""Phase 3: AlphaZero refinement from ``pretrained.pt`` (docs/chess-training.md, "Refinement").

    python -m manaka.train --game chess --config configs/chess-refine.toml --resume-from pretrained.pt

Each iteration N (counting on from the checkpoint's iteration):

1. self-play: ``games_per_iteration`` games of ``best_net`` against itself
   through the C++ search (``manaka.search.chess_self_play``; the network
   evaluates in eval mode under ``torch.no_grad`` on the config's device),
   written as npz shards with the root's visit counts under
   ``<run_dir>/selfplay/iter_NNNN/`` (a ``.tmp-<pid>`` directory renamed
   when complete, so the directory is there whole or not at all);
2. training: ``candidate_net`` on the shards of the latest ``window``
   iterations, shuffled together, ``epochs_per_iteration`` passes; loss =
   cross-entropy against the visit distribution + MSE of the value on z;
3. ``best_net`` takes the candidate's weights when N is a multiple of
   ``copy_every`` (1: every iteration);
4. ``<run_dir>/checkpoints_refine/iter_NNNN.pt``, in pretrained.pt's format
   (checkpoint.py), written to a temporary and renamed.

Resuming: the run's first start records the checkpoint it started from and
its iteration in ``<run_dir>/run.json``; every later start with the same
run_dir continues from the newest ``checkpoints_refine/iter_NNNN.pt``
(``--resume-from`` is then not read), up to the first start's iteration +
``iterations``. An iteration cut short is run again from its start, reusing
its self-play directory when that was complete.
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional, TextIO, Union

import numpy as np
import torch
import torch.nn.functional as F

from manaka._atomic import json_text, write_json_atomically
from manaka.train import checkpoint
from manaka.train.config import ConfigError, RefineConfig, SearchConfig, config_to_dict
from manaka.train.network import PolicyValueNet
from manaka.train.pretrain import resolve_device
from manaka.train.trainer import Trainer

__all__ = ["RefineResult", "Evaluator", "refine", "make_evaluator", "search_options", "self_play",
           "write_selfplay", "visit_policy_loss", "latest_checkpoint", "checkpoint_path", "selfplay_dir"]

PathLike = Union[str, os.PathLike]
# planes int8 (B, 20, 8, 8) -> (policy logits (B, 4672), value (B,)): what the search calls.
Evaluator = Callable[[np.ndarray], tuple[Any, Any]]

_CHECKPOINT_NAME = re.compile(r"iter_(\d{4,})\.pt")


@dataclass
class RefineResult:
    first_iteration: int             # the first iteration this call ran (last_iteration + 1 when none)
    last_iteration: int              # the iteration of the newest checkpoint
    checkpoint: Optional[str]        # its path (None when no iteration has completed)
    history: list[dict] = field(default_factory=list)  # the iteration lines of this call


def selfplay_dir(run_dir: PathLike, iteration: int) -> Path:
    return Path(run_dir) / "selfplay" / f"iter_{iteration:04d}"


def checkpoint_path(run_dir: PathLike, iteration: int) -> Path:
    return Path(run_dir) / "checkpoints_refine" / f"iter_{iteration:04d}.pt"


def latest_checkpoint(run_dir: PathLike) -> Optional[Path]:
    """The ``checkpoints_refine/iter_NNNN.pt`` with the highest N, or None."""
    folder = Path(run_dir) / "checkpoints_refine"
    if not folder.is_dir():
        return None
    found = [(int(m.group(1)), p) for p in folder.iterdir() if (m := _CHECKPOINT_NAME.fullmatch(p.name))]
    return max(found)[1] if found else None


def _remove_stale_temporaries(folder: Path) -> None:
    """The ``*.tmp-<pid>`` left in ``folder`` by a process that no longer exists (core/temporary.h's rule)."""
    if folder.is_dir():
        from manaka._core import files

        files.remove_stale_temporaries(str(folder))


def search_options(search: SearchConfig, seed: int) -> Any:
    """``manaka.search.SearchOptions`` from the config's search table."""
    from manaka import search as msearch

    o = msearch.SearchOptions()
    o.simulations = search.simulations
    o.c_puct = search.c_puct
    o.dirichlet_alpha = search.dirichlet_alpha
    o.dirichlet_epsilon = search.dirichlet_epsilon
    o.temperature = search.temperature
    o.temperature_plies = search.temperature_plies
    o.batch_size = search.batch_size
    o.threads = search.threads
    o.exact_batches = search.exact_batches
    o.seed = seed % 2**64
    return o


def make_evaluator(net: torch.nn.Module, device: torch.device) -> Evaluator:
    """The network as the search's ``evaluate`` (``manaka.search.torch_evaluator``: eval mode, no
    gradients, float32 on ``device``)."""
    from manaka import search as msearch

    return msearch.torch_evaluator(net, device)


def self_play(evaluate: Evaluator, games: int, options: Any, *, max_plies: int, opening_plies: int,
              progress: bool = False) -> dict:
    """``manaka.search.chess_self_play``: the dict of arrays over every position of every game
    (``progress``: its live line on stderr)."""
    from manaka import search as msearch

    return msearch.chess_self_play(evaluate, games, options, max_plies=max_plies, opening_plies=opening_plies,
                                   progress=progress)


def write_selfplay(played: dict, out_dir: PathLike, shard_positions: int, meta: dict) -> dict:
    """The games as ``shard_NNNNNN.npz`` with visits and a ``selfplay.json`` in ``out_dir``, complete or absent.

    Written by the library (selfplay/chess_selfplay_set.h) under a temporary name and renamed; returns
    selfplay.json's content (``meta``'s fields first).
    """
    from manaka._core import search as _search

    return dict(json.loads(_search.write_chess_selfplay(str(out_dir), played, shard_positions, json_text(meta))))


def visit_policy_loss(logits: torch.Tensor, value: torch.Tensor, target: torch.Tensor,
                      outcomes: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(loss, policy_ce, value_mse)``: cross-entropy against the visit distribution + MSE on z."""
    policy_ce = -(target * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
    value_mse = F.mse_loss(value, outcomes)
    return policy_ce + value_mse, policy_ce, value_mse


class _Lines:
    """Progress lines on a stream (None: silent), at most one every ``interval`` seconds for periodic ones."""

    def __init__(self, stream: Optional[TextIO], interval: float) -> None:
        self.stream = stream
        self.interval = interval
        self.last = time.monotonic()

    def say(self, text: str) -> None:
        if self.stream is not None:
            self.stream.write(f"refine: {text}\n")
            self.stream.flush()
        self.last = time.monotonic()

    def maybe(self, text: Callable[[], str]) -> None:
        if self.stream is not None and time.monotonic() - self.last >= self.interval:
            self.say(text())


def _read_run(run_dir: Path) -> Optional[dict]:
    path = run_dir / "run.json"
    return json.loads(path.read_text()) if path.exists() else None


def _write_run(run_dir: Path, info: dict) -> None:
    run_dir.mkdir(parents=True, exist_ok=True)
    write_json_atomically(run_dir / "run.json", info, indent=1)


def _window_shards(run_dir: Path, iteration: int, window: int) -> tuple[list[Path], list[int]]:
    from manaka import chess

    shards: list[Path] = []
    used: list[int] = []
    for it in range(max(1, iteration - window + 1), iteration + 1):
        folder = selfplay_dir(run_dir, it)
        if folder.is_dir():
            found = chess.list_shards(folder)
            shards += found
            if found:
                used.append(it)
    return shards, used


def _train_candidate(net: PolicyValueNet, optimizer: torch.optim.Optimizer, shards: list[Path],
                     config: RefineConfig, device: torch.device, iteration: int, lines: _Lines,
                     metrics: Optional[TextIO]) -> dict:
    from manaka import chess

    net.train()
    started = time.monotonic()
    sums = torch.zeros(3, device=device)  # loss, policy CE, value MSE, each x batch (read at the end)
    window_sums = torch.zeros(3, device=device)
    n = window_n = steps = 0
    window_t = started
    for epoch in range(config.epochs_per_iteration):
        seed = (config.seed * 1_000_003 + iteration * 1_009 + epoch) % 2**63
        for states, moves, outcomes, target in chess.iter_batches(shards, config.batch_size, device, True,
                                                                 seed=seed, window=max(1, len(shards)),
                                                                 policy_targets=True):
            del moves  # the played move: the visit distribution is the target here
            logits, value = net(states)
            loss, policy_ce, value_mse = visit_policy_loss(logits, value, target, outcomes)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if config.optimizer.grad_clip > 0:
                torch.nn.utils.clip_grad_norm_(net.parameters(), config.optimizer.grad_clip)
            optimizer.step()
            b = int(outcomes.shape[0])
            terms = torch.stack([loss, policy_ce, value_mse]).detach() * b
            sums += terms
            window_sums += terms
            n += b
            window_n += b
            steps += 1
            lines.maybe(lambda: f"iteration {iteration}: training step {steps}, epoch "
                                f"{epoch + 1}/{config.epochs_per_iteration}, loss {float(loss):.4f}")
            if metrics is not None and steps % config.log_every == 0:
                now = time.monotonic()
                mean_loss, mean_ce, mean_mse = (window_sums / window_n).tolist()
                metrics.write(json_text({"kind": "train", "iteration": iteration, "step": steps, "loss": mean_loss,
                                          "policy_ce": mean_ce, "value_mse": mean_mse,
                                          "samples_per_s": window_n / max(1e-9, now - window_t)}) + "\n")
                metrics.flush()
                window_sums.zero_()
                window_n, window_t = 0, now
    if n == 0:
        raise ValueError(f"iteration {iteration}: the self-play window holds no positions")
    loss_mean, ce_mean, mse_mean = (sums / n).tolist()
    seconds = time.monotonic() - started
    return {"steps": steps, "positions": n, "loss": loss_mean, "policy_ce": ce_mean, "value_mse": mse_mean,
            "seconds": seconds, "samples_per_s": n / max(1e-9, seconds)}


def _start(config: RefineConfig, resume_from: Optional[PathLike], device: torch.device,
           lines: _Lines) -> tuple[Trainer, int, str]:
    """The trainer to continue from, the iteration the run ends at, and where the trainer came from."""
    run_dir = Path(config.run_dir)
    latest = latest_checkpoint(run_dir)
    run = _read_run(run_dir)
    if latest is not None:
        if run is None:
            raise FileNotFoundError(f"{run_dir / 'run.json'} is missing beside {latest}: cannot tell where the "
                                    "run started (restore it, or use a new run_dir)")
        trainer = Trainer.load_from_checkpoint(latest, device, candidate=True)
        if resume_from is not None:
            lines.say(f"resuming from {latest} (the run's newest checkpoint; --resume-from is not read)")
        else:
            lines.say(f"resuming from {latest}")
        return trainer, int(run["base_iteration"]) + config.iterations, os.fspath(latest)
    if resume_from is None:
        raise FileNotFoundError(f"no checkpoint in {run_dir / 'checkpoints_refine'} to continue from: give "
                                "--resume-from (pretrained.pt)")
    if not Path(resume_from).is_file():
        raise FileNotFoundError(f"--resume-from {os.fspath(resume_from)!r}: no such file")
    trainer = Trainer.load_from_checkpoint(resume_from, device)
    _write_run(run_dir, {"base_iteration": trainer.iteration, "resume_from": os.path.abspath(resume_from),
                         "iterations": config.iterations})
    return trainer, trainer.iteration + config.iterations, os.fspath(resume_from)


def refine(config: RefineConfig, resume_from: Optional[PathLike] = None, *,
           progress: Optional[TextIO] = sys.stderr, evaluator: Callable[..., Evaluator] = make_evaluator,
           play: Callable[..., dict] = self_play) -> RefineResult:
    """Run the refinement loop (the module's docstring) until the run's last iteration; see ``RefineResult``.

    ``evaluator(net, device)`` and ``play(evaluate, games, options, max_plies=, opening_plies=, progress=)``
    are the network-to-search adapter and the self-play (``manaka.search``); tests may stand in for them.
    """
    run_dir = Path(config.run_dir)
    device = resolve_device(config.device)
    if config.torch_threads > 0:
        torch.set_num_threads(config.torch_threads)
    lines = _Lines(progress, config.progress_seconds)
    trainer, last, source = _start(config, resume_from, device, lines)
    if trainer.config.model != config.model:
        raise ConfigError(f"the config's [model] {config.model} is not the network of {source} "
                          f"({trainer.config.model})")
    first = trainer.iteration + 1
    result = RefineResult(first, trainer.iteration, source if trainer.iteration > 0 else None)
    if first > last:
        lines.say(f"nothing to do: {source} is iteration {trainer.iteration}, the run ends at {last}")
        return result

    best, candidate = trainer.best_net.to(device), trainer.candidate_net.to(device)
    optimizer = torch.optim.AdamW(candidate.parameters(), lr=config.optimizer.lr,
                                  weight_decay=config.optimizer.weight_decay)
    if trainer.optimizer_state:
        try:
            optimizer.load_state_dict(trainer.optimizer_state)
        except (ValueError, KeyError) as e:
            lines.say(f"the checkpoint's optimizer state does not fit ({e}); starting AdamW afresh")
    for group in optimizer.param_groups:  # the config's rates, whatever the checkpoint's were
        group["lr"] = config.optimizer.lr
        group["weight_decay"] = config.optimizer.weight_decay
    config_dict = config_to_dict(config)
    _remove_stale_temporaries(run_dir / "selfplay")
    _remove_stale_temporaries(run_dir / "checkpoints_refine")

    metrics = None
    if config.metrics:
        path = Path(config.metrics)
        path = path if path.is_absolute() else run_dir / path
        path.parent.mkdir(parents=True, exist_ok=True)
        metrics = open(path, "a")
    params = sum(p.numel() for p in candidate.parameters())
    lines.say(f"{params:,} parameters ({config.model.blocks} blocks x {config.model.channels} channels) on "
              f"{device}; iterations {first}..{last}, {config.games_per_iteration} games x "
              f"{config.search.simulations} simulations each, run directory {run_dir}")
    try:
        for it in range(first, last + 1):
            started = time.monotonic()
            torch.manual_seed((config.seed * 1_000_003 + it) % 2**63)
            sp_dir = selfplay_dir(run_dir, it)
            if sp_dir.is_dir():
                sp = json.loads((sp_dir / "selfplay.json").read_text())
                lines.say(f"iteration {it}: self-play already complete in {sp_dir} ({sp['games']} games), reused")
            else:
                games = config.games_per_iteration
                lines.say(f"iteration {it}: self-play of {games} games, {config.search.simulations} simulations "
                          "a move")
                sp_started = time.monotonic()
                options = search_options(config.search, config.seed * 1_000_003 + it)
                live = bool(progress is not None and getattr(progress, "isatty", lambda: False)())
                played = play(evaluator(best, device), games, options, max_plies=config.max_plies,
                              opening_plies=config.opening_plies, progress=live)
                seconds = time.monotonic() - sp_started
                stats = {k: v for k, v in dict(played.get("stats") or {}).items()
                         if isinstance(v, (int, float, str, bool))}
                sp = write_selfplay(played, sp_dir, config.shard_positions,
                                    {"iteration": it, "seconds": seconds, "search": config_dict["search"],
                                     "max_plies": config.max_plies, "opening_plies": config.opening_plies,
                                     "search_stats": stats})
                line = {"kind": "selfplay", "iteration": it, "games": sp["games"], "positions": sp["positions"],
                        "results": sp["results"], "seconds": seconds,
                        "positions_per_s": sp["positions"] / max(1e-9, seconds), "search_stats": stats}
                if metrics is not None:
                    metrics.write(json_text(line) + "\n")
                    metrics.flush()
                r = sp["results"]
                lines.say(f"iteration {it}: self-play {sp['games']} games, {sp['positions']:,} positions in "
                          f"{seconds:.1f} s (1-0 {r['1-0']}, 1/2-1/2 {r['1/2-1/2']}, 0-1 {r['0-1']})")
            shards, used = _window_shards(run_dir, it, config.window)
            t = _train_candidate(candidate, optimizer, shards, config, device, it, lines, metrics)
            copied = it % config.copy_every == 0
            if copied:
                best.load_state_dict(candidate.state_dict())
            out = checkpoint_path(run_dir, it)
            checkpoint.save_atomic(checkpoint.refine_checkpoint(config_dict, it, best.state_dict(),
                                                                candidate.state_dict(), optimizer.state_dict(),
                                                                trainer.pretrain_epoch), out)
            line = {"kind": "iteration", "iteration": it, "window": used, "train_positions": t["positions"],
                    "steps": t["steps"], "loss": t["loss"], "policy_ce": t["policy_ce"],
                    "value_mse": t["value_mse"], "samples_per_s": t["samples_per_s"], "copied": copied,
                    "checkpoint": os.fspath(out), "seconds": time.monotonic() - started}
            result.history.append(line)
            result.last_iteration, result.checkpoint = it, os.fspath(out)
            if metrics is not None:
                metrics.write(json_text(line) + "\n")
                metrics.flush()
            passes = config.epochs_per_iteration
            lines.say(f"iteration {it}: trained on {t['positions'] // passes:,} positions of iteration(s) "
                      f"{used[0]}..{used[-1]}, {passes} pass(es), {t['steps']} steps: loss {t['loss']:.4f} (policy CE "
                      f"{t['policy_ce']:.4f}, value MSE {t['value_mse']:.4f}), {t['samples_per_s']:,.0f} samples/s; "
                      f"{'best_net <- candidate; ' if copied else ''}wrote {out}")
    finally:
        if metrics is not None:
            metrics.close()
    return result
