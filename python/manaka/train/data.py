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

import torch

__all__ = ["Batch", "MissingLoaderError", "list_shards", "split_shards", "count_positions", "steps_per_epoch",
           "batches"]

PathLike = Union[str, os.PathLike]
Batch = tuple[torch.Tensor, torch.Tensor, torch.Tensor]  # states f32 (B,20,8,8), moves i64 (B,), outcomes f32 (B,)


class MissingLoaderError(RuntimeError):
    """This build of manaka has no ``manaka.chess.iter_batches``."""


def list_shards(corpus: PathLike) -> list[Path]:
    """The corpus's ``shard_*.npz``, sorted (``manaka.chess.list_shards``); none is an error."""
    from manaka import chess

    root = Path(corpus)
    if not root.is_dir():
        raise FileNotFoundError(f"corpus directory {os.fspath(root)!r} does not exist")
    shards = chess.list_shards(root)
    if not shards:
        raise FileNotFoundError(f"corpus directory {os.fspath(root)!r} has no shard_*.npz")
    return shards


def split_shards(shards: Sequence[Path], val_fraction: float = 0.05) -> tuple[list[Path], list[Path]]:
    """The spec's split (``manaka.chess.split_shards``), refusing a corpus too small to hold any out."""
    from manaka import chess

    n_val = max(1, int(len(shards) * val_fraction))
    if len(shards) <= n_val:
        raise ValueError(f"{len(shards)} shard(s): at least {n_val + 1} are needed to hold {n_val} out for validation")
    train, val = chess.split_shards(list(shards), val_fraction)
    return list(train), list(val)


def count_positions(shards: Sequence[Path]) -> list[int]:
    """Positions in each shard: from the corpus's corpus.json when it lists the shard (manaka chess
    corpus writes one), else from the shard itself through the C++ reader."""
    import json

    from manaka import chess

    listed: dict[str, int] = {}
    for manifest in {Path(p).parent / "corpus.json" for p in shards}:
        if manifest.exists():
            for entry in json.loads(manifest.read_text())["shards"]:
                listed[os.fspath(manifest.parent / entry["file"])] = int(entry["positions"])
    return [listed.get(os.fspath(p)) or int(chess.read_shard(p)[2].shape[0]) for p in shards]


def steps_per_epoch(counts: Sequence[int], batch_size: int) -> int:
    """Batches in an epoch as ``iter_batches`` cuts them: shard by shard, the last of each shorter."""
    return sum(math.ceil(n / batch_size) for n in counts)


def batches(shards: Sequence[Path], batch_size: int, device: torch.device, shuffle: bool,
            seed: int, scores: bool = False) -> Iterable[tuple]:
    """``manaka.chess.iter_batches(shards, batch_size, device, shuffle, seed=seed, scores=scores)``: with
    ``scores``, each batch has a fourth tensor, the engine's scores (float32 (B,))."""
    try:
        from manaka.chess import iter_batches  # type: ignore[attr-defined]
    except ImportError:  # also covers a module without the name
        raise MissingLoaderError(
            "manaka.chess.iter_batches is not in this build (it comes with the npz-shards branch); "
            "pre-training needs it to read the corpus") from None
    return iter_batches(list(shards), batch_size, device, shuffle, seed=seed, scores=scores)
