"""Phase 2: supervised pre-training on the npz corpus, writing ``pretrained.pt``.

``fit`` is the loop, over any source of batches: a function from the epoch
(0-based) to an iterable of ``(states f32 (B,20,8,8), moves i64 (B,),
outcomes f32 (B,))`` for chess, of ``(planes i8 (B,44,9,9), policy f32
(B,11259), value f32 (B,), weight f32 (B,))`` for shogi. ``pretrain`` is the
command's: for chess it lists the corpus's shards, holds the spec's
validation shards out, and feeds ``fit`` from ``manaka.chess.iter_batches``
(``manaka.train.data.batches``); for shogi it reads the parquet shards of
``corpus`` and ``validation`` through ``manaka.shogi.training_batches``
(planes and targets made in C++), after checking both sets' footer
conventions (docs/shogi-training.md).

Per step: loss = policy cross-entropy (on the played move for chess, against
the candidates' distribution for shogi) + value MSE on the value target
(shogi: each row weighted by its weight when ``row_weights``), AdamW, the
learning-rate schedule. Per epoch: validation (policy
top-1 accuracy, policy CE, value MSE, their sum as the validation loss), early
stopping after ``patience`` epochs without a lower validation loss,
``pretrained.pt`` (best weights) and the resume state, one JSON line in the
metrics file. Progress goes to stderr: a live line on a terminal, a line
every ``progress_seconds`` otherwise.

Repeatability: ``seed`` seeds torch before the network is built and fixes
every epoch's shuffle (a function of seed and epoch), so two CPU runs with
the same seed, data and thread count give the same weights, and a resumed
run gives what the uninterrupted run gives. GPU kernels are not forced
deterministic (cost), so GPU runs agree only closely.
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence, TextIO

import torch

from manaka._atomic import json_text
from manaka._output import PathLike, check_outputs
from manaka.train import checkpoint, data
from manaka.train.config import PretrainConfig, ScheduleConfig, config_to_dict
from manaka.train.network import PolicyValueNet, count_parameters

__all__ = ["BatchSource", "PretrainResult", "resolve_device", "epoch_seed", "make_schedule", "evaluate", "fit",
           "pretrain"]

BatchSource = Callable[[int], Iterable[data.Batch]]

# Keys that may differ between an interrupted run and its resumption.
_RESUMABLE_CHANGES = {"corpus", "validation", "output", "metrics", "device", "log_every", "progress_seconds", "torch_threads",
                      "play"}

# A batch's value target from the batch (states, moves, outcomes[, scores]).
ValueTarget = Callable[[tuple], torch.Tensor]


def value_target(config: PretrainConfig) -> ValueTarget:
    """The value head's target: the outcome, or with ``value_score_weight`` w > 0 the mix
    ``(1 - w) * outcome + w * score_values(scores, value_score_scale)`` (the batch's fourth tensor)."""
    w, scale = config.value_score_weight, config.value_score_scale
    if w == 0 or config.game == "shogi":  # shogi's batches carry the blend, made in C++
        return lambda batch: batch[2]
    from manaka.chess_corpus import score_values

    def target(batch: tuple) -> torch.Tensor:
        if len(batch) < 4:
            raise ValueError("value_score_weight > 0 needs batches with scores (a corpus made with "
                             "`manaka chess corpus --scores`)")
        return (1 - w) * batch[2] + w * score_values(batch[3], scale)

    return target


@dataclass
class PretrainResult:
    epochs_completed: int
    best_epoch: int            # 1-based epoch of best_net
    best_val_loss: float
    stopped_early: bool
    parameters: int
    history: list[dict] = field(default_factory=list)  # the epoch lines of this run (and of a resumed one's past)
    data: dict = field(default_factory=dict)  # shogi: both sets' conventions and rows, and their overlap


def overlap_summary(overlap: dict) -> dict:
    """``shards.overlap``'s counts for a summary (its examples hold packed bytes, which JSON cannot)."""
    return {k: overlap[k] for k in ("shared_rows", "valid_rows", "share", "opening_rows", "beyond_opening_share")}


def _soft_cross_entropy(logits: torch.Tensor, policy: torch.Tensor) -> torch.Tensor:
    """Per row: -sum(policy * log_softmax(logits)), the target a distribution (shogi's candidates)."""
    return -(policy * torch.log_softmax(logits, dim=1)).sum(1)


def _row_terms(net: PolicyValueNet, batch: tuple) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(value (B,), policy CE per row (B,), correct per row (B,) bool)`` of one batch on the net's device.

    chess: ``(states, moves, ...)``, CE on the played move; shogi:
    ``(planes, policy, ...)``, CE against the candidates' distribution.
    ``correct``: the top logit is the target's top move.
    """
    logits, value = net(batch[0].float())
    if batch[1].dim() == 1:
        moves = batch[1]
        return value, torch.nn.functional.cross_entropy(logits, moves, reduction="none"), logits.argmax(1) == moves
    return value, _soft_cross_entropy(logits, batch[1]), logits.argmax(1) == batch[1].argmax(1)


def _batch_terms(net: PolicyValueNet, batch: tuple,
                 target: ValueTarget) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, int]:
    """``(loss, policy_ce, value_mse, rows)`` of one training batch: means over its rows, weighted by the
    shogi batch's ``weight`` (all ones unless ``row_weights``; chess rows weigh 1)."""
    value, ce, _ = _row_terms(net, batch)
    se = (value - target(batch)) ** 2
    if batch[1].dim() == 1:
        policy_ce, value_mse = ce.mean(), se.mean()
    else:
        weight = batch[3]
        total = weight.sum().clamp_min(1e-12)
        policy_ce, value_mse = (ce * weight).sum() / total, (se * weight).sum() / total
    return policy_ce + value_mse, policy_ce, value_mse, int(value.shape[0])


def resolve_device(name: str) -> torch.device:
    """``"auto"``: cuda when available, else mps, else cpu; anything else as torch reads it."""
    if name == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda")
        if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
            return torch.device("mps")
        return torch.device("cpu")
    return torch.device(name)


def epoch_seed(seed: int, epoch: int) -> int:
    """The shuffle seed of an epoch: fixed by the run's seed, whatever ran before."""
    return (seed * 1_000_003 + epoch) % 2**63


def make_schedule(optimizer: torch.optim.Optimizer, schedule: ScheduleConfig,
                  total_steps: int) -> torch.optim.lr_scheduler.LRScheduler:
    total_steps = max(1, total_steps)
    if schedule.kind == "onecycle":
        lr = optimizer.param_groups[0]["lr"]
        return torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=lr, total_steps=total_steps + 1,
                                                   pct_start=max(schedule.warmup_fraction, 1e-6))
    warmup = int(total_steps * schedule.warmup_fraction)
    floor = schedule.min_lr_ratio

    def factor(step: int) -> float:
        if warmup and step < warmup:
            return (step + 1) / warmup
        if schedule.kind == "constant":
            return 1.0
        progress = min(1.0, (step - warmup) / max(1, total_steps - warmup))
        return floor + (1 - floor) * 0.5 * (1 + math.cos(math.pi * progress))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, factor)


@torch.no_grad()
def evaluate(net: PolicyValueNet, batches: Iterable[tuple], device: torch.device,
             target: Optional[ValueTarget] = None) -> dict:
    """``{"positions", "policy_ce", "value_mse", "outcome_mse", "top1", "loss"}`` over the batches, in eval
    mode: ``value_mse`` against ``target`` (the outcome by default), ``outcome_mse`` against the outcome
    (chess; shogi batches carry their value target alone, so ``outcome_mse`` is absent). Every row counts
    once: shogi's row weights shape training, not the validation figures."""
    was_training = net.training
    net.eval()
    n = 0
    dtype = torch.float32 if device.type == "mps" else torch.float64  # mps has no float64
    sums = torch.zeros(4, device=device, dtype=dtype)  # CE, squared errors, outcome's, correct; read once
    chess = True
    for batch in batches:
        batch = tuple(t.to(device) for t in batch)
        value, ce, correct = _row_terms(net, batch)
        goal = batch[2] if target is None else target(batch)
        chess = chess and batch[1].dim() == 1
        outcome_se = ((value - batch[2]) ** 2).sum() if chess else torch.zeros((), device=device)
        sums += torch.stack([ce.sum().to(dtype), ((value - goal) ** 2).sum().to(dtype), outcome_se.to(dtype),
                             correct.sum().to(dtype)])
        n += int(value.shape[0])
    ce, mse, outcome_mse, correct = sums.tolist()
    net.train(was_training)
    if n == 0:
        raise ValueError("the validation data yielded no positions")
    out = {"positions": n, "policy_ce": ce / n, "value_mse": mse / n, "top1": correct / n}
    if chess:
        out["outcome_mse"] = outcome_mse / n
    out["loss"] = out["policy_ce"] + out["value_mse"]
    return out


class _Progress:
    """Steps, samples/s and ETA on a stream: live on a terminal, periodic lines otherwise."""

    def __init__(self, stream: Optional[TextIO], total_steps: int, done_steps: int, interval: float) -> None:
        self.stream = stream
        self.live = bool(stream is not None and getattr(stream, "isatty", lambda: False)())
        self.interval = 0.5 if self.live else interval
        self.total = total_steps
        self.start_step = done_steps
        self.start = self.last = time.monotonic()
        self.samples = 0
        self.dirty = False

    def step(self, epoch: int, epochs: int, step: int, batch: int, loss: torch.Tensor) -> None:
        self.samples += batch
        now = time.monotonic()
        if self.stream is None or now - self.last < self.interval:
            return
        self.last = now
        elapsed = now - self.start
        rate = self.samples / elapsed if elapsed > 0 else 0.0
        per_step = elapsed / max(1, step - self.start_step)
        eta = max(0, self.total - step) * per_step
        line = (f"pretrain: epoch {epoch + 1}/{epochs} step {step}/{self.total} loss {float(loss):.4f} "
                f"{rate:,.0f} samples/s ETA {_duration(eta)}")
        if self.live:
            self.stream.write("\r" + line + "\x1b[K")
            self.dirty = True
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def message(self, text: str) -> None:
        if self.stream is None:
            return
        if self.dirty:
            self.stream.write("\r\x1b[K")
            self.dirty = False
        self.stream.write(text + "\n")
        self.stream.flush()


def _duration(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"


def _cpu_state(net: torch.nn.Module) -> dict:
    return {k: v.detach().to("cpu", copy=True) for k, v in net.state_dict().items()}


def _comparable(config: dict) -> dict:
    # Through the dataclass, so that a key added since (with its default) compares equal.
    from manaka.train.config import config_from_dict

    full = config_to_dict(config_from_dict(config))
    return {k: v for k, v in full.items() if k not in _RESUMABLE_CHANGES}


def fit(
    config: PretrainConfig,
    train: BatchSource,
    val: BatchSource,
    *,
    steps_per_epoch: int,
    resume: bool = False,
    overwrite: bool = False,
    progress: Optional[TextIO] = sys.stderr,
) -> PretrainResult:
    """Train ``config.epochs`` epochs at most, writing ``config.output`` after each.

    ``steps_per_epoch`` sizes the schedule and the ETA. ``resume``: continue
    from ``<output>.resume.pt`` at the epoch after its last completed one
    (a finished run resumed returns at once). Otherwise an existing output or
    resume state is refused unless ``overwrite`` (the project's output
    policy); it is replaced only when the first epoch completes.
    """
    output = Path(config.output)
    state_path = checkpoint.resume_path(output)
    config_dict = config_to_dict(config)
    device = resolve_device(config.device)

    if config.torch_threads > 0:
        torch.set_num_threads(config.torch_threads)
    target = value_target(config)
    torch.manual_seed(config.seed)
    net = PolicyValueNet(config.model, config.game).to(device)
    optimizer = torch.optim.AdamW(net.parameters(), lr=config.optimizer.lr,
                                  weight_decay=config.optimizer.weight_decay)
    total_steps = steps_per_epoch * config.epochs
    scheduler = make_schedule(optimizer, config.schedule, total_steps)
    params = count_parameters(net)

    first_epoch, step, best_val, best_epoch, bad = 0, 0, math.inf, 0, 0
    best_state: Optional[dict] = None
    history: list[dict] = []
    if resume:
        if not state_path.exists():
            raise FileNotFoundError(f"nothing to resume: {state_path} does not exist")
        st = checkpoint.load(state_path)
        if _comparable(st["config"]) != _comparable(config_dict):
            before = _comparable(st["config"])
            changed = sorted(k for k, v in _comparable(config_dict).items() if before.get(k) != v)
            raise ValueError(f"cannot resume {state_path}: the configuration differs in {', '.join(changed)}")
        net.load_state_dict(st["net"])
        optimizer.load_state_dict(st["optimizer"])
        scheduler.load_state_dict(st["scheduler"])
        torch.set_rng_state(st["rng"])
        first_epoch, step, best_val, best_epoch, bad = (st["epoch"], st["step"], st["best_val"], st["best_epoch"],
                                                        st["bad_epochs"])
        best_state, history = st["best_net"], list(st["history"])
        if st["done"]:
            return PretrainResult(first_epoch, best_epoch, best_val, st["stopped_early"], params, history)
    elif (output.exists() or state_path.exists() or (config.metrics and Path(config.metrics).exists())) \
            and not overwrite:
        raise FileExistsError(f"{output} (or its resume state or metrics) exists: pass --resume to continue that "
                              "run, or --overwrite to start over")

    metrics = None
    if config.metrics:
        Path(config.metrics).parent.mkdir(parents=True, exist_ok=True)
        metrics = open(config.metrics, "a" if resume else "w")
    bar = _Progress(progress, total_steps, step, config.progress_seconds)
    bar.message(f"pretrain: {params:,} parameters ({config.model.blocks} blocks x {config.model.channels} "
                f"channels) on {device}, {steps_per_epoch} steps/epoch, epochs {first_epoch + 1}..{config.epochs}")
    stopped_early = False
    try:
        for epoch in range(first_epoch, config.epochs):
            net.train()
            started = time.monotonic()
            # Sums stay on the device; they are read (a device sync) only when a line is written.
            window_sums = torch.zeros(3, device=device)  # loss, policy CE, value MSE, each x batch
            window_n, window_t = 0, started
            epoch_sum = torch.zeros((), device=device)
            epoch_n = 0
            for batch_on_host in train(epoch):
                batch = tuple(t.to(device, non_blocking=True) for t in batch_on_host)
                loss, policy_ce, value_mse, b = _batch_terms(net, batch, target)
                optimizer.zero_grad(set_to_none=True)
                loss.backward()
                if config.optimizer.grad_clip > 0:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), config.optimizer.grad_clip)
                optimizer.step()
                if scheduler.last_epoch < total_steps:
                    scheduler.step()
                step += 1
                terms = torch.stack([loss, policy_ce, value_mse]).detach()
                window_sums += terms * b
                epoch_sum += terms[0] * b
                window_n += b
                epoch_n += b
                bar.step(epoch, config.epochs, step, b, terms[0])
                if metrics is not None and step % config.log_every == 0:
                    now = time.monotonic()
                    mean_loss, mean_ce, mean_mse = (window_sums / window_n).tolist()
                    metrics.write(json_text({
                        "kind": "train", "epoch": epoch + 1, "step": step, "loss": mean_loss, "policy_ce": mean_ce,
                        "value_mse": mean_mse, "lr": optimizer.param_groups[0]["lr"],
                        "samples_per_s": window_n / max(1e-9, now - window_t)}) + "\n")
                    metrics.flush()
                    window_sums.zero_()
                    window_n, window_t = 0, now
            if epoch_n == 0:
                raise ValueError(f"epoch {epoch + 1}: the training data yielded no positions")
            train_seconds = time.monotonic() - started
            v = evaluate(net, val(epoch), device, target)
            improved = v["loss"] < best_val
            if improved:
                best_val, best_epoch, bad = v["loss"], epoch + 1, 0
                best_state = _cpu_state(net)
            else:
                bad += 1
            stopped_early = bad >= config.patience and epoch + 1 < config.epochs
            done = stopped_early or epoch + 1 == config.epochs
            line = {"kind": "epoch", "epoch": epoch + 1, "step": step, "train_loss": float(epoch_sum) / epoch_n,
                    "val_loss": v["loss"], "val_policy_ce": v["policy_ce"], "val_value_mse": v["value_mse"],
                    "val_outcome_mse": v.get("outcome_mse"), "val_top1": v["top1"], "val_positions": v["positions"],
                    "best_epoch": best_epoch,
                    "improved": improved, "samples_per_s": epoch_n / max(1e-9, train_seconds),
                    "seconds": time.monotonic() - started}
            history.append(line)
            assert best_state is not None
            checkpoint.save_atomic(checkpoint.pretrained_checkpoint(config_dict, best_state,
                                                                    optimizer.state_dict(), epoch + 1), output)
            checkpoint.save_atomic({
                "config": config_dict, "epoch": epoch + 1, "step": step, "net": _cpu_state(net),
                "optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict(),
                "rng": torch.get_rng_state(), "best_net": best_state, "best_val": best_val,
                "best_epoch": best_epoch, "bad_epochs": bad, "history": history, "done": done,
                "stopped_early": stopped_early}, state_path)
            if metrics is not None:
                metrics.write(json_text(line) + "\n")
                metrics.flush()
            bar.message(f"pretrain: epoch {epoch + 1}: train loss {line['train_loss']:.4f}, val loss "
                        f"{v['loss']:.4f} (policy CE {v['policy_ce']:.4f}, value MSE {v['value_mse']:.4f}, "
                        f"top-1 {v['top1']:.3f}){' best' if improved else ''}, "
                        f"{line['samples_per_s']:,.0f} samples/s")
            if stopped_early:
                bar.message(f"pretrain: stopping early, no better validation loss for {bad} epoch(s)")
                break
    finally:
        if metrics is not None:
            metrics.close()
    return PretrainResult(len(history) and history[-1]["epoch"], best_epoch, best_val, stopped_early, params,
                          history)


def pretrain(
    config: PretrainConfig,
    *,
    resume: bool = False,
    overwrite: bool = False,
    batches: Callable[..., Iterable[data.Batch]] = data.batches,
    progress: Optional[TextIO] = sys.stderr,
    inputs: Sequence[PathLike] = (),
) -> PretrainResult:
    """Pre-train on ``config.corpus``: the spec's split, ``batches`` (default ``iter_batches``) as the reader.

    The output, its resume state and the metrics are never one of the
    corpus's shards or ``inputs`` (other files the run reads: its config),
    ``overwrite`` or not.

    ``batches(shards, batch_size, device, shuffle, seed)`` is called once per
    epoch for the training shards (shuffled, seed from ``epoch_seed``) and
    once for the validation shards (in order); with ``value_score_weight``
    above 0 also ``scores=True``, and its batches then carry the scores fourth.
    """
    if config.game == "shogi":
        return _pretrain_shogi(config, resume=resume, overwrite=overwrite, progress=progress, inputs=inputs)
    shards = data.list_shards(config.corpus)
    output = Path(config.output)
    check_outputs({"output": output, "resume state": checkpoint.resume_path(output), "metrics": config.metrics},
                  [*shards, *inputs, Path(config.corpus) / "corpus.json"], overwrite=True)
    train_shards, val_shards = data.split_shards(shards, config.val_fraction)
    steps = data.steps_per_epoch(data.count_positions(train_shards), config.batch_size)
    device = resolve_device(config.device)
    if progress is not None:
        progress.write(f"pretrain: {len(train_shards)} training shard(s), {len(val_shards)} validation shard(s) "
                       f"in {config.corpus}\n")

    # The value target needs the scores (value_target); a reader is asked for them only then, so one
    # of the five-argument contract serves every other config.
    extra = {"scores": True} if config.value_score_weight > 0 else {}

    def train(epoch: int) -> Iterable[data.Batch]:
        return batches(train_shards, config.batch_size, device, True, epoch_seed(config.seed, epoch), **extra)

    def val(epoch: int) -> Iterable[data.Batch]:
        return batches(val_shards, config.batch_size, device, False, 0, **extra)

    return fit(config, train, val, steps_per_epoch=steps, resume=resume, overwrite=overwrite,
               progress=progress)



def _shogi_tensors(batches: Iterable[tuple]) -> Iterable[tuple]:
    for batch in batches:
        yield tuple(torch.from_numpy(a) for a in batch)


def _pretrain_shogi(config: PretrainConfig, *, resume: bool, overwrite: bool, progress: Optional[TextIO],
                    inputs: Sequence[PathLike]) -> PretrainResult:
    """Shogi: the shards of ``corpus`` train and those of ``validation`` validate; both sets' footers must
    state one set of conventions (``manaka.shogi.training_conventions``), checked before the first step."""
    from manaka import shards, shogi
    from manaka._core import training

    train_paths = shards.list_shards(config.corpus)
    val_paths = shards.list_shards(config.validation)
    output = Path(config.output)
    check_outputs({"output": output, "resume state": checkpoint.resume_path(output), "metrics": config.metrics},
                  [*train_paths, *val_paths, *inputs], overwrite=True)
    train_conv, val_conv = training.check_conventions(train_paths, val_paths)
    if set(map(os.path.realpath, train_paths)) & set(map(os.path.realpath, val_paths)):
        raise ValueError(f"{config.corpus} and {config.validation} share shards: validation must be apart")
    shared = shards.overlap(train_paths, val_paths, 3)
    steps = math.ceil(train_conv["rows"] / config.batch_size)
    if progress is not None:
        progress.write(f"pretrain: {len(train_paths)} training shard(s), {train_conv['rows']:,} rows in "
                       f"{config.corpus}; {len(val_paths)} validation shard(s), {val_conv['rows']:,} rows in "
                       f"{config.validation} (policy_source {train_conv['policy_source']}, temperature "
                       f"{train_conv['temperature']}, eval_coef {train_conv['eval_coef']}); "
                       f"{shared['shared_rows']:,} validation rows share a board with training\n")
    options: dict[str, Any] = {"batch_size": config.batch_size, "value_q_weight": config.value_score_weight,
                               "row_weights": config.row_weights}

    def train(epoch: int) -> Iterable[tuple]:
        return _shogi_tensors(shogi.training_batches(train_paths, epoch=epoch, seed=config.seed, **options))

    def val(epoch: int) -> Iterable[tuple]:
        return _shogi_tensors(shogi.training_batches(val_paths, shuffle=False, **options))

    result = fit(config, train, val, steps_per_epoch=steps, resume=resume, overwrite=overwrite, progress=progress)
    from manaka.train.value_sign import value_sign_agreement

    net = PolicyValueNet(config.model, "shogi")
    net.load_state_dict(checkpoint.load(output)["best_net"])
    sign = value_sign_agreement(net.to(resolve_device(config.device)), val_paths,
                                device=resolve_device(config.device))
    if progress is not None and sign["agree"] is not None:
        progress.write(f"pretrain: the best network's value has the sign of value_q on {sign['agree']:.3f} of "
                       f"{sign['rows']:,} validation rows with |value_q| >= {sign['min_abs']} (Black to move "
                       f"{sign['black']['agree'] or 0:.3f}, White {sign['white']['agree'] or 0:.3f})\n")
    result.data = {"train": train_conv, "validation": val_conv, "overlap": shared, "value_sign": sign}
    return result
