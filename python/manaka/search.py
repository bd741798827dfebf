"""PUCT Monte Carlo tree search in C++ with a Python network (docs/search.md).

The search and self-play run on C++ threads without the GIL; the thread that
calls them serves the network: it gathers the leaves the search threads
queue, calls ``evaluate`` on a batch of them (each search gathers
``options.batch_size`` leaves a round; self-play's ``threads`` games share a
call, up to ``threads * batch_size`` rows) and hands the results back.

``evaluate(planes)`` receives an int8 numpy array ``(B, 20, 8, 8)`` (the chess
corpus's planes, docs/chess-position.md) and returns ``(policy_logits,
value)``: ``(B, 4672)`` logits over the policy indices (illegal moves are
ignored: the priors are the softmax over the legal moves only) and ``(B,)``
values in [-1, 1] for the side to move. For shogi the planes are
``(B, 44, 9, 9)`` and the logits ``(B, 11259)`` (docs/shogi-network.md). numpy arrays or CPU/GPU torch tensors
of any float dtype are accepted. ``torch_evaluator(model)`` makes one from a
``PolicyValueNet``; ``uniform_evaluator`` is the network that knows nothing.

``SearchOptions(simulations=50, c_puct=1.5, dirichlet_alpha=0.3,
dirichlet_epsilon=0.25, temperature=1.0, temperature_plies=30, batch_size=16,
threads=1, seed=0)``: out-of-range values raise ``manaka.UsageError`` (a
ValueError) when used, naming the option.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from manaka._core import search as _search

__all__ = [
    "SearchOptions",
    "chess_self_play",
    "chess_search",
    "shogi_search",
    "shogi_self_play",
    "torch_evaluator",
    "uniform_evaluator",
    "CHESS_POLICY_SIZE",
    "SHOGI_POLICY_SIZE",
]

CHESS_POLICY_SIZE: int = _search.CHESS_POLICY_SIZE
SHOGI_POLICY_SIZE: int = _search.SHOGI_POLICY_SIZE

Evaluate = Callable[[np.ndarray], tuple[Any, Any]]


class SearchOptions(_search.SearchOptions):
    """The search's options; every keyword names an attribute (defaults from C++)."""

    def __init__(self, **options: Any) -> None:
        super().__init__()
        for name, value in options.items():
            if name.startswith("_") or not hasattr(self, name) or callable(getattr(self, name)):
                raise TypeError(f"SearchOptions: no option {name!r}")
            setattr(self, name, value)

    def __repr__(self) -> str:
        names = ("simulations", "c_puct", "dirichlet_alpha", "dirichlet_epsilon", "temperature",
                 "temperature_plies", "batch_size", "threads", "exact_batches", "seed")
        return "SearchOptions(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in names) + ")"


def _as_float32(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):  # a torch tensor, on any device
        x = x.detach().float().cpu().numpy()
    return np.ascontiguousarray(x, dtype=np.float32)


def _adapt(evaluate: Evaluate) -> Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]:
    if not callable(evaluate):
        raise TypeError("evaluate: must be callable (planes -> (policy_logits, value))")

    def call(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        out = evaluate(planes)
        if not isinstance(out, tuple) or len(out) != 2:
            raise TypeError(f"evaluate must return (policy_logits, value), not {type(out).__name__}")
        return _as_float32(out[0]), _as_float32(out[1]).reshape(-1)

    return call


def uniform_evaluator(policy_size: int = CHESS_POLICY_SIZE) -> Evaluate:
    """A network that knows nothing: equal logits, value 0."""

    def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = planes.shape[0]
        return np.zeros((n, policy_size), np.float32), np.zeros(n, np.float32)

    return evaluate


def torch_evaluator(model: Any, device: Any = None) -> Evaluate:
    """``evaluate`` running ``model`` (states float32 -> (logits, value)) in eval mode without gradients."""
    import torch

    dev = torch.device(device) if device is not None else next(model.parameters()).device

    def evaluate(planes: np.ndarray) -> tuple[Any, Any]:
        model.eval()
        with torch.inference_mode():
            x = torch.from_numpy(planes).to(dev, torch.float32)
            logits, value = model(x)
        return logits, value

    return evaluate


def chess_self_play(
    evaluate: Evaluate,
    games: int,
    options: SearchOptions | None = None,
    *,
    max_plies: int = 512,
    opening_plies: int = 0,
    first_game: int = 0,
    progress: bool = True,
) -> dict[str, Any]:
    """Plays ``games`` games of chess against itself through the search.

    Returns numpy arrays over every searched position, in game order:
    ``states`` int8 (N, 20, 8, 8), ``move_indices`` int32 (N,) (the move
    played), ``outcomes`` int8 (N,) (z for the side to move: python-chess's
    ``outcome(claim_draw=True)``, or a draw after ``max_plies`` searched
    plies), ``visit_offsets`` int64 (N + 1,), ``visit_indices`` int32 (M,)
    and ``visit_counts`` int32 (M,) (the root's visited moves: position i's
    are ``[visit_offsets[i], visit_offsets[i + 1])``), ``root_values``
    float32 (N,), ``game_offsets`` int64 (G + 1,); the lists ``results``,
    ``terminations`` and ``openings`` (the random opening's UCI moves, not
    recorded as positions); and ``stats`` (the evaluator's batches,
    positions, mean_batch_fill, network_seconds). Game i's noise and moves
    come from (seed, i) alone: with ``threads=1`` a seed gives the same games.
    The games are numbered from ``first_game``: games ``a..b`` of a run are
    ``first_game=a, games=b-a`` (how ``manaka.ray selfplay`` cuts one).
    """
    return _search.chess_self_play(_adapt(evaluate), games, options or SearchOptions(), max_plies=max_plies,
                                   opening_plies=opening_plies, first_game=first_game, progress=progress)


def chess_search(
    evaluate: Evaluate,
    fen: str,
    moves: Sequence[str] = (),
    options: SearchOptions | None = None,
) -> dict[str, Any]:
    """Searches the position after ``moves`` (UCI) from ``fen``, without noise.

    Returns ``move`` (the most visited, UCI), ``visits`` (every root move as
    ``(uci, visits, prior)``), ``value`` (the root's for the side to move),
    ``simulations`` and ``stats``. The history counts: repetitions in
    ``moves`` are seen by the rules and the planes.
    """
    return _search.chess_search(_adapt(evaluate), fen, list(moves), options or SearchOptions())


def shogi_search(
    evaluate: Evaluate,
    sfen: str,
    moves: Sequence[str] = (),
    options: SearchOptions | None = None,
) -> dict[str, Any]:
    """Searches the shogi position after ``moves`` (USI) from ``sfen``, without noise: ``chess_search``'s
    dict with moves in USI. The history counts (sennichite, the repetition plane)."""
    return _search.shogi_search(_adapt(evaluate), sfen, list(moves), options or SearchOptions())


def shogi_self_play(
    evaluate: Evaluate,
    games: int,
    output: str,
    options: SearchOptions | None = None,
    *,
    max_plies: int = 320,
    saz: bool = False,
    overwrite: bool = False,
    first_game: int = 0,
    progress: bool = True,
) -> tuple[dict[str, Any], str]:
    """Plays ``games`` games of shogi against itself and writes them into the directory ``output``.

    ``output/selfplay.mpk`` is an MPK1 stream written by the self-play writer
    (every searched position with its visits, value_q and value_z) and, with
    ``saz``, ``output/selfplay.saz`` one SAZ2 chunk of the same games; the
    directory appears when both are complete. ``evaluate`` gets int8 planes
    ``(B, 44, 9, 9)`` and returns ``(B, 11259)`` logits and ``(B,)`` values.
    The default options use AlphaZero's shogi noise (``dirichlet_alpha``
    0.15). Game i (numbered from ``first_game``) draws its noise and moves
    from (seed, i) alone. Returns the summary as a dict and as the command's text.
    """
    if options is None:
        options = SearchOptions(dirichlet_alpha=0.15)
    import json

    text_json, text = _search.shogi_self_play(_adapt(evaluate), games, options, str(output), max_plies=max_plies,
                                              saz=saz, overwrite=overwrite, first_game=first_game,
                                              progress=progress)
    summary: dict[str, Any] = json.loads(text_json)
    return summary, text
