"""Self-play with a PyTorch network through the C++ search (docs/search.md).

``manaka shogi selfplay --checkpoint PATH -o DIR --games N`` checks its
options and runs this module with them as one JSON object; the module loads
the checkpoint's ``best_net`` and calls ``manaka.search.shogi_self_play``.

A checkpoint has the keys of ``pretrained.pt`` (docs/chess-training.md); its
``config`` says the game (``"game"``, chess when absent) and the network's
shape (``"model"``). To start shogi self-play from a network that knows
nothing::

    python -m manaka.selfplay init --game shogi -o shogi-init.pt [--blocks 6 --channels 64 --seed 0]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

import manaka
from manaka import search
from manaka._atomic import json_text

__all__ = ["initial_checkpoint", "load_network", "main"]


def load_network(path: str | Path, game: str, device: str = "cpu") -> Any:
    """The checkpoint's ``best_net`` as a ``PolicyValueNet`` of ``game``, in eval mode on ``device``."""
    from manaka.train import checkpoint
    from manaka.train.config import ModelConfig
    from manaka.train.network import PolicyValueNet

    ckpt = checkpoint.load(path)  # not a checkpoint: manaka.InvalidDataError naming the path
    if "best_net" not in ckpt:
        raise manaka.InvalidDataError(f"{path}: not a manaka checkpoint (no best_net)")
    config = ckpt.get("config") or {}
    found = config.get("game", "chess")
    if found != game:
        raise manaka.UsageError(f"{path}: a network for {found}, not {game} (config['game'])")
    fields = {f.name for f in dataclasses.fields(ModelConfig)}
    model = ModelConfig(**{k: v for k, v in (config.get("model") or {}).items() if k in fields})
    net = PolicyValueNet(model, game)
    net.load_state_dict(ckpt["best_net"])
    return net.to(device).eval()


def initial_checkpoint(game: str, model: Any, seed: int = 0) -> dict[str, Any]:
    """A checkpoint of an untrained network in ``pretrained.pt``'s keys (iteration 0)."""
    import torch

    from manaka.train.checkpoint import pretrained_checkpoint
    from manaka.train.network import PolicyValueNet

    torch.manual_seed(seed)
    net = PolicyValueNet(model, game)
    optimizer = torch.optim.AdamW(net.parameters())
    config = {"game": game, "model": dataclasses.asdict(model), "seed": seed}
    return pretrained_checkpoint(config, net.state_dict(), optimizer.state_dict(), 0)


def _device(name: str) -> str:
    if name != "auto":
        return name
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def run(spec: dict[str, Any]) -> int:
    from manaka.eval import DEFAULT_TORCH_THREADS, set_torch_threads

    # torch's threads: the spec's "torch_threads" when it has one, else 1 (manaka.eval.DEFAULT_TORCH_THREADS:
    # the search's batches are too small to split); 0 keeps torch's own count.
    set_torch_threads(int(spec.get("torch_threads", DEFAULT_TORCH_THREADS)))
    net = load_network(spec["checkpoint"], spec["game"], _device(spec["device"]))
    options = search.SearchOptions(**spec["search"])
    summary, text = search.shogi_self_play(search.torch_evaluator(net), spec["games"], spec["output"], options,
                                           max_plies=spec["max_plies"], saz=spec["saz"],
                                           overwrite=spec["overwrite"], progress=not spec["quiet"])
    print(json_text(summary) if spec["json"] else text, end="" if not spec["json"] else "\n")
    return 0


def init(argv: list[str]) -> int:
    from manaka._output import check_outputs
    from manaka.train.checkpoint import save_atomic
    from manaka.train.config import ModelConfig

    ap = argparse.ArgumentParser(prog="python -m manaka.selfplay init",
                                 description="write the checkpoint of an untrained network")
    ap.add_argument("--game", choices=("chess", "shogi"), required=True)
    ap.add_argument("-o", "--output", required=True)
    defaults = ModelConfig()
    for f in dataclasses.fields(ModelConfig):
        ap.add_argument("--" + f.name.replace("_", "-"), type=int, default=getattr(defaults, f.name))
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--overwrite", action="store_true")
    a = ap.parse_args(argv)
    check_outputs({"--output": a.output}, [], a.overwrite)
    model = ModelConfig(**{f.name: getattr(a, f.name) for f in dataclasses.fields(ModelConfig)})
    save_atomic(initial_checkpoint(a.game, model, a.seed), a.output)
    print(f"{a.output}: an untrained {a.game} network ({a.blocks} blocks x {a.channels} channels)")
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        if args[:1] == ["init"]:
            return init(args[1:])
        if len(args) != 1 or not args[0].startswith("{"):
            print("usage: manaka shogi selfplay --checkpoint PATH -o DIR --games N ... "
                  "(this module is its runner), or: python -m manaka.selfplay init --help", file=sys.stderr)
            return 2
        return run(json.loads(args[0]))
    except manaka.Error as e:
        print(f"manaka: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("manaka: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
