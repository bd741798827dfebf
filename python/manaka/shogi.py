"""Shogi boards, moves and move generation, in python-chess's shape.

``Board`` is a position with its move history: ``push(move)``, ``pop()``,
``peek()``, ``move_stack``, ``legal_moves`` (a property of ``Move`` objects),
``push_usi(text)``, ``turn`` and ``sfen()``; docs/python.md sets it beside
``manaka.chess.Board``. A ``Move`` is a value printed as USI (``str(move)``,
``move.usi()``, ``Move.from_usi('7g7f')``); it is the move16 MPK1 stores
(``move.move16``, ``Move.from_move16(raw)``): ``to`` in bits 0-6, origin
square or 81 + hand index in bits 7-13, promotion in bit 14. Squares are the
MPK1 indices, ``(9 - file) * 9 + (rank - 1)``; a drop's ``from_square`` is its
``to_square`` and ``drop`` the kind dropped (``PAWN`` .. ``ROOK``, the low
four bits of ``piece_on``'s byte).

Colours: ``turn`` is a bool, ``WHITE`` (gote) True and ``BLACK`` (sente, who
moves first) False, so a turn equals cshogi's (``BLACK`` 0, ``WHITE`` 1) and
indexes as the old ints did. Mind that in chess the first mover is the True
side and in shogi the False one.

Deprecated, gone in 0.2: the name ``Position`` (it is ``Board``),
``board.legal_moves()`` called (a list of USI text), ``board.push(move16)``
with an int, ``board.is_legal(text)``, and comparing a ``Move`` with text.
Each warns ``DeprecationWarning`` and still works.
"""

import warnings
from typing import Any

from manaka._core.shogi import (
    BISHOP,
    BLACK,
    GOLD,
    KING,
    KNIGHT,
    LANCE,
    PACKED_LEN,
    PAWN,
    ROOK,
    SILVER,
    WHITE,
    Board,
    LegalMoves,
    Move,
    move16_from_usi,
    move16_to_usi,
    perft,
)

__all__ = [
    "BLACK",
    "WHITE",
    "KING",
    "ROOK",
    "BISHOP",
    "GOLD",
    "SILVER",
    "KNIGHT",
    "LANCE",
    "PAWN",
    "PACKED_LEN",
    "Board",
    "Move",
    "LegalMoves",
    "perft",
    "move16_from_usi",
    "move16_to_usi",
]


def __getattr__(name: str) -> Any:
    # The old name of Board, for one release: each use (shogi.Position(...),
    # from manaka.shogi import Position) warns at the user's line.
    if name == "Position":
        warnings.warn("manaka.shogi.Position is deprecated and goes in 0.2; use manaka.shogi.Board",
                      DeprecationWarning, stacklevel=2)
        return Board
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
