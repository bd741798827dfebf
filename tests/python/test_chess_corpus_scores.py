"""`manaka chess corpus --scores`: the engine's score of every position, stored as the shard's `scores`
array, read by numpy, by `read_scores` and by the batch loader, with the mover's sign.

Oracles: numpy reads the array; python-chess replays the games from the PGN, so a record whose move mates
must carry the score of a mate in one ply for its mover (SCORE_MATE - 1), and a mated side never scores a
win; the scores agree in sign with the games' outcomes far more often than not.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import chess
import chess.pgn
import numpy as np
import pytest

from manaka import InvalidDataError
from manaka import chess_corpus as cc
from test_chess_corpus_generate import MANAKA, corpus


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    out = tmp_path_factory.mktemp("scores") / "c"
    run = corpus(out, 12, 2, 3, "--pgn", "--json", "--scores")
    assert run.returncode == 0, run.stderr
    return out


def test_numpy_reads_the_scores_and_mates_carry_the_movers_sign(scored):
    manifest = json.loads((scored / "corpus.json").read_text())
    assert manifest["options"]["scores"] is True
    mates = agree = decisive = 0
    for entry in manifest["shards"]:
        path = scored / entry["file"]
        data = np.load(path)
        assert sorted(data.files) == ["move_indices", "outcomes", "scores", "states"]
        scores = data["scores"]
        assert scores.dtype == np.int16 and scores.shape == (entry["positions"],)
        assert np.array_equal(cc.read_scores(path), scores)
        outcomes = data["outcomes"]
        index = entry["file"][len("shard_"):-len(".npz")]
        row = 0
        with open(scored / f"games_{index}.pgn") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                board = game.board()
                moves = list(game.mainline_moves())
                for k, move in enumerate(moves):
                    if k < 4:  # the random opening: no records
                        board.push(move)
                        continue
                    board.push(move)
                    if board.is_checkmate():
                        assert scores[row] == cc.SCORE_MATE - 1, (entry["file"], row)
                        assert outcomes[row] == 1
                        mates += 1
                    row += 1
        assert row == entry["positions"]
        values = cc.score_values(scores)
        assert values.dtype == np.float32 and np.all(np.abs(values) <= 1)
        won = outcomes != 0
        decisive += int(won.sum())
        agree += int((np.sign(values[won]) == outcomes[won]).sum())
    assert mates > 0
    assert agree > 0.7 * decisive


def test_the_loader_hands_out_each_rows_score(scored):
    shards = cc.list_shards(scored)
    states = np.concatenate([cc.read_shard(p)[0] for p in shards])
    scores = np.concatenate([cc.read_scores(p) for p in shards])
    got_states, got_scores = [], []
    for s, m, z, sc in cc.iter_batches(shards, 37, shuffle=False, scores=True):
        assert sc.dtype == np.float32 and sc.shape == m.shape
        got_states.append(s)
        got_scores.append(sc)
    assert np.array_equal(np.concatenate(got_states), states.astype(np.float32))
    assert np.array_equal(np.concatenate(got_scores), scores.astype(np.float32))
    # shuffled: each row keeps its own score
    pairs = sorted(zip((s.astype(np.int8).tobytes() for b in got_states for s in b), np.concatenate(got_scores)))
    shuffled = []
    for s, m, z, sc in cc.iter_batches(shards, 64, shuffle=True, seed=5, scores=True):
        shuffled.extend(zip((x.astype(np.int8).tobytes() for x in s), sc))
    assert sorted(shuffled) == pairs


def test_a_shard_without_scores_is_named(tmp_path, scored):
    plain = tmp_path / "plain"
    run = corpus(plain, 2, 1, 3)
    assert run.returncode == 0, run.stderr
    assert cc.read_scores(cc.list_shards(plain)[0]) is None
    with pytest.raises(InvalidDataError, match="no array 'scores'"):
        list(cc.iter_batches(cc.list_shards(plain), 64, scores=True))


def test_a_corpus_with_scores_is_not_continued_without(scored, tmp_path):
    run = subprocess.run([MANAKA, "chess", "corpus", "-o", str(scored), "--games", "12", "--workers", "1",
                          "--nodes", "300", "--seed", "3", "--shard-size", "400"], capture_output=True, text=True)
    assert run.returncode != 0
    assert "with scores" in run.stderr and "--overwrite" in run.stderr


def test_scores_out_of_range_are_refused_naming_the_row(tmp_path):
    states = np.zeros((3, 20, 8, 8), np.int8)
    moves = np.zeros(3, np.int32)
    outcomes = np.zeros(3, np.int8)
    path = tmp_path / "shard_000000.npz"
    with pytest.raises(InvalidDataError, match=r"scores\[1\] = 25000"):
        cc.write_shard(path, states, moves, outcomes, scores=np.array([0, 25000, 0], np.int16))
    cc.write_shard(path, states, moves, outcomes, scores=np.array([-20000, cc.SCORE_MATE - 3, -cc.SCORE_MATE], np.int16))
    data = np.load(path)
    np.savez_compressed(tmp_path / "numpy.npz", states=states, move_indices=moves, outcomes=outcomes,
                        scores=data["scores"])
    assert (tmp_path / "numpy.npz").read_bytes() == Path(path).read_bytes()
    assert np.allclose(cc.score_values(data["scores"]), [np.tanh(-50.0), 1.0, -1.0])
