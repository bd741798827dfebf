"""A tiny network learns: the move index is a function of the planes, top-1 accuracy rises far above chance."""

from __future__ import annotations

from pathlib import Path

import torch

from manaka.train import fit
from manaka.train.config import ModelConfig, OptimizerConfig
from manaka.train.pretrain import evaluate
from train_synthetic import synthetic_source, tiny_config, one_thread  # noqa: F401 (autouse fixture)


def test_tiny_network_learns_the_move(tmp_path: Path) -> None:
    n, batch = 2048, 64
    train, val = synthetic_source(n, batch, seed=11), synthetic_source(512, batch, seed=12, shuffle=False)
    config = tiny_config(tmp_path, epochs=10, batch_size=batch, patience=10,
                         model=ModelConfig(blocks=1, channels=16, value_channels=4, value_hidden=16),
                         optimizer=OptimizerConfig(lr=3e-3, weight_decay=1e-4))
    torch.manual_seed(config.seed)
    from manaka.train import PolicyValueNet

    before = evaluate(PolicyValueNet(config.model), val(0), torch.device("cpu"))
    result = fit(config, train, val, steps_per_epoch=n // batch, progress=None)  # 320 steps
    first, last = result.history[0], result.history[-1]
    print(f"top-1 {before['top1']:.3f} -> {first['val_top1']:.3f} (epoch 1) -> {last['val_top1']:.3f}; "
          f"chance 1/128 of the moves used, 1/4672 of all")
    assert before["top1"] < 0.05
    assert last["val_top1"] > 0.8
    assert last["val_policy_ce"] < first["val_policy_ce"] < before["policy_ce"]
    assert last["val_value_mse"] < 0.5  # the outcome is a function of the pawn's half of the board
