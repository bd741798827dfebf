"""`manaka report`'s Python half: the native command checks the options and
runs ``python -m manaka.report SPEC`` with them as one JSON object."""

from __future__ import annotations

import json
import sys

from manaka.report import write_report


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m manaka.report '{\"inputs\": [...], \"output\": ...}' (run `manaka report` instead)",
              file=sys.stderr)
        return 2
    spec = json.loads(argv[0])
    try:
        summary = write_report(spec["inputs"], spec["output"], valid=spec.get("valid"),
                               eval_coef=spec.get("eval_coef"), max_rows=spec["max_rows"], boards=spec["boards"])
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] == "matplotlib":
            print("manaka: report: needs matplotlib: pip install 'manaka[report]'", file=sys.stderr)
            return 1
        raise
    except (ValueError, OSError) as e:
        print(f"manaka: report: {e}", file=sys.stderr)
        return 1
    if spec.get("json"):
        print(json.dumps(summary))
    else:
        for s in summary["sections"]:
            print(f"{s['kind']:8} {s['path']}: {len(s['figures'])} figures, {s['boards']} boards")
        for o in summary["overlaps"]:
            print(f"overlap  {o['valid']} in {o['train']}: {o['shared_rows']} of {o['valid_rows']} validation rows")
        print(f"report written to {summary['output']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
