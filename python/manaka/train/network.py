"""The policy-value networks over the input planes, chess and shogi (docs/chess-training.md,
docs/shogi-network.md).

One family for both games: a convolutional stem, ``blocks`` residual blocks of
``channels`` channels (two 3x3 convolutions with batch norm, a skip
connection), and two heads:

- policy: a 3x3 convolution, then a 1x1 convolution to the game's move planes
  read as the logits in the encodings' order, index = cell x move planes +
  plane with cell = row x side + column of the mover-relative board (chess:
  73 planes, 4672 logits, docs/chess-position.md; shogi: 139 planes, 11259
  logits, shogi/move_index.h);
- value: a 1x1 convolution, a fully connected layer, one tanh unit in [-1, 1].

A ``GameSpec`` says what differs between the games: the number of input
planes, the board side (8 or 9), the move planes, and the planes the network
divides by their largest value itself so that callers never rescale (chess:
the halfmove clock, plane 18, by 100; shogi: the hand counts, planes 28-41,
by 18 for pawns, 4 for lances, knights, silvers and golds, 2 for bishops and
rooks). ``PolicyValueNet(config)`` is the chess network, as it always was
(same state_dict keys and shapes); ``PolicyValueNet(config, SHOGI)`` or
``PolicyValueNet(config, "shogi")`` the shogi one.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn

from manaka.train.config import ModelConfig

__all__ = [
    "CHESS", "GAMES", "PLANES", "POLICY_SIZE", "SHOGI", "GameSpec", "PolicyValueNet", "count_parameters",
    "mask_illegal", "policy_value_loss",
]


@dataclass(frozen=True)
class GameSpec:
    """The shapes a game gives the network."""

    name: str
    planes: int                 # input planes
    side: int                   # board side: 8 or 9
    move_planes: int            # policy planes per cell
    plane_max: tuple[tuple[int, float], ...] = ()  # (plane, its largest value): the network divides by it

    @property
    def cells(self) -> int:
        return self.side * self.side

    @property
    def policy_size(self) -> int:
        return self.cells * self.move_planes


CHESS = GameSpec("chess", planes=20, side=8, move_planes=73, plane_max=((18, 100.0),))
# Hand counts (shogi/encode.h planes 28-34 ours, 35-41 theirs, P L N S G B R)
# by the most of each kind a hand can hold (shogi/types.h HAND_MAX).
_SHOGI_HAND_MAX = (18.0, 4.0, 4.0, 4.0, 4.0, 2.0, 2.0)
SHOGI = GameSpec("shogi", planes=44, side=9, move_planes=139,
                 plane_max=tuple((first + k, m) for first in (28, 35) for k, m in enumerate(_SHOGI_HAND_MAX)))
GAMES = {spec.name: spec for spec in (CHESS, SHOGI)}

PLANES = CHESS.planes
POLICY_SIZE = CHESS.policy_size  # 64 squares x 73 move planes


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
    """``forward(states) -> (policy_logits (B, policy_size), value (B,) in [-1, 1])``.

    ``states`` is float32 (B, planes, side, side), unscaled. ``game`` is a
    GameSpec or its name; the chess network by default.
    """

    def __init__(self, config: ModelConfig, game: GameSpec | str = CHESS) -> None:
        super().__init__()
        if isinstance(game, str):
            if game not in GAMES:
                raise ValueError(f"unknown game {game!r}; expected one of {sorted(GAMES)}")
            game = GAMES[game]
        c = config.channels
        self.config = config
        self.game = game
        self.policy_size = game.policy_size
        scale = torch.ones(game.planes, 1, 1)
        for plane, largest in game.plane_max:
            scale[plane] = 1.0 / largest
        self.input_scale: torch.Tensor
        self.register_buffer("input_scale", scale, persistent=False)  # not in the state_dict
        self.stem = nn.Sequential(nn.Conv2d(game.planes, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU())
        self.blocks = nn.Sequential(*[_Residual(c) for _ in range(config.blocks)])
        self.policy = nn.Sequential(
            nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU(),
            nn.Conv2d(c, game.move_planes, 1),
        )
        vc = config.value_channels
        self.value_conv = nn.Sequential(nn.Conv2d(c, vc, 1, bias=False), nn.BatchNorm2d(vc), nn.ReLU())
        self.value_fc = nn.Sequential(nn.Linear(vc * game.cells, config.value_hidden), nn.ReLU(),
                                      nn.Linear(config.value_hidden, 1), nn.Tanh())

    def forward(self, states: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        x = self.blocks(self.stem(states * self.input_scale))
        # (B, planes, side, side) -> (B, side, side, planes) -> (B, policy_size):
        # index = (row * side + column) * move_planes + plane
        policy = self.policy(x).permute(0, 2, 3, 1).reshape(x.shape[0], self.policy_size)
        value = self.value_fc(self.value_conv(x).flatten(1)).squeeze(1)
        return policy, value


def count_parameters(net: nn.Module) -> int:
    """Trainable parameters (batch-norm running statistics not counted)."""
    return sum(p.numel() for p in net.parameters() if p.requires_grad)


def mask_illegal(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal move at -inf; ``legal`` is a bool mask of the logits' shape (B, policy size).

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
    cross-entropy over all the logits (the played move is always legal);
    given ``legal``, the cross-entropy is over the legal moves only.
    """
    if legal is not None:
        logits = mask_illegal(logits, legal)
    policy_ce = F.cross_entropy(logits, moves)
    value_mse = F.mse_loss(value, outcomes)
    return policy_ce + value_mse, policy_ce, value_mse
