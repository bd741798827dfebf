"""Teacher data: engine-generated corpora and their conversion to MPK1.

The work is C++ (``manaka._core``); these functions release the GIL while it
runs and return the closing summary as a dict (the same object ``manaka
teacher ... --json`` prints). Errors are :class:`manaka.Error` subclasses:
:class:`manaka.EngineError` for an engine that cannot be started or fails
every game, :class:`manaka.InvalidDataError` for a refused row under
``strict=True`` (naming file, row and rule), :class:`manaka.FileError` for
the operating system's refusals.

>>> from manaka import teacher
>>> teacher.generate("/usr/games/fairy-stockfish", "corpus.parquet", games=8, depth=1)
>>> teacher.convert(["corpus.parquet"], "teacher.mpk", eval_coef=600, mate_scale=32000)

:class:`SimpleEngine` is a small USI and UCI client shaped like python-chess's
``chess.engine.SimpleEngine``: ``popen_usi`` / ``popen_uci``,
``analyse(position, Limit(...))`` returning one :class:`PvInfo` per MultiPV
line, ``quit``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Mapping, Optional, Sequence, Tuple, Union

from manaka._core import teacher as _core

__all__ = [
    "convert",
    "fit_coef",
    "generate",
    "Limit",
    "Score",
    "PvInfo",
    "SimpleEngine",
]

PathLike = Union[str, os.PathLike]

# generate()'s defaults, defined once in C++ (teacher/generate.h).
_DEFAULTS = _core.generate_defaults()


def convert(
    corpus: Union[PathLike, Sequence[PathLike]],
    output: PathLike,
    *,
    eval_coef: float,
    mate_scale: int,
    mate_slack: int = 0,
    fv_scale: int = 0,
    columns: Optional[Mapping[str, str]] = None,
    strict: bool = False,
    progress: bool = False,
    threads: int = 0,
    overwrite: bool = False,
) -> dict:
    """Converts teacher corpora (parquet files, ``.jsonl`` files, or
    directories of parquet files) into one MPK1 stream at ``output``.

    ``columns`` maps a field to the column holding it, e.g. ``{"cp": "score"}``.
    Returns the summary: ``rows_read``, ``records_written``, ``refused`` (a
    count per reason), ``first_refusal`` (file, row and detail per reason),
    ``header``, ``effective_slack``, ``mate_threshold``, ``seconds``, ...
    ``threads`` converting threads (0: one per hardware thread). An existing
    ``output`` is replaced only with ``overwrite``, and never when it is an input.
    """
    if isinstance(corpus, (str, os.PathLike)):
        corpus = [corpus]
    inputs = [os.fspath(p) for p in corpus]
    # Numbers go through unconverted: the native side checks their type and
    # range and names the parameter (int(1.5) would quietly be 1).
    return json.loads(_core.convert(inputs, str(output), eval_coef, mate_scale, mate_slack, fv_scale,
                                    dict(columns or {}), bool(strict), bool(progress), threads, bool(overwrite)))


def fit_coef(
    corpus: Union[PathLike, Sequence[PathLike]],
    *,
    mate_scale: int = 32000,
    mate_slack: int = 0,
    columns: Optional[Mapping[str, str]] = None,
    bin_cp: float = 100.0,
    calibration_cp: float = 2000.0,
) -> dict:
    """The eval_coef (cp -> expected result, ``sigmoid(cp / eval_coef)``) a
    corpus's own game results fit by maximum likelihood, as ``manaka teacher
    fit-coef --json`` prints it: ``eval_coef``, its 95% interval ``lo`` ..
    ``hi`` (``hi`` None when unbounded), ``rows``, ``games`` and the
    ``calibration`` curve (cp bins with observed and fitted mean score).
    Mate scores (past ``mate_scale`` - slack) are left out."""
    if isinstance(corpus, (str, os.PathLike)):
        corpus = [corpus]
    return json.loads(_core.fit_coef([os.fspath(p) for p in corpus], mate_scale, mate_slack, dict(columns or {}),
                                     bin_cp, calibration_cp))


def generate(
    engine: PathLike,
    output: PathLike,
    *,
    games: int,
    multipv: int = _DEFAULTS["multipv"],
    depth: Optional[int] = None,
    nodes: Optional[int] = None,
    workers: int = _DEFAULTS["workers"],
    seed: int = _DEFAULTS["seed"],
    opening_plies: int = _DEFAULTS["opening_plies"],
    max_plies: int = _DEFAULTS["max_plies"],
    mate_scale: int = _DEFAULTS["mate_scale"],
    engine_options: Optional[Mapping[str, str]] = None,
    engine_timeout: float = _DEFAULTS["engine_timeout"],
    progress: bool = False,
    overwrite: bool = False,
    first_game: int = 0,
) -> dict:
    """Plays ``games`` engine games and writes the teacher corpus to ``output``
    (parquet). Give ``depth`` or ``nodes``. ``first_game`` I plays games
    [I, I + games), each the same game as in a run from 0. Returns the summary:
    ``games_completed``, ``games_lost`` (engine crashes or stalls),
    ``games_illegal``, ``restarts``, ``positions``, ``results``, ``endings``,
    ``engine_seconds``, ``overhead_seconds``, ``overhead_share``, ...
    """
    if depth is None and nodes is None:
        raise ValueError("generate: give depth or nodes")
    return json.loads(_core.generate(str(engine), str(output), games, multipv, depth, nodes,
                                     workers, seed, opening_plies, max_plies, mate_scale,
                                     {str(k): str(v) for k, v in (engine_options or {}).items()},
                                     engine_timeout, bool(progress), bool(overwrite), first_game))


@dataclass(frozen=True)
class Limit:
    """A search limit: a depth, a node count, a move time in seconds, or any
    of them together (the engine stops at the first it reaches)."""

    depth: Optional[int] = None
    nodes: Optional[int] = None
    time: Optional[float] = None

    def _movetime_ms(self) -> Optional[int]:
        return None if self.time is None else max(1, round(self.time * 1000))


@dataclass(frozen=True)
class Score:
    """A score from the side to move's point of view: ``cp`` centipawns, or
    ``mate``, the signed distance to mate in plies (negative: being mated), in
    both protocols: a UCI engine's ``mate N`` moves is 2N - 1 plies, and
    ``mate -N`` is -2N. When the engine said only ``mate +`` / ``mate -``,
    ``mate`` is +1 / -1 and ``mate_distance_known`` is False."""

    cp: Optional[int] = None
    mate: Optional[int] = None
    mate_distance_known: bool = True

    def is_mate(self) -> bool:
        return self.mate is not None


@dataclass(frozen=True)
class PvInfo:
    """One MultiPV line at the end of a search."""

    multipv: int
    depth: int
    score: Score
    move: str  # the first move of the line, as the engine wrote it (USI or UCI)
    wdl: Optional[Tuple[int, int, int]] = None  # permille, when the engine reports it (UCI_ShowWDL)


class SimpleEngine:
    """A USI or UCI engine process.

    >>> with SimpleEngine.popen_usi("/usr/games/fairy-stockfish", multipv=3) as eng:
    ...     lines = eng.analyse("startpos moves 7g7f", Limit(depth=2))
    ...     lines[0].score, lines[0].move
    >>> with SimpleEngine.popen_uci("/usr/games/stockfish", elo=1500) as eng:
    ...     eng.play("startpos moves e2e4", Limit(time=0.05))
    """

    def __init__(self, native) -> None:
        self._engine = native

    @classmethod
    def popen_usi(cls, path: PathLike, *, multipv: int = 1, options: Optional[Mapping[str, str]] = None,
                  timeout: float = 30.0, search_timeout: float = 60.0) -> "SimpleEngine":
        """Starts the engine and completes the handshake within ``timeout`` seconds."""
        return cls(_core._Engine.start(str(path), multipv,
                                       {str(k): str(v) for k, v in (options or {}).items()},
                                       timeout, search_timeout, "usi"))

    @classmethod
    def popen_uci(cls, path: PathLike, *, multipv: int = 1, options: Optional[Mapping[str, str]] = None,
                  elo: Optional[int] = None, timeout: float = 30.0, search_timeout: float = 60.0) -> "SimpleEngine":
        """Starts a UCI engine and completes the handshake within ``timeout``
        seconds. ``elo`` limits its strength (UCI_LimitStrength, UCI_Elo) and
        must lie in the range the engine advertises."""
        return cls(_core._Engine.start(str(path), multipv,
                                       {str(k): str(v) for k, v in (options or {}).items()},
                                       timeout, search_timeout, "uci",
                                       None if elo is None else int(elo)))

    def _position(self, position: str) -> str:
        word = self._engine.position_word
        if not position.startswith(("startpos", word + " ")):
            position = word + " " + position
        return position

    @property
    def name(self) -> str:
        return self._engine.name

    def new_game(self) -> None:
        self._engine.new_game()

    def analyse(self, position: str, limit: Limit) -> list[PvInfo]:
        """Searches ``position`` ("startpos moves ...", "sfen ... moves ...", or
        a bare SFEN; for UCI "fen ... moves ..." or a bare FEN) and returns its
        MultiPV lines, best first."""
        found = self._engine.search(self._position(position), limit.depth, limit.nodes, limit._movetime_ms())
        out = []
        for line in found["lines"]:
            if line["kind"] == "cp":
                score = Score(cp=line["value"])
            else:
                score = Score(mate=line["value"], mate_distance_known=line["mate_distance_known"])
            out.append(PvInfo(line["multipv"], line["depth"], score, line["move"], line["wdl"]))
        return out

    def play(self, position: str, limit: Limit) -> str:
        """The engine's bestmove token for ``position`` ("(none)" in UCI when
        the side to move has no move)."""
        return self._engine.search(self._position(position), limit.depth, limit.nodes,
                                   limit._movetime_ms())["bestmove"]

    def quit(self) -> None:
        self._engine.quit()

    def __enter__(self) -> "SimpleEngine":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()
