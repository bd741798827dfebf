"""Reading what more than one kind of input is made of: a directory's parquet
files, JSON lines, and integers as JSON and SQLite hold them."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Generator

from manaka.report.sources.section import InputError


def parquet_files(path: str) -> list[str]:
    """A directory's *.parquet in name order, names starting with . or _ left
    out (as pyarrow and `teacher convert` do); a file is itself."""
    if not os.path.isdir(path):
        return [path]
    return [str(f) for f in sorted(Path(path).glob("*.parquet")) if not f.name.startswith((".", "_"))]


def json_lines(path: str) -> Generator[tuple[int, dict], None, None]:
    """(line number from 1, object) of each non-blank line, read as they are
    asked for; a line that is not UTF-8 or not a JSON object refuses the file."""
    with open(path, "rb") as f:
        for n, raw in enumerate(f, 1):
            if not raw.strip():
                continue
            try:
                value = json.loads(raw.decode("utf-8").rstrip())  # columns count from the line's start
            except UnicodeDecodeError as e:
                raise InputError(f"{path}: line {n}: not UTF-8 text (byte {e.start + 1} of the line)") from e
            except json.JSONDecodeError as e:
                msg = e.msg[:-3] if e.msg.endswith(" at") else e.msg  # "Invalid control character at"
                raise InputError(f"{path}: line {n}: not a JSON object ({msg} at column {e.colno})") from e
            if not isinstance(value, dict):
                raise InputError(f"{path}: line {n}: not a JSON object (a JSON {_json_type(value)})")
            yield n, value


def _json_type(v: Any) -> str:
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array"}.get(type(v), "null")


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def is_int(v: Any) -> bool:
    return type(v) is int and _INT64_MIN <= v <= _INT64_MAX  # a JSON true or 1.0 is not one
