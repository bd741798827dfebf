"""The corpus for pre-training: shard lists, the spec's split, and batches.

The batches come from ``manaka.chess.iter_batches`` (the C++ reader of the
npz shards, branch npz-shards); this module only imports it, lazily, and
has no reader of its own: without it ``batches`` raises ``MissingLoaderError``.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Iterable, Sequence, Union

import numpy as np
import torch

__all__ = ["Batch", "MissingLoaderError", "list_shards", "split_shards", "count_positions", "steps_per_epoch",
           "batches"]

PathLike = Union[str, os.PathLike]
Batch = tuple[torch.Tensor, torch.Tensor, torch.Tensor]  # states f32 (B,20,8,8), moves i64 (B,), outcomes f32 (B,)


class MissingLoaderError(RuntimeError):
    """This build of manaka has no ``manaka.chess.iter_batches``."""


def list_shards(corpus: PathLike) -> list[Path]:
    """The corpus's ``shard_*.npz``, sorted; an empty or missing directory is an error."""
    root = Path(corpus)
    if not root.is_dir():
        raise FileNotFoundError(f"corpus directory {os.fspath(root)!r} does not exist")
    shards = sorted(root.glob("shard_*.npz"))
    if not shards:
        raise FileNotFoundError(f"corpus directory {os.fspath(root)!r} has no shard_*.npz")
    return shards


def split_shards(shards: Sequence[Path], val_fraction: float = 0.05) -> tuple[list[Path], list[Path]]:
    """The spec's split: the last ``max(1, int(len(shards) * val_fraction))`` sorted shards validate."""
    shards = sorted(shards)
    n_val = max(1, int(len(shards) * val_fraction))
    if len(shards) <= n_val:
        raise ValueError(f"{len(shards)} shard(s): at least {n_val + 1} are needed to hold {n_val} out for validation")
    return shards[:-n_val], shards[-n_val:]


def count_positions(shards: Sequence[Path]) -> list[int]:
    """Positions in each shard (reads only each shard's ``outcomes`` array)."""
    counts = []
    for path in shards:
        with np.load(path) as data:
            counts.append(int(data["outcomes"].shape[0]))
    return counts


def steps_per_epoch(counts: Sequence[int], batch_size: int) -> int:
    """Batches in an epoch as ``iter_batches`` cuts them: shard by shard, the last of each shorter."""
    return sum(math.ceil(n / batch_size) for n in counts)


def batches(shards: Sequence[Path], batch_size: int, device: torch.device, shuffle: bool,
            seed: int) -> Iterable[Batch]:
    """``manaka.chess.iter_batches(shards, batch_size, device, shuffle, seed=seed)``."""
    try:
        from manaka.chess import iter_batches  # type: ignore[attr-defined]
    except ImportError:  # also covers a module without the name
        raise MissingLoaderError(
            "manaka.chess.iter_batches is not in this build (it comes with the npz-shards branch); "
            "pre-training needs it to read the corpus") from None
    return iter_batches(list(shards), batch_size, device, shuffle, seed=seed)
