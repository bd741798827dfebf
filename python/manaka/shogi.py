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

Training data (docs/shogi-training.md): ``training_batches(source, batch_size=...)``
yields ``(planes, policy, value, weight)`` numpy arrays made from parquet
shards in C++ on background threads (planes int8 (B, 44, 9, 9), policy
float32 (B, 11259), value and weight float32 (B,)); ``encode_batch(batch)``
does the same for one ``manaka.shards.ShardBatch``; ``encode_packed`` the planes
alone; ``training_conventions`` reads the footer keys a trainer relies on, refusing a set that disagrees.

Deprecated, gone in 0.2: the name ``Position`` (it is ``Board``),
``board.legal_moves()`` called (a list of USI text), ``board.push(move16)``
with an int, ``board.is_legal(text)``, and comparing a ``Move`` with text.
Each warns ``DeprecationWarning`` and still works.
"""

import warnings
from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

import numpy as np

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
from manaka._core.shogi import PLANE_NB, POLICY_SIZE
from manaka._core import training as _training
from manaka._core._checks import at_least as _at_least
from manaka._core._checks import seed as _seed

if TYPE_CHECKING:
    from manaka.shards import ShardBatch, Source

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
    "PLANE_NB",
    "POLICY_SIZE",
    "Batch",
    "csa_record",
    "encode_batch",
    "encode_packed",
    "training_batches",
    "training_conventions",
]

# (planes int8 (B, 44, 9, 9), policy float32 (B, 11259), value float32 (B,), weight float32 (B,))
Batch = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

# The columns encode_batch reads; a ShardBatch read with fewer cannot be encoded.
_BATCH_COLUMNS = ("packed", "cand_offsets", "mv", "prob", "value_z", "value_q", "weight")


def csa_record(moves: "Sequence[Move | str]", *, start: Optional[str] = None, black: str = "", white: str = "",
               event: str = "", comments: "Sequence[str]" = (), max_plies: int = 0) -> str:
    """A game as a CSA record (version 2.2, as floodgate writes and cshogi's parser reads): names on
    ``N+`` / ``N-``, the start (``PI``, or the board rows and hands of ``start``'s SFEN), every move, and
    the ending the rules give (``%TORYO`` for mate, ``%SENNICHITE``, ``%+ILLEGAL_ACTION`` /
    ``%-ILLEGAL_ACTION`` for the perpetual checker's loss, ``%MAX_MOVES`` at ``max_plies``,
    ``%CHUDAN`` while the game goes on). A move that is not legal is refused, naming its index."""
    from manaka._core.shogi import game_csa

    sfen = start or Board().sfen()
    return game_csa(sfen, [str(m) for m in moves], black, white, event, list(comments), max_plies)


def encode_batch(batch: "ShardBatch", *, value_q_weight: float = 0.0, row_weights: bool = False) -> Batch:
    """One shard batch as the network's inputs and targets, encoded in C++.

    ``planes``: the 44 input planes of each row's position (docs/shogi-network.md;
    plane 42, the repetition, is 0: a shard row has no history). ``policy``:
    each candidate's ``prob`` at its policy index, 0 elsewhere. ``value``:
    ``(1 - value_q_weight) * value_z + value_q_weight * value_q``, the side to
    move's view. ``weight``: the row's ``weight`` column with ``row_weights``,
    else 1.
    """
    columns: list[Any] = [getattr(batch, c) for c in _BATCH_COLUMNS]
    missing = [c for c, col in zip(_BATCH_COLUMNS, columns) if col is None]
    if missing:
        raise ValueError(f"encode_batch needs the columns {', '.join(_BATCH_COLUMNS)}; this batch lacks "
                         f"{', '.join(missing)} (read it without columns=, or with these)")
    packed, cand_offsets, mv, prob, value_z, value_q, weight = columns
    return _training.encode_batch(np.ascontiguousarray(packed).reshape(-1), cand_offsets, mv, prob, value_z, value_q,
                                  weight, value_q_weight, row_weights)


def encode_packed(packed: np.ndarray) -> np.ndarray:
    """The (N, 44, 9, 9) int8 input planes of N packed positions ((N, 96) uint8, a shard's ``packed``),
    in C++ (docs/shogi-network.md; plane 42, the repetition, is 0). A row that is not a position is
    refused, naming its index."""
    return _training.encode_packed(np.ascontiguousarray(packed, dtype=np.uint8).reshape(-1, PACKED_LEN))


def training_conventions(source: "Source") -> dict:
    """The footer keys every shard of ``source`` shares (policy_source, temperature, eval_coef,
    mate_scale, mate_slack; None where absent), with ``rows``, ``shards`` and ``first``; a set whose
    shards disagree, or that lacks policy_source, is refused naming the shard and the key."""
    from manaka.shards import list_shards

    return _training.read_conventions(list_shards(source))


def training_batches(source: "Source", *, batch_size: int = 256, epoch: int = 0, seed: int = 0,
                     shuffle: bool = True, value_q_weight: float = 0.0, row_weights: bool = False,
                     drop_last: bool = False, threads: Optional[int] = None,
                     require_complete: bool = True) -> Iterator[Batch]:
    """Every row of the shards once, as ``encode_batch`` batches of ``batch_size`` rows.

    The shard order is reshuffled per ``(seed, epoch)`` as ``shards.iter_batches``
    does (rows within a shard were shuffled by ``pack``); a batch spans row
    groups and shards. The last batch is shorter unless ``drop_last``. Row
    groups are decoded on ``threads`` threads (default: the core count) and
    batches encoded on one more, ahead of the caller; the batches are the
    same for any thread count.
    """
    from manaka.shards import epoch_order, list_shards

    seed, epoch = _seed(seed), _at_least(epoch, "epoch", 0)
    paths = list_shards(source, require_complete=require_complete)
    order = epoch_order(paths, seed, epoch) if shuffle else paths
    stream = _training.ShogiStream.open(order, batch_size, drop_last, value_q_weight, row_weights, threads)

    def batches() -> Iterator[Batch]:
        while True:
            batch = stream.next()
            if batch is None:
                return
            yield batch

    return batches()


def __getattr__(name: str) -> Any:
    # The old name of Board, for one release: each use (shogi.Position(...),
    # from manaka.shogi import Position) warns at the user's line.
    if name == "Position":
        warnings.warn("manaka.shogi.Position is deprecated and goes in 0.2; use manaka.shogi.Board",
                      DeprecationWarning, stacklevel=2)
        return Board
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
