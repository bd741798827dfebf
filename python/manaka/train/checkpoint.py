"""``pretrained.pt``, the spec's contract, and the state an interrupted run resumes from.

``pretrained.pt`` holds exactly the spec's keys, so that
``Trainer.load_from_checkpoint`` reads it as it reads a refinement iteration's
checkpoint::

    iteration        0 (refinement starts counting at 1)
    config           the PretrainConfig as a dict (informational)
    best_net         state_dict of the best network by validation loss
    candidate_net    a copy of best_net
    optimizer        AdamW's state at the end of the last completed epoch
    _pretrain_epoch  completed epochs (informational)

A refinement iteration's checkpoint (``checkpoints_refine/iter_NNNN.pt``)
has the same keys: ``iteration`` N, the ``RefineConfig`` as ``config``, the
two networks as they stand after iteration N (``candidate_net`` is no longer
a copy), the candidate's AdamW state, and ``_pretrain_epoch`` carried from
the checkpoint the refinement started from.

The pre-training resume state (``<output>.resume.pt``) is separate, so the contract's
keys stay exact: the latest weights, optimizer, schedule, epoch counters and
the early-stopping record. Both are written to a temporary name in the same
directory and renamed: a reader never sees half a file.
"""

from __future__ import annotations

import copy
import os
import pickle
from pathlib import Path
from typing import Any, Union

import torch

from manaka import InvalidDataError

__all__ = ["CHECKPOINT_KEYS", "save_atomic", "pretrained_checkpoint", "refine_checkpoint", "resume_path", "load"]

PathLike = Union[str, os.PathLike]

CHECKPOINT_KEYS = frozenset({"iteration", "config", "best_net", "candidate_net", "optimizer", "_pretrain_epoch"})


def save_atomic(obj: Any, path: PathLike) -> None:
    """``torch.save`` to ``<path>.tmp-<pid>``, flushed to disk, then renamed over ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as f:
            torch.save(obj, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def pretrained_checkpoint(config: dict, best_net: dict, optimizer: dict, epoch: int) -> dict:
    """The spec's dict; best_net and candidate_net are independent copies (on the CPU)."""
    best = {k: v.detach().to("cpu", copy=True) for k, v in best_net.items()}
    return {
        "iteration": 0,
        "config": copy.deepcopy(config),
        "best_net": best,
        "candidate_net": {k: v.clone() for k, v in best.items()},
        "optimizer": optimizer,
        "_pretrain_epoch": epoch,
    }


def _cpu_copy(state: dict) -> dict:
    return {k: v.detach().to("cpu", copy=True) for k, v in state.items()}


def refine_checkpoint(config: dict, iteration: int, best_net: dict, candidate_net: dict, optimizer: dict,
                      pretrain_epoch: int) -> dict:
    """The same keys as ``pretrained_checkpoint``'s, for refinement iteration ``iteration`` (on the CPU)."""
    return {
        "iteration": iteration,
        "config": copy.deepcopy(config),
        "best_net": _cpu_copy(best_net),
        "candidate_net": _cpu_copy(candidate_net),
        "optimizer": optimizer,
        "_pretrain_epoch": pretrain_epoch,
    }


def resume_path(output: PathLike) -> Path:
    """Where the resume state of the run writing ``output`` lives."""
    output = Path(output)
    return output.with_name(output.name + ".resume.pt")


def load(path: PathLike) -> dict:
    """A checkpoint, on the CPU (tensors and plain containers only: weights_only).

    A file that is not one (another format, a truncated save, a pickle of other objects, not a dict) raises
    ``manaka.InvalidDataError`` "<path>: not a manaka checkpoint (<why>)", never torch's own advice to load
    it with ``weights_only=False`` (which would run whatever the file holds); OSError (a missing file) passes.
    """
    try:
        raw = torch.load(path, map_location="cpu", weights_only=True)
    except OSError:
        raise
    except Exception as e:  # torch raises UnpicklingError, RuntimeError, EOFError, KeyError, ... for a bad file
        raise InvalidDataError(f"{os.fspath(path)}: not a manaka checkpoint ({_why(e)})") from None
    if not isinstance(raw, dict):
        raise InvalidDataError(f"{os.fspath(path)}: not a manaka checkpoint (a torch file of a "
                               f"{type(raw).__name__}, not of a dict)")
    return raw


def _why(e: BaseException) -> str:
    """A load failure in a few words, without torch's advice (its messages run to many lines)."""
    text = str(e)
    if isinstance(e, EOFError):
        return "the file is empty or ends early"
    if isinstance(e, (pickle.UnpicklingError, KeyError)):  # KeyError: torch's legacy reader's bad magic number
        return "not a torch.save file of tensors and plain containers"
    if isinstance(e, RuntimeError) and any(w in text for w in ("zip archive", "central directory",
                                                               "inline_container", "PytorchStreamReader")):
        return "not a torch.save archive, or one cut short"
    first = (text.strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: {first[:120]}" if first else type(e).__name__
