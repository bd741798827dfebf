"""The pre-training configuration: TOML read into dataclasses (docs/chess-training.md).

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
    "PretrainConfig",
    "load_config",
    "config_from_dict",
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
class PretrainConfig:
    corpus: str = "data/chess_corpus"   # directory of shard_*.npz (the spec's corpus)
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
    model: ModelConfig = field(default_factory=ModelConfig)
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)
    schedule: ScheduleConfig = field(default_factory=ScheduleConfig)


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
    return config


def config_from_dict(data: dict) -> PretrainConfig:
    """A checked ``PretrainConfig`` from a dict (a TOML file's, or a checkpoint's ``config``)."""
    return _check(_build(PretrainConfig, data, ""))


def config_to_dict(config: PretrainConfig) -> dict:
    """The dataclass as a dict: what the checkpoint stores under ``config``."""
    return dataclasses.asdict(config)


def load_config(path: PathLike) -> PretrainConfig:
    """Read a TOML file; missing keys keep their defaults, unknown keys are refused."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{os.fspath(path)}: {e}") from None
    try:
        return config_from_dict(data)
    except ConfigError as e:
        raise ConfigError(f"{os.fspath(path)}: {e}") from None

