"""A report of training data as one self-contained HTML file.

>>> from manaka.report import write_report
>>> write_report(["out/shards", "games.mpk", "metrics.jsonl"], "report.html")

Inputs, told apart by their content: MPK1 streams, shard sets (a directory of
``manaka pack`` shards, or one shard), SAZ2 chunks, chess npz corpora (a
directory of shard_*.npz, or one), VPD1 files, teacher corpora (parquet or
JSON lines) and training metrics (JSON lines). Everything is read through
manaka's readers, large inputs by sampling (``max_rows`` per input).

``valid`` names a validation shard set: it gets its own section, and every
shard set given in ``paths`` is checked against it for boards both hold
(``manaka.shards.overlap``). ``eval_coef`` is the coefficient the data is
converted with, drawn beside the one a teacher corpus's results fit.

Needs matplotlib (``pip install manaka[report]``).
"""

from __future__ import annotations

import os
from typing import Optional, Sequence, Union

from manaka._atomic import write_text_atomically
from manaka._core.files import check_output
from manaka.report import boards as _boards
from manaka.report.html import page
from manaka.report.sources import InputError, Section, read_input

__all__ = ["write_report", "InputError", "DEFAULT_MAX_ROWS", "DEFAULT_BOARDS"]

DEFAULT_MAX_ROWS = 200_000
DEFAULT_BOARDS = 6

PathLike = Union[str, os.PathLike]


def write_report(paths: Sequence[PathLike], output: PathLike, *, valid: Optional[PathLike] = None,
                 eval_coef: Optional[float] = None, max_rows: int = DEFAULT_MAX_ROWS,
                 boards: int = DEFAULT_BOARDS, title: str = "manaka data report",
                 overwrite: bool = False) -> dict:
    """Writes the report to ``output`` (through a temporary, renamed when
    complete) and returns what it holds: per section its kind, path, figure
    names, the rows it skipped by reason (``rows_skipped``, ``skipped``) and
    its ``alarms``, and the overlap counts.

    An input that cannot be read raises InputError (a ValueError) naming the
    file, where in it and the rule it breaks; nothing is written then. An
    ``output`` that exists is refused (UsageError) unless ``overwrite``, and
    one that is an input always."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    if max_rows < 1 or boards < 0:
        raise ValueError(f"max_rows must be at least 1 and boards at least 0 (got {max_rows}, {boards})")
    inputs = [os.fspath(p) for p in paths]
    out = os.fspath(output)
    check_output(out, inputs + ([os.fspath(valid)] if valid is not None else []), overwrite)
    # Every input is read before anything is written: an input refused
    # (InputError, naming the file, where in it and the rule) leaves no output.
    sections: list[Section] = [read_input(p, max_rows=max_rows, n_boards=boards, eval_coef=eval_coef) for p in inputs]
    overlaps = []
    if valid is not None:
        import manaka
        from manaka import shards

        v = os.fspath(valid)
        sections.append(read_input(v, max_rows=max_rows, n_boards=boards, eval_coef=eval_coef))
        for s in sections[:-1]:
            if s.kind != "shards":
                continue
            try:
                o = shards.overlap([s.path], [v], max_examples=boards)
            except manaka.Error as e:  # it reads every row of both sets; its errors name the file
                raise InputError(f"overlap of {s.path} and {v}: {e}") from e
            o["train"], o["valid"] = s.path, v
            o["boards"] = [
                f"<figure class='board-figure'>{_boards.shogi_svg(e['packed'], [], e['sfen'])}<figcaption>"
                f"valid {os.path.basename(e['valid_path'])} row {e['valid_row']} = train "
                f"{os.path.basename(e['train_path'])} row {e['train_row']}</figcaption></figure>"
                for e in o["examples"]]
            overlaps.append(o)
    html = page(title, sections, overlaps)
    write_text_atomically(out, html)
    return {"output": out,
            "sections": [{"kind": s.kind, "path": s.path, "figures": [f.name for f in s.figures],
                          "boards": len(s.boards), "rows_skipped": s.rows_skipped,
                          "skipped": {k.reason: {"count": k.count, "unit": k.unit, "text": k.text, "first": k.first}
                                      for k in s.skipped.values()},
                          "alarms": list(s.alarms)} for s in sections],
            "overlaps": [{k: o[k] for k in ("train", "valid", "shared_rows", "valid_rows", "share")} for o in overlaps]}
