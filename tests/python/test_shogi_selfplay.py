"""`manaka shogi selfplay`: games through the C++ search with a PyTorch
network, written as MPK1 and SAZ2, read back by cshogi and rsshogi 1.7.0
(the oracles), validated and packed by our own commands."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cshogi
import numpy as np
import pyarrow.parquet as pq
import pytest
import rsshogi.sazpack as rs

import manaka
from manaka import search

BIN = Path(sys.executable).parent / "manaka"


def run(*args: "str | Path", check: bool = True) -> subprocess.CompletedProcess[str]:
    r = subprocess.run([str(BIN), *map(str, args)], capture_output=True, text=True)
    if check:
        assert r.returncode == 0, r.stderr
    return r


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    d = tmp_path_factory.mktemp("selfplay")
    subprocess.run([sys.executable, "-m", "manaka.selfplay", "init", "--game", "shogi", "-o", str(d / "init.pt"),
                    "--blocks", "1", "--channels", "8", "--value-channels", "2", "--value-hidden", "8"], check=True)
    r = run("shogi", "selfplay", "--checkpoint", d / "init.pt", "-o", d / "out", "--games", "3", "--simulations",
            "12", "--batch-size", "4", "--threads", "2", "--max-plies", "70", "--saz", "--json", "--seed", "4")
    return d, json.loads(r.stdout)


def test_the_summary_counts_every_game_and_position(played: tuple[Path, dict]) -> None:
    d, summary = played
    assert summary["games"] == 3
    assert summary["black_wins"] + summary["white_wins"] + summary["draws"] == 3
    assert sum(summary["terminations"].values()) == 3
    assert summary["evaluator"]["positions"] >= summary["positions"]
    assert sorted(p.name for p in (d / "out").iterdir()) == ["selfplay.mpk", "selfplay.saz"]


def test_mpk1_records_replay_in_cshogi_with_their_visits(played: tuple[Path, dict]) -> None:
    d, summary = played
    assert "ok, %d records" % summary["positions"] in run("stream", "validate", d / "out" / "selfplay.mpk").stdout
    batch = next(manaka.stream.read_batches(str(d / "out" / "selfplay.mpk"), 1 << 20))
    assert len(batch) == summary["positions"]
    board = cshogi.Board()
    games = 0
    for i in range(len(batch)):
        if batch.ply[i] == 0:
            board = cshogi.Board()
            games += 1
        mine = manaka.shogi.Board.unpack(bytes(batch.packed[i]))
        assert mine.sfen().rsplit(" ", 1)[0] == board.sfen().rsplit(" ", 1)[0]
        lo, hi = batch.cand_offsets[i], batch.cand_offsets[i + 1]
        legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
        visited = [manaka.shogi.move16_to_usi(int(m)) for m in batch.mv[lo:hi]]
        assert set(visited) <= legal and visited
        assert int(batch.visits[lo:hi].sum()) == 11  # 12 simulations, the root's own evaluation not a visit
        # The move played is the next record's: replay it in cshogi.
        if i + 1 < len(batch) and batch.ply[i + 1] == batch.ply[i] + 1:
            nxt = manaka.shogi.Board.unpack(bytes(batch.packed[i + 1])).sfen().rsplit(" ", 1)[0]
            moves = [m for m in board.legal_moves if (board.push(m), board.sfen().rsplit(" ", 1)[0] == nxt,
                                                      board.pop())[1]]
            assert len(moves) == 1
            board.push(moves[0])
            # value_z: the game's result from each side to move, so it flips sign.
            assert batch.value_z[i + 1] == -batch.value_z[i]
    assert games == 3
    assert set(np.unique(batch.value_z)) <= {-1.0, 0.0, 1.0}


def test_saz2_is_read_by_rsshogi_and_agrees_with_the_rules(played: tuple[Path, dict]) -> None:
    d, summary = played
    assert run("saz", "validate", d / "out" / "selfplay.saz").returncode == 0
    games = rs.decode_sazpack_file(str(d / "out" / "selfplay.saz"))
    assert len(games) == 3
    assert sum(len(g.positions) for g in games) == summary["positions"]
    for g in games:
        board = cshogi.Board()
        for p in g.positions:
            legal = {cshogi.move_to_usi(m) for m in board.legal_moves}
            assert {e.mv for e in p.policy} == legal  # every root move, visited or not
            assert sum(e.visits for e in p.policy) == 11
            assert p.requested_visits == 12
            assert p.played in legal
            board.push_usi(p.played)
        over = board.is_game_over() or board.is_draw(16) in (cshogi.REPETITION_DRAW, cshogi.REPETITION_WIN,
                                                             cshogi.REPETITION_LOSE)
        if int(g.game_result) == 6:  # DrawByMaxPlies
            assert len(g.positions) == 70
        else:
            assert over


def test_packs_into_shards(played: tuple[Path, dict], tmp_path: Path) -> None:
    d, summary = played
    run("pack", d / "out" / "selfplay.mpk", "-o", tmp_path / "sp", "-q")
    rows = sum(pq.read_metadata(p).num_rows for p in tmp_path.glob("sp-*.parquet"))
    assert 0 < rows <= summary["positions"]


def test_an_existing_output_and_a_chess_network_are_refused(played: tuple[Path, dict], tmp_path: Path) -> None:
    d, _ = played
    r = run("shogi", "selfplay", "--checkpoint", d / "init.pt", "-o", d / "out", "--games", "1", check=False)
    assert r.returncode != 0 and "exists" in r.stderr
    subprocess.run([sys.executable, "-m", "manaka.selfplay", "init", "--game", "chess", "-o", str(tmp_path / "c.pt"),
                    "--blocks", "1", "--channels", "8"], check=True, capture_output=True)
    r = run("shogi", "selfplay", "--checkpoint", tmp_path / "c.pt", "-o", tmp_path / "o", "--games", "1", check=False)
    assert r.returncode == 1 and "a network for chess, not shogi" in r.stderr
    assert not (tmp_path / "o").exists()
    r = run("shogi", "selfplay", "--checkpoint", d / "init.pt", "-o", tmp_path / "o", "--games", "0", check=False)
    assert r.returncode != 0 and "--games" in r.stderr


def test_overwrite_replaces_an_earlier_run(tmp_path: Path) -> None:
    uniform = search.uniform_evaluator(search.SHOGI_POLICY_SIZE)
    search.shogi_self_play(uniform, 1, str(tmp_path / "o"), search.SearchOptions(simulations=4, seed=1), max_plies=6,
                           progress=False)
    (tmp_path / "o" / "stray").write_text("not the run's")
    # "o/" names the directory o (its temporary once became o/.tmp-PID and failed).
    summary, _ = search.shogi_self_play(uniform, 2, str(tmp_path / "o") + "/", search.SearchOptions(simulations=4, seed=1),
                                        max_plies=6, overwrite=True, progress=False)
    assert summary["positions"] == 12 and sorted(p.name for p in (tmp_path / "o").iterdir()) == ["selfplay.mpk"]
    assert [p.name for p in tmp_path.iterdir()] == ["o"]  # no temporary or moved-aside directory left
    # Missing parents are made, as pack makes its prefix's.
    search.shogi_self_play(uniform, 1, str(tmp_path / "new" / "runs" / "a") + "/", search.SearchOptions(simulations=4),
                           max_plies=2, progress=False)
    assert (tmp_path / "new" / "runs" / "a" / "selfplay.mpk").is_file()


def test_the_python_api_with_a_uniform_network(tmp_path: Path) -> None:
    summary, text = search.shogi_self_play(search.uniform_evaluator(search.SHOGI_POLICY_SIZE), 1, str(tmp_path / "u"),
                                           search.SearchOptions(simulations=4, seed=1), max_plies=10, progress=False)
    assert summary["positions"] == 10 and summary["terminations"]["ply_limit"] == 1
    assert "selfplay: 1 games, 10 positions" in text


def test_the_search_reads_the_policy_at_the_training_index_for_either_colour(tmp_path: Path) -> None:
    """A network that puts its logits on one move of each position of a line,
    at the index training uses (move_index, from the planes encode_planes
    gives), makes self-play play that line, Black's moves and White's alike:
    a mapping that differed for White between training and the search (say,
    White's moves unrotated) would play other moves."""
    from manaka._core import shogi as core

    rng = np.random.default_rng(4)
    board = cshogi.Board()
    line, wanted = [], {}
    for _ in range(24):
        usi = str(rng.choice(sorted(cshogi.move_to_usi(m) for m in board.legal_moves)))
        wanted[core.encode_planes(board.sfen()).tobytes()] = core.move_index(board.sfen(), usi)
        line.append(usi)
        board.push_usi(usi)
    assert len(wanted) == 24 and not board.is_game_over()

    def evaluate(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits = np.zeros((len(planes), search.SHOGI_POLICY_SIZE), np.float32)
        for i, p in enumerate(planes):
            at = wanted.get(p.tobytes())
            if at is not None:
                logits[i, at] = 30.0
        return logits, np.zeros(len(planes), np.float32)

    opts = search.SearchOptions(simulations=16, batch_size=4, threads=1, dirichlet_epsilon=0.0, temperature_plies=0,
                                seed=3)
    search.shogi_self_play(evaluate, 1, str(tmp_path / "sp"), opts, max_plies=24, saz=True, progress=False)
    (game,) = rs.decode_sazpack_file(str(tmp_path / "sp" / "selfplay.saz"))
    assert [str(p.played) for p in game.positions] == line


def test_the_thread_count_does_not_change_the_files(tmp_path: Path) -> None:
    """Each game's search gathers batch_size leaves a round whatever the thread
    count, so with a network whose answer for a position does not depend on
    the rest of its call (integer arithmetic here) 1 and 3 threads write the
    same MPK1 and SAZ2 bytes; the 3 threads' rounds share calls."""
    weights = np.random.default_rng(0).integers(1, 1 << 20, 44 * 81, dtype=np.int64)
    columns = np.arange(search.SHOGI_POLICY_SIZE, dtype=np.int64)

    def hashed(planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        h = planes.reshape(len(planes), -1).astype(np.int64) @ weights  # exact in int64
        logits = ((h[:, None] * 2654435761 + columns * 40503) % 997).astype(np.float32) / 200
        return logits, ((h % 1801) - 900).astype(np.float32) / 1000

    for threads in (1, 3):
        opts = search.SearchOptions(simulations=24, batch_size=4, threads=threads, seed=4)
        summary, _ = search.shogi_self_play(hashed, 5, str(tmp_path / f"t{threads}"), opts, max_plies=12, saz=True,
                                            progress=False)
    ev = summary["evaluator"]
    assert ev["positions"] / ev["batches"] > 4  # the 3 threads' rounds shared calls
    for name in ("selfplay.mpk", "selfplay.saz"):
        assert (tmp_path / "t1" / name).read_bytes() == (tmp_path / "t3" / name).read_bytes(), name


def test_exact_batches_give_a_cpu_networks_games_the_same_bytes_at_any_thread_count(tmp_path: Path) -> None:
    """A CPU torch network's floats depend on how many rows share its call, and
    which rounds share one depends on timing; with exact_batches each round is
    its own call, so 3 threads write a one-thread run's bytes."""
    import torch

    from manaka.train.config import ModelConfig
    from manaka.train.network import PolicyValueNet

    torch.manual_seed(0)
    net = PolicyValueNet(ModelConfig(blocks=1, channels=8, value_channels=2, value_hidden=8), "shogi")
    evaluate = search.torch_evaluator(net)
    calls = {}
    for threads in (1, 3):
        opts = search.SearchOptions(simulations=16, batch_size=4, threads=threads, exact_batches=True, seed=2)
        summary, _ = search.shogi_self_play(evaluate, 4, str(tmp_path / f"t{threads}"), opts, max_plies=10, saz=True,
                                            progress=False)
        calls[threads] = summary["evaluator"]["batches"]
    assert calls[1] == calls[3]  # the same calls, not merged
    for name in ("selfplay.mpk", "selfplay.saz"):
        assert (tmp_path / "t1" / name).read_bytes() == (tmp_path / "t3" / name).read_bytes(), name
    assert "exact_batches=True" in repr(search.SearchOptions(exact_batches=True))
