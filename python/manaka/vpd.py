"""VPD1 position datasets read from Python (docs/vpd1.md; the spec is
shared/spec/vpd1-position-dataset.md)::

    from manaka import vpd
    f = vpd.open("positions.vpd")
    len(f)                        # rows
    f.row(1)                      # one row as a dict of the spec's columns
    cols = f.sample(1000, seed=3) # rows drawn through random_key, as `manaka vpd sample --seed 3`
    for batch in f.iter_batches(4096):
        planes = vpd.encode_planes(batch["fen"])   # int8 (B, 20, 8, 8)

A batch is a dict of numpy columns under the spec's names: ``fen``,
``source_split`` (None where NULL), ``source_member`` and ``result`` as
object arrays of str, the rest int64 (``id``, ``random_key``,
``game_number``) or int32. ``encode_planes`` gives the chess corpus's 20
planes (docs/chess-corpus.md); a row has no game history, so the
repetition plane is all zeros.

``PositionDataset`` is a map-style torch dataset (torch is imported only
when it is used): item i is row id i + 1 as tensors.
"""

from __future__ import annotations

import os
from typing import Any, Iterator, Union

import numpy as np

from manaka._core import vpd as _vpd

__all__ = ["VpdFile", "open", "encode_planes", "PositionDataset", "TEXT_COLUMNS", "COLUMNS"]

PathLike = Union[str, "os.PathLike[str]"]

# The spec's columns in its order; the text ones come back as object arrays.
COLUMNS = ("id", "random_key", "fen", "source_split", "source_member", "game_number", "ply", "result",
           "side_to_move", "phase", "piece_count", "non_pawn_material", "material_balance", "legal_moves",
           "in_check", "castling_mask", "halfmove_clock")
TEXT_COLUMNS = ("fen", "source_split", "source_member", "result")

Columns = dict[str, np.ndarray]


def _columns(raw: dict[str, Any]) -> Columns:
    out: Columns = {}
    for name in COLUMNS:
        value = raw[name]
        if name in TEXT_COLUMNS:
            array = np.empty(len(value), dtype=object)
            array[:] = value
            out[name] = array
        else:
            out[name] = value
    return out


class VpdFile:
    """A complete VPD1 file, read-only. Errors are manaka.Error (ValueError) naming the file."""

    def __init__(self, path: PathLike) -> None:
        self._file = _vpd.File(os.fspath(path))

    @property
    def path(self) -> str:
        return str(self._file.path)

    def __len__(self) -> int:
        return len(self._file)

    def metadata(self, key: str) -> str:
        """The metadata value of key, '' when absent."""
        return str(self._file.metadata(key))

    def row(self, id: int) -> dict[str, Any]:
        """The row with this id (1 to len) as a dict of plain Python values."""
        cols = _columns(self._file.read_ids([int(id)]))
        return {name: (v[0].item() if isinstance(v[0], np.generic) else v[0]) for name, v in cols.items()}

    def rows(self, ids: Any) -> Columns:
        """The rows of ids, in that order, as columns."""
        return _columns(self._file.read_ids([int(i) for i in np.asarray(ids, dtype=np.int64).ravel()]))

    def sample_ids(self, n: int, seed: int) -> np.ndarray:
        """n ids drawn through the indexed random_key with the spec's wraparound (a key above the
        largest takes the smallest); the draws of ``manaka vpd sample --seed``. Repeats are possible."""
        return np.asarray(self._file.sample_ids(n, seed))

    def sample(self, n: int, seed: int) -> Columns:
        """The rows of sample_ids(n, seed), in draw order."""
        return self.rows(self.sample_ids(n, seed))

    def iter_batches(self, batch_size: int, start_id: int = 1) -> Iterator[Columns]:
        """Every row from start_id on, in id order, batch_size rows at a time (the last batch may be short)."""
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, not {batch_size}")
        first = start_id
        while True:
            batch = _columns(self._file.read_range(first, batch_size))
            if len(batch["id"]) == 0:
                return
            yield batch
            first = int(batch["id"][-1]) + 1

    def encode_planes(self, batch: Columns) -> np.ndarray:
        """int8 (B, 20, 8, 8) planes of a batch's FENs."""
        return encode_planes(batch["fen"])


def open(path: PathLike) -> VpdFile:  # noqa: A001 - the module's verb, as gzip.open
    """Opens a VPD1 file read-only."""
    return VpdFile(path)


def encode_planes(fens: Any) -> np.ndarray:
    """int8 (N, 20, 8, 8): the chess corpus's input planes of each FEN (repetition plane 0)."""
    return np.asarray(_vpd.encode_planes([str(f) for f in fens]))


# python-chess's result tokens, as White's score; '*' is NaN.
_WHITE_SCORE = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}


class PositionDataset:
    """A map-style torch dataset over a VPD1 file (torch is imported when items are read).

    Item i is row id i + 1 as a dict of tensors: ``planes`` float32 (20, 8, 8), ``id``,
    ``phase`` (int64) and ``outcome`` (float32, the game result from the side to move's view:
    1 win, 0 draw, -1 loss, NaN for '*'). ``__getitems__`` reads a DataLoader batch in one
    query. The file is opened lazily in each process, so DataLoader workers can share it.
    """

    def __init__(self, path: PathLike) -> None:
        self.path = os.fspath(path)
        self._file: VpdFile | None = None
        self._len = len(VpdFile(self.path))

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "_file": None, "_len": self._len}

    def _open(self) -> VpdFile:
        if self._file is None:
            self._file = VpdFile(self.path)
        return self._file

    def __len__(self) -> int:
        return self._len

    def __getitems__(self, indices: list[int]) -> list[dict[str, Any]]:
        import torch

        for i in indices:
            if not 0 <= i < self._len:
                raise IndexError(f"index {i} out of range for {self._len} rows")
        cols = self._open().rows(np.asarray(indices, dtype=np.int64) + 1)
        planes = torch.from_numpy(encode_planes(cols["fen"])).float()
        items = []
        for k in range(len(indices)):
            white = _WHITE_SCORE.get(str(cols["result"][k]), float("nan"))
            mover = white if int(cols["side_to_move"][k]) == 1 else -white
            items.append({"planes": planes[k], "id": torch.tensor(int(cols["id"][k])),
                          "phase": torch.tensor(int(cols["phase"][k])),
                          "outcome": torch.tensor(mover + 0.0, dtype=torch.float32)})
        return items

    def __getitem__(self, index: int) -> dict[str, Any]:
        return self.__getitems__([index])[0]
