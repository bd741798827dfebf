"""SAZ2 sazpack chunks, drawn from their first positions."""

from __future__ import annotations

from typing import Optional

import numpy as np

from manaka.report.figures import integer_histogram
from manaka.report.sources.section import Section
from manaka.report.sources.statistics import common_figures, legal_figure, locator, policy_figures, shogi_boards, shuffle_figure


def read_saz(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka.sazpack import decode_sazpack_columns

    # Policy moves are drawn, not trusted: a chunk whose policy holds an
    # illegal move still gets its report (`manaka saz validate` judges it).
    c = decode_sazpack_columns(path, check_policy_legality=False)
    n = min(len(c), max_rows)
    offsets = c.policy_offsets[:n + 1]
    sec = Section(f"SAZ2 chunk {path}", path, "saz")
    results, result_counts = np.unique(c.game_result, return_counts=True)
    sec.summary = [("format", "SAZ2 sazpack chunk"), ("games", f"{c.games:,}"), ("positions", f"{len(c):,}"),
                   ("policy entries", f"{len(c.mv):,}"), ("rows drawn", f"{n:,}"),
                   ("game results (code: games)", ", ".join(f"{int(r)}: {int(k)}" for r, k in zip(results, result_counts)))]
    sec.figures = common_figures(c.ply[:n], c.value_z[:n], c.value_q[:n])
    sec.figures += policy_figures(offsets, c.visits[:int(offsets[-1])], "visits")
    sec.figures.append(integer_histogram(np.diff(c.game_offsets), "game_length", "positions per game", "positions",
                                         ylabel="games"))
    where = locator([(f"{path}: position ", n)])
    sec.figures.append(legal_figure(c.packed[:n], where))
    sec.figures.append(shuffle_figure(c.game[:n], "game index"))
    sec.boards = shogi_boards(c.packed[:n], offsets, c.mv, c.visits, n_boards, "visits", where, c.ply)
    return sec
