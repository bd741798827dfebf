"""Chess npz corpora (a directory of shard_*.npz, or one), drawn from their
first rows, shard by shard."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Optional

import numpy as np

import manaka
from manaka.report import boards
from manaka.report.figures import integer_histogram
from manaka.report.sources.section import InputError, Section
from manaka.report.sources.statistics import LEGAL_SAMPLE, locator, spread


def read_chess(path: str, *, max_rows: int, n_boards: int, eval_coef: Optional[float]) -> Section:
    from manaka import chess
    from manaka.chess_corpus import inspect_shards, list_shards, read_shard

    shards = list_shards(path) if os.path.isdir(path) else [Path(path)]
    states, moves, outcomes = [], [], []
    parts = []
    for s in shards:
        st, mi, oc = read_shard(s)
        states.append(st)
        moves.append(mi)
        outcomes.append(oc)
        parts.append((f"{s}: row ", len(oc)))
        if sum(len(o) for o in outcomes) >= max_rows:
            break
    st, mi, oc = np.concatenate(states)[:max_rows], np.concatenate(moves)[:max_rows], np.concatenate(outcomes)[:max_rows]
    where = locator(parts)

    def decode(i: int) -> Any:
        try:
            return chess.decode_planes(st[i])[0]
        except manaka.InvalidDataError as e:
            raise InputError(f"{where(i)}: planes: {e}") from e

    info = inspect_shards(path)
    sec = Section(f"Chess corpus {path}", path, "chess")
    sec.summary = [("format", "chess npz corpus"), ("shards", str(len(shards))), ("rows drawn", f"{len(oc):,}")]
    sec.summary += [(k, str(v)) for k, v in info.items() if not isinstance(v, (list, dict))]
    sec.figures = [integer_histogram(oc, "outcome", "outcome, side to move", "outcome"),
                   integer_histogram(mi % 73, "move_plane", "policy move plane (index mod 73)", "plane")]
    # Pieces and material from the planes: 0-5 the mover's P N B R Q K, 6-11 the other's.
    value = np.array([1, 3, 3, 5, 9, 0], dtype=np.int64)
    pieces = st[:, :12].reshape(len(st), 12, 64).sum(axis=2).astype(np.int64)
    material = pieces[:, :6] @ value - pieces[:, 6:12] @ value
    sec.figures.append(integer_histogram(pieces.sum(axis=1), "pieces", "pieces on the board", "pieces"))
    sec.figures.append(integer_histogram(material, "material", "material balance, side to move", "pawn units"))
    take = spread(len(st), LEGAL_SAMPLE)
    legal = [decode(i).legal_move_count() for i in take]
    sec.figures.append(integer_histogram(np.array(legal, dtype=np.int64), "legal_moves",
                                         f"legal moves ({len(legal)} boards)", "legal moves", ylabel="boards"))
    for i in spread(len(st), n_boards):
        game = decode(i)
        mv = chess.move_from_index(game, int(mi[i]))
        targets = []
        if mv:
            sq = lambda s: "abcdefgh"[s % 8] + str(s // 8 + 1)  # noqa: E731
            targets = [(sq(mv.from_square) + sq(mv.to_square), 1.0)]
        caption = f"row {i}, outcome {int(oc[i])}: played " + (targets[0][0] if targets else "?")
        sec.boards.append(f"<figure class='board-figure'>{boards.chess_svg(game.fen(), targets, caption)}"
                          f"<figcaption>{caption}</figcaption></figure>")
    return sec
