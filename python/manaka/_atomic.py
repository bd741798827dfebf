"""A file written whole or not at all: the Python side's one temporary-then-rename."""

from __future__ import annotations

import json
import os
from typing import Any, Union

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


def write_json_atomically(path: PathLike, obj: Any, indent: int = 2) -> None:
    write_text_atomically(path, json.dumps(obj, indent=indent) + "\n")
