"""The report as one self-contained HTML page: inline SVG figures and boards,
inline CSS, and a short inline script that checks the page on load (every
figure drawn with a size, no image missing) and records what it found on
<body data-check=...> for tests and for anyone looking."""

from __future__ import annotations

from html import escape

from manaka._atomic import json_text
from manaka.report.figures import Figure, render_svg
from manaka.report.sources import Section, Skipped

__all__ = ["page", "plural", "skipped_text"]

_CSS = """
body { font-family: sans-serif; margin: 1.5em; color: #222; max-width: 1400px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; margin-top: 2em; }
table.summary { border-collapse: collapse; font-size: 0.85em; }
table.summary td { border: 1px solid #ddd; padding: 2px 8px; vertical-align: top; }
table.summary td:first-child { color: #555; white-space: nowrap; }
.figures, .boards { display: flex; flex-wrap: wrap; gap: 10px; }
figure { margin: 0; } figcaption { font-size: 0.75em; color: #444; max-width: 380px; }
.note { font-size: 0.85em; color: #555; } .alarm { color: #b00; font-weight: bold; }
"""

_CHECK = """
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message || e)); });
  window.addEventListener('load', function () {
    var figs = document.querySelectorAll('figure.chart svg, figure.board-figure svg');
    var drawn = 0;
    figs.forEach(function (s) { var r = s.getBoundingClientRect(); if (r.width > 0 && r.height > 0) drawn++; });
    var missing = 0;
    document.querySelectorAll('img').forEach(function (i) { if (!i.complete || i.naturalWidth === 0) missing++; });
    document.body.setAttribute('data-check', JSON.stringify(
      {figures: figs.length, drawn: drawn, missing_images: missing, errors: errors}));
  });
})();
"""


def _figure(section_index: int, fig: Figure) -> str:
    attrs = {"data-name": fig.name, "data-kind": fig.kind, "data-section": str(section_index)}
    if fig.counts is not None and fig.edges is not None:
        attrs["data-edges"] = json_text([round(float(e), 6) for e in fig.edges])
        attrs["data-counts"] = json_text([int(c) for c in fig.counts])
    else:
        attrs["data-series"] = json_text({s.label: len(s.x) for s in fig.series})
    a = " ".join(f'{k}="{escape(v)}"' for k, v in attrs.items())
    note = f"<figcaption>{escape(fig.note)}</figcaption>" if fig.note else ""
    return f"<figure class='chart' {a}>{render_svg(fig)}{note}</figure>"


def plural(n: int, unit: str) -> str:
    """ "1 row", "2 rows" ("rows" and "lines" are the units)."""
    return f"{n:,} {unit[:-1] if n == 1 and unit.endswith('s') else unit}"


def skipped_text(k: Skipped) -> str:
    return f"Skipped {plural(k.count, k.unit)}: {k.reason}, {k.text}. The first: {k.first}"


def page(title: str, sections: list[Section], overlaps: list[dict]) -> str:
    out = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
           f"<title>{escape(title)}</title><style>{_CSS}</style><script>{_CHECK}</script></head><body>",
           f"<h1>{escape(title)}</h1>"]
    out.append("<ul>" + "".join(f"<li><a href='#s{i}'>{escape(s.title)}</a></li>" for i, s in enumerate(sections)))
    if overlaps:
        out.append("<li><a href='#overlap'>Validation boards found in training</a></li>")
    out.append("</ul>")
    for i, s in enumerate(sections):
        out.append(f"<section id='s{i}' data-kind='{escape(s.kind)}'><h2>{escape(s.title)}</h2>")
        summary = list(s.summary)
        if s.skipped:
            summary.append(("skipped", ", ".join(f"{plural(k.count, k.unit)} ({k.reason})" for k in s.skipped.values())))
        out.append("<table class='summary'>" + "".join(
            f"<tr><td>{escape(k)}</td><td>{escape(v)}</td></tr>" for k, v in summary) + "</table>")
        # What was left out, and what the figures cannot show, before the figures.
        out.extend(f"<p class='alarm' data-skipped='{k.count}' data-reason='{escape(k.reason)}'>"
                   f"{escape(skipped_text(k))}</p>" for k in s.skipped.values())
        out.extend(f"<p class='alarm' data-alarm='1'>{escape(a)}</p>" for a in s.alarms)
        out.extend(f"<p class='note'>{escape(n)}</p>" for n in s.notes)
        out.append("<div class='figures'>" + "".join(_figure(i, f) for f in s.figures) + "</div>")
        if s.boards:
            out.append("<h3>Positions and their policy targets</h3><div class='boards'>" + "".join(s.boards) + "</div>")
        out.append("</section>")
    if overlaps:
        out.append("<section id='overlap'><h2>Validation boards found in training</h2>")
        for o in overlaps:
            cls = "alarm" if o["shared_rows"] else "note"
            out.append(f"<p class='{cls}' data-shared-rows='{o['shared_rows']}'>{escape(o['train'])} against "
                       f"{escape(o['valid'])}: {o['shared_rows']:,} of {o['valid_rows']:,} validation rows "
                       f"({100 * o['share']:.3f}%), {o['shared_boards']:,} distinct boards, occur in training "
                       f"({o['train_rows']:,} rows).</p>")
            if o.get("boards"):
                out.append("<div class='boards'>" + "".join(o["boards"]) + "</div>")
        out.append("</section>")
    out.append("</body></html>")
    return "".join(out)
