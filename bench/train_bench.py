"""Pre-training speed on this machine's CPU: samples/s of one training step
(forward, loss, backward, AdamW) for both shipped configs, the network in
torch's default layout beside the same network in channels_last.

There is no outside peer: the network is ours, so the peer is the same
network in the other memory layout (torch's advice for convolutions on
CPU), same batch, same threads. Steps: 20 for the small config, 3 for the
~15 M-parameter one (seconds a step on 2 cores). The batches are positions
shaped like the corpus's (one-hot pieces, a clock plane), random moves and
outcomes; the speed of a step does not depend on the values.

    .venv/bin/python bench/train_bench.py [--steps-small 20] [--steps-big 3]   # 0 steps skips a config
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import torch

from manaka.train import PolicyValueNet, count_parameters, load_config, policy_value_loss

ROOT = Path(__file__).resolve().parents[1]


def batch(n: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    states = torch.zeros(n, 20, 8, 8)
    piece = torch.randint(0, 13, (n, 8, 8), generator=g)  # 12 = empty
    states[:, :12] = torch.nn.functional.one_hot(piece, 13)[..., :12].permute(0, 3, 1, 2).float()
    states[:, 18] = torch.randint(0, 101, (n, 1, 1), generator=g).float()
    moves = torch.randint(0, 4672, (n,), generator=g)
    outcomes = torch.randint(-1, 2, (n,), generator=g).float()
    return states, moves, outcomes


def rate(config_name: str, steps: int, channels_last: bool) -> tuple[int, float]:
    config = load_config(ROOT / "configs" / config_name)
    torch.manual_seed(0)
    net = PolicyValueNet(config.model)
    fmt = torch.channels_last if channels_last else torch.contiguous_format
    net = net.to(memory_format=fmt)
    opt = torch.optim.AdamW(net.parameters(), lr=config.optimizer.lr, weight_decay=config.optimizer.weight_decay)
    states, moves, outcomes = batch(config.batch_size)
    states = states.contiguous(memory_format=fmt)

    def step() -> None:
        loss = policy_value_loss(*net(states), moves, outcomes)[0]
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    step()  # warm-up
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return count_parameters(net), config.batch_size * steps / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps-small", type=int, default=20)
    p.add_argument("--steps-big", type=int, default=3)
    args = p.parse_args()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    for name, steps in (("chess-pretrain-small.toml", args.steps_small), ("chess-pretrain.toml", args.steps_big)):
        if steps == 0:  # --steps-big 0 skips the big config
            continue
        params, ours = rate(name, steps, channels_last=False)
        _, peer = rate(name, steps, channels_last=True)
        print(f"{name}: {params:,} parameters, {steps} steps: {ours:,.1f} samples/s "
              f"(channels_last {peer:,.1f} samples/s, ratio {ours / peer:.2f})")


if __name__ == "__main__":
    main()
