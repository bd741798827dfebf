"""Search speed on this machine's CPU with a real network: self-play nodes
(network evaluations) per second with batched evaluation beside the same
search with a batch of one, and the evaluator's mean batch fill.

Peer: the same search, same network, same games, evaluating one leaf at a
time (batch_size 1, one search thread), which is what a search without a
batching evaluator does. Limit: the bare network's positions/s at the same
batch size (no search at all), which no search through it can pass.

The network is the small shipped config (configs/chess-pretrain-small.toml)
with random weights; the speed of a search does not depend on what the
network knows. torch runs with --torch-threads threads (default 1): on a
2-core machine that also runs the search threads, torch's spinning thread
pool makes small batches many times slower with 2 (the refinement's
torch_threads setting says the same).

    .venv/bin/python bench/search_bench.py [--games 8] [--simulations 32] [--batch 2] [--threads 8] [--torch-threads 1]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from manaka import search
from manaka.train import PolicyValueNet, load_config

ROOT = Path(__file__).resolve().parents[1]


def run(net: torch.nn.Module, games: int, simulations: int, batch: int, threads: int) -> tuple[float, dict]:
    opts = search.SearchOptions(simulations=simulations, batch_size=batch, threads=threads, seed=1)
    start = time.perf_counter()
    out = search.chess_self_play(search.torch_evaluator(net), games, opts, max_plies=24, opening_plies=4,
                                 progress=False)
    seconds = time.perf_counter() - start
    return out["stats"]["positions"] / seconds, out["stats"]


def bare(net: torch.nn.Module, batch: int, seconds: float = 3.0) -> float:
    x = torch.zeros(batch, 20, 8, 8)
    n, start = 0, time.perf_counter()
    with torch.inference_mode():
        while time.perf_counter() - start < seconds:
            net(x)
            n += batch
    return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--simulations", type=int, default=32)
    ap.add_argument("--batch", type=int, default=2, help="leaves a game's search gathers a round")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--torch-threads", type=int, default=1)
    a = ap.parse_args()
    torch.set_num_threads(a.torch_threads)
    torch.manual_seed(0)
    net = PolicyValueNet(load_config(ROOT / "configs" / "chess-pretrain-small.toml").model).eval()
    print(f"search: {a.games} games x up to 24 plies x {a.simulations} simulations, small network, "
          f"torch threads {torch.get_num_threads()}")
    batched, stats = run(net, a.games, a.simulations, a.batch, a.threads)
    single, _ = run(net, a.games, a.simulations, 1, 1)
    calls = a.batch * min(a.threads, a.games)  # the rows a network call can hold: every game's round
    limit = bare(net, calls)
    fill = stats["mean_batch_fill"]
    print(f"  manaka batched (batch {a.batch} a game, {a.threads} threads): {batched:10,.0f} nodes/s   "
          f"mean batch fill {fill:.1%} (aim > 80%)")
    print(f"  peer: same search, batch of one:      {single:10,.0f} nodes/s   ratio {batched / single:.2f}x")
    print(f"  limit: the bare network at batch {calls}:  {limit:10,.0f} positions/s   "
          f"search reaches {batched / limit:.0%} of it")
    print(f"  network time share (batched): {stats['network_seconds'] * batched / stats['positions']:.0%}")
    assert np.isfinite(batched)


if __name__ == "__main__":
    main()
