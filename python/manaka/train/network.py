"""The policy-value network over the 20 input planes (docs/chess-training.md).

A convolutional stem, ``blocks`` residual blocks of ``channels`` channels
(two 3x3 convolutions with batch norm, a skip connection), and two heads:

- policy: a 3x3 convolution, then a 1x1 convolution to 73 planes read as the
  4672 logits in the corpus's order, index = square x 73 + plane with
  square = row x 8 + column of the mover-relative board (docs/chess-position.md);
- value: a 1x1 convolution, a fully connected layer, one tanh unit in [-1, 1].

The input is the corpus's planes as float32 (B, 20, 8, 8), unscaled: the
network divides the halfmove-clock plane (18, 0..100) by 100 itself, so
callers never rescale.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from manaka.train.config import ModelConfig

__all__ = ["PLANES", "POLICY_SIZE", "PolicyValueNet", "count_parameters", "mask_illegal", "policy_value_loss"]

PLANES = 20
POLICY_SIZE = 4672  # 64 squares x 73 move planes
_MOVE_PLANES = 73
_CLOCK_PLANE = 18


class _Residual(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class PolicyValueNet(nn.Module):
    """``forward(states) -> (policy_logits (B, 4672), value (B,) in [-1, 1])``."""

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        c = config.channels
        self.config = config
        scale = torch.ones(PLANES, 1, 1)
        scale[_CLOCK_PLANE] = 1.0 / 100.0
        self.input_scale: torch.Tensor
        self.register_buffer("input_scale", scale, persistent=False)  # not in the state_dict
        self.stem = nn.Sequential(nn.Conv2d(PLANES, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.Sequential(*[_Residual(c) for _ in range(config.blocks)])
        self.policy = nn.Sequential(
            nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, _MOVE_PLANES, 1),
        )
        vc = config.value_channels
        self.value_conv = nn.Sequential(nn.Conv2d(c, vc, 1, bias=False), nn.BatchNorm2d(vc), nn.ReLU())
        self.value_fc = nn.Sequential(nn.Linear(vc * 64, config.value_hidden), nn.ReLU(),
                                      nn.Linear(config.value_hidden, 1), nn.Tanh())

    def forward(self, states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.blocks(self.stem(states * self.input_scale))
        # (B, 73, 8, 8) -> (B, 8, 8, 73) -> (B, 4672): index = (row * 8 + column) * 73 + plane
        policy = self.policy(x).permute(0, 2, 3, 1).reshape(x.shape[0], POLICY_SIZE)
        value = self.value_fc(self.value_conv(x).flatten(1)).squeeze(1)
        return policy, value


def count_parameters(net: nn.Module) -> int:
    """Trainable parameters (batch-norm running statistics not counted)."""
    return sum(p.numel() for p in net.parameters() if p.requires_grad)


def mask_illegal(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal move at -inf; ``legal`` is a (B, 4672) bool mask.

    For play (a softmax then gives illegal moves probability 0). A row with no
    legal move at all would be all -inf; callers never ask for a finished game.
    """
    if legal.dtype != torch.bool or legal.shape != logits.shape:
        raise ValueError(f"legal must be a bool tensor of shape {tuple(logits.shape)}, "
                         f"got {legal.dtype} {tuple(legal.shape)}")
    return logits.masked_fill(~legal, float("-inf"))


def policy_value_loss(
    logits: torch.Tensor,
    value: torch.Tensor,
    moves: torch.Tensor,
    outcomes: torch.Tensor,
    legal: torch.Tensor | None = None,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(loss, policy_ce, value_mse)``: cross-entropy on the played move plus MSE on the outcome.

    The corpus stores no legal-move masks, so pre-training uses plain
    cross-entropy over all 4672 logits (the played move is always legal);
    given ``legal``, the cross-entropy is over the legal moves only.
    """
    if legal is not None:
        logits = mask_illegal(logits, legal)
    policy_ce = F.cross_entropy(logits, moves)
    value_mse = F.mse_loss(value, outcomes)
    return policy_ce + value_mse, policy_ce, value_mse
