"""Shogi training data: the C++ encoder against cshogi's, and training fed by shards against random tensors.

1. Encoder, positions/s on one thread. Ours: ``manaka.shogi.encode_packed``,
   a shard's packed column to the (N, 44, 9, 9) planes in one call, and
   ``encode_batch``, planes and the dense policy and value targets of a
   whole row group. The peer: cshogi, the way dlshogi's own loader makes its
   inputs, ``Board.set_psfen`` then ``cshogi.dlshogi.make_input_features``,
   a position a call from Python (its packed format, its features). Aim:
   10x or more.
2. Training, samples/s. Ours: the training step (forward, loss, backward,
   AdamW) of configs/shogi-pretrain-small.toml's network on batches from
   ``manaka.shogi.training_batches`` over shards this bench packs. The peer:
   the same network and step on random tensors of the same shapes, no
   loader at all. Aim: ratio 0.9 or more on this CPU (the step is the limit;
   the ratio is what the loader's threads cost beside it).

    .venv/bin/python bench/shogi_train_bench.py [--positions 100000] [--steps 60] [--device auto]
"""

from __future__ import annotations

import argparse
import itertools
import random
import tempfile
import time
from pathlib import Path

import cshogi
import numpy as np
from cshogi import dlshogi

from manaka import shards, shogi, stream

ROOT = Path(__file__).resolve().parents[1]


def random_games(path: Path, positions: int, seed: int = 1) -> tuple[np.ndarray, list[str]]:
    """A self-play stream of random legal games (up to 8 candidates a position); its packed boards and SFENs."""
    rng = random.Random(seed)
    packed, sfens = [], []
    with stream.SelfPlayWriter(str(path), overwrite=True) as w:
        while len(packed) < positions:
            board = shogi.Board()
            w.begin_game()
            for ply in range(rng.randint(20, 120)):
                legal = [int(m) for m in board.legal_move16s()]
                if not legal:
                    break
                mv = rng.sample(legal, min(len(legal), rng.randint(1, 8)))
                w.add_position(board.pack(), ply, rng.uniform(-1, 1), mv, [rng.randint(1, 100) for _ in mv])
                packed.append(board.pack())
                sfens.append(board.sfen())
                board.push(shogi.Move.from_move16(mv[0]))
            w.end_game(rng.choice([1, -1, 0]))
    return np.frombuffer(b"".join(packed), np.uint8).reshape(-1, 96), sfens


def best_rate(n: int, f, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return n / best


def encoder(packed: np.ndarray, sfens: list[str], shard_dir: Path) -> None:
    n = len(packed)
    psfens = np.zeros((n, 32), np.uint8)
    board = cshogi.Board()
    for i, sfen in enumerate(sfens):
        board.set_sfen(sfen)
        board.to_psfen(psfens[i])
    f1 = np.zeros((n, dlshogi.FEATURES1_NUM, 9, 9), np.float32)
    f2 = np.zeros((n, dlshogi.FEATURES2_NUM, 9, 9), np.float32)

    def peer() -> None:
        b = cshogi.Board()
        for i in range(n):
            b.set_psfen(psfens[i])
            dlshogi.make_input_features(b, f1[i], f2[i])

    chunks = [packed[i:i + 8192] for i in range(0, n, 8192)]  # a row group at a time, as a loader calls it

    def ours() -> None:
        for chunk in chunks:
            shogi.encode_packed(chunk)

    def with_targets() -> None:
        for _ in shogi.training_batches(shard_dir, batch_size=256, shuffle=False, value_q_weight=0.5, threads=1):
            pass

    ours_rate = best_rate(n, ours)
    peer_rate = best_rate(n, peer)
    rows = sum(shards.ShardFile(p).num_rows for p in shards.list_shards(shard_dir))
    full = best_rate(rows, with_targets)
    print(f"encoder, one thread, {n:,} positions:")
    print(f"  ours (encode_packed, planes, 8,192 a call): {ours_rate:,.0f} positions/s; peer (cshogi set_psfen + "
          f"dlshogi make_input_features, one a call): {peer_rate:,.0f} positions/s; ratio {ours_rate / peer_rate:.1f}x "
          f"(aim >= 10x)")
    print(f"  ours with the targets (training_batches of 256: parquet decode on 1 thread, planes, dense policy "
          f"of 11,259, value, weight; {rows:,} rows): {full:,.0f} rows/s, {full / peer_rate:.1f}x the peer's "
          f"planes alone (limit: 45 KB of dense policy a row to zero and hand over)")


def training(shard_dir: Path, steps: int, device_name: str) -> None:
    import torch

    from manaka.train.config import load_config
    from manaka.train.network import PolicyValueNet, count_parameters
    from manaka.train.pretrain import _batch_terms, resolve_device

    config = load_config(ROOT / "configs" / "shogi-pretrain-small.toml")
    device = resolve_device(device_name)
    bs = config.batch_size
    torch.manual_seed(0)
    net = PolicyValueNet(config.model, "shogi").to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=config.optimizer.lr)

    def run(batches) -> float:
        def step(batch) -> None:
            loss = _batch_terms(net, tuple(t.to(device, non_blocking=True) for t in batch), lambda b: b[2])[0]
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()

        it = iter(batches)
        for batch in itertools.islice(it, 5):  # warm-up
            step(batch)
        if device.type == "cuda":
            torch.cuda.synchronize()
        start, n = time.perf_counter(), 0
        for batch in itertools.islice(it, steps):
            step(batch)
            n += int(batch[0].shape[0])
        if device.type == "cuda":
            torch.cuda.synchronize()
        return n / (time.perf_counter() - start)

    def shard_batches():
        for epoch in itertools.count():
            for batch in shogi.training_batches(shard_dir, batch_size=bs, epoch=epoch, value_q_weight=0.5,
                                                drop_last=True):
                yield tuple(torch.from_numpy(a) for a in batch)

    g = torch.Generator().manual_seed(0)
    planes = (torch.rand(bs, 44, 9, 9, generator=g) < 0.05).to(torch.int8)
    policy = torch.softmax(torch.randn(bs, 11259, generator=g), 1)
    value = torch.rand(bs, generator=g) * 2 - 1
    weight = torch.ones(bs)
    fixed = tuple(t.to(device) for t in (planes, policy, value, weight))
    ours = run(shard_batches())
    peer = run(itertools.repeat(fixed))
    print(f"training, shogi-pretrain-small.toml on {device} ({torch.get_num_threads()} torch threads): "
          f"{count_parameters(net):,} parameters, batch {bs}, {steps} steps")
    print(f"  ours (training_batches from shards): {ours:,.0f} samples/s; peer (random tensors on the device, "
          f"no loader): {peer:,.0f} samples/s; ratio {ours / peer:.3f} (aim >= 0.9)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--positions", type=int, default=60000)
    p.add_argument("--steps", type=int, default=40)
    p.add_argument("--device", default="auto")
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        packed, sfens = random_games(Path(tmp) / "g.mpk", args.positions)
        shards.pack([str(Path(tmp) / "g.mpk")], str(Path(tmp) / "s" / "g"), seed=1, progress=False)
        encoder(packed, sfens, Path(tmp) / "s")
        training(Path(tmp) / "s", args.steps, args.device)


if __name__ == "__main__":
    main()
