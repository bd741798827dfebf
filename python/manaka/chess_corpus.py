"""The chess corpus's npz shards and the batches a trainer reads from them
(docs/chess-corpus.md; the spec is shared/spec/chess-supervised-pretraining.txt).

A shard is ``shard_NNNNNN.npz``, what ``np.savez_compressed`` writes for
``states`` int8 (N, 20, 8, 8), ``move_indices`` int32 (N,) and ``outcomes``
int8 (N,). A shard of self-play games (``manaka.train.refine``) also holds
the search's visit counts, its policy targets, in CSR form:
``visit_offsets`` int64 (N + 1,), ``visit_indices`` int32 (M,) and
``visit_counts`` int32 (M,), row r's entries being
``[visit_offsets[r], visit_offsets[r + 1])``. Everything here is
re-exported by ``manaka.chess``::

    from manaka import chess
    train_shards, val_shards = chess.split_shards("data/chess_corpus")
    for s, m, z in chess.iter_batches(train_shards, 256, torch.device("cuda"), True):
        ...   # float32 (B, 20, 8, 8), int64 (B,), float32 (B,) on the device

- ``iter_batches`` is the spec's generator, read in C++: shards inflated and
  rows gathered on background threads, batches handed over without copies;
  ``window`` shuffles several shards together, ``seed`` repeats an order.
- ``split_shards`` is the spec's split: the last ``max(1, int(len * 0.05))``
  sorted shards are validation.
- ``write_shard`` / ``read_shard`` write and read one shard, checked;
  ``inspect_shards`` is ``manaka chess shards inspect --json`` as a dict.
- ``manaka.chess_dataset.ChessShardDataset`` is the torch ``IterableDataset``
  over the same (it needs torch; this module does not).
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Iterator, NamedTuple, Optional, Sequence, Union, cast

import numpy as np

from manaka._core import UsageError
from manaka._core import chess_corpus as _cc
from manaka._core._checks import at_least as _at_least
from manaka._core._checks import seed as _seed
from manaka._output import check_outputs

__all__ = [
    "SHARD_POSITIONS",
    "VAL_FRACTION",
    "ShardSplit",
    "shard_name",
    "list_shards",
    "split_shards",
    "write_shard",
    "read_shard",
    "read_scores",
    "score_values",
    "SCORE_MATE",
    "SCORE_MATE_BOUND",
    "SCORE_CP_LIMIT",
    "iter_batches",
    "inspect_shards",
]

SHARD_POSITIONS = _cc.SHARD_POSITIONS  # 10,000: the spec's positions per shard
SCORE_MATE = _cc.SCORE_MATE              # 30000: a mate now; a mate in d plies is SCORE_MATE - d
SCORE_MATE_BOUND = _cc.SCORE_MATE_BOUND  # 29000: |score| at least this is a mate's
SCORE_CP_LIMIT = _cc.SCORE_CP_LIMIT      # 20000: centipawns are clamped to this
VAL_FRACTION = 0.05                    # the spec's share of shards held out

PathLike = Union[str, os.PathLike]


class ShardSplit(NamedTuple):
    train_shards: list[Path]
    val_shards: list[Path]


def shard_name(index: int) -> str:
    """``shard_000042.npz`` for 42: six digits, from 000000."""
    return _cc.shard_file_name(index)


def list_shards(shard_dir: PathLike) -> list[Path]:
    """``sorted(shard_dir.glob("shard_*.npz"))``, as the spec lists a corpus."""
    return [Path(p) for p in _cc.list_shards(os.fspath(shard_dir))]


def split_shards(shards: Union[PathLike, Sequence[PathLike]], val_fraction: float = VAL_FRACTION) -> ShardSplit:
    """The spec's split: ``(train_shards, val_shards)``.

    ``shards`` is a corpus directory or a list of shard paths; they are
    sorted, and the last ``n_val = max(1, int(len(all_shards) * 0.05))`` are
    the validation shards, the rest the training shards. With one shard,
    training gets none (the spec's rule, kept).
    """
    if isinstance(shards, (str, os.PathLike)):
        all_shards = list_shards(shards)
    else:
        all_shards = sorted(Path(p) for p in shards)
    if not all_shards:
        raise FileNotFoundError(f"no shard_*.npz in {shards!r}")
    n_val = max(1, int(len(all_shards) * val_fraction))
    return ShardSplit(all_shards[:-n_val], all_shards[-n_val:])


def _require(name: str, a: np.ndarray, dtype: type) -> np.ndarray:
    a = np.asarray(a)
    if a.dtype != np.dtype(dtype):
        raise TypeError(f"{name} must be {np.dtype(dtype).name}, got {a.dtype.name}")
    return np.ascontiguousarray(a)


def write_shard(path: PathLike, states: np.ndarray, move_indices: np.ndarray, outcomes: np.ndarray, *,
                compressed: bool = True, level: int = -1, visit_offsets: Optional[np.ndarray] = None,
                visit_indices: Optional[np.ndarray] = None, visit_counts: Optional[np.ndarray] = None,
                scores: Optional[np.ndarray] = None, overwrite: bool = False) -> None:
    """Writes one shard, byte for byte what ``np.savez_compressed(path, states=..., move_indices=...,
    outcomes=...)`` writes (``np.savez`` with ``compressed=False``), through a temporary renamed when
    complete. Move indices outside [0, 4672) and outcomes outside {-1, 0, 1} are refused. An existing
    ``path`` is refused (UsageError) unless ``overwrite``; a shard a corpus.json lists, replaced so, is
    named by ``manaka chess shards inspect`` until the corpus is made again.

    The visits (all three or none) follow the other arrays, as ``np.savez_compressed(..., visit_offsets=...,
    visit_indices=..., visit_counts=...)`` writes them; refused unless the offsets run from 0 to M without
    decreasing, the indices are in [0, 4672) and distinct within a row, and every count is at least 1.

    ``scores`` (int16 (N,), last): the engine's score of each position, centipawns from the mover's view
    within ``SCORE_CP_LIMIT``, a mate in d plies ``SCORE_MATE - d`` (negative when mated)."""
    check_outputs({"path": path}, [], overwrite)
    visits = (visit_offsets, visit_indices, visit_counts)
    given = sum(v is not None for v in visits)
    if given not in (0, 3):
        raise ValueError("visit_offsets, visit_indices and visit_counts: give all three or none")
    if visit_offsets is not None and visit_indices is not None and visit_counts is not None:
        visits = (_require("visit_offsets", visit_offsets, np.int64),
                  _require("visit_indices", visit_indices, np.int32), _require("visit_counts", visit_counts, np.int32))
    _cc.write_shard(os.fspath(path), _require("states", states, np.int8),
                    _require("move_indices", move_indices, np.int32), _require("outcomes", outcomes, np.int8),
                    compressed, level, *visits, None if scores is None else _require("scores", scores, np.int16))


def read_scores(path: PathLike) -> Optional[np.ndarray]:
    """The shard's ``scores`` (int16 (N,), ``manaka chess corpus --scores``), or None when it has none."""
    return cast(Optional[np.ndarray], _cc.read_shard_scores(os.fspath(path)))


def score_values(scores, scale: float = 400.0):
    """A shard's scores as values in [-1, 1] for the mover: a mate is +-1, centipawns ``tanh(cp / scale)``.

    Works on numpy arrays and torch tensors alike (``manaka.train`` mixes it into the value target with
    ``value_score_weight``)."""
    if isinstance(scores, np.ndarray):
        s = scores.astype(np.float32)
        return np.where(np.abs(s) >= SCORE_MATE_BOUND, np.sign(s), np.tanh(s / scale)).astype(np.float32)
    import torch

    s = scores.to(torch.float32)
    return torch.where(s.abs() >= SCORE_MATE_BOUND, torch.sign(s), torch.tanh(s / scale))


def read_shard(path: PathLike, *, visits: bool = False) -> tuple:
    """``(states, move_indices, outcomes)`` as stored (int8, int32, int8), every check passed.

    With ``visits``, six arrays: those three, then ``(visit_offsets int64 (N + 1,), visit_indices int32
    (M,), visit_counts int32 (M,))``, or three ``None`` when the shard has no visits."""
    return _cc.read_shard(os.fspath(path), visits)


def inspect_shards(paths: Union[PathLike, Sequence[PathLike]]) -> dict:
    """What ``manaka chess shards inspect --json`` prints: directories stand for their shard_*.npz."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    return json.loads(_cc.summarize([os.fspath(p) for p in paths]))


def _fresh_seed() -> int:
    return secrets.randbits(64)


_MAX_U32 = 2**32 - 1
# Reader threads beyond this are refused as typos, as the bindings' thread counts (src/python/checks.h,
# kMaxThreadsAsked).
_MAX_READERS = 256


def iter_batches(
    shards: Union[PathLike, Sequence[PathLike]],
    batch_size: int,
    device=None,
    shuffle: bool = True,
    *,
    seed: Optional[int] = None,
    window: int = 1,
    prefetch: int = 8,
    readers: int = 2,
    policy_targets: bool = False,
    scores: bool = False,
) -> Iterator[tuple]:
    """The spec's ``iter_batches``: ``(states, move_indices, outcomes)`` batches, shard by shard.

    As the spec's: the shards are read one at a time in the order given, each
    shard's rows in a fresh permutation when ``shuffle`` (in file order
    otherwise), cut into batches of ``batch_size`` (the last of each shard
    shorter), cast on load to float32 states (B, 20, 8, 8), int64 move
    indices (B,) and float32 outcomes (B,). Every row comes out exactly once.

    ``device``: a ``torch.device`` (or its name) gives tensors on it; None
    gives numpy arrays and needs no torch. On a device other than the CPU the
    states travel as int8 and are cast there (a quarter of the transfer; the
    values are the same).

    ``seed``: the same seed and shard list give the same order. None draws
    one: from torch's generator when ``device`` is given (so
    ``torch.manual_seed`` repeats it, as with the spec's ``torch.randperm``),
    from the OS otherwise.

    ``window``: shuffle this many consecutive shards together instead of one
    (batches then never span two windows). It costs memory: up to
    ``3 * window + readers`` shards are held, 1,285 bytes a position (about
    12.9 MB per 10,000-position shard: ~65 MB at window=1, ~180 MB at
    window=4 with 2 readers), plus up to ``2 * prefetch + 2`` batches of
    ``batch_size * 5,132`` bytes (float32 states) not held by the caller.

    ``readers``: threads inflating shards ahead (besides the one cutting
    batches); more help where cores are many and the consumer is fast.

    ``policy_targets``: a fourth array (tensor), float32 (B, 4672), each row
    the position's visit counts divided by their sum (the search's policy,
    the refinement's target), built on the loader's threads. Only shards
    with visits have it: another raises ``manaka.InvalidDataError`` naming
    the shard when the loader reaches it.

    ``scores``: a last array (tensor), float32 (B,), the shard's ``scores`` as stored (centipawns, mates
    near +-``SCORE_MATE``; ``score_values`` turns them into values). Only a corpus made with ``manaka chess
    corpus --scores`` has them: another shard raises ``manaka.InvalidDataError`` naming it.

    ``shards`` is a list of paths; one path (a str or os.PathLike) is one shard. ``batch_size``, ``window``
    and ``prefetch`` (at least 1), ``readers`` (1..256) and ``seed`` (None or 0..2^64 - 1, as
    ``manaka.shards.iter_batches``'s) are checked at the call: a value out of range raises
    ``manaka.UsageError``, one of another type TypeError, each naming the argument.

    A shard that cannot be read raises ``manaka.InvalidDataError`` (or
    ``TruncatedError``, ``FileError``) naming it, after the batches of the
    shards before it.
    """
    if isinstance(shards, (str, os.PathLike)):  # one path, not a sequence of its characters
        shards = [shards]
    paths = []
    for i, p in enumerate(shards):
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"shards[{i}]: must be a str or os.PathLike, not {type(p).__name__} ({p!r})")
        paths.append(os.fspath(p))
    batch_size = _at_least(batch_size, "batch_size", 1)
    window = _count(window, "window", 1, _MAX_U32)
    prefetch = _count(prefetch, "prefetch", 1, _MAX_U32)
    readers = _count(readers, "readers", 1, _MAX_READERS)
    if seed is not None:
        seed = _seed(seed)
    return _batches(paths, batch_size, device, shuffle, seed, window, prefetch, readers, policy_targets, scores)


def _count(value: object, name: str, lo: int, hi: int) -> int:
    v = _at_least(value, name, lo)
    if v > hi:
        raise UsageError(f"{name}: {v} is out of range; give an integer in {lo}..{hi}")
    return v


def _batches(paths: list, batch_size: int, device, shuffle: bool, seed: Optional[int], window: int, prefetch: int,
             readers: int, policy_targets: bool, scores: bool) -> Iterator[tuple]:
    if device is None:
        seed = _fresh_seed() if seed is None else seed
        loader = _cc._BatchLoader(paths, batch_size, shuffle, seed, window, prefetch, False, readers, policy_targets,
                                  scores)
        while (batch := loader.next()) is not None:
            yield cast(tuple, batch)
        return

    import torch  # only when tensors are asked for

    device = torch.device(device)
    if seed is None:
        seed = int(torch.randint(0, 2**62, (), dtype=torch.int64).item())
    on_cpu = device.type == "cpu"
    loader = _cc._BatchLoader(paths, batch_size, shuffle, seed, window, prefetch, not on_cpu, readers,
                              policy_targets, scores)
    while (batch := loader.next()) is not None:
        tensors = [torch.from_numpy(a) for a in cast(tuple, batch)]
        if on_cpu:
            yield tuple(tensors)
        else:
            yield (tensors[0].to(device).to(torch.float32), *(t.to(device) for t in tensors[1:]))
