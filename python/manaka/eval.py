"""Evaluation: a network's games against Stockfish, or against fairy-stockfish in shogi (docs/match.md).

    python -m manaka.eval --game chess --checkpoint PATH --num-games 100 \\
        [--elo 1500] [--movetime S] [--simulations N] [--pgn out.pgn]
    python -m manaka.eval --game chess --checkpoint A.pt --opponent B.pt --num-games 200 [--simulations N]
    python -m manaka.eval --game shogi --checkpoint PATH --num-games 100 \\
        [--engine /usr/games/fairy-stockfish] [--elo N] [--movetime 0.05] [--simulations N] [--csa DIR]

With ``--simulations 0`` (the default) the network plays from its policy:
the legal move with the highest logit. With ``--simulations N`` it plays
through the C++ search (``manaka.search.chess_search``, N simulations a
move, the network evaluating its leaves in batches), without root noise and
always the most visited move (temperature 0): the openings' random plies are
``play_match``'s, so the search plays only after them. Games, the PGN and
the score are :func:`manaka.chess.play_match`'s; this module only loads the
network and prints.

The network comes from ``manaka.train`` (the network and its checkpoints),
imported only here and only when a checkpoint is loaded:
:func:`load_policy` is the one place that knows its API.
"""

from __future__ import annotations

import argparse
import math
import importlib
import os
import pickle
import sys
from typing import Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from manaka import Error, InvalidDataError, UsageError
from manaka import chess
from manaka._atomic import json_text, write_json_atomically
from manaka._output import check_outputs

__all__ = ["load_network", "load_policy", "load_evaluator", "policy_player", "search_player", "format_summary",
           "elo_text", "format_head_to_head", "move_ms", "chess_player", "shogi_player", "ENGINES", "set_torch_threads", "DEFAULT_TORCH_THREADS", "main"]

# planes (20, 8, 8) int8 -> policy logits (4672,) over chess.move_index.
PolicyFn = Callable[[np.ndarray], np.ndarray]
# planes (B, 20, 8, 8) int8 -> (policy logits (B, 4672), value (B,)): the search's evaluate.
EvaluateFn = Callable[[np.ndarray], Tuple[Any, Any]]
# What play_match takes: the game so far -> the move, as a Move or in UCI.
Player = Callable[[chess.Board], Union[chess.Move, str]]


# The engine each game's matches play against by default.
ENGINES = {"chess": "/usr/games/stockfish", "shogi": "/usr/games/fairy-stockfish"}

# torch's CPU threads wherever a network serves the search (eval, self-play, refinement, the recipe, Ray actors):
# its batches (16 leaves) are too small to split, and on a shared CPU torch's own count (one per core) collapses.
# Measured on a 2-core machine, two matches of the shipped network side by side: 3 and 4 games in 31 minutes with
# torch's own count, 7 games each in 4 minutes with 1 (docs/match.md). 0 keeps torch's own count.
DEFAULT_TORCH_THREADS = 1


def set_torch_threads(threads: int) -> None:
    """``torch.set_num_threads(threads)`` when ``threads`` > 0 (0 keeps torch's own count); nothing without torch
    (loading the network says that it is missing)."""
    if threads > 0:
        try:
            import torch
        except ImportError:
            return
        torch.set_num_threads(threads)


def load_network(checkpoint: str, device: str = "cpu") -> Any:
    """The checkpoint's ``best_net`` in eval mode, through ``manaka.train``.

    The contract is ``manaka.train``'s (docs/chess-training.md):
    ``Trainer.load_from_checkpoint(path, device=...)`` reads the
    ``pretrained.pt`` / ``iter_NNNN.pt`` dict, and its ``best_net`` maps
    float32 (B, 20, 8, 8) planes to ``(policy_logits (B, 4672), value)``.
    """
    if not os.path.isfile(checkpoint):
        raise UsageError(f"checkpoint {checkpoint!r}: no such file")
    try:
        # Through sys.modules (import_module), not the package attribute, so a
        # stand-in module installed there (tests) is the one used.
        train = importlib.import_module("manaka.train")
    except ImportError as e:
        raise UsageError(
            f"cannot load {checkpoint!r}: manaka.train (the network and its checkpoints) is not installed "
            f"in this build ({e})"
        ) from e
    try:
        import torch
    except ImportError as e:
        raise UsageError(f"cannot load {checkpoint!r}: torch is not installed (pip install manaka[torch])") from e
    trainer = getattr(train, "Trainer", None)
    if trainer is None or not hasattr(trainer, "load_from_checkpoint"):
        raise UsageError(f"cannot load {checkpoint!r}: manaka.train has no Trainer.load_from_checkpoint")
    try:
        net = trainer.load_from_checkpoint(checkpoint, device=device).best_net
    except Error:  # manaka's own ("<path>: not a manaka checkpoint (...)") says it already
        raise
    except (OSError, ValueError, KeyError, RuntimeError, EOFError, pickle.UnpicklingError) as e:
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]  # torch's run to many lines
        raise InvalidDataError(f"checkpoint {checkpoint!r}: {first} (eval reads manaka.train's "
                               "pretrained.pt or iter_NNNN.pt, not a `manaka.selfplay init` network)") from e
    net.eval()
    return net


def load_policy(checkpoint: str, device: str = "cpu") -> PolicyFn:
    """The checkpoint's network (:func:`load_network`) as a policy function of one position."""
    net = load_network(checkpoint, device)
    import torch

    def policy(planes: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            x = torch.from_numpy(planes).to(torch.float32).unsqueeze(0).to(device)
            out = net(x)
            logits = out[0] if isinstance(out, (tuple, list)) else out
            return logits.reshape(-1).float().cpu().numpy()

    return policy


def load_evaluator(checkpoint: str, device: str = "cpu") -> EvaluateFn:
    """The checkpoint's network (:func:`load_network`) as the search's batched ``evaluate``
    (``manaka.search.torch_evaluator``)."""
    net = load_network(checkpoint, device)
    from manaka import search

    return search.torch_evaluator(net, device)


def _checkpoint_config(checkpoint: str) -> Dict[str, Any]:
    """The ``config`` dict a checkpoint carries, or ``{}`` (none, or unreadable: load_network, which
    loads it next, names the problem)."""
    if not os.path.isfile(checkpoint):
        return {}
    try:
        import torch

        raw = torch.load(checkpoint, map_location="cpu", weights_only=True)
    except Exception:
        return {}
    config = raw.get("config") if isinstance(raw, dict) else None
    return config if isinstance(config, dict) else {}


def play_settings(checkpoint: str) -> Dict[str, Any]:
    """The search settings a checkpoint carries for play (``config["play"]``, ``manaka.train``'s
    ``PlayConfig``: ``simulations``, ``batch_size``, ``c_puct``), or ``{}`` when it carries none."""
    play = _checkpoint_config(checkpoint).get("play")
    return dict(play) if isinstance(play, dict) else {}


def checkpoint_game(checkpoint: str) -> str:
    """The game a checkpoint's network plays (its ``config["game"]``; chess when it names none)."""
    game = _checkpoint_config(checkpoint).get("game", "chess")
    return game if game in ("chess", "shogi") else "chess"


def _report(args: argparse.Namespace, payload: Dict[str, Any], text: str) -> None:
    """The match's end: ``--json -`` prints the JSON on stdout (the text goes to stderr), ``--json FILE``
    writes it there; the text summary is printed either way."""
    if args.json == "-":
        print(text, file=sys.stderr)
        print(json_text(payload))
        return
    if args.json:
        write_json_atomically(args.json, payload)
    print(text)


def _play_options(simulations: int, seed: int, batch_size: int, threads: int, c_puct: Optional[float]) -> Any:
    """The search's settings for play: no root noise, temperature 0 (the most visited move)."""
    from manaka import search

    options = search.SearchOptions()
    options.simulations = simulations
    options.dirichlet_epsilon = 0.0
    options.temperature = 0.0
    options.temperature_plies = 0
    options.batch_size = max(1, min(batch_size, simulations))
    options.threads = threads
    options.seed = seed
    if c_puct is not None:
        options.c_puct = c_puct
    return options


def search_player(evaluate: EvaluateFn, simulations: int, *, seed: int = 0, batch_size: int = 16,
                  threads: int = 1, c_puct: Optional[float] = None) -> Player:
    """A player for play_match: the search's move (``manaka.search.chess_search``) from the game so far,
    with ``simulations`` a move, no Dirichlet noise and temperature 0 (the most visited move)."""
    try:
        search = importlib.import_module("manaka.search")
    except ImportError as e:
        raise UsageError(f"--simulations {simulations}: manaka.search is not in this build ({e})") from e
    options = _play_options(simulations, seed, batch_size, threads, c_puct)

    def play(board: chess.Board) -> str:
        root = board.root()
        return search.chess_search(evaluate, root.fen(), [str(m) for m in board.move_stack], options)["move"]

    return play


def policy_player(policy: PolicyFn) -> Player:
    """A player for play_match: the legal move whose policy logit is highest
    (ties to the first in generation order)."""

    def play(board: chess.Board) -> chess.Move:
        logits = np.asarray(policy(chess.encode_planes(board))).reshape(-1)
        if logits.shape[0] != chess.POLICY_SIZE:
            raise ValueError(f"the policy has {logits.shape[0]} logits; expected {chess.POLICY_SIZE}")
        moves = board.legal_moves
        indices = [chess.move_index(board, m) for m in moves]
        return moves[int(np.argmax(logits[indices]))]

    return play


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v)


def _unsigned_zero(v: Any) -> Any:
    return v + 0.0 if _finite(v) else v  # an even score's Elo is -0.0 in floating point: "+0.0", not "-0.0"


def elo_text(s: Dict[str, Any], digits: int = 1) -> str:
    """A score dict's Elo difference and its 95% interval as text, never ``inf``: a score of 0 or 1 has no
    finite Elo ("n/a at score 0"), and an interval bound at a score of 0 or 1 (or null, as the JSON
    writes it) is unbounded on that side ("< +114.4", "> -208.5"; "n/a" when neither bound is finite)."""
    e, lo, hi = (_unsigned_zero(s.get(k)) for k in ("elo_diff", "elo_diff_low", "elo_diff_high"))
    point = f"{e:+.{digits}f}" if _finite(e) else f"n/a at score {s['score']:g}"
    if _finite(lo) and _finite(hi):
        interval = f"{lo:+.{digits}f} .. {hi:+.{digits}f}"
    elif _finite(hi):
        interval = f"< {hi:+.{digits}f}"
    elif _finite(lo):
        interval = f"> {lo:+.{digits}f}"
    else:
        interval = "n/a"
    return f"{point} (95%: {interval})"


def format_summary(s: Dict[str, Any]) -> str:
    """The closing lines of the command: W/D/L, score, Elo with its interval,
    and the spec's criterion."""
    lines = [
        f"engine: {s['engine']} at UCI_Elo {s['engine_elo']}, movetime {s['movetime']:g} s",
        f"games: {s['num_games']}  wins {s['wins']}  draws {s['draws']}  losses {s['losses']}",
        f"score: {s['score']:.3f}  Elo difference {elo_text(s)}",
        f"win rate: {s['win_rate']:.3f}  criterion win_rate >= {chess.PASS_WIN_RATE:.2f}: "
        + ("PASS" if s["passed"] else "FAIL"),
    ]
    if s.get("pgn"):
        lines.append(f"pgn: {s['pgn']}")
    return "\n".join(lines)


def move_ms(game: Dict[str, Any], first: str = "white") -> Optional[float]:
    """The network's mean milliseconds a move in one game of a match (its ``player_seconds`` over the moves it
    made: the plies after the random opening on its turns; ``first`` is the colour that moves first, black in
    shogi), or None when it made none."""
    start, plies = int(game.get("opening_plies", 0)), int(game["plies"])
    parity = 0 if game["player_color"] == first else 1
    moves = sum(1 for i in range(start, plies) if i % 2 == parity)
    return 1000.0 * float(game["player_seconds"]) / moves if moves else None


def _ms_text(game: Dict[str, Any], first: str = "white") -> str:
    ms = move_ms(game, first)
    return f"{ms:.0f} ms a move" if ms is not None else "no move"


def _progress(total: int) -> Callable[[Dict[str, Any], Dict[str, Any]], None]:
    def report(game: Dict[str, Any], score: Dict[str, Any]) -> None:
        print(
            f"game {game['index'] + 1}/{total}: network {game['player_color']} {game['result']} "
            f"({game['termination']}, {game['plies']} plies, {_ms_text(game)})  +{score['wins']} "
            f"={score['draws']} -{score['losses']}  score {score['score']:.3f}",
            file=sys.stderr,
            flush=True,
        )

    return report


def shogi_search_player(evaluate: EvaluateFn, simulations: int, *, seed: int = 0, batch_size: int = 16,
                        threads: int = 1, c_puct: Optional[float] = None) -> Callable[[list], str]:
    """A player for ``play_shogi_match``: the C++ search's most visited move (``manaka.search.shogi_search``)
    after the game's USI moves, ``simulations`` a move, no noise, temperature 0."""
    from manaka import search

    options = _play_options(simulations, seed, batch_size, threads, c_puct)
    start = _SHOGI_START

    def play(moves: list) -> str:
        return search.shogi_search(evaluate, start, list(moves), options)["move"]

    return play


_SHOGI_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def shogi_policy_player(net: Any, device: str = "cpu") -> Callable[[list], str]:
    """A player for ``play_shogi_match``: the legal move whose policy logit is highest."""
    import torch

    from manaka import shogi
    from manaka._core import shogi as core

    def play(moves: list) -> str:
        board = shogi.Board()
        for m in moves:
            board.push_usi(m)
        sfen = board.sfen()
        planes = torch.from_numpy(core.encode_planes(sfen)[None]).to(device, torch.float32)
        with torch.inference_mode():
            logits = net(planes)[0][0].cpu().numpy()
        legal = [str(m) for m in board.legal_moves]
        return legal[int(np.argmax([logits[core.move_index(sfen, m)] for m in legal]))]

    return play


def chess_player(checkpoint: str, simulations: int, *, seed: int = 0, batch_size: int = 16, c_puct: float = 1.5,
                 threads: int = 1, device: str = "cpu") -> Player:
    """The chess checkpoint's player for ``play_match``: the search with ``simulations`` a move, or the raw
    policy's best move with 0."""
    if simulations > 0:
        return search_player(load_evaluator(checkpoint, device), simulations, seed=seed, batch_size=batch_size,
                             threads=threads, c_puct=c_puct)
    return policy_player(load_policy(checkpoint, device))


def shogi_player(checkpoint: str, simulations: int, *, seed: int = 0, batch_size: int = 16, c_puct: float = 1.5,
                 threads: int = 1, device: str = "cpu") -> Callable[[list], str]:
    """The shogi checkpoint's player for ``play_shogi_match``: the search with ``simulations`` a move, or the raw
    policy's best move with 0. InvalidDataError when the file is not a shogi checkpoint."""
    from manaka.selfplay import load_network as load_shogi_network

    try:
        net = load_shogi_network(checkpoint, "shogi", device)
    except (OSError, pickle.UnpicklingError, RuntimeError, KeyError) as e:
        raise InvalidDataError(f"{checkpoint}: not a shogi checkpoint of manaka.train ({type(e).__name__})") \
            from None
    if simulations > 0:
        from manaka import search

        return shogi_search_player(search.torch_evaluator(net, device), simulations, seed=seed,
                                   batch_size=batch_size, threads=threads, c_puct=c_puct)
    return shogi_policy_player(net, device)


def _score_lines(s: Dict[str, Any], view: str = "") -> list:
    """W/D/L, and the score with its interval and the Elo difference."""
    return [f"games: {s['num_games']}  wins {s['wins']}  draws {s['draws']}  losses {s['losses']}{view}",
            f"score: {s['score']:.3f} (95%: {s['score_low']:.3f} .. {s['score_high']:.3f})  Elo difference "
            f"{elo_text(s)}"]


def _shogi_summary(s: Dict[str, Any]) -> str:
    elo = f"UCI_Elo {s['engine_elo']}" if s["engine_elo"] is not None else "full strength"
    lines = [f"engine: {s['engine']} at {elo}, movetime {s['movetime']:g} s", *_score_lines(s)]
    if s.get("csa"):
        lines.append(f"csa: {s['csa']}/1.csa .. {s['num_games']}.csa")
    return "\n".join(lines)


def _json_file(args: argparse.Namespace) -> Optional[str]:
    return None if args.json == "-" else args.json


def _shogi_main(args: argparse.Namespace) -> int:
    """``--game shogi``: the match against fairy-stockfish (match/shogi_match.h), CSA records."""
    from manaka._core import match

    engine = args.engine or ENGINES["shogi"]
    if args.pgn:
        raise UsageError("--pgn is for chess; a shogi match writes CSA records with --csa DIR")
    check_outputs({"--csa": args.csa, "--json": _json_file(args)}, [args.checkpoint, engine], args.overwrite)
    s = _side_settings(args.checkpoint, args)
    simulations, batch, c_puct = s["simulations"], s["search_batch"], s["c_puct"]
    player = shogi_player(args.checkpoint, simulations, seed=args.seed, batch_size=batch, c_puct=c_puct,
                          threads=args.search_threads, device=args.device)
    total = args.num_games

    def progress(game: Dict[str, Any], score: Dict[str, Any]) -> None:
        result = {1.0: "win", 0.5: "draw", 0.0: "loss"}[game["player_score"]]
        print(f"game {game['index'] + 1}/{total}: network {game['player_color']} {result} ({game['termination']}, "
              f"{game['plies']} plies, {_ms_text(game, 'black')})  "
              f"+{score['wins']} ={score['draws']} -{score['losses']}  score {score['score']:.3f}",
              file=sys.stderr, flush=True)

    summary = match.play_shogi_match(
        player, engine, args.num_games, elo=args.elo, movetime=args.movetime if args.movetime is not None else 0.05,
        seed=args.seed, opening_plies=args.opening_plies, max_plies=args.max_plies, csa=args.csa,
        overwrite=args.overwrite, progress=progress,
        player_name=f"manaka {os.path.basename(args.checkpoint)}" + (f" search {simulations}" if simulations else ""))
    _report(args, {**summary, "checkpoint": args.checkpoint, "simulations": simulations, "search_batch": batch,
                   "c_puct": c_puct}, _shogi_summary(summary))
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m manaka.eval",
                                description="A network's games against Stockfish (chess) or fairy-stockfish (shogi).")
    p.add_argument("--game", choices=["chess", "shogi"], default=None,
                   help="the game (default: the one the checkpoint's network plays)")
    p.add_argument("--checkpoint", required=True, help="the network's checkpoint (manaka.train)")
    p.add_argument("--opponent", metavar="B.pt",
                   help="chess: play the checkpoint's network against this one instead of an engine, each with "
                        "its own play settings (--simulations, --search-batch and --c-puct, when given, set both "
                        "sides); the score is the first network's")
    p.add_argument("--num-games", "--games", dest="num_games", type=int, default=100,
                   help="games to play, in pairs with colours swapped (--games is the same)")
    p.add_argument("--elo", type=int, default=None,
                   help=f"UCI_Elo (chess: {chess.MIN_ELO}..{chess.MAX_ELO}, default 1500; shogi: the engine's range, "
                        "default full strength)")
    p.add_argument("--movetime", type=float, default=None,
                   help="the engine's seconds a move (default: chess 0.1, shogi 0.05)")
    p.add_argument("--csa", help="shogi: write each game as DIR/<n>.csa (the directory appears when the match is "
                                 "complete)")
    p.add_argument("--max-plies", type=int, default=320, help="shogi: a game reaching this ply is a draw")
    p.add_argument("--simulations", type=int, default=None,
                   help="search simulations a move (0: the raw policy's best move); default: the checkpoint's "
                        "play settings (config.play.simulations), else 0")
    p.add_argument("--search-batch", type=int, default=None,
                   help="leaf positions per network call in the search (default: the checkpoint's, else 16)")
    p.add_argument("--c-puct", type=float, default=None, help="PUCT's constant (default: the checkpoint's, else 1.5)")
    p.add_argument("--search-threads", type=int, default=1, help="search threads")
    p.add_argument("--pgn", help="write every game here (complete when the match is)")
    p.add_argument("--overwrite", action="store_true", help="replace an existing --pgn or --json")
    p.add_argument("--json", nargs="?", const="-", metavar="FILE",
                   help="the summary and the match's settings as JSON: alone, on stdout (the text summary goes to "
                        "stderr); with FILE, written there (complete when the match is)")
    p.add_argument("--engine", default=None,
                   help="the engine (default: /usr/games/stockfish for chess, /usr/games/fairy-stockfish for shogi)")
    p.add_argument("--seed", type=int, default=0, help="the openings' seed")
    p.add_argument("--opening-plies", type=int, default=4)
    p.add_argument("--device", default="cpu", help="torch device of the network")
    p.add_argument("--torch-threads", type=int, default=DEFAULT_TORCH_THREADS,
                   help=f"torch's CPU threads for the network (default {DEFAULT_TORCH_THREADS}: the search's "
                        "batches are too small to split, and torch's own count collapses on a shared CPU; "
                        "0: torch's own count)")
    return p


def _side_settings(checkpoint: str, args: argparse.Namespace) -> Dict[str, Any]:
    """One side's search settings: --simulations, --search-batch, --c-puct where given, else the checkpoint's
    play settings (config.play), else 0 simulations (the raw policy), 16 leaves, c_puct 1.5."""
    play = play_settings(checkpoint) if os.path.isfile(checkpoint) else {}
    s = {"simulations": args.simulations if args.simulations is not None else int(play.get("simulations", 0)),
         "search_batch": args.search_batch if args.search_batch is not None else int(play.get("batch_size", 16)),
         "c_puct": args.c_puct if args.c_puct is not None else float(play.get("c_puct", 1.5))}
    if args.simulations is None and s["simulations"] > 0:
        print(f"eval: {os.path.basename(checkpoint)}'s play settings: {s['simulations']} simulations a move, "
              f"{s['search_batch']} leaves a round, c_puct {s['c_puct']:g}", file=sys.stderr)
    return s


def _player(checkpoint: str, s: Dict[str, Any], args: argparse.Namespace) -> Player:
    return chess_player(checkpoint, s["simulations"], seed=args.seed, batch_size=s["search_batch"],
                        c_puct=s["c_puct"], threads=args.search_threads, device=args.device)


def _side_name(checkpoint: str, s: Dict[str, Any], other: str = "") -> str:
    """The PGN's name of a side: its file name (its path where both sides' file names are the same)."""
    name = checkpoint if os.path.basename(checkpoint) == os.path.basename(other) else os.path.basename(checkpoint)
    return f"manaka {name}" + (f" search {s['simulations']}" if s["simulations"] > 0 else "")


def format_head_to_head(s: Dict[str, Any]) -> str:
    lines = [f"{s['player']} against {s['opponent']}", *_score_lines(s, " (the first's view)")]
    if s.get("pgn"):
        lines.append(f"pgn: {s['pgn']}")
    return "\n".join(lines)


def _head_to_head_main(args: argparse.Namespace) -> int:
    """``--opponent B.pt``: the checkpoint's network against another, each with its own play settings, the
    same --simulations, --search-batch and --c-puct for both where given."""
    if args.game == "shogi" or checkpoint_game(args.opponent) == "shogi":
        raise UsageError("--opponent: head-to-head matches are for chess networks")
    if args.engine or args.elo is not None or args.movetime is not None or args.csa:
        raise UsageError("--opponent plays two networks: --engine, --elo, --movetime and --csa are for engine "
                         "matches")
    check_outputs({"--pgn": args.pgn, "--json": _json_file(args)}, [args.checkpoint, args.opponent], args.overwrite)
    mine, theirs = _side_settings(args.checkpoint, args), _side_settings(args.opponent, args)
    names = _side_name(args.checkpoint, mine, args.opponent), _side_name(args.opponent, theirs, args.checkpoint)
    summary = chess.play_head_to_head(
        _player(args.checkpoint, mine, args), _player(args.opponent, theirs, args), args.num_games,
        seed=args.seed, opening_plies=args.opening_plies, pgn=args.pgn, overwrite=args.overwrite,
        progress=_progress(args.num_games), player_name=names[0], opponent_name=names[1])
    summary["player"] = names[0]
    _report(args, {**summary, "checkpoint": args.checkpoint, "opponent_checkpoint": args.opponent,
                   "player_settings": mine, "opponent_settings": theirs, "seed": args.seed,
                   "opening_plies": args.opening_plies}, format_head_to_head(summary))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.c_puct is not None and not args.c_puct > 0:
            raise UsageError(f"--c-puct: {args.c_puct} must be positive")
        if args.simulations is not None and args.simulations < 0:
            raise UsageError(f"--simulations: {args.simulations} is out of range; give 0 or more")
        if (args.search_batch is not None and args.search_batch < 1) or args.search_threads < 1:
            raise UsageError("--search-batch and --search-threads must be at least 1")
        if args.torch_threads < 0:
            raise UsageError(f"--torch-threads: {args.torch_threads} is out of range; give 0 or more")
        set_torch_threads(args.torch_threads)
        if args.game is None:
            args.game = checkpoint_game(args.checkpoint)
        if args.opponent:
            return _head_to_head_main(args)
        if args.game == "shogi":
            return _shogi_main(args)
        if args.csa:
            raise UsageError("--csa is for shogi; a chess match writes PGN with --pgn")
        args.engine = args.engine or ENGINES["chess"]
        args.elo = 1500 if args.elo is None else args.elo
        args.movetime = 0.1 if args.movetime is None else args.movetime
        if not chess.MIN_ELO <= args.elo <= chess.MAX_ELO:
            raise UsageError(f"--elo: {args.elo} is out of range {chess.MIN_ELO}..{chess.MAX_ELO}")
        # The checkpoint and the engine are read; --overwrite never replaces them.
        check_outputs({"--pgn": args.pgn, "--json": _json_file(args)}, [args.checkpoint, args.engine], args.overwrite)
        mine = _side_settings(args.checkpoint, args)
        args.simulations, args.search_batch, args.c_puct = mine["simulations"], mine["search_batch"], mine["c_puct"]
        player = _player(args.checkpoint, mine, args)
        summary = chess.play_match(
            player,
            args.engine,
            args.num_games,
            elo=args.elo,
            movetime=args.movetime,
            seed=args.seed,
            opening_plies=args.opening_plies,
            pgn=args.pgn,
            overwrite=args.overwrite,
            progress=_progress(args.num_games),
            player_name=f"manaka {os.path.basename(args.checkpoint)}"
            + (f" search {args.simulations}" if args.simulations > 0 else ""),
        )
    except Error as e:
        print(f"manaka eval: {e}", file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    _report(args, {**summary, "checkpoint": args.checkpoint, "simulations": args.simulations,
                   "search_batch": args.search_batch, "c_puct": args.c_puct, "seed": args.seed,
                   "opening_plies": args.opening_plies}, format_summary(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
