"""The shogi network (python/manaka/train/network.py, GameSpec SHOGI).

Its shapes over the 44 planes of docs/shogi-network.md, the per-plane input
scale of the hand counts, that the chess network is unchanged in shape, and
that a few hundred steps on a tiny batch of real encoded positions (random
cshogi games through encode_game) lower the loss.
"""

from __future__ import annotations

import random

import cshogi
import pytest
import torch

from manaka._core import shogi as core
from manaka.train.config import ModelConfig
from manaka.train.network import CHESS, SHOGI, PolicyValueNet, mask_illegal, policy_value_loss
from train_synthetic import one_thread  # noqa: F401 (autouse fixture)

TINY = ModelConfig(blocks=1, channels=16, value_channels=2, value_hidden=16)


def random_game(rng: random.Random, plies: int) -> list[str]:
    board = cshogi.Board()
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        m = rng.choice(legal)
        board.push(m)
        moves.append(cshogi.move_to_usi(m))
    return moves


def test_shapes_and_input_scale() -> None:
    net = PolicyValueNet(TINY, SHOGI)
    assert net.game is SHOGI and net.policy_size == SHOGI.policy_size == core.POLICY_SIZE == 11259
    assert SHOGI.planes == core.PLANE_NB == 44
    states = torch.from_numpy(core.encode_game("startpos", ["7g7f", "3c3d", "8h2b+"])[0]).float()
    logits, value = net.eval()(states)
    assert logits.shape == (3, 11259) and value.shape == (3,)
    assert bool(((value >= -1) & (value <= 1)).all())
    # Hand counts divided by the most a hand holds: pawn 18, lance..gold 4, bishop and rook 2.
    scale = net.input_scale.flatten().tolist()
    for first in (28, 35):
        assert scale[first:first + 7] == pytest.approx([1 / 18, 1 / 4, 1 / 4, 1 / 4, 1 / 4, 1 / 2, 1 / 2])
    assert scale[:28] == [1.0] * 28 and scale[42:] == [1.0, 1.0]
    assert "input_scale" not in net.state_dict()
    # By name too, and the chess network as it was: 20 planes in, 4672 logits out.
    assert PolicyValueNet(TINY, "shogi").state_dict()["stem.0.weight"].shape == (16, 44, 3, 3)
    chess_net = PolicyValueNet(TINY)
    assert chess_net.game is CHESS and chess_net.state_dict()["stem.0.weight"].shape == (16, 20, 3, 3)
    assert chess_net.state_dict()["value_fc.0.weight"].shape == (16, 2 * 64)
    assert net.state_dict()["value_fc.0.weight"].shape == (16, 2 * 81)
    assert chess_net.state_dict().keys() == net.state_dict().keys()
    with pytest.raises(ValueError, match="unknown game 'go'"):
        PolicyValueNet(TINY, "go")


def test_a_few_hundred_steps_lower_the_loss() -> None:
    torch.manual_seed(3)
    rng = random.Random(3)
    moves = random_game(rng, 40)
    states_np, indices_np = core.encode_game("startpos", moves)
    states = torch.from_numpy(states_np[:24]).float()
    targets = torch.from_numpy(indices_np[:24]).long()
    outcomes = torch.tensor([rng.choice([-1.0, 0.0, 1.0]) for _ in range(24)])
    net = PolicyValueNet(TINY, SHOGI)
    optimizer = torch.optim.Adam(net.parameters(), lr=3e-3)
    losses = []
    for _ in range(300):
        logits, value = net(states)
        loss, _, _ = policy_value_loss(logits, value, targets, outcomes)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    assert losses[-1] < 0.25 * losses[0], (losses[0], losses[-1])
    # Masked to the legal moves, the played move takes most of the probability.
    net.eval()
    with torch.no_grad():
        logits, _ = net(states)
    legal = torch.zeros(24, SHOGI.policy_size, dtype=torch.bool)
    board = cshogi.Board()
    for i in range(24):
        for m in board.legal_moves:
            legal[i, core.move_index(board.sfen(), cshogi.move_to_usi(m))] = True
        board.push_usi(moves[i])
    assert bool(legal[torch.arange(24), targets].all())
    probs = torch.softmax(mask_illegal(logits, legal), dim=1)
    assert float(probs[torch.arange(24), targets].mean()) > 0.5
