"""Training metrics (manaka.train's JSON lines): loss, learning rate and
validation curves."""

from __future__ import annotations

import json
import math
from typing import Any, Optional

import numpy as np

from manaka.report.figures import Series, curve
from manaka.report.sources.files import json_lines
from manaka.report.sources.section import Section

# The numbers of a manaka.train metrics line the figures draw.
METRIC_KEYS = ("step", "epoch", "loss", "policy_ce", "value_mse", "lr", "train_loss", "val_loss", "val_top1")


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def read_metrics(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    sec = Section(f"Training metrics {path}", path, "metrics")
    lines = []
    for n, m in json_lines(path):
        bad = next((k for k in METRIC_KEYS if k in m and not _is_number(m[k])), None)
        if bad is not None:
            # The line's other numbers are still drawn; those that are not are left out.
            sec.skip("not_a_number", "a value is not a finite number, left out of its figure",
                     f"{path}: line {n}: {bad} is {json.dumps(m[bad])[:40]}, not a finite number", unit="lines")
            m = {k: v for k, v in m.items() if k not in METRIC_KEYS or _is_number(v)}
        lines.append(m)
    train = [m for m in lines if m.get("kind", "train") == "train"]
    epochs = [m for m in lines if m.get("kind") == "epoch"]
    sec.summary = [("format", "metrics JSON lines"), ("lines", str(len(lines))), ("train lines", str(len(train))),
                   ("epoch lines", str(len(epochs)))]
    scored = [m for m in epochs if "val_loss" in m]
    if scored:
        best = min(scored, key=lambda m: m["val_loss"])
        sec.summary.append(("best epoch", f"{best.get('epoch')} (val_loss {best['val_loss']})"))

    def series(rows, xkey, ykeys):
        out = []
        for k in ykeys:
            pts = [(m[xkey], m[k]) for m in rows if k in m and xkey in m]
            if pts:
                x, y = zip(*pts)
                out.append(Series(k, np.array(x, float), np.array(y, float), "-o" if len(pts) < 30 else "-"))
        return out

    loss = series(train, "step", ["loss", "policy_ce", "value_mse"])
    if loss:
        sec.figures.append(curve("loss", "training loss", "step", "loss", loss))
    lr = series(train, "step", ["lr"])
    if lr:
        sec.figures.append(curve("lr", "learning rate", "step", "lr", lr))
    val = series(epochs, "epoch", ["train_loss", "val_loss"])
    if val:
        sec.figures.append(curve("val_loss", "loss by epoch", "epoch", "loss", val))
    acc = series(epochs, "epoch", ["val_top1"])
    if acc:
        sec.figures.append(curve("accuracy", "validation top-1 accuracy", "epoch", "top-1", acc))
    return sec
