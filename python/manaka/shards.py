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

A ``source`` is a shard file, a directory (searched recursively: a
``*.parquet`` below it is taken when it has the shard columns), a glob, or a
list mixing them. ``iter_batches`` also takes a dict of sources to weights,
mixing them at read time.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from typing import Iterator, Mapping, Optional, Sequence, Union, cast

import numpy as np

from manaka._core._checks import at_least as _at_least
from manaka._core._checks import seed as _seed
from manaka._core.shards import (_MixedStream, _ShardReader, _ShardStream, _validate_json, check_sets, find_shards,
                                 inspect, pack)
from manaka._core.shards import overlap as _overlap

__all__ = ["ShardBatch", "ShardFile", "list_shards", "iter_batches", "pack", "inspect", "validate", "overlap",
           "check_sets", "find_shards", "NULL_CP"]

NULL_CP = -32768  # cp of self-play rows, which carry none (null in the file)

Source = Union[str, os.PathLike, Sequence[Union[str, os.PathLike]]]
# Sources to weights, for mixing: {"teacher/": 0.7, "selfplay/": 0.3}.
Mix = Mapping[Union[str, os.PathLike], float]


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
    source: Optional[np.ndarray] = None        # (N,) uint16: each row's source, mixed reads only
    index: Optional[int] = None                # the batch's place in the epoch, batch_size reads only

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


def _source_list(source: Source, what: str = "source") -> list[str]:
    if isinstance(source, (str, os.PathLike)):
        return [os.fspath(source)]
    if isinstance(source, Mapping):
        raise TypeError(f"{what}: a dict of sources to weights mixes them, which only iter_batches and "
                        "ShardDataset do")
    if not isinstance(source, Sequence):
        raise TypeError(f"{what}: a path, a directory, a glob or a list of them, not {type(source).__name__}")
    out = []
    for p in source:
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"{what}: {p!r} is not a path")
        out.append(os.fspath(p))
    return out


def list_shards(source: Source, *, require_complete: bool = True) -> list[str]:
    """The shard files of a source: files as given, directories searched
    recursively (a ``*.parquet`` below is a shard when it has the shard
    columns; others are left out), globs, or a list mixing them (``find_shards``).

    The files must make whole shard sets (``check_sets``): files of one prefix
    from two pack runs are refused, and so is a set missing shards unless
    ``require_complete`` is False (reading a chosen few shards on purpose).
    A source that names nothing raises ``manaka.FileError``; one with no
    shard, ``manaka.InvalidDataError``.
    """
    found, _ = find_shards(_source_list(source))
    check_sets(found, require_complete)
    return found


def epoch_order(paths: Sequence[str], seed: int, epoch: int) -> list[str]:
    """The shards in this epoch's order: a fresh permutation per (seed, epoch)."""
    seed, epoch = _seed(seed), _at_least(epoch, "epoch", 0)
    order = list(paths)
    random.Random(seed * 1_000_003 + epoch).shuffle(order)
    return order


def iter_batches(source: Union[Source, Mix], *, epoch: int = 0, seed: int = 0, shuffle: bool = True,
                 columns: Optional[Sequence[str]] = None,
                 require_complete: bool = True, threads: Optional[int] = None,
                 batch_size: Optional[int] = None, drop_last: bool = False,
                 until: str = "every") -> Iterator[ShardBatch]:
    """Every row group of every shard, shard order reshuffled per epoch; or,
    with ``batch_size``, batches of that many rows whatever the row groups.

    Rows inside a shard were already shuffled by ``pack``; reshuffling the
    shard order each epoch keeps epochs from replaying the same sequence.
    ``seed`` (0..2^64 - 1) and ``epoch`` (0 or more) are checked at the call.

    Row groups are decoded ahead of the caller on ``threads`` threads
    (default: the core count), several of one shard at once, and handed out
    in order: the batches are the same for any thread count. Only the
    ``columns`` asked for are decoded. A batch's arrays, once freed, lend
    their memory to later batches (a batch kept is never written into).

    **Mixing.** ``source`` may be a dict of sources to weights,
    ``{"teacher/": 0.7, "selfplay/": 0.3}`` (``batch_size`` required). Each
    row is drawn from a source with probability proportional to its weight;
    within a source, rows come without replacement: a pass reads every row
    once, in a fresh shard order, before the next pass begins. The epoch ends
    once every source was read whole (``until="every"``: the sources that run
    out sooner start another pass) or once the first source was
    (``until="first"``: no row repeats). ``batch.source`` says each row's
    source (its place in the dict). The last batch is short, or dropped with
    ``drop_last``. The batches depend only on the sources, ``seed``,
    ``epoch`` and ``batch_size``, not on ``threads``.
    """
    seed, epoch = _seed(seed), _at_least(epoch, "epoch", 0)
    if isinstance(source, Mapping) and batch_size is None:
        raise TypeError("iter_batches: mixing sources (a dict of sources to weights) needs batch_size")
    if batch_size is not None:
        stream = open_mixed(source, batch_size=batch_size, seed=seed, epoch=epoch, shuffle=shuffle,
                            columns=columns, require_complete=require_complete, threads=threads,
                            drop_last=drop_last, until=until)
        return _mixed_batches(stream)

    def batches() -> Iterator[ShardBatch]:
        paths = list_shards(cast(Source, source), require_complete=require_complete)
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


def open_mixed(source: Union[Source, Mix], *, batch_size: int, seed: int = 0, epoch: int = 0,
               shuffle: bool = True, columns: Optional[Sequence[str]] = None, require_complete: bool = True,
               threads: Optional[int] = None, drop_last: bool = False, until: str = "every",
               stride: int = 1, offset: int = 0) -> _MixedStream:
    """The native stream behind ``iter_batches(..., batch_size=)``: its
    ``epoch_rows``, ``epoch_batches``, ``source_rows`` (rows the epoch draws
    from each) and ``source_sizes``; ``stride``/``offset`` hand out only
    batches ``offset, offset + stride, ...`` (a DataLoader worker's share)."""
    pairs: list[tuple[Source, float]]
    if isinstance(source, Mapping):
        pairs = list(source.items())
    else:
        pairs = [(cast(Source, source), 1.0)]
    sources = []
    for part, weight in pairs:
        if isinstance(weight, bool) or not isinstance(weight, (int, float)):
            raise TypeError(f"iter_batches: the weight of {part!r} must be a number, not {type(weight).__name__}")
        sources.append((list_shards(part, require_complete=require_complete), float(weight)))
    return _MixedStream.open(sources, batch_size, list(columns) if columns else None, drop_last, until, shuffle,
                             seed, epoch, stride, offset, threads)


def _mixed_batches(stream: _MixedStream) -> Iterator[ShardBatch]:
    while True:
        batch = stream.next()
        if batch is None:
            return
        yield ShardBatch(**batch)


def validate(source: Source) -> dict:
    """Reads every row of whole shard sets back (every column decoded) and
    checks each against the rules ``pack`` writes by: a board ``unpack``
    accepts, value_z and value_q within [-1, 1], weight >= 1, at least one
    candidate, move16s listed once, probabilities >= 0 summing to 1. Returns
    the counts per rule with the first row breaking each (file, row group,
    row); ``rows_broken`` 0 means the set is sound. A damaged page raises
    ``manaka.InvalidDataError`` naming the file and row group."""
    return json.loads(_validate_json(list_shards(source)))


def overlap(train: Source, valid: Source, max_examples: int = 5, opening_plies: int = 16) -> dict:
    """Validation rows whose board also occurs in training (by the fold's
    board hash), with examples; ``train`` and ``valid`` are each sources as
    ``list_shards`` takes (``manaka shards overlap``). Shared rows at a ply
    below ``opening_plies`` (the opening every game passes through) are
    counted apart, as ``opening_rows``; ``beyond_opening_share`` is the share
    of validation rows shared beyond them, the figure to judge a leak by."""
    return _overlap(_source_list(train, "train"), _source_list(valid, "valid"), max_examples, opening_plies)
