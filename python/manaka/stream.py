"""MPK1 raw streams: reading as columnar numpy batches, writing, self-play
writing, and importing / exporting other tools' shogi data (docs/import.md).

The format and its validation are C++ (``manaka._core``); a record that
breaks a rule raises :class:`manaka.InvalidDataError` naming the file, the
record index, the byte offset and the rule, and a stream that ends inside a
record raises :class:`manaka.TruncatedError`.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Iterable, Iterator, Optional, Sequence, Union

import numpy as np

from manaka._core.stream import (
    NO_CP,
    NO_VISITS,
    Header,
    SelfPlayWriter,
    Writer,
    _Reader,
    _export,
    _import,
    _inspect_json,
    _split,
    quantize_policy,
    selfplay_header,
    validate,
)
from manaka._core._checks import at_least as _at_least

__all__ = [
    "NO_CP",
    "NO_VISITS",
    "Header",
    "Batch",
    "Reader",
    "read_batches",
    "Writer",
    "SelfPlayWriter",
    "selfplay_header",
    "quantize_policy",
    "validate",
    "inspect",
    "import_from",
    "export_to",
    "split",
]

PathLike = Union[str, "os.PathLike[str]"]


def _path(value: object, name: str = "path") -> str:
    """``value`` as a path (a str or os.PathLike), or TypeError naming ``name``: None or a number is not the
    name of a file."""
    if isinstance(value, (str, os.PathLike)):
        out = os.fspath(value)
        if isinstance(out, str):
            return out
    raise TypeError(f"{name}: must be a str or os.PathLike, not {type(value).__name__} ({value!r})")


def _paths(files: Union[PathLike, Sequence[PathLike]], name: str = "files") -> list:
    if isinstance(files, (str, os.PathLike)):
        return [_path(files, name)]
    if isinstance(files, (bytes, bytearray)) or not isinstance(files, Iterable):
        raise TypeError(f"{name}: must be a path or a list of paths, not {type(files).__name__} ({files!r})")
    return [_path(p, f"{name}[{i}]") for i, p in enumerate(files)]


def import_from(
    format: str,
    files: Union[PathLike, Sequence[PathLike]],
    output: PathLike,
    *,
    eval_coef: float,
    mate_scale: int,
    mate_slack: int = 0,
    strict: bool = False,
    overwrite: bool = False,
    progress: bool = False,
    threads: int = 0,
) -> dict:
    """What ``manaka stream import --from FORMAT`` does: YaneuraOu
    PackedSfenValue (``"psv"``) or dlshogi ``"hcpe"`` / ``"hcpe3"`` files into
    one MPK1 stream at ``output``. Returns the summary: ``positions``,
    ``records_written``, ``refused`` (a count per reason), ``first_refusal``
    (file, where, byte offset and detail per reason), ``header``, ... With
    ``strict`` the first refused position raises :class:`manaka.InvalidDataError`."""
    # Numbers go through unconverted: the native side checks type and range.
    return json.loads(_import(str(format), _paths(files), _path(output, "output"), eval_coef, mate_scale, mate_slack,
                              bool(strict), bool(overwrite), bool(progress), threads))


def export_to(
    format: str,
    inputs: Union[PathLike, Sequence[PathLike]],
    output: PathLike,
    *,
    eval_coef: Optional[float] = None,
    result_threshold: float = 0.5,
    strict: bool = False,
    overwrite: bool = False,
    progress: bool = False,
) -> dict:
    """What ``manaka stream export --to FORMAT`` does: MPK1 streams and shard
    sets (shard files, or directories of them, as ``manaka pack`` wrote them)
    into one ``"psv"`` or ``"hcpe"`` file, each record's best candidate (a
    shard row's most probable move) as its move. ``eval_coef`` turns value_q
    back into a score where an input states none and the move carries no cp;
    value_z above ``result_threshold`` is a win, below its negative a loss,
    a draw between (a shard row's value_z is a mean). Returns the summary as a
    dict (docs/import.md, "Export")."""
    return json.loads(_export(str(format), _paths(inputs, "inputs"), _path(output, "output"), eval_coef, result_threshold,
                              bool(strict), bool(overwrite), bool(progress)))


def split(
    files: Union[PathLike, Sequence[PathLike]],
    train: PathLike,
    validation: PathLike,
    *,
    share: float = 0.05,
    seed: int = 0,
    overwrite: bool = False,
    progress: bool = False,
) -> dict:
    """What ``manaka stream split`` does: the games of MPK1 streams into a
    training stream and a validation stream, each game whole on one side
    (a game is a run of records whose ply rises; each file starts one).
    Exactly ``round(share * games)`` games go to validation, at least one and
    never all, chosen by ``seed``. Pack the two into separate shard
    directories. Returns the summary: ``train`` and ``validation`` with their
    ``path``, ``games``, ``records`` and ``bytes``."""
    return json.loads(_split(_paths(files), _path(train, "train"), _path(validation, "validation"), share, seed,
                             bool(overwrite), bool(progress)))


def inspect(path: Union[str, os.PathLike]) -> dict:
    """What ``manaka stream inspect --json`` prints: the header, record and
    candidate counts, value_z and value_q, ply, visit totals (self-play) and
    boards shared between records."""
    return json.loads(_inspect_json(_path(path)))


@dataclass
class Batch:
    """Records as columns. Record ``i`` owns candidates
    ``cand_offsets[i]:cand_offsets[i + 1]`` of ``mv``, ``visits`` and ``cp``."""

    packed: np.ndarray        # (N, packed_len) uint8
    ply: np.ndarray           # (N,) uint16
    value_z: np.ndarray       # (N,) float32, -1 / 0 / 1 from the side to move
    value_q: np.ndarray       # (N,) float32 in [-1, 1]
    cand_offsets: np.ndarray  # (N + 1,) int64
    mv: np.ndarray            # (C,) uint16 move16
    visits: np.ndarray        # (C,) uint32, NO_VISITS where absent
    cp: np.ndarray            # (C,) int16, NO_CP where absent

    def __len__(self) -> int:
        return len(self.ply)


class Reader:
    """Streams a file in constant memory, validating every record.

    >>> with Reader("games.mpk") as r:
    ...     for batch in r.batches(65536): ...
    """

    def __init__(self, path: PathLike) -> None:
        self._reader: Optional[_Reader] = _Reader.open(_path(path))

    def _open(self) -> _Reader:
        if self._reader is None:
            raise ValueError("the stream reader is closed (its `with` block has ended)")
        return self._reader

    @property
    def header(self) -> Header:
        return self._open().header

    @property
    def records_read(self) -> int:
        return self._open().records_read

    def batches(self, batch_size: int = 65536) -> Iterator[Batch]:
        """Batches of ``batch_size`` records (at least 1; checked here, not at the first batch)."""
        return self._batches(_at_least(batch_size, "batch_size", 1))

    def _batches(self, batch_size: int) -> Iterator[Batch]:
        reader = self._open()
        while (columns := reader.read_batch(batch_size)) is not None:
            yield Batch(**columns)

    def __iter__(self) -> Iterator[Batch]:
        return self.batches()

    def __enter__(self) -> "Reader":
        return self

    def __exit__(self, *exc) -> None:
        self._reader = None


def read_batches(path: PathLike, batch_size: int = 65536) -> Iterator[Batch]:
    """Every record of a stream, ``batch_size`` at a time (at least 1). The
    path and the size are checked at the call; the file is opened at the first batch."""
    path = _path(path)
    batch_size = _at_least(batch_size, "batch_size", 1)

    def batches() -> Iterator[Batch]:
        yield from Reader(path).batches(batch_size)

    return batches()

