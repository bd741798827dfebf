"""The refinement ``Trainer``, as far as phase 3 needs it from phase 2: loading a checkpoint.

``Trainer.load_from_checkpoint(path)`` reads ``pretrained.pt`` or any
refinement checkpoint of the same shape (checkpoint.py): it builds the
network from the checkpoint's ``config``, loads ``best_net``, makes
``candidate_net`` a copy of it, and counts iterations on from the
checkpoint's ``iteration`` (pretrained.pt has 0, so the next is 1).
Self-play and the refinement loop are not here yet.
"""

from __future__ import annotations

import copy
import os
from typing import Optional, Union

import torch

from manaka.train import checkpoint
from manaka.train.config import PretrainConfig, config_from_dict
from manaka.train.network import PolicyValueNet

__all__ = ["Trainer"]

PathLike = Union[str, os.PathLike]


class Trainer:
    """Two networks: ``best_net`` plays, ``candidate_net`` trains; ``iteration`` counts completed iterations."""

    def __init__(self, config: PretrainConfig, best_net: PolicyValueNet, *, iteration: int = 0,
                 optimizer_state: Optional[dict] = None) -> None:
        self.config = config
        self.best_net = best_net
        self.candidate_net = copy.deepcopy(best_net)
        self.iteration = iteration
        self.optimizer_state = optimizer_state

    @property
    def next_iteration(self) -> int:
        """The iteration the refinement loop runs next: ``iteration + 1``."""
        return self.iteration + 1

    @classmethod
    def load_from_checkpoint(cls, path: PathLike, device: Union[str, torch.device] = "cpu") -> "Trainer":
        ckpt = checkpoint.load(path)
        missing = {"iteration", "config", "best_net"} - ckpt.keys()
        if missing:
            raise ValueError(f"{os.fspath(path)}: not a trainer checkpoint, missing {', '.join(sorted(missing))}")
        config = config_from_dict(ckpt["config"])
        net = PolicyValueNet(config.model)
        net.load_state_dict(ckpt["best_net"])
        net.to(device)
        return cls(config, net, iteration=int(ckpt["iteration"]), optimizer_state=ckpt.get("optimizer"))
