"""``python -m manaka.train pretrain --config FILE [--corpus DIR] [--out PATH] [--epochs N]``.

Options given on the command line replace the config's keys. The summary
(a JSON object) goes to stdout, progress and messages to stderr; a bad
configuration or corpus exits with status 2 and one line naming the problem.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Optional, Sequence

from manaka.train import data
from manaka.train.config import ConfigError, load_config
from manaka.train.network import PolicyValueNet, count_parameters

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m manaka.train", description="Training in PyTorch on manaka's data.")
    sub = p.add_subparsers(dest="command", required=True)
    pre = sub.add_parser("pretrain", help="supervised pre-training on the npz chess corpus, writing pretrained.pt",
                         description="Supervised pre-training on the npz chess corpus (docs/chess-training.md). "
                                     "Writes the spec's pretrained.pt after every epoch.")
    pre.add_argument("--config", required=True, help="TOML configuration (configs/chess-pretrain*.toml)")
    pre.add_argument("--corpus", help="directory of shard_*.npz (replaces the config's corpus)")
    pre.add_argument("--out", help="checkpoint to write (replaces the config's output)")
    pre.add_argument("--epochs", type=int, help="epochs at most (replaces the config's epochs)")
    pre.add_argument("--device", help="auto, cpu, cuda, cuda:1, mps (replaces the config's device)")
    pre.add_argument("--metrics", help="JSON-lines metrics file, '' for none (replaces the config's metrics)")
    mode = pre.add_mutually_exclusive_group()
    mode.add_argument("--resume", action="store_true",
                      help="continue an interrupted run from its last completed epoch (<out>.resume.pt)")
    mode.add_argument("--overwrite", action="store_true", help="start over, replacing an existing output")
    pre.add_argument("--params", action="store_true", help="print the network's parameter count and exit")
    return p


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = load_config(args.config)
        changes: dict = {}
        if args.corpus is not None:
            changes["corpus"] = args.corpus
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
        config = dataclasses.replace(config, **changes)
        if args.params:
            print(json.dumps({"parameters": count_parameters(PolicyValueNet(config.model)),
                              "blocks": config.model.blocks, "channels": config.model.channels}))
            return 0
        from manaka.train.pretrain import pretrain

        result = pretrain(config, resume=args.resume, overwrite=args.overwrite)
    except (ConfigError, FileNotFoundError, FileExistsError, ValueError, data.MissingLoaderError) as e:
        print(f"python -m manaka.train {args.command}: {e}", file=sys.stderr)
        return 2
    print(json.dumps({"output": config.output, "epochs_completed": result.epochs_completed,
                      "best_epoch": result.best_epoch, "best_val_loss": result.best_val_loss,
                      "stopped_early": result.stopped_early, "parameters": result.parameters}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
