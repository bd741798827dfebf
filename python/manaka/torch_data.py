"""PyTorch loading of parquet shards (needs the optional ``torch`` extra).

    from manaka.torch_data import ShardDataset
    ds = ShardDataset("shards/train", seed=1)
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=4)
    for epoch in range(10):
        ds.set_epoch(epoch)
        for batch in loader: ...   # dict of tensors, one row group each

Each DataLoader worker reads a disjoint share of the shards (every
``num_workers``-th shard of the epoch's order), so no row is read twice.
"""

from __future__ import annotations

from typing import Iterator, Optional, Sequence

import numpy as np
import torch
from torch.utils.data import IterableDataset, get_worker_info

from manaka._core._checks import at_least as _at_least
from manaka._core._checks import seed as _seed
from manaka.shards import ShardFile, Source, epoch_order, list_shards

__all__ = ["ShardDataset", "to_tensors"]

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
    """Row groups of a set of shards as dicts of tensors, split across workers."""

    def __init__(self, source: Source, *, seed: int = 0, columns: Optional[Sequence[str]] = None) -> None:
        super().__init__()
        self.paths = list_shards(source)
        self.seed = _seed(seed)
        self.columns = list(columns) if columns else None
        self.epoch = 0

    def set_epoch(self, epoch: int) -> None:
        self.epoch = _at_least(epoch, "epoch", 0)

    def __iter__(self) -> Iterator[dict[str, torch.Tensor]]:
        info = get_worker_info()
        order = epoch_order(self.paths, self.seed, self.epoch)
        if info is not None:
            order = order[info.id::info.num_workers]
        for path in order:
            for batch in ShardFile(path).batches(self.columns):
                yield to_tensors(batch)
