"""The refinement ``Trainer``: the two networks and the iteration count.

``Trainer.load_from_checkpoint(path)`` reads ``pretrained.pt`` or any
refinement checkpoint of the same shape (checkpoint.py): it builds the
network from the checkpoint's ``config`` (a ``PretrainConfig``'s or a
``RefineConfig``'s dict, told apart by its ``search`` table), loads
``best_net``, makes ``candidate_net`` a copy of it (or loads the
checkpoint's ``candidate_net`` with ``candidate=True``), and counts
iterations on from the checkpoint's ``iteration`` (pretrained.pt has 0, so
the next is 1). The loop that uses it is refine.py.
"""

from __future__ import annotations

import copy
import os
from typing import Optional, Union

import torch

from manaka import InvalidDataError
from manaka.train import checkpoint
from manaka.train.config import PretrainConfig, RefineConfig, config_from_dict, is_refine_config, \
    refine_config_from_dict
from manaka.train.network import PolicyValueNet

__all__ = ["Trainer"]

PathLike = Union[str, os.PathLike]


class Trainer:
    """Two networks: ``best_net`` plays, ``candidate_net`` trains; ``iteration`` counts completed iterations."""

    def __init__(self, config: Union[PretrainConfig, RefineConfig], best_net: PolicyValueNet, *,
                 iteration: int = 0, optimizer_state: Optional[dict] = None,
                 candidate_net: Optional[PolicyValueNet] = None, pretrain_epoch: int = 0) -> None:
        self.config = config
        self.best_net = best_net
        self.candidate_net = candidate_net if candidate_net is not None else copy.deepcopy(best_net)
        self.iteration = iteration
        self.optimizer_state = optimizer_state
        self.pretrain_epoch = pretrain_epoch

    @property
    def next_iteration(self) -> int:
        """The iteration the refinement loop runs next: ``iteration + 1``."""
        return self.iteration + 1

    @classmethod
    def load_from_checkpoint(cls, path: PathLike, device: Union[str, torch.device] = "cpu", *,
                             candidate: bool = False) -> "Trainer":
        """``candidate``: load the checkpoint's own ``candidate_net`` (what a resumed refinement trains on);
        by default the candidate is a copy of ``best_net``, as the checkpoint contract has it."""
        ckpt = checkpoint.load(path)
        missing = {"iteration", "config", "best_net"} - ckpt.keys()
        if candidate and "candidate_net" not in ckpt:
            missing.add("candidate_net")
        if missing:
            raise InvalidDataError(f"{os.fspath(path)}: not a manaka checkpoint (no {', '.join(sorted(missing))})")
        raw = ckpt["config"]
        config: Union[PretrainConfig, RefineConfig] = (
            refine_config_from_dict(raw) if is_refine_config(raw) else config_from_dict(raw))
        game = getattr(config, "game", "chess")  # a refinement's config is chess's
        net = PolicyValueNet(config.model, game)
        net.load_state_dict(ckpt["best_net"])
        net.to(device)
        cand = None
        if candidate:
            cand = PolicyValueNet(config.model, game)
            cand.load_state_dict(ckpt["candidate_net"])
            cand.to(device)
        return cls(config, net, iteration=int(ckpt["iteration"]), optimizer_state=ckpt.get("optimizer"),
                   candidate_net=cand, pretrain_epoch=int(ckpt.get("_pretrain_epoch", 0)))
