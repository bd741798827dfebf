"""Parquet shards: packing MPK1 streams into them, and reading them back.

A shard row is a folded position: ``packed`` (96 bytes), ``ply``,
``value_z``, ``value_q``, ``weight`` and ``candidates`` (mv, prob, cp).
Reading hands each row group over as numpy columns decoded in C++;
candidates are flat arrays, row ``i`` owning ``cand_offsets[i]:cand_offsets[i+1]``.

value_z, value_q and cp come in the side to move's view whatever the
footer's ``pov``: a shard packed from a pov-1 stream (Black's view, footer
``pov`` ``"1"``) has them negated in the rows where White moves.

Validation data is a separate set of shards (a directory), never a split of
these: pass it as its own ``source``.
"""

from __future__ import annotations

import glob
import json
import os
import random
from dataclasses import dataclass
from typing import Iterator, Optional, Sequence, Union

import numpy as np

from manaka._core._checks import at_least as _at_least
from manaka._core._checks import seed as _seed
from manaka._core.shards import _ShardReader, _ShardStream, _validate_json, check_sets, inspect, pack
from manaka._core.shards import overlap as _overlap
from manaka.stream import _paths

__all__ = ["ShardBatch", "ShardFile", "list_shards", "iter_batches", "pack", "inspect", "validate", "overlap",
           "check_sets", "NULL_CP"]

NULL_CP = -32768  # cp of self-play rows, which carry none (null in the file)

Source = Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]]


@dataclass
class ShardBatch:
    """One row group. Columns not asked for are None."""

    packed: Optional[np.ndarray] = None        # (N, 96) uint8
    ply: Optional[np.ndarray] = None           # (N,) uint16
    value_z: Optional[np.ndarray] = None       # (N,) float32, side to move's view
    value_q: Optional[np.ndarray] = None       # (N,) float32
    weight: Optional[np.ndarray] = None        # (N,) uint32, records folded into the row
    cand_offsets: Optional[np.ndarray] = None  # (N + 1,) int64
    mv: Optional[np.ndarray] = None            # (C,) uint16 move16
    prob: Optional[np.ndarray] = None          # (C,) float32, sums to 1 per row
    cp: Optional[np.ndarray] = None            # (C,) int16, NULL_CP where null

    def __len__(self) -> int:
        for col in (self.ply, self.value_z, self.value_q, self.weight, self.packed):
            if col is not None:
                return len(col)
        return len(self.cand_offsets) - 1 if self.cand_offsets is not None else 0


class ShardFile:
    """One shard: its footer metadata and its row groups.

    One ShardFile may be read from several threads at once (the GIL is
    released while a row group is read): reads of one file take turns in
    the parquet reader, reads of different files run in parallel."""

    def __init__(self, path: Union[str, os.PathLike]) -> None:
        self._reader = _ShardReader.open(os.fspath(path))

    path = property(lambda self: self._reader.path)
    num_rows = property(lambda self: self._reader.num_rows)
    num_row_groups = property(lambda self: self._reader.num_row_groups)
    metadata = property(lambda self: self._reader.footer, doc="The footer's key-value pairs.")

    def read_row_group(self, group: int, columns: Optional[Sequence[str]] = None) -> ShardBatch:
        return ShardBatch(**self._reader.read_row_group(group, list(columns) if columns else None))

    def batches(self, columns: Optional[Sequence[str]] = None) -> Iterator[ShardBatch]:
        for g in range(self.num_row_groups):
            yield self.read_row_group(g, columns)


def list_shards(source: Source, *, require_complete: bool = True) -> list[str]:
    """The shard paths of a directory (every *.parquet), a glob, or a list of paths.

    The files must make whole shard sets (``check_sets``): files of one prefix
    from two pack runs are refused, and so is a set missing shards unless
    ``require_complete`` is False (reading a chosen few shards on purpose).
    """
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        if os.path.isdir(path):
            found = sorted(glob.glob(os.path.join(path, "*.parquet")))
        elif any(c in path for c in "*?["):
            found = sorted(glob.glob(path))
        else:
            found = [path]
    else:
        found = [os.fspath(p) for p in source]
    if not found:
        raise FileNotFoundError(f"no shards in {source!r}")
    check_sets(found, require_complete)
    return found


def epoch_order(paths: Sequence[str], seed: int, epoch: int) -> list[str]:
    """The shards in this epoch's order: a fresh permutation per (seed, epoch)."""
    seed, epoch = _seed(seed), _at_least(epoch, "epoch", 0)
    order = list(paths)
    random.Random(seed * 1_000_003 + epoch).shuffle(order)
    return order


def iter_batches(source: Source, *, epoch: int = 0, seed: int = 0, shuffle: bool = True,
                 columns: Optional[Sequence[str]] = None,
                 require_complete: bool = True, threads: Optional[int] = None) -> Iterator[ShardBatch]:
    """Every row group of every shard, shard order reshuffled per epoch.

    Rows inside a shard were already shuffled by ``pack``; reshuffling the
    shard order each epoch keeps epochs from replaying the same sequence.
    ``seed`` (0..2^64 - 1) and ``epoch`` (0 or more) are checked at the call.

    Row groups are decoded ahead of the caller on ``threads`` threads
    (default: the core count), several of one shard at once, and handed out
    in order: the batches are the same for any thread count. Only the
    ``columns`` asked for are decoded. A batch's arrays, once freed, lend
    their memory to later batches (a batch kept is never written into).
    """
    seed, epoch = _seed(seed), _at_least(epoch, "epoch", 0)

    def batches() -> Iterator[ShardBatch]:
        paths = list_shards(source, require_complete=require_complete)
        order = epoch_order(paths, seed, epoch) if shuffle else paths
        reader = _ShardStream.open(order, list(columns) if columns else None, threads)
        while True:
            batch = reader.next()
            if batch is None:
                return
            yield ShardBatch(**batch)
            # Let go of the arrays before decoding on: once the caller drops
            # the batch too, its buffers go back to the reader for later ones.
            del batch

    return batches()


def validate(source: Source) -> dict:
    """Reads every row of whole shard sets back (every column decoded) and
    checks each against the rules ``pack`` writes by: a board ``unpack``
    accepts, value_z and value_q within [-1, 1], weight >= 1, at least one
    candidate, move16s listed once, probabilities >= 0 summing to 1. Returns
    the counts per rule with the first row breaking each (file, row group,
    row); ``rows_broken`` 0 means the set is sound. A damaged page raises
    ``manaka.InvalidDataError`` naming the file and row group."""
    return json.loads(_validate_json(list_shards(source)))


def overlap(train: Source, valid: Source, max_examples: int = 5) -> dict:
    """Validation rows whose board also occurs in training (by the fold's
    board hash), with examples; ``train`` and ``valid`` are each a directory
    of shards, a shard, or a list of them (``manaka shards overlap``)."""
    return _overlap(_paths(train), _paths(valid), max_examples)
