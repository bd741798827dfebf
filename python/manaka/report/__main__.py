"""`manaka report`'s Python half: the native command checks the options and
runs ``python -m manaka.report SPEC`` with them as one JSON object.

Exit status as the native commands': 0 written, 1 refused with one line on
stderr ("manaka: report: <path>: <where>: <rule>"), nothing written then.
Rows skipped and alarms are printed with the summary."""

from __future__ import annotations

import json
import os
import sys

import manaka
from manaka._atomic import json_text
from manaka.report import InputError, write_report
from manaka.report.html import skipped_text
from manaka.report.sources import Skipped as _Skipped


def printable(text: str) -> str:
    """One line for a terminal, as the native commands print (core/text.h):
    control characters as \\xNN / \\uNNNN (a newline too: the error is one
    line), bytes of a name that is not UTF-8 as \\xNN."""
    out = []
    for ch in text:
        c = ord(ch)
        if 0xDC80 <= c <= 0xDCFF:  # a byte os.fsdecode could not decode
            out.append(f"\\x{c - 0xDC00:02x}")
        elif c < 0x20 or c == 0x7F:
            out.append(f"\\x{c:02x}")
        elif 0x80 <= c <= 0x9F:
            out.append(f"\\u{c:04x}")
        else:
            out.append(ch)
    return "".join(out)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m manaka.report '{\"inputs\": [...], \"output\": ...}' (run `manaka report` instead)",
              file=sys.stderr)
        return 2
    spec = json.loads(argv[0])
    try:
        summary = write_report(spec["inputs"], spec["output"], valid=spec.get("valid"),
                               eval_coef=spec.get("eval_coef"), max_rows=spec["max_rows"], boards=spec["boards"],
                               overwrite=spec.get("overwrite", False))
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] == "matplotlib":
            print("manaka: report: needs matplotlib: pip install 'manaka[report]'", file=sys.stderr)
            return 1
        raise
    except (InputError, manaka.Error) as e:  # an input refused: it names the file, where and the rule
        print(printable(f"manaka: report: {e}"), file=sys.stderr)
        return 1
    except OSError as e:  # the output: the file and the OS's reason
        where = f"{os.fsdecode(e.filename)}: " if isinstance(e.filename, (str, bytes)) else ""
        print(printable(f"manaka: report: {where}{e.strerror or e}"), file=sys.stderr)
        return 1
    if spec.get("json"):
        print(json_text(summary))
    else:
        for s in summary["sections"]:
            print(printable(f"{s['kind']:8} {s['path']}: {len(s['figures'])} figures, {s['boards']} boards"))
            for reason, k in s["skipped"].items():
                print(printable("  " + skipped_text(_Skipped(reason, **k))))
            for a in s["alarms"]:
                print(printable(f"  note: {a}"))
        for o in summary["overlaps"]:
            print(f"overlap  {o['valid']} in {o['train']}: {o['shared_rows']} of {o['valid_rows']} validation rows")
        print(f"report written to {summary['output']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
