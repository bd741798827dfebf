"""The report's figures: the numbers first (bin edges and counts, curves),
then their drawing, so a test can check what a figure shows against the data.

Each figure is drawn by matplotlib (Agg-free SVG backend) into SVG text with
no external reference (fonts drawn as paths)."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

import numpy as np

__all__ = ["Figure", "Series", "histogram", "integer_histogram", "curve", "render_svg"]

# Integer data with at most this many distinct values get one bin per value.
_MAX_INTEGER_BINS = 120
_FLOAT_BINS = 40


@dataclass
class Series:
    label: str
    x: np.ndarray
    y: np.ndarray
    style: str = "-"  # matplotlib format: "-" line, "o" points, "--" dashed


@dataclass
class Figure:
    name: str    # unique within a section: ply, value_z, ...
    title: str
    xlabel: str
    ylabel: str = "rows"
    edges: Optional[np.ndarray] = None   # histogram: len(counts) + 1 edges
    counts: Optional[np.ndarray] = None
    series: list[Series] = field(default_factory=list)  # curves
    logy: bool = False
    note: str = ""

    @property
    def kind(self) -> str:
        return "histogram" if self.counts is not None else "curves"


def integer_histogram(values: np.ndarray, name: str, title: str, xlabel: str, **kw) -> Figure:
    """One bin per integer value when there are few, else 50 equal bins
    (edges at half-integers either way, so no value sits on an edge)."""
    v = np.asarray(values).astype(np.int64)
    if v.size == 0:
        return Figure(name, title, xlabel, edges=np.array([0.0, 1.0]), counts=np.zeros(1, np.int64), **kw)
    lo, hi = int(v.min()), int(v.max())
    if hi - lo + 1 <= _MAX_INTEGER_BINS:
        edges = np.arange(lo, hi + 2, dtype=np.float64) - 0.5
    else:
        step = int(np.ceil((hi - lo + 1) / 50))
        edges = np.arange(lo, hi + step + 1, step, dtype=np.float64) - 0.5
    counts, _ = np.histogram(v, bins=edges)
    return Figure(name, title, xlabel, edges=edges, counts=counts, **kw)


def histogram(values: np.ndarray, name: str, title: str, xlabel: str, *,
              range_: Optional[tuple[float, float]] = None, bins: int = _FLOAT_BINS, **kw) -> Figure:
    """Equal bins over range_ (or the data's range); values outside are not counted."""
    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    if range_ is None:
        range_ = (float(v.min()), float(v.max())) if v.size else (0.0, 1.0)
        if range_[0] == range_[1]:
            range_ = (range_[0] - 0.5, range_[1] + 0.5)
    edges = np.linspace(range_[0], range_[1], bins + 1)
    counts, _ = np.histogram(v, bins=edges)
    return Figure(name, title, xlabel, edges=edges, counts=counts, **kw)


def render_svg(fig: Figure) -> str:
    """The figure as an <svg> element (matplotlib's SVG backend)."""
    # A Figure of its own canvas: no pyplot, no global backend switched.
    from matplotlib.backends.backend_svg import FigureCanvasSVG
    from matplotlib.figure import Figure as MplFigure
    import matplotlib

    f = MplFigure(figsize=(4.2, 2.7), dpi=72)
    FigureCanvasSVG(f)
    ax = f.add_subplot()
    try:
        if fig.counts is not None and fig.edges is not None:
            # One filled step path, not a patch per bar: fast to draw and small.
            ax.stairs(fig.counts, fig.edges, fill=True, color="#4a78b0", baseline=0.5 if fig.logy else 0)
        for s in fig.series:
            ax.plot(s.x, s.y, s.style, label=s.label, markersize=3, linewidth=1.2)
        if len(fig.series) > 1 or (fig.series and fig.series[0].label):
            ax.legend(fontsize=7)
        if fig.logy:
            ax.set_yscale("log")
        ax.set_title(fig.title, fontsize=9)
        ax.set_xlabel(fig.xlabel, fontsize=8)
        ax.set_ylabel(fig.ylabel, fontsize=8)
        ax.tick_params(labelsize=7)
        f.subplots_adjust(left=0.15, right=0.97, bottom=0.16, top=0.9)
        buf = io.StringIO()
        with matplotlib.rc_context({"svg.fonttype": "path"}):  # text as outlines: no font needed
            f.savefig(buf, format="svg")
    finally:
        f.clear()
    text = buf.getvalue()
    # The RDF metadata block carries the drawing date: left out, so a report
    # of the same data is the same bytes.
    text = re.sub(r"<metadata>.*?</metadata>", "", text, flags=re.S)
    return text[text.index("<svg"):]


def curve(name: str, title: str, xlabel: str, ylabel: str, series: Sequence[Series], **kw) -> Figure:
    return Figure(name, title, xlabel, ylabel, series=list(series), **kw)
