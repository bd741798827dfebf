"""AlphaZero refinement (manaka.train.refine), its visit-count shards, and evaluation through the search.

Oracles: numpy reads and writes the shards with visits on the other side
and computes the visit distributions the loader must hand out; the real
Stockfish plays the evaluation. The end-to-end part is tiny: a 1-block
network pre-trained for one epoch on random games, two refinement
iterations of two self-play games at 8 simulations, a resumed run, a
two-game match.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import manaka
from manaka import chess
from manaka.train import CHECKPOINT_KEYS, Trainer
from manaka.train.config import PretrainConfig, config_from_dict
from manaka.train.pretrain import pretrain

STOCKFISH = "/usr/games/stockfish"


def visit_arrays(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR visits for n rows: 0 to 5 distinct move indices a row (some rows empty), counts 1..50."""
    rng = np.random.default_rng(seed)
    lengths = rng.integers(0, 6, n)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    indices = np.concatenate([rng.choice(4672, k, replace=False) for k in lengths] + [np.zeros(0)]).astype(np.int32)
    counts = rng.integers(1, 51, int(offsets[-1])).astype(np.int32)
    return offsets, indices, counts


def shard_arrays(n: int, first: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """States all zero but plane 0's first byte; move index = the row (so a batch row says which it is)."""
    states = np.zeros((n, 20, 8, 8), np.int8)
    states[:, 0, 0, 0] = 1
    rows = np.arange(first, first + n)
    return states, rows.astype(np.int32), (rows % 3 - 1).astype(np.int8)


def distributions(offsets: np.ndarray, indices: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The visit distribution of every row, computed with numpy: counts over their sum, zeros for no visits."""
    n = len(offsets) - 1
    out = np.zeros((n, 4672), np.float64)
    for r in range(n):
        a, b = offsets[r], offsets[r + 1]
        if b > a:
            out[r, indices[a:b]] = counts[a:b] / counts[a:b].sum()
    return out


# ---- shards with visits ----

def test_visits_round_trip_through_numpy(tmp_path: Path) -> None:
    s, m, z = shard_arrays(300)
    off, idx, cnt = visit_arrays(300, seed=1)
    ours = tmp_path / "ours.npz"
    chess.write_shard(ours, s, m, z, visit_offsets=off, visit_indices=idx, visit_counts=cnt)
    with np.load(ours) as f:
        assert f.files == ["states", "move_indices", "outcomes", "visit_offsets", "visit_indices", "visit_counts"]
        for name, want in (("visit_offsets", off), ("visit_indices", idx), ("visit_counts", cnt)):
            assert f[name].dtype == want.dtype
            np.testing.assert_array_equal(f[name], want)
    # Byte for byte what numpy writes (the zip's timestamps are numpy's fixed ones).
    theirs = tmp_path / "theirs.npz"
    np.savez_compressed(theirs, states=s, move_indices=m, outcomes=z, visit_offsets=off, visit_indices=idx,
                        visit_counts=cnt)
    assert ours.read_bytes() == theirs.read_bytes()
    back = chess.read_shard(theirs, visits=True)
    for a, b in zip(back, (s, m, z, off, idx, cnt)):
        assert a.dtype == b.dtype
        np.testing.assert_array_equal(a, b)
    assert len(chess.read_shard(theirs)) == 3
    plain = tmp_path / "plain.npz"
    chess.write_shard(plain, s, m, z)
    assert chess.read_shard(plain, visits=True)[3:] == (None, None, None)


def test_visits_breaking_the_rules_are_refused_naming_array_and_row(tmp_path: Path) -> None:
    s, m, z = shard_arrays(4)
    off = np.array([0, 2, 2, 3, 5], np.int64)
    idx = np.array([10, 11, 12, 13, 14], np.int32)
    cnt = np.array([1, 2, 3, 4, 5], np.int32)
    p = tmp_path / "shard_000000.npz"

    def write(o=off, i=idx, c=cnt) -> None:
        chess.write_shard(p, s, m, z, visit_offsets=o, visit_indices=i, visit_counts=c)

    with pytest.raises(manaka.InvalidDataError, match=r"visit_counts\[3\] = 0 \(row 3\), not at least 1"):
        write(c=np.array([1, 2, 3, 0, 5], np.int32))
    with pytest.raises(manaka.InvalidDataError, match=r"visit_indices\[1\] = 10 \(row 0\), a move index already"):
        write(i=np.array([10, 10, 12, 13, 14], np.int32))
    with pytest.raises(manaka.InvalidDataError, match=r"visit_indices\[4\] = 4672 \(row 3\), outside \[0, 4672\)"):
        write(i=np.array([10, 11, 12, 13, 4672], np.int32))
    with pytest.raises(manaka.InvalidDataError, match=r"visit_offsets\[2\] = 1, below visit_offsets\[1\] = 2"):
        write(o=np.array([0, 2, 1, 3, 5], np.int64))
    with pytest.raises(manaka.InvalidDataError, match=r"visit_offsets\[4\] = 4, but visit_indices and visit_counts "
                                                       r"hold 5 entries"):
        write(o=np.array([0, 2, 2, 3, 4], np.int64))
    with pytest.raises(manaka.InvalidDataError, match=r"expected visit_offsets \(N \+ 1,\)"):
        write(o=off[:4])
    with pytest.raises(ValueError, match="give all three or none"):
        chess.write_shard(p, s, m, z, visit_offsets=off, visit_indices=idx)
    with pytest.raises(TypeError, match="visit_offsets must be int64"):
        write(o=off.astype(np.int32))
    assert list(tmp_path.iterdir()) == []
    # Refused by the reader too, when another writer wrote them.
    np.savez_compressed(p, states=s, move_indices=m, outcomes=z, visit_offsets=off, visit_indices=idx,
                        visit_counts=-cnt)
    with pytest.raises(manaka.InvalidDataError, match=r"shard_000000\.npz: visit_counts\[0\] = -1 \(row 0\)"):
        chess.read_shard(p)
    np.savez_compressed(p, states=s, move_indices=m, outcomes=z, visit_offsets=off, visit_indices=idx)
    with pytest.raises(manaka.InvalidDataError, match="no array 'visit_counts': a shard's visits are three arrays"):
        chess.read_shard(p)


def test_iter_batches_policy_targets_are_the_visit_distributions(tmp_path: Path) -> None:
    paths, expected, first = [], [], 0
    for k, n in enumerate([70, 0, 45, 100]):
        s, m, z = shard_arrays(n, first)
        off, idx, cnt = visit_arrays(n, seed=10 + k)
        paths.append(tmp_path / chess.shard_name(k))
        chess.write_shard(paths[-1], s, m, z, visit_offsets=off, visit_indices=idx, visit_counts=cnt)
        expected.append(distributions(off, idx, cnt))
        first += n
    want = np.concatenate(expected)
    for window in (1, 4):
        seen = []
        plain = list(chess.iter_batches(paths, 32, None, True, seed=3, window=window))
        with_targets = list(chess.iter_batches(paths, 32, None, True, seed=3, window=window, policy_targets=True))
        assert len(plain) == len(with_targets)
        for (s0, m0, z0), (s, m, z, p) in zip(plain, with_targets):
            # The first three arrays as without targets, the same rows in the same order.
            np.testing.assert_array_equal(s0, s)
            np.testing.assert_array_equal(m0, m)
            np.testing.assert_array_equal(z0, z)
            assert p.dtype == np.float32 and p.shape == (len(m), 4672)
            np.testing.assert_allclose(p, want[m], rtol=1e-6, atol=0)
            seen.extend(m.tolist())
        assert sorted(seen) == list(range(first))
    # On a torch device: four tensors, the targets float32.
    batches = list(chess.iter_batches(paths, 64, torch.device("cpu"), False, policy_targets=True))
    s, m, z, p = batches[0]
    assert p.dtype == torch.float32 and tuple(p.shape) == (64, 4672)
    np.testing.assert_allclose(p.numpy(), want[m.numpy()], rtol=1e-6)
    rows_with_visits = want.sum(1) > 0
    np.testing.assert_allclose(torch.cat([b[3] for b in batches]).sum(1).numpy()[rows_with_visits], 1.0, rtol=1e-5)


def test_policy_targets_refused_for_a_shard_without_visits(tmp_path: Path) -> None:
    s, m, z = shard_arrays(10)
    with_visits, plain = tmp_path / "shard_000000.npz", tmp_path / "shard_000001.npz"
    chess.write_shard(with_visits, s, m, z, visit_offsets=np.zeros(11, np.int64),
                      visit_indices=np.zeros(0, np.int32), visit_counts=np.zeros(0, np.int32))
    chess.write_shard(plain, s, m, z)
    batches = chess.iter_batches([with_visits, plain], 4, None, False, policy_targets=True)
    assert [len(b[1]) for b in (next(batches), next(batches), next(batches))] == [4, 4, 2]
    with pytest.raises(manaka.InvalidDataError, match=r"shard_000001\.npz: no visit counts \(visit_offsets, "
                                                       r"visit_indices, visit_counts\), which policy targets need"):
        next(batches)


# ---- refinement end to end ----

TINY_MODEL = """
[model]
blocks = 1
channels = 8
value_channels = 2
value_hidden = 16
"""

REFINE = """
run_dir = "{run_dir}"
seed = 1
device = "cpu"
torch_threads = 1
iterations = 2
games_per_iteration = 2
max_plies = 40
window = 2
batch_size = 32
copy_every = 1
progress_seconds = 0.0

[search]
simulations = 8
batch_size = 8
temperature_plies = 10
""" + TINY_MODEL


def random_games(games: int, plies: int, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        board = chess.Board()
        moves = []
        while len(moves) < plies and board.outcome(claim_draw=True) is None:
            move = str(rng.choice(list(board.legal_moves)))
            board.push_uci(move)
            moves.append(move)
        out.append(chess.encode_game(chess.STARTING_FEN, moves))
    return out


@pytest.fixture(scope="module")
def pretrained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny network pre-trained for one epoch on random games (3 shards, one held out), as pretrain writes it."""
    root = tmp_path_factory.mktemp("pretrain")
    corpus = root / "corpus"
    corpus.mkdir()
    for k, (states, moves) in enumerate(random_games(3, 60, seed=5)):
        chess.write_shard(corpus / chess.shard_name(k), states, moves, np.zeros(len(moves), np.int8))
    config = config_from_dict({"corpus": str(corpus), "output": str(root / "pretrained.pt"), "metrics": "",
                               "device": "cpu", "epochs": 1, "batch_size": 32,
                               "model": {"blocks": 1, "channels": 8, "value_channels": 2, "value_hidden": 16}})
    assert isinstance(config, PretrainConfig)
    pretrain(config, progress=None)
    return root / "pretrained.pt"


def run_refine(config: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "manaka.train", "--game", "chess", "--config", str(config), *extra],
                          capture_output=True, text=True)


def test_two_iterations_then_resume_then_evaluate_through_the_search(tmp_path: Path, pretrained: Path) -> None:
    run_dir = tmp_path / "run"
    config = tmp_path / "refine.toml"
    config.write_text(REFINE.format(run_dir=run_dir))
    run = run_refine(config, "--resume-from", str(pretrained))
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert (summary["first_iteration"], summary["last_iteration"], summary["iterations_run"]) == (1, 2, 2)
    assert "refine: iteration 1: self-play 2 games" in run.stderr

    start = torch.load(pretrained, weights_only=True)
    for it in (1, 2):
        path = run_dir / "checkpoints_refine" / f"iter_{it:04d}.pt"
        assert summary["checkpoint"] == str(path) or it == 1
        ckpt = torch.load(path, weights_only=True)
        assert set(ckpt) == CHECKPOINT_KEYS and ckpt["iteration"] == it
        assert ckpt["_pretrain_epoch"] == 1
        trainer = Trainer.load_from_checkpoint(path)
        assert trainer.iteration == it and trainer.next_iteration == it + 1
        # copy_every = 1: best is the trained candidate, and training moved it off the pre-trained weights.
        for k, v in ckpt["best_net"].items():
            assert torch.equal(v, ckpt["candidate_net"][k])
        assert any(not torch.equal(v, start["best_net"][k]) for k, v in ckpt["best_net"].items())
        # The self-play of the iteration: shards with visits, one row per position of the games.
        sp = run_dir / "selfplay" / f"iter_{it:04d}"
        info = json.loads((sp / "selfplay.json").read_text())
        assert info["games"] == 2 and sum(info["results"].values()) == 2
        shards = chess.list_shards(sp)
        rows = [chess.read_shard(p, visits=True) for p in shards]
        assert sum(len(r[1]) for r in rows) == info["positions"] > 0
        for states, moves, outcomes, off, idx, cnt in rows:
            assert off is not None and len(off) == len(moves) + 1 and cnt.min() >= 1
            # The move played is one the search visited (temperature or not, it draws from the visits).
            for r in range(len(moves)):
                assert moves[r] in idx[off[r]:off[r + 1]]
    assert not list((run_dir / "selfplay").glob("*.tmp-*"))
    lines = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [x["iteration"] for x in lines if x["kind"] == "iteration"] == [1, 2]
    assert [x["window"] for x in lines if x["kind"] == "iteration"] == [[1], [1, 2]]

    # Stopped during iteration 2 after its self-play (its checkpoint never written): the same command
    # continues at iteration 2 from iter_0001.pt, reusing the complete self-play, and the run ends at 2.
    (run_dir / "checkpoints_refine" / "iter_0002.pt").unlink()
    run = run_refine(config, "--resume-from", str(pretrained))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["first_iteration"] == 2
    assert "resuming from" in run.stderr and "iter_0001.pt" in run.stderr
    assert "iteration 2: self-play already complete" in run.stderr
    assert Trainer.load_from_checkpoint(run_dir / "checkpoints_refine" / "iter_0002.pt").iteration == 2
    # More iterations asked of the same run: it counts on from its newest checkpoint.
    run = run_refine(config, "--iterations", "3")
    assert run.returncode == 0, run.stderr
    assert (json.loads(run.stdout)["first_iteration"], json.loads(run.stdout)["last_iteration"]) == (3, 3)
    assert Trainer.load_from_checkpoint(run_dir / "checkpoints_refine" / "iter_0003.pt").iteration == 3

    pgn = tmp_path / "eval.pgn"
    run = subprocess.run([sys.executable, "-m", "manaka.eval", "--game", "chess", "--checkpoint",
                          str(run_dir / "checkpoints_refine" / "iter_0002.pt"), "--num-games", "2",
                          "--simulations", "8", "--torch-threads", "1", "--elo", "1350", "--movetime", "0.02", "--engine", STOCKFISH,
                          "--pgn", str(pgn)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "games: 2" in run.stdout
    import chess.pgn as pychess_pgn  # python-chess: the games it reads back are legal

    with open(pgn) as f:
        games = [pychess_pgn.read_game(f), pychess_pgn.read_game(f)]
    assert games[0] is not None and games[1] is not None
    assert not games[0].errors and not games[1].errors
    assert "search 8" in games[0].headers["White"] + games[0].headers["Black"]


def test_refine_command_errors(tmp_path: Path, pretrained: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from manaka.train.__main__ import main

    def run(config: Path, *extra: str) -> str:
        assert main(["--game", "chess", "--config", str(config), *extra]) == 2
        return capsys.readouterr().err

    config = tmp_path / "refine.toml"
    config.write_text(REFINE.format(run_dir=tmp_path / "run"))
    assert "give --resume-from" in run(config)
    assert "missing.pt': no such file" in run(config, "--resume-from", str(tmp_path / "missing.pt"))
    other = tmp_path / "other.toml"
    other.write_text(REFINE.format(run_dir=tmp_path / "run2").replace("channels = 8", "channels = 16"))
    assert "is not the network of" in run(other, "--resume-from", str(pretrained))
    bad = tmp_path / "bad.toml"
    bad.write_text("[search]\nsimulation = 3\n")
    assert "unknown key 'search.simulation'" in run(bad, "--resume-from", str(pretrained))
    bad.write_text("[search]\ndirichlet_epsilon = 2\n")
    assert "'search.dirichlet_epsilon' must be in [0, 1]" in run(bad)
    assert "--games must be at least 1" in run(config, "--games", "0")
    assert not (tmp_path / "run" / "checkpoints_refine").exists()
    # pretrain keeps its spelling.
    with pytest.raises(SystemExit) as exit_:
        main(["pretrain", "--help"])
    assert exit_.value.code == 0 and "--resume" in capsys.readouterr().out


@pytest.mark.parametrize("refine_name, pretrain_name", [("chess-refine.toml", "chess-pretrain.toml"),
                                                        ("chess-refine-small.toml", "chess-pretrain-small.toml")])
def test_shipped_refine_configs_fit_their_pretraining(refine_name: str, pretrain_name: str) -> None:
    from manaka.train.config import load_config, load_refine_config

    root = Path(__file__).resolve().parents[2] / "configs"
    refine_config = load_refine_config(root / refine_name)
    assert refine_config.model == load_config(root / pretrain_name).model
    if refine_name == "chess-refine.toml":  # the spec's numbers
        assert (refine_config.iterations, refine_config.games_per_iteration,
                refine_config.search.simulations) == (10, 100, 50)
