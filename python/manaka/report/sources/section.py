"""What a reader of an input makes (a Section, with the rows it left out
counted as Skipped) and how it refuses a file (InputError: one line naming
the file, where in it and the rule it breaks)."""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass, field

import pyarrow as pa

import manaka
from manaka.report.figures import Figure


class InputError(ValueError):
    """An input the report refuses: one line naming the file, where in it
    (line, row, row group, record, byte) and the rule it breaks."""


@dataclass
class Skipped:
    """Rows of one input left out of its figures for one reason."""

    reason: str      # teacher convert's name where it has one (missing_value, out_of_range, ...)
    text: str        # what the reason means
    count: int = 0
    first: str = ""  # the first one: "<path>: <where>: <rule>"
    unit: str = "rows"


@dataclass
class Section:
    title: str
    path: str
    kind: str
    summary: list[tuple[str, str]] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    boards: list[str] = field(default_factory=list)  # SVG text
    notes: list[str] = field(default_factory=list)
    skipped: dict[str, Skipped] = field(default_factory=dict)  # by reason, in the order first met
    alarms: list[str] = field(default_factory=list)  # what the reader of the figures must know

    def skip(self, reason: str, text: str, first: str, unit: str = "rows") -> None:
        s = self.skipped.setdefault(reason, Skipped(reason, text, 0, first, unit))
        s.count += 1

    @property
    def rows_skipped(self) -> int:
        return sum(s.count for s in self.skipped.values())


def with_path(path: str, message: str) -> str:
    """A library's message, led by the input's path unless it names it (or a file in it) already."""
    return message if message.startswith(path) else f"{path}: {message}"


def error_reason(e: BaseException) -> str:
    """A reader's error as a rule broken, without the path: the OS's reason
    ("Permission denied", not "[Errno 13] ..."), SQLite's with its name."""
    if isinstance(e, OSError) and not isinstance(e, manaka.Error) and e.strerror:
        return e.strerror
    # Arrow's messages may run over lines ("...\nDeserializing page header failed."): one line.
    text = "; ".join(line.strip() for line in str(e).splitlines() if line.strip())
    return f"SQLite: {text}" if isinstance(e, sqlite3.Error) else text


def error_message(path: str, e: BaseException) -> str:
    """One line for a reader's error, led by the file it names, else by the input's path."""
    if isinstance(e, OSError) and not isinstance(e, manaka.Error) and e.strerror \
            and isinstance(e.filename, (str, bytes)):
        return with_path(path, f"{os.fsdecode(e.filename)}: {e.strerror}")
    return with_path(path, error_reason(e))


# What manaka's readers and the libraries under them raise for a file they
# cannot read; anything else is a bug of the report and keeps its traceback.
READ_ERRORS = (manaka.Error, pa.ArrowException, sqlite3.Error, OSError)


def rows_have(k: int, n: int) -> str:
    return f"{k:,} of the {n:,} rows drawn {'has' if k == 1 else 'have'}"
