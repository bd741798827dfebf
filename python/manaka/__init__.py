"""manaka: board-game play into neural-network training data.

The formats, rules and loaders are C++ (``manaka._core``); these modules are
thin re-exports with a Python surface.
"""

from manaka._core import EngineError, Error, FileError, InvalidDataError, TruncatedError, UsageError
from manaka import chess, npz, sazpack, shards, shogi, stream, teacher

__all__ = [
    "Error",
    "UsageError",
    "InvalidDataError",
    "TruncatedError",
    "FileError",
    "EngineError",
    "shogi",
    "stream",
    "shards",
    "sazpack",
    "teacher",
    "chess",
    "npz",
]
__version__ = "0.1.0"
