"""Synthetic batches and tiny npz shards for the manaka.train tests (no corpus reader needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

import numpy as np
import pytest
import torch

from manaka.train.config import ModelConfig, PretrainConfig

Batch = tuple[torch.Tensor, torch.Tensor, torch.Tensor]


def tiny_config(tmp_path: Path, **changes: object) -> PretrainConfig:
    """A network of a few thousand parameters writing into tmp_path."""
    values: dict = dict(output=str(tmp_path / "pretrained.pt"), metrics=str(tmp_path / "metrics.jsonl"),
                        device="cpu", epochs=2, batch_size=16, patience=5, seed=7, log_every=2,
                        model=ModelConfig(blocks=1, channels=8, value_channels=2, value_hidden=8))
    values.update(changes)
    return PretrainConfig(**values)


def positions(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """int8 states with one mover pawn each, the move index a function of them, outcomes from them.

    The move is the pawn's square x 73 + (0 when White moves, else 56); the
    outcome is +1 when the pawn stands on the upper half, else -1.
    """
    rng = np.random.default_rng(seed)
    squares = rng.integers(0, 64, n)
    white = rng.integers(0, 2, n).astype(bool)
    states = np.zeros((n, 20, 8, 8), np.int8)
    states[np.arange(n), 0, squares // 8, squares % 8] = 1
    states[white, 12] = 1
    states[:, 18] = rng.integers(0, 101, n)[:, None, None].astype(np.int8)
    moves = (squares * 73 + np.where(white, 0, 56)).astype(np.int32)
    outcomes = np.where(squares >= 32, 1, -1).astype(np.int8)
    return states, moves, outcomes


def to_batches(states: np.ndarray, moves: np.ndarray, outcomes: np.ndarray, batch_size: int,
               order: np.ndarray | None = None) -> Iterator[Batch]:
    """The spec's casts: float32 states, int64 moves, float32 outcomes."""
    idx_all = np.arange(len(moves)) if order is None else order
    for start in range(0, len(idx_all), batch_size):
        idx = idx_all[start:start + batch_size]
        yield (torch.from_numpy(states[idx]).to(torch.float32), torch.from_numpy(moves[idx]).to(torch.int64),
               torch.from_numpy(outcomes[idx]).to(torch.float32))


def synthetic_source(n: int, batch_size: int, seed: int, shuffle: bool = True):
    """An epoch -> batches function over fixed synthetic data (shuffled per epoch, repeatably)."""
    data = positions(n, seed)

    def source(epoch: int) -> Iterator[Batch]:
        order = np.random.default_rng(seed * 1000 + epoch).permutation(n) if shuffle else None
        return to_batches(*data, batch_size, order)

    return source


def write_shards(root: Path, count: int, per_shard: int, seed: int = 0) -> list[Path]:
    """``shard_NNNNNN.npz`` as np.savez_compressed writes them (the spec's arrays and dtypes)."""
    root.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        s, m, z = positions(per_shard, seed + i)
        path = root / f"shard_{i:06d}.npz"
        np.savez_compressed(path, states=s, move_indices=m, outcomes=z)
        paths.append(path)
    return paths


def numpy_batches(shards: Sequence[Path], batch_size: int, device: torch.device, shuffle: bool,
                  seed: int) -> Iterator[Batch]:
    """A test-only reader with the spec's iter_batches semantics (per-shard shuffle), in numpy."""
    rng = np.random.default_rng(seed)
    for path in shards:
        with np.load(path) as d:
            s, m, z = d["states"], d["move_indices"], d["outcomes"]
        order = rng.permutation(len(m)) if shuffle else None
        for states, moves, outcomes in to_batches(s, m, z, batch_size, order):
            yield states.to(device), moves.to(device), outcomes.to(device)


@pytest.fixture(autouse=True)
def one_thread() -> Iterator[None]:
    """One torch thread: the tests' networks are tiny, and two threads collapse on a busy 2-core machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
