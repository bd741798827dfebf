"""Does the value head point the teacher's way? The check that a target is not inverted.

``value_sign_agreement(net, shards)``: over the shard rows whose ``value_q``
(the teacher's score as ``tanh(cp / (2 eval_coef))``, or the search's value;
side to move's view, as the reader hands it out) is at least ``min_abs`` in
size, the share where the network's value has the same sign, for Black to
move and White to move apart. A value target turned the wrong way, for one
side or both, scores near 1 minus the true figure on that side; a network
that learnt nothing scores about 0.5. Read through the C++ reader and
encoder (``shards.iter_batches``, ``shogi.encode_packed``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from manaka import shards, shogi
from manaka.shards import Source

__all__ = ["value_sign_agreement"]


@torch.no_grad()
def value_sign_agreement(net: torch.nn.Module, source: Source, *, min_abs: float = 0.5,
                         device: torch.device | str = "cpu") -> dict[str, Any]:
    """``{"min_abs", "rows", "agree", "black": {"rows", "agree"}, "white": {...}}``; ``agree`` None with no row."""
    was_training = net.training
    net.eval()
    counts = np.zeros((2, 2), np.int64)  # [side][agrees]
    for batch in shards.iter_batches(source, shuffle=False, columns=["packed", "value_q"]):
        assert batch.packed is not None and batch.value_q is not None
        keep = np.abs(batch.value_q) >= min_abs
        if not keep.any():
            continue
        packed = batch.packed[keep]
        planes = torch.from_numpy(shogi.encode_packed(packed)).to(device).float()
        value = net(planes)[1].cpu().numpy()
        agrees = np.sign(value) == np.sign(batch.value_q[keep])
        side = packed[:, shogi.PACKED_LEN - 1].astype(np.int64)
        np.add.at(counts, (side, agrees.astype(np.int64)), 1)
    net.train(was_training)

    def share(c: np.ndarray) -> dict[str, Any]:
        n = int(c.sum())
        return {"rows": n, "agree": float(c[1]) / n if n else None}

    return {"min_abs": min_abs, **share(counts.sum(0)), "black": share(counts[0]), "white": share(counts[1])}
