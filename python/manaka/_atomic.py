"""A file written whole or not at all: the Python side's one temporary-then-rename; and its JSON, which is
strict (RFC 8259): a float that is not finite (an Elo difference at a score of 0 or 1, a NaN loss) is
written ``null``, never ``Infinity`` / ``NaN``, which strict parsers refuse."""

from __future__ import annotations

import json
import math
import os
from typing import Any, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


def write_text_atomically(path: PathLike, text: str) -> None:
    """``text`` into ``path`` through ``<path>.tmp-<pid>`` renamed when complete; a write that fails (a full
    disk) leaves no temporary behind and whatever ``path`` held before."""
    out = os.fspath(path)
    tmp = f"{out}.tmp-{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def finite_json(obj: Any) -> Any:
    """``obj`` with every float that is not finite (inf, -inf, nan), in dicts, lists and tuples at any
    depth, replaced by None (JSON's null); everything else as it is."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite_json(v) for v in obj]
    return obj


def json_text(obj: Any, indent: Optional[int] = None) -> str:
    """``json.dumps`` of ``finite_json(obj)`` with ``allow_nan=False``: strict JSON, non-finite floats as null
    (a non-finite value this does not reach raises ValueError rather than writing ``Infinity``). Every
    JSON the Python side writes or prints goes through here."""
    return json.dumps(finite_json(obj), indent=indent, allow_nan=False)


def write_json_atomically(path: PathLike, obj: Any, indent: int = 2) -> None:
    """``json_text(obj, indent)`` and a newline into ``path``, whole or not at all."""
    write_text_atomically(path, json_text(obj, indent) + "\n")
