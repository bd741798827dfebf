"""Shogi positions, moves and move generation.

Squares are the MPK1 indices, ``(9 - file) * 9 + (rank - 1)``; a move is a
move16 (``to`` in bits 0-6, origin square or 81 + hand index in bits 7-13,
promotion in bit 14); a packed position is the 96 bytes an MPK1 record stores.
"""

from manaka._core.shogi import (
    BLACK,
    PACKED_LEN,
    WHITE,
    Position,
    move16_from_usi,
    move16_to_usi,
    perft,
)

__all__ = [
    "BLACK",
    "WHITE",
    "PACKED_LEN",
    "Position",
    "perft",
    "move16_from_usi",
    "move16_to_usi",
]
