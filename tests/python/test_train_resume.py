"""An interrupted pre-training resumes at the next epoch and ends where an uninterrupted run ends (CPU, same seed)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest
import torch

from manaka.train import fit
from train_synthetic import Batch, synthetic_source, tiny_config, one_thread  # noqa: F401 (autouse fixture)


class Crash(Exception):
    pass


def crashing(source, at_epoch: int, after_batches: int):
    """The source, but epoch ``at_epoch`` dies after a few batches (an interruption mid-epoch)."""

    def wrapped(epoch: int) -> Iterator[Batch]:
        for i, batch in enumerate(source(epoch)):
            if epoch == at_epoch and i == after_batches:
                raise Crash(f"interrupted in epoch {epoch + 1}")
            yield batch

    return wrapped


def test_resume_continues_at_the_next_epoch_with_the_same_result(tmp_path: Path) -> None:
    train, val = synthetic_source(64, 16, seed=3), synthetic_source(32, 16, seed=4, shuffle=False)
    whole = tiny_config(tmp_path / "whole", epochs=3, patience=3)
    expected = fit(whole, train, val, steps_per_epoch=4, progress=None)
    assert expected.epochs_completed == 3

    cut = tiny_config(tmp_path / "cut", epochs=3, patience=3)
    with pytest.raises(Crash):
        fit(cut, crashing(train, at_epoch=1, after_batches=2), val, steps_per_epoch=4, progress=None)
    assert torch.load(cut.output, weights_only=True)["_pretrain_epoch"] == 1  # the last completed epoch

    calls: list[int] = []

    def counting(epoch: int) -> Iterator[Batch]:
        calls.append(epoch)
        return train(epoch)

    resumed = fit(cut, counting, val, steps_per_epoch=4, resume=True, progress=None)
    assert calls == [1, 2]  # epochs 2 and 3, not 1 again
    assert resumed.epochs_completed == 3 and resumed.best_epoch == expected.best_epoch
    assert [h["val_loss"] for h in resumed.history] == [h["val_loss"] for h in expected.history]

    a = torch.load(whole.output, weights_only=True)
    b = torch.load(cut.output, weights_only=True)
    assert a.keys() == b.keys()
    assert a["_pretrain_epoch"] == b["_pretrain_epoch"] == 3
    for key in ("best_net", "candidate_net"):
        for name, tensor in a[key].items():
            assert torch.equal(tensor, b[key][name]), (key, name)
    for index, st in a["optimizer"]["state"].items():
        for name, value in st.items():
            assert torch.equal(value, b["optimizer"]["state"][index][name]), (index, name)
    assert a["optimizer"]["param_groups"][0]["lr"] == b["optimizer"]["param_groups"][0]["lr"]

    # The resumed run appended to the metrics: epoch 1 once, then 2 and 3.
    lines = [json.loads(line) for line in Path(cut.metrics).read_text().splitlines()]
    assert [line["epoch"] for line in lines if line["kind"] == "epoch"] == [1, 2, 3]

    # A finished run resumed does nothing.
    calls.clear()
    again = fit(cut, counting, val, steps_per_epoch=4, resume=True, progress=None)
    assert calls == [] and again.epochs_completed == 3


def test_resume_refuses_a_changed_configuration(tmp_path: Path) -> None:
    train, val = synthetic_source(32, 16, seed=3), synthetic_source(16, 16, seed=4)
    config = tiny_config(tmp_path, epochs=2)
    with pytest.raises(Crash):
        fit(config, crashing(train, 1, 0), val, steps_per_epoch=2, progress=None)
    changed = tiny_config(tmp_path, epochs=2, seed=8)
    with pytest.raises(ValueError, match="differs in seed"):
        fit(changed, train, val, steps_per_epoch=2, resume=True, progress=None)
    with pytest.raises(FileNotFoundError, match="nothing to resume"):
        fit(tiny_config(tmp_path / "other"), train, val, steps_per_epoch=2, resume=True, progress=None)


def test_early_stopping_keeps_the_best_epoch(tmp_path: Path) -> None:
    train, val = synthetic_source(32, 16, seed=3), synthetic_source(16, 16, seed=4)
    config = tiny_config(tmp_path, epochs=6, patience=1)
    config.optimizer.lr = 0.0
    result = fit(config, train, val, steps_per_epoch=2, progress=None)
    # With lr 0 the validation loss never improves after epoch 1 (it stays equal): stop after epoch 2.
    assert result.stopped_early and result.epochs_completed == 2 and result.best_epoch == 1
    assert torch.load(config.output, weights_only=True)["_pretrain_epoch"] == 2
