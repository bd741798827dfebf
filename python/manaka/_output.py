"""The output policy for the files Python writes itself (checkpoints, match
records, reports): the rules are the native commands' (manaka._core.files,
docs/reliability.md), so that ``--overwrite`` means the same everywhere."""

from __future__ import annotations

import os
from typing import Mapping, Optional, Sequence, Union

from manaka._core import UsageError
from manaka._core.files import check_output

PathLike = Union[str, "os.PathLike[str]"]


def check_outputs(outputs: Mapping[str, Optional[PathLike]], inputs: Sequence[Optional[PathLike]],
                  overwrite: bool) -> None:
    """Raises UsageError, naming the option (a key of ``outputs``), when an
    output is one of ``inputs`` (the same file by any path: never, whatever
    ``overwrite``), exists and ``overwrite`` is false, or is another output
    too. Outputs and inputs that are None or empty are not given."""
    read = [os.fspath(p) for p in inputs if p]
    seen: dict[str, str] = {}
    for option, path in outputs.items():
        if not path:
            continue
        out = os.fspath(path)
        real = os.path.realpath(out)
        if real in seen:
            raise UsageError(f"{option}: {out} is also {seen[real]}; give each output its own file")
        seen[real] = option
        try:
            check_output(out, read, overwrite)
        except UsageError as e:
            raise UsageError(f"{option}: {e}") from None
