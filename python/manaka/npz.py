"""npz archives read and written in C++, as numpy's ``np.load`` and
``np.savez_compressed`` / ``np.savez`` see them.

    from manaka import npz
    arrays = npz.load("x.npz")                       # {name: ndarray}, archive order
    npz.save("y.npz", {"a": a, "b": b})              # savez_compressed's bytes
    npz.save("z.npz", {"a": a}, compressed=False)    # savez's

``save`` writes the archive numpy would write for the same arrays (zlib's
default level, numpy's .npy headers, zipfile's records), through a temporary
renamed when complete. ``load`` refuses a damaged or hostile archive with
``manaka.InvalidDataError`` / ``manaka.TruncatedError`` naming the file, the
member and the rule, and checks every member's CRC-32. The dtypes are bool,
int8-64, uint8-64, float32 and float64, little-endian, C order (a Fortran-
ordered array is saved in C order).
"""

from __future__ import annotations

import os
from typing import Mapping, Union

import numpy as np

from manaka._core import npz as _npz

__all__ = ["load", "save"]

PathLike = Union[str, os.PathLike]


def load(path: PathLike) -> dict[str, np.ndarray]:
    """Every array of an npz archive, by name, in archive order (no copies)."""
    out = {}
    for name, descr, shape, data in _npz.load(os.fspath(path)):
        out[name] = data.view(np.dtype(descr)).reshape(shape)
    return out


def save(path: PathLike, arrays: Mapping[str, np.ndarray], *, compressed: bool = True, level: int = -1,
         zip64: bool = False) -> None:
    """Writes ``arrays`` as ``np.savez_compressed(path, **arrays)`` would (``np.savez`` when not compressed).

    ``level`` is zlib's (-1: its default, 6, numpy's). ``zip64=True`` puts
    ZIP64 records in every entry and the end record, as zipfile does only
    for archives past 2 GiB: a way to test other readers on small files.
    """
    items = []
    for name, value in arrays.items():
        a = np.asarray(value)
        if a.dtype.byteorder == ">":
            raise TypeError(f"array {name!r}: big-endian dtype {a.dtype.str!r} (save little-endian)")
        shape = list(a.shape)  # before ascontiguousarray, which makes a scalar (1,)
        flat = np.ascontiguousarray(a).reshape(-1)
        items.append((name, a.dtype.str, shape, flat.view(np.uint8)))
    _npz.save(os.fspath(path), items, compressed, level, zip64)
