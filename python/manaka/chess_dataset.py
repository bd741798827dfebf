"""The chess corpus as a torch ``IterableDataset`` (needs torch; manaka.chess
does not).

    from manaka.chess_dataset import ChessShardDataset
    ds = ChessShardDataset(train_shards, batch_size=256, seed=1)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
    for epoch in range(3):
        ds.set_epoch(epoch)
        for states, move_indices, outcomes in loader: ...

Each item is one batch, as ``manaka.chess.iter_batches`` yields it (float32
states, int64 move indices, float32 outcomes, CPU tensors), so the
DataLoader takes ``batch_size=None``. With workers, each reads every
``num_workers``-th shard of the epoch's shard order, so every row is read
exactly once per epoch across them; each worker also runs the loader's own
background threads. The shard order is reshuffled per epoch when
``shuffle`` (seeded by ``seed`` and the epoch), as the spec suggests doing
between epochs, and rows are shuffled per shard (or per ``window`` shards).
"""

from __future__ import annotations

import os
import random
from typing import Iterator, Sequence, Union

import torch
from torch.utils.data import IterableDataset, get_worker_info

from manaka._core._checks import seed as _seed
from manaka.chess_corpus import iter_batches

__all__ = ["ChessShardDataset"]

PathLike = Union[str, os.PathLike]


class ChessShardDataset(IterableDataset):
    """Batches of the chess corpus's shards, split across DataLoader workers without overlap."""

    def __init__(self, shards: Union[PathLike, Sequence[PathLike]], batch_size: int, *, shuffle: bool = True,
                 seed: int = 0, window: int = 1, prefetch: int = 8) -> None:
        super().__init__()
        if isinstance(shards, (str, os.PathLike)):  # one path, not a sequence of its characters
            shards = [shards]
        self.shards = [os.fspath(p) for p in shards]
        if not self.shards:
            raise ValueError("no shards")
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.seed = _seed(seed)
        self.window = window
        self.prefetch = prefetch
        self.epoch = 0

    def set_epoch(self, epoch: int) -> None:
        self.epoch = epoch

    def shard_order(self) -> list[str]:
        """This epoch's shard order (every worker computes the same)."""
        order = list(self.shards)
        if self.shuffle:
            random.Random(self.seed * 1_000_003 + self.epoch).shuffle(order)
        return order

    def __iter__(self) -> Iterator[tuple[torch.Tensor, torch.Tensor, torch.Tensor]]:
        info = get_worker_info()
        order = self.shard_order()
        worker = 0
        if info is not None:
            worker = info.id
            order = order[info.id::info.num_workers]
        if not order:
            return
        seed = ((self.seed * 1_000_003 + self.epoch) * 1_009 + worker) % 2**64
        yield from iter_batches(order, self.batch_size, "cpu", self.shuffle, seed=seed, window=self.window,
                                prefetch=self.prefetch)
