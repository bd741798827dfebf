"""The training commands (docs/chess-training.md)::

    python -m manaka.train pretrain --config FILE [--corpus DIR] [-o PATH] [--epochs N] ...
    python -m manaka.train pretrain --game shogi --config FILE [--corpus SHARDS] [--validation SHARDS] ...
    python -m manaka.train [train] --game chess --config FILE [--resume-from pretrained.pt] [--run-dir DIR] ...
    python -m manaka.train recipe --config configs/chess-cpu.toml [--run-dir DIR]
    python -m manaka.train recipe --config configs/shogi-cpu.toml [--run-dir DIR]

``pretrain`` is phase 2 (pretrain.py; shogi: docs/shogi-training.md); ``train`` (the word may be left
out) is phase 3, the refinement (refine.py). Options given
on the command line replace the config's keys. The summary (a JSON object)
goes to stdout, progress and messages to stderr; a bad configuration, corpus
or checkpoint exits with status 2 and one line naming the problem.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path
from typing import Optional, Sequence

from manaka import Error
from manaka._atomic import json_text
from manaka.train import data
from manaka.train.config import ConfigError, load_config, load_refine_config
from manaka.train.network import PolicyValueNet, count_parameters

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m manaka.train", description="Training in PyTorch on manaka's data.",
                                epilog="Without a command, the arguments are train's: python -m manaka.train "
                                       "--game chess --config configs/chess-refine.toml --resume-from pretrained.pt")
    sub = p.add_subparsers(dest="command", required=True)
    pre = sub.add_parser("pretrain", help="supervised pre-training: the npz chess corpus, or shogi shards",
                         description="Supervised pre-training on the npz chess corpus (docs/chess-training.md) "
                                     "or on shogi parquet shards from manaka pack (docs/shogi-training.md). "
                                     "Writes the checkpoint after every epoch.")
    pre.add_argument("--game", choices=["chess", "shogi"],
                     help="the game (replaces the config's game; chess unless the config says shogi)")
    pre.add_argument("--config", required=True,
                     help="TOML configuration (configs/chess-pretrain*.toml, configs/shogi-*.toml)")
    pre.add_argument("--corpus", help="chess: directory of shard_*.npz; shogi: the training shards (a "
                                      "directory, a glob or a file of manaka pack's); replaces the config's corpus")
    pre.add_argument("--validation", help="shogi: the validation shards, apart from the training ones "
                                          "(replaces the config's validation)")
    pre.add_argument("-o", "--output", "--out", dest="out",
                     help="checkpoint to write (replaces the config's output; --out is the same)")
    pre.add_argument("--epochs", type=int, help="epochs at most (replaces the config's epochs)")
    pre.add_argument("--device", help="auto, cpu, cuda, cuda:1, mps (replaces the config's device)")
    pre.add_argument("--metrics", help="JSON-lines metrics file, '' for none (replaces the config's metrics)")
    mode = pre.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="continue an interrupted run from its last completed epoch (<out>.resume.pt)")
    mode.add_argument("--overwrite", action="store_true", help="start over, replacing an existing output")
    pre.add_argument("--params", action="store_true", help="print the network's parameter count and exit")
    ref = sub.add_parser("train", help="AlphaZero refinement from pretrained.pt (self-play through the search)",
                         description="AlphaZero refinement (docs/chess-training.md, \"Refinement\"): self-play with "
                                     "best_net, candidate_net trained on the latest self-play, "
                                     "checkpoints_refine/iter_NNNN.pt each iteration. Re-run the same command to "
                                     "resume a stopped run from its newest checkpoint.")
    ref.add_argument("--game", choices=["chess"], default="chess", help="the game (chess, the only one refined today)")
    ref.add_argument("--config", required=True, help="TOML configuration (configs/chess-refine*.toml)")
    ref.add_argument("--resume-from", help="the checkpoint to start from (pretrained.pt); not read once the run "
                                           "directory has a checkpoint of its own")
    ref.add_argument("--run-dir", help="where self-play, checkpoints and metrics go (replaces the config's run_dir)")
    ref.add_argument("--iterations", type=int, help="iterations after the starting checkpoint's (replaces the "
                                                    "config's iterations)")
    ref.add_argument("--games", type=int, help="self-play games per iteration (replaces games_per_iteration)")
    ref.add_argument("--simulations", type=int, help="search simulations a move (replaces search.simulations)")
    ref.add_argument("--device", help="auto, cpu, cuda, cuda:1, mps (replaces the config's device)")
    ref.add_argument("--metrics", help="JSON-lines metrics file, '' for none (replaces the config's metrics)")
    rec = sub.add_parser("recipe", help="the whole recipe: corpus, pre-training, optional refinement, evaluation",
                         description="Corpus, pre-training, the optional refinement (chess) and the evaluation "
                                     "against Stockfish or fairy-stockfish, each phase skipped when complete and "
                                     "continued when interrupted (docs/chess-training.md and "
                                     "docs/shogi-training.md, \"The recipe\"). Re-run the same command to resume.")
    rec.add_argument("--config", required=True,
                     help="TOML recipe (configs/chess-cpu.toml; configs/shogi-cpu.toml: its top-level game)")
    rec.add_argument("--run-dir", help="where every phase writes (replaces the config's run_dir)")
    rec.add_argument("--model-out", help="copy the network here as a small checkpoint (replaces model_out)")
    rec.add_argument("--device", help="torch device of pre-training (replaces pretrain.device)")
    return p


_COMMANDS = ("pretrain", "train", "recipe")


def _recipe(args: argparse.Namespace) -> int:
    from manaka import Error
    from manaka.train.recipe import RecipeError, format_summary, load_recipe_config, run_recipe

    try:
        config = load_recipe_config(args.config)
        if args.run_dir is not None:
            config.run_dir = args.run_dir
        if args.model_out is not None:
            config.model_out = args.model_out
        if args.device is not None:
            config.pretrain = dataclasses.replace(config.pretrain, device=args.device)
        if config.model_out:  # replaced each time the recipe completes, but never the config it reads
            from manaka._output import check_outputs

            out = Path(config.model_out)
            check_outputs({"--model-out": out, "--model-out's card": out.with_suffix(".json")}, [args.config],
                          overwrite=True)
        summary = run_recipe(config)
    except (ConfigError, RecipeError, FileNotFoundError, FileExistsError, ValueError, data.MissingLoaderError,
            Error) as e:
        print(f"python -m manaka.train recipe: {e}", file=sys.stderr)
        return 2 if isinstance(e, ConfigError) else 1
    print(format_summary(summary), file=sys.stderr)
    print(json_text(summary))
    return 0


def _refine(args: argparse.Namespace) -> int:
    config = load_refine_config(args.config)
    changes: dict = {}
    for option, key in (("run_dir", "run_dir"), ("iterations", "iterations"), ("games", "games_per_iteration"),
                         ("device", "device"), ("metrics", "metrics")):
        value = getattr(args, option)
        if value is not None:
            if isinstance(value, int) and value < 1:
                raise ConfigError(f"--{option.replace('_', '-')} must be at least 1, got {value}")
            changes[key] = value
    config = dataclasses.replace(config, **changes)
    if args.simulations is not None:
        if args.simulations < 1:
            raise ConfigError(f"--simulations must be at least 1, got {args.simulations}")
        config = dataclasses.replace(config, search=dataclasses.replace(config.search,
                                                                        simulations=args.simulations))
    from manaka._output import check_outputs
    from manaka.train.refine import refine

    check_outputs({"--metrics": config.metrics}, [args.config, args.resume_from], overwrite=True)
    result = refine(config, args.resume_from)
    print(json_text({"run_dir": config.run_dir, "first_iteration": result.first_iteration,
                      "last_iteration": result.last_iteration, "checkpoint": result.checkpoint,
                      "iterations_run": len(result.history)}))
    return 0


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in _COMMANDS and argv[0] not in ("-h", "--help"):
        argv.insert(0, "train")  # the spec's spelling: python -m manaka.train --game chess ...
    args = _parser().parse_args(argv)
    if args.command == "recipe":
        return _recipe(args)
    if args.command == "train":
        try:
            return _refine(args)
        except (ConfigError, FileNotFoundError, FileExistsError, ValueError, ImportError) as e:
            print(f"python -m manaka.train train: {e}", file=sys.stderr)
            return 2
    try:
        config = load_config(args.config)
        changes: dict = {}
        if args.game is not None:
            changes["game"] = args.game
        if args.corpus is not None:
            changes["corpus"] = args.corpus
        if args.validation is not None:
            changes["validation"] = args.validation
        if args.out is not None:
            changes["output"] = args.out
        if args.epochs is not None:
            if args.epochs < 1:
                raise ConfigError(f"--epochs must be at least 1, got {args.epochs}")
            changes["epochs"] = args.epochs
        if args.device is not None:
            changes["device"] = args.device
        if args.metrics is not None:
            changes["metrics"] = args.metrics
        from manaka.train.config import config_from_dict, config_to_dict

        config = config_from_dict({**config_to_dict(config), **changes})  # checked again with the changes
        if args.params:
            print(json_text({"parameters": count_parameters(PolicyValueNet(config.model, config.game)),
                              "blocks": config.model.blocks, "channels": config.model.channels}))
            return 0
        from manaka.train.pretrain import overlap_summary, pretrain

        result = pretrain(config, resume=args.resume, overwrite=args.overwrite, inputs=[args.config])
    except (ConfigError, FileNotFoundError, FileExistsError, ValueError, data.MissingLoaderError,
            Error) as e:  # UsageError and InvalidDataError too
        print(f"python -m manaka.train {args.command}: {e}", file=sys.stderr)
        return 2
    summary = {"game": config.game, "output": config.output, "epochs_completed": result.epochs_completed,
               "best_epoch": result.best_epoch, "best_val_loss": result.best_val_loss,
               "stopped_early": result.stopped_early, "parameters": result.parameters}
    if result.history:
        best = next(h for h in result.history if h["epoch"] == result.best_epoch)
        summary.update({"val_top1": best["val_top1"], "val_value_mse": best["val_value_mse"],
                        "val_policy_ce": best["val_policy_ce"]})
    if result.data:
        o = result.data["overlap"]
        summary["train_rows"] = result.data["train"]["rows"]
        summary["validation_rows"] = result.data["validation"]["rows"]
        summary["overlap"] = overlap_summary(o)
        summary["value_sign"] = result.data["value_sign"]
        summary["conventions"] = {k: v for k, v in result.data["train"].items() if k not in ("rows", "shards", "first")}
    print(json_text(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())
