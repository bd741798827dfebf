"""The pre-training and refinement configurations: TOML read into dataclasses (docs/chess-training.md).

Every key has its default here, in the dataclass; a TOML file sets only what
it changes. A key the dataclasses do not have, a table where a value belongs
(or the reverse) and a value of the wrong type are refused with
``ConfigError`` naming the key, e.g. ``model.chanels``. No torch needed.
"""

from __future__ import annotations

import dataclasses
import os
import tomllib
from dataclasses import dataclass, field
from typing import Any, Union

__all__ = [
    "ConfigError",
    "ModelConfig",
    "OptimizerConfig",
    "ScheduleConfig",
    "PlayConfig",
    "PretrainConfig",
    "SearchConfig",
    "RefineConfig",
    "load_config",
    "load_refine_config",
    "config_from_dict",
    "refine_config_from_dict",
    "is_refine_config",
    "config_to_dict",
]

PathLike = Union[str, os.PathLike]


class ConfigError(ValueError):
    """A configuration that cannot be used; the message names the key."""


@dataclass
class ModelConfig:
    blocks: int = 6        # residual blocks in the trunk
    channels: int = 64     # channels of the stem and every block
    value_channels: int = 32   # 1x1 convolution channels of the value head
    value_hidden: int = 256    # hidden units of the value head's fully connected layer


@dataclass
class OptimizerConfig:
    lr: float = 1e-3           # AdamW's peak learning rate
    weight_decay: float = 1e-4  # AdamW's decoupled weight decay
    grad_clip: float = 0.0     # max gradient norm; 0 clips nothing


@dataclass
class ScheduleConfig:
    kind: str = "cosine"          # "cosine" (linear warm-up, then cosine), "onecycle" (torch's OneCycleLR), "constant"
    warmup_fraction: float = 0.02  # share of all steps spent warming up (onecycle: its pct_start)
    min_lr_ratio: float = 0.05    # cosine: the last step's learning rate as a share of lr


@dataclass
class PlayConfig:
    """How the network plays when evaluated (``python -m manaka.eval`` reads it from the checkpoint's config
    when no ``--simulations`` is given): 0 simulations is the raw policy's best move."""
    simulations: int = 0           # search simulations a move; 0: the raw policy
    batch_size: int = 16           # leaves a search gathers a round (a network call)
    c_puct: float = 1.5            # PUCT's exploration constant


@dataclass
class PretrainConfig:
    game: str = "chess"            # "chess" (npz corpus) or "shogi" (parquet shards from manaka pack)
    corpus: str = "data/chess_corpus"   # chess: directory of shard_*.npz; shogi: the training shards
    validation: str = ""           # shogi: the validation shards (a directory, a glob or a file); chess splits
    output: str = "pretrained.pt"       # the checkpoint written (the spec's contract)
    metrics: str = "pretrain-metrics.jsonl"  # JSON lines, one per epoch plus train lines; "" writes none
    seed: int = 0                  # seeds torch and every epoch's shuffle
    device: str = "auto"           # "auto" (cuda, else mps, else cpu) or a torch device name
    epochs: int = 3                # epochs at most (the spec's 3)
    batch_size: int = 256          # positions per step
    patience: int = 1              # epochs without a better validation loss before stopping
    val_fraction: float = 0.05     # the last max(1, int(len(shards) * val_fraction)) sorted shards validate
    log_every: int = 200           # steps between train lines in the metrics file
    progress_seconds: float = 30.0  # seconds between progress lines when stderr is not a terminal
    # The value head's target: (1 - w) * outcome + w * tanh(score / value_score_scale), w this weight; 0 is
    # the spec's outcome alone, above 0 needs a corpus with scores (manaka chess corpus --scores).
    # Shogi: (1 - w) * value_z + w * value_q, the shard's mean result and its teacher's or search's value.
    value_score_weight: float = 0.0
    row_weights: bool = False      # shogi: weigh each row's loss by its weight (the records folded into it)
    value_score_scale: float = 400.0  # centipawns: a score of this is tanh(1) = 0.76 for the mover
    torch_threads: int = 0         # torch's CPU threads (torch.set_num_threads); 0 keeps torch's default
    model: ModelConfig = field(default_factory=ModelConfig)
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)
    play: PlayConfig = field(default_factory=PlayConfig)


@dataclass
class SearchConfig:
    """manaka.search.SearchOptions for self-play (the seed is the run's, per iteration)."""
    simulations: int = 50          # the spec's 50 simulations a move
    c_puct: float = 1.5            # PUCT's exploration constant
    dirichlet_alpha: float = 0.3   # root noise: Dirichlet(alpha) over the legal moves...
    dirichlet_epsilon: float = 0.25  # ...mixed in with this weight
    temperature: float = 1.0       # moves drawn with visits^(1/T) for the first temperature_plies plies
    temperature_plies: int = 30    # then the most visited move
    batch_size: int = 16           # leaves a game's search gathers a round
    threads: int = 1               # games searched at once (a network call: up to threads x batch_size)
    exact_batches: bool = False    # each search round its own call: bytes independent of threads on CPU


@dataclass
class RefineConfig:
    """Phase 3: AlphaZero refinement from pretrained.pt (refine.py)."""
    run_dir: str = "refine-run"    # selfplay/, checkpoints_refine/, run.json, the metrics
    metrics: str = "metrics.jsonl"  # JSON lines, relative to run_dir unless absolute; "" writes none
    seed: int = 0                  # seeds torch, every iteration's self-play and shuffle
    device: str = "auto"           # "auto" (cuda, else mps, else cpu) or a torch device name
    # torch's CPU threads (torch.set_num_threads) for self-play and training; 1 by default, as wherever a
    # network serves the search (manaka.eval.DEFAULT_TORCH_THREADS: its batches are too small to split, and
    # torch's own count collapses on a shared CPU); 0 keeps torch's own count
    torch_threads: int = 1
    iterations: int = 10           # iterations run on from the resumed checkpoint's (the spec's 10)
    games_per_iteration: int = 100  # self-play games per iteration (the spec's 100)
    max_plies: int = 512           # a self-play game longer than this is a draw
    opening_plies: int = 0         # uniformly random plies before the search plays
    shard_positions: int = 10000   # positions per self-play shard
    window: int = 4                # iterations of self-play (the latest) the candidate trains on
    epochs_per_iteration: int = 1  # passes over the window per iteration
    batch_size: int = 256          # positions per training step
    copy_every: int = 1            # candidate -> best every this many iterations (1: always)
    log_every: int = 50            # steps between train lines in the metrics
    progress_seconds: float = 30.0  # seconds between progress lines
    model: ModelConfig = field(default_factory=ModelConfig)  # must be the checkpoint's network
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    search: SearchConfig = field(default_factory=SearchConfig)


_KINDS = ("cosine", "onecycle", "constant")


def _build(cls: type, data: dict, prefix: str) -> Any:
    fields = {f.name: f for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if key not in fields:
            known = ", ".join(fields)
            raise ConfigError(f"unknown key {name!r} (known in this table: {known})")
        default = getattr(cls(), key)
        if dataclasses.is_dataclass(default):
            if not isinstance(value, dict):
                raise ConfigError(f"{name!r} must be a table")
            values[key] = _build(type(default), value, f"{name}.")
            continue
        if isinstance(value, dict):
            raise ConfigError(f"{name!r} must be a value, not a table")
        if isinstance(default, bool) or isinstance(value, bool):
            ok = isinstance(value, bool) and isinstance(default, bool)
        elif isinstance(default, float):
            ok = isinstance(value, (int, float))
            value = float(value) if ok else value
        else:
            ok = isinstance(value, type(default))
        if not ok:
            raise ConfigError(f"{name!r} must be {type(default).__name__}, got {value!r}")
        values[key] = value
    return cls(**values)


def _check(config: PretrainConfig) -> PretrainConfig:
    def at_least(name: str, value: float, low: float) -> None:
        if value < low:
            raise ConfigError(f"{name!r} must be at least {low}, got {value}")

    if config.game not in ("chess", "shogi"):
        raise ConfigError(f"'game' must be chess or shogi, got {config.game!r}")
    if config.game == "shogi" and not config.validation:
        raise ConfigError("'validation' must name the validation shards for shogi (a directory apart from "
                          "the training shards, e.g. shards/val)")
    if config.game == "chess" and config.row_weights:
        raise ConfigError("'row_weights' is for shogi shards; the chess corpus has no row weights")
    at_least("epochs", config.epochs, 1)
    at_least("batch_size", config.batch_size, 1)
    at_least("patience", config.patience, 1)
    at_least("log_every", config.log_every, 1)
    at_least("model.blocks", config.model.blocks, 1)
    at_least("model.channels", config.model.channels, 1)
    at_least("model.value_channels", config.model.value_channels, 1)
    at_least("model.value_hidden", config.model.value_hidden, 1)
    at_least("optimizer.weight_decay", config.optimizer.weight_decay, 0)
    at_least("optimizer.grad_clip", config.optimizer.grad_clip, 0)
    if not config.optimizer.lr > 0:
        raise ConfigError(f"'optimizer.lr' must be positive, got {config.optimizer.lr}")
    if not 0 < config.val_fraction < 1:
        raise ConfigError(f"'val_fraction' must be in (0, 1), got {config.val_fraction}")
    if not 0 <= config.schedule.warmup_fraction < 1:
        raise ConfigError(f"'schedule.warmup_fraction' must be in [0, 1), got {config.schedule.warmup_fraction}")
    if not 0 <= config.schedule.min_lr_ratio <= 1:
        raise ConfigError(f"'schedule.min_lr_ratio' must be in [0, 1], got {config.schedule.min_lr_ratio}")
    if config.schedule.kind not in _KINDS:
        raise ConfigError(f"'schedule.kind' must be one of {', '.join(_KINDS)}, got {config.schedule.kind!r}")
    if not 0 <= config.value_score_weight <= 1:
        raise ConfigError(f"'value_score_weight' must be in [0, 1], got {config.value_score_weight}")
    if not config.value_score_scale > 0:
        raise ConfigError(f"'value_score_scale' must be positive, got {config.value_score_scale}")
    at_least("torch_threads", config.torch_threads, 0)
    at_least("play.simulations", config.play.simulations, 0)
    at_least("play.batch_size", config.play.batch_size, 1)
    if not config.play.c_puct > 0:
        raise ConfigError(f"'play.c_puct' must be positive, got {config.play.c_puct}")
    return config


def _at_least(name: str, value: float, low: float) -> None:
    if value < low:
        raise ConfigError(f"{name!r} must be at least {low}, got {value}")


def _check_refine(config: RefineConfig) -> RefineConfig:
    for name in ("iterations", "games_per_iteration", "max_plies", "shard_positions", "window",
                 "epochs_per_iteration", "batch_size", "copy_every", "log_every"):
        _at_least(name, getattr(config, name), 1)
    _at_least("opening_plies", config.opening_plies, 0)
    _at_least("torch_threads", config.torch_threads, 0)
    for name in ("blocks", "channels", "value_channels", "value_hidden"):
        _at_least(f"model.{name}", getattr(config.model, name), 1)
    _at_least("optimizer.weight_decay", config.optimizer.weight_decay, 0)
    _at_least("optimizer.grad_clip", config.optimizer.grad_clip, 0)
    if not config.optimizer.lr > 0:
        raise ConfigError(f"'optimizer.lr' must be positive, got {config.optimizer.lr}")
    s = config.search
    for name in ("simulations", "batch_size", "threads"):
        _at_least(f"search.{name}", getattr(s, name), 1)
    _at_least("search.temperature_plies", s.temperature_plies, 0)
    _at_least("search.temperature", s.temperature, 0)
    if not s.c_puct > 0:
        raise ConfigError(f"'search.c_puct' must be positive, got {s.c_puct}")
    if not s.dirichlet_alpha > 0:
        raise ConfigError(f"'search.dirichlet_alpha' must be positive, got {s.dirichlet_alpha}")
    if not 0 <= s.dirichlet_epsilon <= 1:
        raise ConfigError(f"'search.dirichlet_epsilon' must be in [0, 1], got {s.dirichlet_epsilon}")
    return config


def refine_config_from_dict(data: dict) -> RefineConfig:
    """A checked ``RefineConfig`` from a dict (a TOML file's, or a refinement checkpoint's ``config``)."""
    return _check_refine(_build(RefineConfig, data, ""))


def is_refine_config(data: dict) -> bool:
    """Whether a checkpoint's ``config`` dict is a refinement's (it has a search table) or pre-training's."""
    return "search" in data


def config_from_dict(data: dict) -> PretrainConfig:
    """A checked ``PretrainConfig`` from a dict (a TOML file's, or a checkpoint's ``config``)."""
    return _check(_build(PretrainConfig, data, ""))


def config_to_dict(config: Union[PretrainConfig, RefineConfig]) -> dict:
    """The dataclass as a dict: what the checkpoint stores under ``config``."""
    return dataclasses.asdict(config)


def _read_toml(path: PathLike) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{os.fspath(path)}: {e}") from None


def load_config(path: PathLike) -> PretrainConfig:
    """Read a TOML file; missing keys keep their defaults, unknown keys are refused."""
    data = _read_toml(path)
    try:
        return config_from_dict(data)
    except ConfigError as e:
        raise ConfigError(f"{os.fspath(path)}: {e}") from None


def load_refine_config(path: PathLike) -> RefineConfig:
    """A refinement's TOML file, read as ``load_config`` reads pre-training's."""
    data = _read_toml(path)
    try:
        return refine_config_from_dict(data)
    except ConfigError as e:
        raise ConfigError(f"{os.fspath(path)}: {e}") from None

