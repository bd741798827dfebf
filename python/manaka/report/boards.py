"""Board pictures as SVG text, each with its policy targets drawn on it.

Shogi boards come from the 96 packed bytes (``manaka.shogi.Board.unpack``),
chess boards from a FEN. Targets are ``(move, probability)`` pairs: the
destination square is shaded in proportion to the probability and an arrow
runs from the origin (a drop's arrow starts beside the board, at the hand).
The pictures are plain SVG with no external reference, so the report stays
one self-contained file.
"""

from __future__ import annotations

from html import escape
from typing import Sequence

from manaka import shogi

__all__ = ["shogi_svg", "chess_svg", "shogi_square", "chess_square"]

_CELL = 36
_MARGIN = 22
# Board kinds in the packed byte's low nibble (src/shogi/types.h, Kind).
_SHOGI_KIND = ["K", "R", "B", "G", "S", "N", "L", "P", "+R", "+B", "+S", "+N", "+L", "+P"]
_HAND_KIND = ["P", "L", "N", "S", "G", "B", "R"]
_TARGET = "#d9534f"


def shogi_square(text: str) -> int:
    """The packed square index of a USI square ("7g"): (9 - file) * 9 + rank."""
    return (9 - int(text[0])) * 9 + (ord(text[1]) - ord("a"))


def chess_square(text: str) -> int:
    """0 = a1 .. 63 = h8."""
    return (ord(text[0]) - ord("a")) + 8 * (int(text[1]) - 1)


def _arrow(x0: float, y0: float, x1: float, y1: float, p: float) -> str:
    width = 1.5 + 5.0 * p
    return (f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="{_TARGET}" '
            f'stroke-opacity="{0.35 + 0.6 * p:.2f}" stroke-width="{width:.1f}" marker-end="url(#head)"/>')


def _defs() -> str:
    return ('<defs><marker id="head" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" '
            f'orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="{_TARGET}"/></marker></defs>')


def shogi_svg(packed: bytes, targets: Sequence[tuple[str, float]], caption: str = "") -> str:
    """A shogi board from 96 packed bytes with its targets, USI moves
    (``7g7f``, ``P*5e``, ``8h2b+``) and their probabilities."""
    board = shogi.Board.unpack(bytes(packed))
    size = 9 * _CELL
    w, h = size + 2 * _MARGIN + 40, size + 2 * _MARGIN + 40
    ox, oy = _MARGIN + 20, _MARGIN + 20  # room for the hands above and below

    def centre(sq: int) -> tuple[float, float]:
        col = sq // 9  # file 9 is column 0
        row = sq % 9
        return ox + (col + 0.5) * _CELL, oy + (row + 0.5) * _CELL

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board shogi" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" role="img">', _defs(),
           f'<rect x="{ox}" y="{oy}" width="{size}" height="{size}" fill="#f3d9a4" stroke="#333"/>']
    for i in range(1, 9):
        out.append(f'<line x1="{ox + i * _CELL}" y1="{oy}" x2="{ox + i * _CELL}" y2="{oy + size}" stroke="#555" stroke-width="0.6"/>')
        out.append(f'<line x1="{ox}" y1="{oy + i * _CELL}" x2="{ox + size}" y2="{oy + i * _CELL}" stroke="#555" stroke-width="0.6"/>')
    for c in range(9):
        out.append(f'<text x="{ox + (c + 0.5) * _CELL}" y="{oy - 4}" font-size="9" text-anchor="middle" fill="#777">{9 - c}</text>')
    for r in range(9):
        out.append(f'<text x="{ox + size + 8}" y="{oy + (r + 0.6) * _CELL}" font-size="9" fill="#777">{chr(97 + r)}</text>')
    # Targets under the pieces: shaded destinations.
    arrows = []
    for usi, p in targets:
        to = shogi_square(usi[2:4])
        x, y = centre(to)
        out.append(f'<rect class="target" x="{x - _CELL / 2 + 1}" y="{y - _CELL / 2 + 1}" width="{_CELL - 2}" '
                   f'height="{_CELL - 2}" fill="{_TARGET}" fill-opacity="{0.15 + 0.6 * p:.2f}" '
                   f'data-move="{escape(usi)}" data-p="{p:.4f}"/>')
        x0: float
        y0: float
        if usi[1] == "*":  # from the mover's hand: White's above the board, Black's below
            x0, y0 = (ox + size + 12, oy + 8) if board.turn else (ox + size + 12, oy + size - 8)
        else:
            x0, y0 = centre(shogi_square(usi[0:2]))
        arrows.append(_arrow(x0, y0, x, y, p))
    for sq in range(81):
        byte = board.piece_on(sq)
        if byte == 0xFF:
            continue
        white, kind = byte >> 4, byte & 0x0F
        x, y = centre(sq)
        label = _SHOGI_KIND[kind]
        colour = "#b00" if label.startswith("+") else "#111"
        rot = f' transform="rotate(180 {x:.1f} {y:.1f})"' if white else ""
        out.append(f'<text x="{x:.1f}" y="{y + 5:.1f}" font-size="15" font-family="sans-serif" font-weight="bold" '
                   f'text-anchor="middle" fill="{colour}"{rot}>{escape(label)}</text>')
    for side, hand_y in ((1, oy - 14), (0, oy + size + 26)):
        counts = board.hand(side)
        hand = " ".join(f"{k}{n if n > 1 else ''}" for k, n in zip(_HAND_KIND, counts) if n)
        who = "\u2616 White" if side else "\u2617 Black"
        out.append(f'<text x="{ox}" y="{hand_y}" font-size="11" fill="#333">{who} hand: {escape(hand or "-")}</text>')
    out.extend(arrows)
    if caption:
        out.append(f"<title>{escape(caption)}</title>")
    out.append("</svg>")
    return "".join(out)


_CHESS_GLYPH = {"K": "\u2654", "Q": "\u2655", "R": "\u2656", "B": "\u2657", "N": "\u2658", "P": "\u2659",
                "k": "\u265a", "q": "\u265b", "r": "\u265c", "b": "\u265d", "n": "\u265e", "p": "\u265f"}


def chess_svg(fen: str, targets: Sequence[tuple[str, float]], caption: str = "") -> str:
    """A chess board from a FEN (White at the bottom) with UCI targets."""
    size = 8 * _CELL
    w = h = size + 2 * _MARGIN
    ox = oy = _MARGIN

    def centre(sq: int) -> tuple[float, float]:
        return ox + (sq % 8 + 0.5) * _CELL, oy + (7 - sq // 8 + 0.5) * _CELL

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board chess" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" role="img">', _defs()]
    for sq in range(64):
        x, y = centre(sq)
        light = (sq % 8 + sq // 8) % 2 == 1
        out.append(f'<rect x="{x - _CELL / 2}" y="{y - _CELL / 2}" width="{_CELL}" height="{_CELL}" '
                   f'fill="{"#eed8b5" if light else "#b58863"}"/>')
    for i in range(8):
        out.append(f'<text x="{ox + (i + 0.5) * _CELL}" y="{oy + size + 14}" font-size="9" text-anchor="middle" fill="#777">{chr(97 + i)}</text>')
        out.append(f'<text x="{ox - 10}" y="{oy + (7 - i + 0.6) * _CELL}" font-size="9" fill="#777">{i + 1}</text>')
    arrows = []
    for uci, p in targets:
        to = chess_square(uci[2:4])
        x, y = centre(to)
        out.append(f'<rect class="target" x="{x - _CELL / 2 + 1}" y="{y - _CELL / 2 + 1}" width="{_CELL - 2}" '
                   f'height="{_CELL - 2}" fill="{_TARGET}" fill-opacity="{0.15 + 0.6 * p:.2f}" '
                   f'data-move="{escape(uci)}" data-p="{p:.4f}"/>')
        x0, y0 = centre(chess_square(uci[0:2]))
        arrows.append(_arrow(x0, y0, x, y, p))
    placement = fen.split()[0]
    for r, rank in enumerate(placement.split("/")):
        f = 0
        for ch in rank:
            if ch.isdigit():
                f += int(ch)
                continue
            x, y = centre((7 - r) * 8 + f)
            out.append(f'<text x="{x:.1f}" y="{y + 10:.1f}" font-size="28" text-anchor="middle" '
                       f'font-family="DejaVu Sans, sans-serif" fill="#000">{_CHESS_GLYPH.get(ch, "?")}</text>')
            f += 1
    out.extend(arrows)
    if caption:
        out.append(f"<title>{escape(caption)}</title>")
    out.append("</svg>")
    return "".join(out)
