"""Chess positions, UCI moves, legal moves and perft, shaped like python-chess.

The names follow python-chess 1.11 where they overlap: ``Board(fen)``,
``fen()``, ``turn`` (``WHITE`` is True), ``legal_moves``, ``push_uci``,
``is_check()``, ``halfmove_clock``, ``fullmove_number``, ``ep_square``,
``piece_at(square)``, ``copy()``. Squares are numbered as python-chess does
(a1 = 0 .. h8 = 63) and piece types too (``PAWN`` 1 .. ``KING`` 6); a move is
its UCI text. The differences:

- ``legal_moves`` is a list of UCI strings, in generation order;
- ``piece_at`` returns ``(color, piece_type)`` or None;
- ``castling_mask`` is the rights as bits K = 1, Q = 2, k = 4, q = 8;
- ``material(color)`` and ``non_pawn_material()`` count pawn units
  (P 1, N 3, B 3, R 5, Q 9), ``piece_count()`` the occupied squares;
- there is no move stack (no ``pop``); ``copy()`` before ``push_uci`` keeps
  the position;
- FEN is read more strictly (see docs/chess-position.md), the null move
  ``0000`` and king-takes-rook castling (``e1h1``) are refused, and every
  refusal is ``manaka.InvalidDataError`` (a ValueError) naming the input.

SAN: ``board.san(uci)`` prints what python-chess's ``Board.san`` prints,
``board.parse_san(san)`` and ``board.push_san(san)`` return UCI text.

PGN: ``read_pgn(path)`` iterates the games of a PGN file (plain, or zstd as
Lichess's ``.pgn.zst``), read block by block; each ``Game`` has
``headers`` (a dict in file order), ``fen`` (the start), ``moves`` (UCI),
``result`` (the result token) and ``number``. A game that cannot be read
raises ``InvalidDataError`` naming the file, game, line, byte and move;
``read_pgn(path, skip_invalid=True)`` skips it and keeps the message in
the iterator's ``errors``.

``legal_move_counts(fens)`` counts the legal moves of many FENs in one call
without the GIL and returns an int32 numpy array.
"""

from manaka._core.chess import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    STARTING_FEN,
    WHITE,
    Board,
    Game,
    PgnReader,
    legal_move_counts,
    perft,
    read_pgn,
)

__all__ = [
    "STARTING_FEN",
    "WHITE",
    "BLACK",
    "PAWN",
    "KNIGHT",
    "BISHOP",
    "ROOK",
    "QUEEN",
    "KING",
    "Board",
    "Game",
    "PgnReader",
    "read_pgn",
    "perft",
    "legal_move_counts",
]
