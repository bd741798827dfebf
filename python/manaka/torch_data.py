"""PyTorch loading of parquet shards (needs the optional ``torch`` extra).

    from manaka.torch_data import ShardDataset
    ds = ShardDataset("shards/train", seed=1)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=4)
    for epoch in range(10):
        ds.set_epoch(epoch)
        for batch in loader: ...   # dict of tensors, one row group each

Each DataLoader worker reads a disjoint share of the shards (every
``num_workers``-th shard of the epoch's order), so no row is read twice.

Mixed sources, in batches of any size (``manaka.shards.iter_batches``)::

    ds = ShardDataset({"teacher/": 0.7, "selfplay/": 0.3}, batch_size=4096, seed=1)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=4)

Here worker ``i`` of ``k`` makes batches ``i, i + k, ...`` of the epoch and
the DataLoader hands them out in turn, so the loader yields the same batches
in the same order whatever ``num_workers`` is.

Shogi training batches, planes and targets made in C++ (docs/shogi-training.md)::

    from manaka.torch_data import ShogiDataset, shogi_collate
    ds = ShogiDataset("shards/train", batch_size=256, seed=1, value_q_weight=0.5)
    for planes, policy, value, weight in ds: ...   # int8 (B,44,9,9), f32 (B,11259), (B,), (B,)
    # or, from the row groups of your own reader:
    loader = torch.utils.data.DataLoader(ShardDataset("shards/train"), batch_size=None, collate_fn=shogi_collate)
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Optional, Sequence, Union

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from manaka._core._checks import at_least as _at_least
from manaka._core._checks import seed as _seed
from manaka import shogi
from manaka.shards import Mix, ShardBatch, ShardFile, Source, epoch_order, list_shards, open_mixed

__all__ = ["ShardDataset", "ShogiDataset", "shogi_collate", "to_tensors"]

# torch's unsigned 16/32-bit types support few operations; widen them.
_WIDEN = {np.dtype(np.uint16): np.int32, np.dtype(np.uint32): np.int64}


def to_tensors(batch) -> dict[str, torch.Tensor]:
    """A ShardBatch as tensors; uint8, float32, int16 and int64 columns without a copy."""
    out = {}
    for name, col in vars(batch).items():
        if col is None:
            continue
        if col.dtype in _WIDEN:
            col = col.astype(_WIDEN[col.dtype])
        out[name] = torch.from_numpy(col)
    return out


class ShardDataset(IterableDataset):
    """Row groups of a set of shards as dicts of tensors, split across workers;
    or, with ``batch_size``, batches of that many rows, of one source or of
    several mixed by weight (a dict of sources to weights)."""

    def __init__(self, source: Union[Source, Mix], *, seed: int = 0, columns: Optional[Sequence[str]] = None,
                 batch_size: Optional[int] = None, drop_last: bool = False, until: str = "every",
                 threads: Optional[int] = None) -> None:
        super().__init__()
        if isinstance(source, Mapping) and batch_size is None:
            raise TypeError("ShardDataset: mixing sources (a dict of sources to weights) needs batch_size")
        self.source = source
        self.paths = [] if isinstance(source, Mapping) else list_shards(source)
        self.seed = _seed(seed)
        self.columns = list(columns) if columns else None
        self.batch_size = None if batch_size is None else _at_least(batch_size, "batch_size", 1)
        self.mix: dict[str, Any] = {"drop_last": drop_last, "until": until, "threads": threads}
        self.epoch = 0
        if self.batch_size is not None:  # refuse bad sources and weights here, not in a worker
            open_mixed(source, batch_size=self.batch_size, seed=self.seed, columns=self.columns, **self.mix)

    def set_epoch(self, epoch: int) -> None:
        self.epoch = _at_least(epoch, "epoch", 0)

    def __iter__(self) -> Iterator[dict[str, torch.Tensor]]:
        info = get_worker_info()
        if self.batch_size is not None:
            stride, offset = (info.num_workers, info.id) if info is not None else (1, 0)
            stream = open_mixed(self.source, batch_size=self.batch_size, seed=self.seed, epoch=self.epoch,
                                columns=self.columns, stride=stride, offset=offset, **self.mix)
            while (mixed := stream.next()) is not None:
                mixed.pop("index")
                yield to_tensors(ShardBatch(**mixed))
            return
        order = epoch_order(self.paths, self.seed, self.epoch)
        if info is not None:
            order = order[info.id::info.num_workers]
        for path in order:
            for batch in ShardFile(path).batches(self.columns):
                yield to_tensors(batch)


def shogi_collate(batch, *, value_q_weight: float = 0.0, row_weights: bool = False) -> tuple[torch.Tensor, ...]:
    """``(planes, policy, value, weight)`` tensors of one shard batch (a ``ShardBatch``, or the dict of
    tensors ``ShardDataset`` yields), encoded in C++ by ``manaka.shogi.encode_batch``."""
    if isinstance(batch, dict):
        batch = ShardBatch(**{k: v.numpy() for k, v in batch.items()})
        batch.weight = batch.weight.astype(np.uint32) if batch.weight is not None else None
        batch.mv = batch.mv.astype(np.uint16) if batch.mv is not None else None
    return tuple(torch.from_numpy(a) for a in shogi.encode_batch(batch, value_q_weight=value_q_weight,
                                                                  row_weights=row_weights))


class ShogiDataset(IterableDataset):
    """Shogi training batches of ``batch_size`` rows as tensors, ``manaka.shogi.training_batches`` split
    across DataLoader workers by shard (use ``batch_size=None`` in the DataLoader)."""

    def __init__(self, source: Source, *, batch_size: int = 256, seed: int = 0, value_q_weight: float = 0.0,
                 row_weights: bool = False, drop_last: bool = False, threads: Optional[int] = None) -> None:
        super().__init__()
        self.paths = list_shards(source)
        self.batch_size = _at_least(batch_size, "batch_size", 1)
        self.seed = _seed(seed)
        self.options: dict[str, Any] = {"value_q_weight": value_q_weight, "row_weights": row_weights, "drop_last": drop_last,
                        "threads": threads}
        self.epoch = 0

    def set_epoch(self, epoch: int) -> None:
        self.epoch = _at_least(epoch, "epoch", 0)

    def __iter__(self) -> Iterator[tuple[torch.Tensor, ...]]:
        info = get_worker_info()
        order = epoch_order(self.paths, self.seed, self.epoch)
        if info is not None:
            order = order[info.id::info.num_workers]
            if not order:
                return
        for batch in shogi.training_batches(order, batch_size=self.batch_size, shuffle=False,
                                            require_complete=False, **self.options):
            yield tuple(torch.from_numpy(a) for a in batch)
