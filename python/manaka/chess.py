"""Chess positions, moves, legal moves and perft, shaped like python-chess.

The names follow python-chess 1.11 where they overlap: ``Board(fen)``,
``fen()``, ``turn`` (``WHITE`` is True), ``legal_moves``, ``push(move)``,
``push_uci``, ``pop()``, ``peek()``, ``move_stack``, ``parse_uci``,
``is_check()``, ``halfmove_clock``, ``fullmove_number``, ``ep_square``,
``piece_at(square)``, ``copy()``. Squares are numbered as python-chess does
(a1 = 0 .. h8 = 63) and piece types too (``PAWN`` 1 .. ``KING`` 6). A piece
is a ``Piece`` as python-chess's (``piece_type``, ``color``, ``symbol()``
'P' / 'p', ``unicode_symbol()``, ``Piece(piece_type, color)``,
``Piece.from_symbol('n')``, hashable, equal by type and colour). A move is
a ``Move`` as python-chess's (``from_square``, ``to_square``, ``promotion``,
``Move.from_uci('e2e4')``, ``str(move)`` its UCI); docs/python.md sets the
surface beside ``manaka.shogi``'s. The differences:

- ``legal_moves`` is a ``LegalMoves`` snapshot taken when read (iterable,
  ``len``, ``in``, ``count()``, indexable, a slice a list), in generation
  order;
- ``castling_mask`` is the rights as bits K = 1, Q = 2, k = 4, q = 8;
- ``material(color)`` and ``non_pawn_material()`` count pawn units
  (P 1, N 3, B 3, R 5, Q 9), ``piece_count()`` the occupied squares;
- ``copy()`` keeps the history (``copy(stack=False)`` starts a new one),
  ``root()`` is the start;
- FEN is read more strictly (see docs/chess-position.md), the null move
  ``0000`` and king-takes-rook castling (``e1h1``) are refused, and every
  refusal is ``manaka.InvalidDataError`` (a ValueError) naming the input.

SAN: ``board.san(move)`` prints what python-chess's ``Board.san`` prints,
``board.parse_san(san)`` and ``board.push_san(san)`` return the ``Move``.

PGN: ``read_pgn(path)`` iterates the games of a PGN file (plain, or zstd as
Lichess's ``.pgn.zst``), read block by block; each ``Game`` has
``headers`` (a dict in file order), ``fen`` (the start), ``moves`` (UCI),
``result`` (the result token) and ``number``. A game that cannot be read
raises ``InvalidDataError`` naming the file, game, line, byte and move;
``read_pgn(path, skip_invalid=True)`` skips it and keeps the message in
the iterator's ``errors``.

Game endings decide as python-chess 1.11's: ``outcome(claim_draw=False)``
returns an ``Outcome`` (``termination``, a ``Termination`` of the same
names, ``winner`` True/False/None, ``result()``) or None, trying checkmate,
insufficient material, stalemate, the seventy-five-move rule, fivefold
repetition and, with ``claim_draw=True``, the fifty-move rule and threefold
repetition (claimable one move ahead, as python-chess's ``can_claim_*``).
``is_repetition(count=3)``, ``is_fivefold_repetition()``,
``is_seventyfive_moves()``, ``is_fifty_moves()``, ``can_claim_draw()``,
``can_claim_fifty_moves()``, ``can_claim_threefold_repetition()``,
``is_insufficient_material()``, ``is_checkmate()``, ``is_stalemate()``,
``is_game_over()`` and ``result()`` are there too. ``zobrist`` is the
position's 64-bit key, equal exactly when python-chess's
``_transposition_key()`` is.

Encodings of the chess corpus (docs/chess-position.md, "Corpus encodings"):
``encode_planes(board)`` is the (20, 8, 8) int8 input from the mover's view,
``decode_planes(planes)`` returns ``(board, repeated)``,
``move_index(board, move)`` the policy index in [0, 4672) and
``move_from_index(board, index)`` the legal move it names or None;
``encode_game(fen, moves)`` returns ``(states, move_indices)`` for a whole
game in one call.

Games against a UCI engine (docs/match.md): ``play_match(player, engine,
num_games, elo=1500, movetime=0.1, seed=0, opening_plies=4, pgn=None,
progress=None)`` plays ``player`` (a callable: ``Board`` -> ``Move``, UCI
text or a policy index) against the engine at ``UCI_Elo`` in pairs from random
openings with colours swapped, games ended by ``outcome(claim_draw=True)``,
and returns a dict: wins, draws, losses, score, win_rate, elo_diff with
elo_diff_low / elo_diff_high (95%), passed (win_rate >= 0.50) and every
game. ``match_score(wins, draws, losses)`` is that arithmetic alone.
``play_head_to_head(player, opponent, num_games, seed=0, opening_plies=4,
pgn=None, player_name=..., opponent_name=...)`` plays two such callables
against each other with the same pairs, openings and rules (a network
against another); the score is ``player``'s.

``legal_move_counts(fens)`` counts the legal moves of many FENs in one call
without the GIL and returns an int32 numpy array.

Deprecated, gone in 0.2: UCI text where a ``Move`` is taken
(``is_legal(text)``, ``san(text)``, ``move_index(board, text)``, ``text in
board.legal_moves``), comparing a ``Move`` with text, and a ``Piece`` taken
as the ``(color, piece_type)`` tuple ``piece_at`` returned (unpacked,
indexed or compared with a tuple); each warns
``DeprecationWarning`` and still works.
"""

from manaka._core.chess import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    PLANE_NB,
    POLICY_SIZE,
    QUEEN,
    ROOK,
    STARTING_FEN,
    WHITE,
    Board,
    Game,
    LegalMoves,
    Move,
    Outcome,
    PgnReader,
    Piece,
    Termination,
    decode_planes,
    encode_game,
    encode_planes,
    legal_move_counts,
    move_from_index,
    move_index,
    perft,
    read_pgn,
)
from manaka._core.match import MAX_ELO, MIN_ELO, PASS_WIN_RATE, match_score, play_head_to_head, play_match

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
    "Piece",
    "Move",
    "LegalMoves",
    "Outcome",
    "Termination",
    "Game",
    "PgnReader",
    "read_pgn",
    "perft",
    "legal_move_counts",
    "PLANE_NB",
    "POLICY_SIZE",
    "encode_planes",
    "decode_planes",
    "move_index",
    "move_from_index",
    "encode_game",
    "MIN_ELO",
    "MAX_ELO",
    "PASS_WIN_RATE",
    "play_head_to_head",
    "play_match",
    "match_score",
]

# The corpus's npz shards and batches (manaka.chess_corpus), here as well.
from manaka.chess_corpus import (  # noqa: E402
    inspect_shards,
    iter_batches,
    list_shards,
    read_shard,
    shard_name,
    split_shards,
    write_shard,
)

__all__ += ["iter_batches", "split_shards", "list_shards", "shard_name", "read_shard", "write_shard",
            "inspect_shards"]
