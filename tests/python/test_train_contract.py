"""The pretrained.pt contract (shared/spec/chess-supervised-pretraining.txt, phase 2 to 3).

Pre-train a tiny network, save pretrained.pt, load it with
Trainer.load_from_checkpoint: exactly the spec's keys, the same weights,
iteration counting from 1. Also: the network's shapes, masking, and that
``import manaka`` needs no torch.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import manaka
from manaka.train import CHECKPOINT_KEYS, POLICY_SIZE, PolicyValueNet, Trainer, fit, mask_illegal
from manaka.train import data, pretrain
from manaka.train.config import ModelConfig, config_from_dict, config_to_dict
from manaka.train.network import policy_value_loss
from train_synthetic import numpy_batches, synthetic_source, tiny_config, write_shards, one_thread  # noqa: F401 (autouse fixture)

SPEC_KEYS = {"iteration", "config", "best_net", "candidate_net", "optimizer", "_pretrain_epoch"}


def test_pretrained_checkpoint_loads_in_trainer_via_resume(tmp_path: Path) -> None:
    config = tiny_config(tmp_path, epochs=1)
    result = fit(config, synthetic_source(96, 16, seed=1), synthetic_source(32, 16, seed=2, shuffle=False),
                 steps_per_epoch=6, progress=None)
    assert result.epochs_completed == 1 and result.best_epoch == 1

    ckpt = torch.load(config.output, map_location="cpu", weights_only=True)
    assert set(ckpt) == SPEC_KEYS == CHECKPOINT_KEYS
    assert ckpt["iteration"] == 0
    assert ckpt["_pretrain_epoch"] == 1
    assert ckpt["config"] == config_to_dict(config)
    assert set(ckpt["optimizer"]) == {"state", "param_groups"}
    assert ckpt["best_net"].keys() == ckpt["candidate_net"].keys()
    for name, tensor in ckpt["best_net"].items():
        assert torch.equal(tensor, ckpt["candidate_net"][name])
        assert tensor.data_ptr() != ckpt["candidate_net"][name].data_ptr()  # a copy, not the same storage

    trainer = Trainer.load_from_checkpoint(config.output)
    assert trainer.iteration == 0 and trainer.next_iteration == 1
    assert trainer.config == config_from_dict(ckpt["config"])
    for net in (trainer.best_net, trainer.candidate_net):
        state = net.state_dict()
        assert state.keys() == ckpt["best_net"].keys()
        for name, tensor in ckpt["best_net"].items():
            assert torch.equal(state[name], tensor), name
    assert trainer.candidate_net is not trainer.best_net
    with torch.no_grad():
        next(trainer.candidate_net.parameters()).add_(1.0)
    assert not torch.equal(next(trainer.candidate_net.parameters()), next(trainer.best_net.parameters()))

    # The loaded networks compute what the trained one computes.
    trained = PolicyValueNet(config.model)
    trained.load_state_dict(ckpt["best_net"])
    x = torch.randint(0, 2, (4, 20, 8, 8)).float()
    trained.eval(), trainer.best_net.eval()
    assert all(torch.equal(a, b) for a, b in zip(trained(x), trainer.best_net(x)))


def test_pretrain_on_npz_shards_holds_out_the_spec_split(tmp_path: Path) -> None:
    shards = write_shards(tmp_path / "corpus", count=3, per_shard=40)
    assert data.split_shards(shards) == (shards[:2], shards[2:])
    assert data.split_shards([Path(f"shard_{i:06d}.npz") for i in range(300)])[1][0].name == "shard_000285.npz"
    with pytest.raises(ValueError, match="at least 2"):
        data.split_shards(shards[:1])
    assert data.steps_per_epoch(data.count_positions(shards[:2]), 16) == 6  # 3 batches per 40-row shard

    seen: list[tuple[list[str], bool]] = []

    def loader(paths, batch_size, device, shuffle, seed):
        seen.append(([p.name for p in paths], shuffle))
        return numpy_batches(paths, batch_size, device, shuffle, seed)

    config = tiny_config(tmp_path, corpus=str(tmp_path / "corpus"), epochs=2)
    result = pretrain(config, batches=loader, progress=None)
    assert result.epochs_completed == 2
    assert seen == [(["shard_000000.npz", "shard_000001.npz"], True), (["shard_000002.npz"], False)] * 2
    lines = [json.loads(line) for line in Path(config.metrics).read_text().splitlines()]
    epochs = [line for line in lines if line["kind"] == "epoch"]
    assert [e["epoch"] for e in epochs] == [1, 2]
    assert all(e["val_positions"] == 40 and 0 <= e["val_top1"] <= 1 for e in epochs)
    assert [line["step"] for line in lines if line["kind"] == "train"] == [2, 4, 6, 8, 10, 12]
    assert torch.load(config.output, weights_only=True)["_pretrain_epoch"] == 2


def test_existing_output_is_refused_without_resume_or_overwrite(tmp_path: Path) -> None:
    config = tiny_config(tmp_path, epochs=1)
    train, val = synthetic_source(32, 16, seed=1), synthetic_source(16, 16, seed=2)
    fit(config, train, val, steps_per_epoch=2, progress=None)
    with pytest.raises(FileExistsError, match="--resume"):
        fit(config, train, val, steps_per_epoch=2, progress=None)
    assert fit(config, train, val, steps_per_epoch=2, overwrite=True, progress=None).epochs_completed == 1


def test_missing_loader_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(manaka.chess, "iter_batches", raising=False)
    with pytest.raises(data.MissingLoaderError, match="iter_batches"):
        data.batches([], 16, torch.device("cpu"), True, 0)


def test_network_shapes_and_masking() -> None:
    net = PolicyValueNet(ModelConfig(blocks=1, channels=8, value_channels=2, value_hidden=8))
    logits, value = net(torch.zeros(3, 20, 8, 8))
    assert logits.shape == (3, POLICY_SIZE) and value.shape == (3,)
    assert bool(((value >= -1) & (value <= 1)).all())
    legal = torch.zeros(3, POLICY_SIZE, dtype=torch.bool)
    legal[:, [5, 77]] = True
    masked = mask_illegal(logits, legal)
    assert torch.isinf(masked[~legal]).all() and torch.equal(masked[legal], logits[legal])
    probs = masked.softmax(1)
    assert torch.allclose(probs[:, [5, 77]].sum(1), torch.ones(3))
    moves, outcomes = torch.tensor([5, 77, 5]), torch.zeros(3)
    plain = policy_value_loss(logits, value, moves, outcomes)[1]
    only_legal = policy_value_loss(logits, value, moves, outcomes, legal)[1]
    assert float(only_legal.detach()) < float(plain.detach())
    with pytest.raises(ValueError, match="bool"):
        mask_illegal(logits, legal.int())


def test_import_manaka_needs_no_torch() -> None:
    code = "import sys; sys.modules['torch'] = None; import manaka, manaka.chess; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_progress_lines_have_rate_and_eta(tmp_path: Path) -> None:
    stream = io.StringIO()  # not a terminal: whole lines, every progress_seconds
    config = tiny_config(tmp_path, epochs=1, progress_seconds=0.0)
    fit(config, synthetic_source(64, 16, seed=1), synthetic_source(16, 16, seed=2), steps_per_epoch=4,
        progress=stream)
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("pretrain: ") and "parameters" in lines[0]
    steps = [line for line in lines if " step " in line]
    assert steps and all("samples/s" in line and "ETA" in line and "\r" not in line for line in steps)
    assert any(line.startswith("pretrain: epoch 1: ") and "top-1" in line for line in lines)
