"""Training samples/s fed by our loader against a plain PyTorch loop: is the loader the bottleneck?

Ours: the training step (forward, loss, backward, AdamW) on batches from
``manaka.chess.iter_batches`` over a corpus (the recipe's, or shards this
bench writes). The peer: the same network and step on random tensors of the
same shape already on the device, the loop with no loader at all. The aim
(issue 29) is ours / peer >= 0.95 on the GPU; on this CPU the step is the
limit and the ratio shows what the loader's threads cost beside it.

    .venv/bin/python bench/train_loader_bench.py [--config configs/chess-pretrain.toml] [--device cuda]
        [--corpus DIR] [--steps 200]
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

from manaka import chess
from manaka.train import PolicyValueNet, count_parameters, load_config, policy_value_loss
from manaka.train.pretrain import resolve_device

ROOT = Path(__file__).resolve().parents[1]


def synthetic_corpus(folder: Path, shards: int, positions: int) -> list[Path]:
    rng = np.random.default_rng(0)
    paths = []
    for i in range(shards):
        states = np.zeros((positions, 20, 8, 8), np.int8)
        piece = rng.integers(0, 13, (positions, 8, 8))
        for p in range(12):
            states[:, p] = piece == p
        states[:, 18] = rng.integers(0, 101, (positions, 1, 1))
        path = folder / chess.shard_name(i)
        chess.write_shard(path, states, rng.integers(0, 4672, positions).astype(np.int32),
                          rng.integers(-1, 2, positions).astype(np.int8))
        paths.append(path)
    return paths


def run(net: torch.nn.Module, opt: torch.optim.Optimizer, batches, steps: int, device: torch.device) -> float:
    def step(s: torch.Tensor, m: torch.Tensor, z: torch.Tensor) -> None:
        loss = policy_value_loss(*net(s), m, z)[0]
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    it = iter(batches)
    for s, m, z, *_ in itertools.islice(it, 5):  # warm-up
        step(s, m, z)
    if device.type == "cuda":
        torch.cuda.synchronize()
    start, n = time.perf_counter(), 0
    for s, m, z, *_ in itertools.islice(it, steps):
        step(s, m, z)
        n += int(m.shape[0])
    if device.type == "cuda":
        torch.cuda.synchronize()
    return n / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--config", default=str(ROOT / "configs" / "chess-pretrain-small.toml"))
    p.add_argument("--device", default="auto")
    p.add_argument("--corpus", help="a corpus directory (default: synthetic shards written here)")
    p.add_argument("--steps", type=int, default=60)
    args = p.parse_args()
    config = load_config(args.config)
    device = resolve_device(args.device)
    bs = config.batch_size
    with tempfile.TemporaryDirectory() as tmp:
        if args.corpus:
            shards = chess.list_shards(args.corpus)
        else:
            need = (args.steps + 10) * bs
            shards = synthetic_corpus(Path(tmp), max(2, -(-need // 10000)), 10000)
        torch.manual_seed(0)
        net = PolicyValueNet(config.model).to(device)
        opt = torch.optim.AdamW(net.parameters(), lr=config.optimizer.lr)
        loader = chess.iter_batches(shards * 50, bs, device, True, seed=1)
        ours = run(net, opt, loader, args.steps, device)
        g = torch.Generator().manual_seed(0)
        s = (torch.rand(bs, 20, 8, 8, generator=g) < 0.1).float().to(device)
        m = torch.randint(0, 4672, (bs,), generator=g).to(device)
        z = torch.randint(-1, 2, (bs,), generator=g).float().to(device)
        peer = run(net, opt, itertools.repeat((s, m, z)), args.steps, device)
    print(f"{Path(args.config).name} on {device}: {count_parameters(net):,} parameters, batch {bs}, {args.steps} steps")
    print(f"ours (iter_batches): {ours:,.0f} samples/s; peer (random tensors on the device, no loader): "
          f"{peer:,.0f} samples/s; ratio {ours / peer:.3f} (aim >= 0.95)")


if __name__ == "__main__":
    main()
