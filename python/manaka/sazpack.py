"""SAZ2 v4 "sazpack": AlphaZero-style self-play games, one chunk per file.

The object API mirrors ``rsshogi.sazpack`` (rsshogi 1.7.0): the same classes,
field and argument names and value types, so code written for it runs after
changing the import::

    from manaka.sazpack import SazGame, SazPolicyEntry, SazPosition, SazWdl
    from manaka.sazpack import decode_sazpack, write_sazpack

Moves are USI strings (``"7g7f"``, ``"P*5e"``, ``"resign"``); a stem is given
as SFEN or as 32 bytes of YaneuraOu PackedSfen and read back as
``stem_packed_sfen``. Every invariant of the format is checked in C++; data
that breaks one raises :class:`manaka.InvalidDataError` (or
:class:`manaka.TruncatedError`), both ``ValueError``, naming the game, the
position, the byte offset and the rule.

For training, :func:`decode_sazpack_columns` decodes a chunk straight into
numpy arrays (one row per position, each board rebuilt by replaying the game
from its stem) without a Python object per position or entry.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Union

import numpy as np

from manaka._core.sazpack import (
    GameResult,
    SazGame,
    SazPolicyEntry,
    SazPosition,
    SazWdl,
    _decode_columns,
    _decode_columns_file,
    _decode_indexed,
    _decode_indexed_file,
    decode_sazpack as _decode_sazpack,
    decode_sazpack_file as _decode_sazpack_file,
    from_packed_sfen,
    to_packed_sfen,
    write_sazpack,
    write_sazpack_file as _write_sazpack_file,
)

__all__ = [
    "GameResult",
    "SazWdl",
    "SazPolicyEntry",
    "SazPosition",
    "SazGame",
    "IndexedSazGame",
    "SazColumns",
    "write_sazpack",
    "write_sazpack_file",
    "decode_sazpack",
    "decode_sazpack_file",
    "decode_sazpack_indexed",
    "decode_sazpack_file_indexed",
    "decode_sazpack_columns",
    "to_packed_sfen",
    "from_packed_sfen",
]

PathLike = Union[str, bytes, "os.PathLike[str]"]

_BLACK_WINS = {0, 4, 8, 12, 16, 20}
_WHITE_WINS = {1, 5, 9, 13, 17, 21}
_DRAWS = {2, 6, 10, 14}


# rsshogi's GameResult is not an enum; ours is an IntEnum with its methods.
def _is_black_win(self) -> bool:
    return int(self) in _BLACK_WINS


def _is_white_win(self) -> bool:
    return int(self) in _WHITE_WINS


def _is_draw(self) -> bool:
    return int(self) in _DRAWS


def _from_str(cls, name: str) -> "GameResult":
    try:
        return cls.__members__[name.upper()]
    except KeyError:
        raise ValueError(f"invalid GameResult name: {name}") from None


def _is_win(self) -> bool:
    return int(self) in _BLACK_WINS or int(self) in _WHITE_WINS


def _is_win_by_declaration(self) -> bool:
    return int(self) in (4, 5)


def _is_win_by_try_rule(self) -> bool:
    return int(self) in (20, 21)


def _str(self) -> str:
    return self.name


def _repr(self) -> str:
    return f"GameResult.{self.name}"


# Named functions, not lambdas: the native module's stubs (nanobind stubgen)
# refer to them by name. Set through setattr: the native enum's type has no
# such attributes to assign for a type checker.
for _name, _method in {"is_black_win": _is_black_win, "is_white_win": _is_white_win, "is_draw": _is_draw,
                       "is_win": _is_win, "is_win_by_declaration": _is_win_by_declaration,
                       "is_win_by_try_rule": _is_win_by_try_rule, "from_str": classmethod(_from_str),
                       "__str__": _str, "__repr__": _repr}.items():
    setattr(GameResult, _name, _method)
del _name, _method


def _path(path: PathLike) -> str:
    return os.fsdecode(path)


def _buffer(data) -> object:
    """A bytes-like object, as rsshogi takes one (bytes, bytearray, a sequence of ints)."""
    if isinstance(data, str):
        raise TypeError("data must be bytes-like, not str")
    try:
        memoryview(data)
        return data
    except TypeError:
        return bytes(data)


def write_sazpack_file(path: PathLike, games: Iterable[SazGame]) -> None:
    """Writes one chunk; the file appears complete or not at all (a temporary is renamed)."""
    _write_sazpack_file(_path(path), games)


def decode_sazpack(data) -> list[SazGame]:
    """Every game of one chunk."""
    return _decode_sazpack(_buffer(data))


def decode_sazpack_file(path: PathLike) -> list[SazGame]:
    """Every game of a file holding one chunk."""
    return _decode_sazpack_file(_path(path))


class IndexedSazGame(NamedTuple):
    """A game and the bytes it occupies in its chunk: ``data[payload_range.start:payload_range.stop]``
    (offsets from the chunk's first byte, as rsshogi's ``deserialize_chunk_indexed``)."""

    game: SazGame
    payload_range: range


def decode_sazpack_indexed(data) -> list[IndexedSazGame]:
    """Every game of one chunk with its payload byte range."""
    return [IndexedSazGame(g, range(b, e)) for g, b, e in _decode_indexed(_buffer(data))]


def decode_sazpack_file_indexed(path: PathLike) -> list[IndexedSazGame]:
    return [IndexedSazGame(g, range(b, e)) for g, b, e in _decode_indexed_file(_path(path))]


@dataclass
class SazColumns:
    """A chunk as columns. Game ``g`` owns rows ``game_offsets[g]:game_offsets[g + 1]``;
    row ``i`` owns policy entries ``policy_offsets[i]:policy_offsets[i + 1]``.
    Moves are MPK1 move16 (``manaka.shogi``), boards MPK1's 96 packed bytes."""

    # per game (G)
    stem: np.ndarray                # (G, 32) uint8 PackedSfen
    game_result: np.ndarray         # (G,) uint8, GameResult values
    termination_reason: np.ndarray  # (G,) uint8
    entering_king_rule: np.ndarray  # (G,) uint8
    game_offsets: np.ndarray        # (G + 1,) int64
    # per position (N)
    packed: np.ndarray              # (N, 96) uint8, the board before `played`
    game: np.ndarray                # (N,) uint32 game index
    ply: np.ndarray                 # (N,) uint32 index in the game, 0 at the stem
    played: np.ndarray              # (N,) uint16 MPK1 move16; 0 for a final special (resign, win...)
    played_move16: np.ndarray       # (N,) uint16 the stored YaneuraOu Move16
    root_wdl: np.ndarray            # (N, 3) uint16 win, draw, loss
    outcome_wdl: np.ndarray         # (N, 3) uint16
    raw_wdl: np.ndarray             # (N, 3) uint16
    raw_mate: np.ndarray            # (N,) uint16
    raw_moves_left: np.ndarray      # (N,) uint16
    plies_left: np.ndarray          # (N,) uint16
    requested_visits: np.ndarray    # (N,) uint32
    target_weight_milli: np.ndarray  # (N,) uint16
    exploration_flags: np.ndarray   # (N,) uint8
    has_mate: np.ndarray            # (N,) uint8 0/1
    mate: np.ndarray                # (N,) int16, 0 where has_mate is 0
    value_q: np.ndarray             # (N,) float32 (win - loss) / 65535 of root_wdl
    value_z: np.ndarray             # (N,) float32 result from the side to move; NaN without outcome
    policy_offsets: np.ndarray      # (N + 1,) int64
    # per policy entry (E)
    mv: np.ndarray                  # (E,) uint16 MPK1 move16
    prior: np.ndarray               # (E,) uint16
    raw_prior: np.ndarray           # (E,) uint16
    visits: np.ndarray              # (E,) uint32
    lower: np.ndarray               # (E,) uint8 0 Loss, 1 Draw, 2 Win
    upper: np.ndarray               # (E,) uint8

    def __len__(self) -> int:
        return len(self.ply)

    @property
    def games(self) -> int:
        return len(self.game_result)


def decode_sazpack_columns(source, *, check_policy_legality: bool = True, threads: int = 0) -> SazColumns:
    """Decodes a chunk (a path, or bytes-like data) into :class:`SazColumns`.

    Each game is replayed from its stem: a stem that is not a position or a
    played move that is not legal raises, naming the game and position; so does
    a policy move that is not legal (``check_policy_legality=False`` only
    requires it to be a move). Games are replayed on ``threads`` threads (0:
    one per core); the arrays, and which error is raised, do not depend on it.
    """
    if isinstance(source, (str, os.PathLike)):
        columns = _decode_columns_file(_path(source), check_policy_legality, threads)
    else:
        columns = _decode_columns(_buffer(source), check_policy_legality, threads)
    return SazColumns(**columns)
