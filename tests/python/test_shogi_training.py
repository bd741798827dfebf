"""Shogi training data from shards (manaka.shogi.training_batches, encode_batch) and pre-training on it.

Oracles: cshogi's board for the planes and python's own reading of the
policy index layout (test_shogi_encode's expected_planes / expected_index),
the shard columns pyarrow's reader would give (manaka.shards.iter_batches,
checked against pyarrow in test_shards), and, for the direction of the
targets, a network that learns: trained through convert, pack and the C++
batches on a corpus whose scores are material counted here from cshogi's
board, its value must have the material's sign for both sides to move.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from pathlib import Path

import cshogi
import numpy as np
import pyarrow.parquet as pq
import pytest

import manaka
from manaka import shards, shogi
from manaka._core import shogi as core_shogi
from test_shards import selfplay_stream
from test_shogi_encode import expected_index, expected_planes

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))

# cshogi piece types 1..14 (P L N S B R G K +P +L +N +S +B +R) and hand order P L N S G B R.
PIECE_VALUE = [0, 1, 3, 4, 5, 8, 10, 6, 0, 6, 6, 6, 6, 10, 12]
BASE_VALUE = [0, 1, 3, 4, 5, 8, 10, 6, 0, 1, 3, 4, 5, 8, 10]
HAND_VALUE = [1, 3, 4, 5, 6, 8, 10]
PROMOTED = {1: 9, 2: 10, 3: 11, 4: 12, 5: 13, 6: 14}


def oracle_batches(paths: list[str], value_q_weight: float, row_weights: bool):
    """The rows of the shards in order, as planes and targets recomputed from cshogi's board."""
    for batch in shards.iter_batches(paths, shuffle=False):
        assert batch.packed is not None and batch.cand_offsets is not None and batch.mv is not None
        assert batch.prob is not None and batch.value_z is not None and batch.value_q is not None
        assert batch.weight is not None
        for i in range(len(batch)):
            board = cshogi.Board(shogi.Board.unpack(bytes(batch.packed[i])).sfen())
            white = board.turn == cshogi.WHITE
            policy = np.zeros(shogi.POLICY_SIZE, np.float32)
            for k in range(batch.cand_offsets[i], batch.cand_offsets[i + 1]):
                policy[expected_index(shogi.move16_to_usi(int(batch.mv[k])), white)] += batch.prob[k]
            value = (1 - value_q_weight) * batch.value_z[i] + value_q_weight * batch.value_q[i]
            yield (expected_planes(board, False), policy, np.float32(value),
                   np.float32(batch.weight[i] if row_weights else 1.0))


def test_batches_are_the_rows_planes_and_targets_by_cshogi(tmp_path: Path) -> None:
    src = selfplay_stream(tmp_path / "sp.mpk", games=40, seed=11)
    shards.pack([str(src)], str(tmp_path / "s" / "a"), seed=2, rows_per_shard=300)
    paths = shards.list_shards(tmp_path / "s")
    assert len(paths) >= 2  # batches span shards
    got = list(shogi.training_batches(paths, batch_size=128, shuffle=False, value_q_weight=0.25, row_weights=True))
    assert [len(b[2]) for b in got[:-1]] == [128] * (len(got) - 1) and 0 < len(got[-1][2]) <= 128
    planes, policy, value, weight = (np.concatenate([b[k] for b in got]) for k in range(4))
    assert planes.dtype == np.int8 and planes.shape[1:] == (44, 9, 9)
    assert policy.dtype == value.dtype == weight.dtype == np.float32 and policy.shape[1] == 11259
    expected = list(oracle_batches(paths, 0.25, True))
    assert len(expected) == len(value) == sum(pq.ParquetFile(p).metadata.num_rows for p in paths)
    for row, (p, pol, v, w) in enumerate(expected):
        assert np.array_equal(planes[row], p), row
        np.testing.assert_allclose(policy[row], pol, rtol=0, atol=1e-7, err_msg=str(row))
        assert value[row] == pytest.approx(v, abs=1e-6) and weight[row] == w
    assert np.allclose(policy.sum(1), 1.0, atol=1e-5)  # prob sums to 1 per row, and no index collides

    # drop_last drops the short batch; one batch's encode_batch is the stream's rows.
    dropped = list(shogi.training_batches(paths, batch_size=128, shuffle=False, drop_last=True))
    assert len(dropped) == len(value) // 128
    first = next(shards.iter_batches(paths, shuffle=False))
    alone = shogi.encode_batch(first, value_q_weight=0.25, row_weights=True)
    n = len(first)
    assert np.array_equal(alone[0], planes[:n]) and np.array_equal(alone[1], policy[:n])
    assert np.array_equal(alone[2], value[:n]) and np.array_equal(alone[3], weight[:n])


def test_the_batches_do_not_depend_on_threads_and_follow_the_epoch(tmp_path: Path) -> None:
    src = selfplay_stream(tmp_path / "sp.mpk", games=30, seed=3)
    shards.pack([str(src)], str(tmp_path / "s" / "a"), seed=2, rows_per_shard=150)

    def digest(**kw) -> list[bytes]:
        return [b"".join(a.tobytes() for a in batch)
                for batch in shogi.training_batches(tmp_path / "s", batch_size=100, **kw)]

    one = digest(threads=1, epoch=1, seed=7)
    assert one == digest(threads=2, epoch=1, seed=7) == digest(threads=3, epoch=1, seed=7)
    assert one != digest(threads=1, epoch=2, seed=7)  # the shard order moves with the epoch


def test_conventions_that_disagree_are_refused_naming_shard_and_key(tmp_path: Path) -> None:
    corpus = material_corpus(tmp_path / "c.jsonl", games=6, seed=1)
    mpk = tmp_path / "c.mpk"
    subprocess.run([MANAKA, "teacher", "convert", corpus, "-o", mpk, "--eval-coef", "600", "--mate-scale", "32000"],
                   check=True, capture_output=True)
    shards.pack([str(mpk)], str(tmp_path / "t100" / "a"), temperature=100)
    shards.pack([str(mpk)], str(tmp_path / "t50" / "a"), temperature=50)
    c = shogi.training_conventions(tmp_path / "t100")
    assert (c["policy_source"], c["temperature"], c["eval_coef"], c["shards"]) == ("1", "100", "600", 1)
    from manaka._core import training

    t100, t50 = shards.list_shards(tmp_path / "t100"), shards.list_shards(tmp_path / "t50")
    with pytest.raises(manaka.InvalidDataError, match=r"t50/a-00000.parquet \(validation\): footer key "
                                                      r"temperature is \"50\", but .*t100/a-00000.parquet"):
        training.check_conventions(t100, t50)
    with pytest.raises(manaka.InvalidDataError, match=r"t50/a-00000.parquet: footer key temperature is \"50\", but"):
        training.read_conventions(t100 + t50)
    # A shard without policy_source (written by another tool) cannot be trained on: nothing says what prob is.
    table = pq.read_table(t100[0])
    bare = tmp_path / "bare" / "b.parquet"
    bare.parent.mkdir()
    pq.write_table(table.replace_schema_metadata({}), bare)
    with pytest.raises(manaka.InvalidDataError, match="b.parquet: footer key policy_source is absent"):
        shogi.training_conventions(bare)

    # The command refuses before the first step, and says which.
    proc = subprocess.run([sys.executable, "-m", "manaka.train", "pretrain", "--game", "shogi", "--config",
                           str(Path(__file__).parents[2] / "configs/shogi-pretrain-small.toml"),
                           "--corpus", str(tmp_path / "t100"), "--validation", str(tmp_path / "t50"),
                           "--out", str(tmp_path / "p.pt"), "--metrics", ""], capture_output=True, text=True)
    assert proc.returncode == 2 and "footer key temperature" in proc.stderr, proc.stderr
    assert not (tmp_path / "p.pt").exists()


def material(board: cshogi.Board) -> int:
    """Black's material minus White's, board and hands, in pawns."""
    total = 0
    for piece in board.pieces:
        if piece:
            total += PIECE_VALUE[piece & 15] * (-1 if piece >= 16 else 1)
    black, white = board.pieces_in_hand
    return total + sum(v * (b - w) for v, b, w in zip(HAND_VALUE, black, white))


def move_gain(board: cshogi.Board, move: int) -> int:
    """What a move adds to the mover's material: the piece taken (off the board, into the hand) and a promotion."""
    gain = 0
    taken = cshogi.move_cap(move)
    if taken:
        gain += PIECE_VALUE[taken] + BASE_VALUE[taken]
    if cshogi.move_is_promotion(move):
        kind = board.piece(cshogi.move_from(move)) & 15
        gain += PIECE_VALUE[PROMOTED[kind]] - PIECE_VALUE[kind]
    return gain


def material_corpus(path: Path, games: int, seed: int, plies: int = 80) -> Path:
    """A teacher corpus whose scores are material (centipawns, side to move's view) after each candidate.

    Random games that take a piece when they can most of the time, so that
    material swings; at each position the candidates are the best captures and
    a few other moves, each scored by the material it leaves, the root score
    the best of them; the result is the sign of the final material.
    """
    rng = random.Random(seed)
    rows = []
    for _ in range(games):
        board = cshogi.Board()
        game = []
        for ply in range(plies):
            if board.is_game_over():
                break
            legal = list(board.legal_moves)
            sign = 1 if board.turn == cshogi.BLACK else -1
            here = material(board) * sign
            scored = sorted(((move_gain(board, m), m) for m in legal), key=lambda t: -t[0])
            cands = scored[:3] + rng.sample(scored[3:], min(3, max(0, len(scored) - 3)))
            cand_cp = [100 * (here + g) for g, _ in cands]
            game.append({"sfen": board.sfen(), "ply": ply, "side": board.turn, "cp": max(cand_cp),
                         "cand_moves": [cshogi.move_to_usi(m) for _, m in cands], "cand_cp": cand_cp})
            captures = [m for g, m in scored if g > 0]
            move = rng.choice(captures) if captures and rng.random() < 0.6 else rng.choice(legal)
            game[-1]["move"] = cshogi.move_to_usi(move)
            board.push(move)
        final = material(board)
        result = (final > 0) - (final < 0)
        rows += [{**r, "result": result} for r in game]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_network_trained_on_the_shards_values_material_with_the_right_sign(tmp_path: Path) -> None:
    """The whole path: JSON lines -> teacher convert -> pack -> C++ batches -> training; then the network,
    read on fresh positions, must prefer the side cshogi counts ahead, whichever side moves."""
    pytest.importorskip("torch")
    import torch

    from manaka.train.config import load_config
    from manaka.train.pretrain import pretrain
    from manaka.train.network import PolicyValueNet

    for name, games, seed in (("train", 260, 1), ("val", 30, 2)):
        corpus = material_corpus(tmp_path / f"{name}.jsonl", games=games, seed=seed)
        subprocess.run([MANAKA, "teacher", "convert", corpus, "-o", tmp_path / f"{name}.mpk", "--eval-coef", "300",
                        "--mate-scale", "32000"], check=True, capture_output=True)
        shards.pack([str(tmp_path / f"{name}.mpk")], str(tmp_path / name / "m"), temperature=100, seed=seed)
    config = load_config(Path(__file__).parents[2] / "configs/shogi-pretrain-small.toml")
    config.corpus, config.validation = str(tmp_path / "train"), str(tmp_path / "val")
    config.output, config.metrics = str(tmp_path / "net.pt"), ""
    config.epochs, config.value_score_weight, config.torch_threads = 3, 0.75, 2
    config.model.blocks, config.model.channels = 2, 32
    result = pretrain(config, progress=None)
    assert result.data["train"]["policy_source"] == "1" and result.data["validation"]["rows"] > 0
    top1 = [h["val_top1"] for h in result.history]
    assert max(top1) > 0.25, top1  # the best capture, out of 11,259 logits
    # The run's own check on its validation shards (value_q's sign), per side to move.
    sign = result.data["value_sign"]
    assert sign["black"]["rows"] > 100 and sign["white"]["rows"] > 100, sign
    assert sign["black"]["agree"] >= 0.75 and sign["white"]["agree"] >= 0.75, sign

    ckpt = torch.load(config.output, weights_only=True)
    net = PolicyValueNet(config.model, "shogi")
    net.load_state_dict(ckpt["best_net"])
    net.eval()
    fresh = [json.loads(line) for line in material_corpus(tmp_path / "fresh.jsonl", games=40, seed=3).read_text()
             .splitlines()]
    fresh = [r for r in fresh if abs(r["cp"]) >= 400]
    planes = np.stack([core_shogi.encode_planes(r["sfen"]) for r in fresh])
    with torch.no_grad():
        value = net(torch.from_numpy(planes).float())[1].numpy()
    for side in (0, 1):
        rows = [i for i, r in enumerate(fresh) if r["side"] == side]
        agree = np.mean([math.copysign(1, value[i]) == math.copysign(1, fresh[i]["cp"]) for i in rows])
        print(f"side {side}: {len(rows)} positions, value sign agrees on {agree:.3f}; val top-1 {top1}")
        # An inverted target (for one side or both) would agree on about 1 - this.
        assert len(rows) >= 100 and agree >= 0.75, (side, len(rows), agree)


def test_torch_dataset_and_collate_hand_out_the_same_tensors(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from manaka.torch_data import ShardDataset, ShogiDataset, shogi_collate

    src = selfplay_stream(tmp_path / "sp.mpk", games=30, seed=4)
    shards.pack([str(src)], str(tmp_path / "s" / "a"), seed=2, rows_per_shard=200)
    ds = ShogiDataset(tmp_path / "s", batch_size=64, seed=5, value_q_weight=0.5)
    ds.set_epoch(2)
    got = list(ds)
    want = list(shogi.training_batches(tmp_path / "s", batch_size=64, seed=5, epoch=2, value_q_weight=0.5))
    assert len(got) == len(want) and all(
        all(torch.equal(g, torch.from_numpy(w)) for g, w in zip(gb, wb)) for gb, wb in zip(got, want))
    assert got[0][0].dtype == torch.int8 and got[0][1].shape == (64, 11259)
    # Two DataLoader workers: every row once (the shards split between them).
    loader = torch.utils.data.DataLoader(ds, batch_size=None, num_workers=2)
    assert sum(len(b[2]) for b in loader) == sum(len(b[2]) for b in want)

    # The collate over ShardDataset's row groups: encode_batch of the same rows.
    rows = ShardDataset(tmp_path / "s", seed=5)
    for tensors, batch in zip(rows, shards.iter_batches(tmp_path / "s", seed=5)):
        mine = shogi_collate(tensors, row_weights=True)
        ref = shogi.encode_batch(batch, row_weights=True)
        assert all(torch.equal(a, torch.from_numpy(b)) for a, b in zip(mine, ref))
    with pytest.raises(ValueError, match="lacks packed"):
        shogi.encode_batch(next(shards.iter_batches(tmp_path / "s", columns=["value_z"])))
