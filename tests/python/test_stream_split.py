"""manaka stream split: whole games to train or validation, checked record by record."""

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from manaka import shards, shogi, stream

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))


def write_games(path, games, seed=1):
    """Random legal games from the initial position; returns each game's records as (ply, packed)."""
    rng = random.Random(seed)
    out = []
    with stream.SelfPlayWriter(str(path)) as w:
        for _ in range(games):
            board, game = shogi.Board(), []
            w.begin_game()
            for ply in range(rng.randint(3, 12)):
                legal = [int(m) for m in board.legal_move16s()]
                mv = rng.sample(legal, min(len(legal), 3))
                w.add_position(board.pack(), ply, 0.0, mv, [1] * len(mv))
                game.append((ply, board.pack()))
                board.push(shogi.Move.from_move16(mv[0]))
            w.end_game(rng.choice([1, -1, 0]))
            out.append(game)
    return out


def records(path):
    return [(int(p), bytes(k)) for b in stream.Reader(str(path)) for p, k in zip(b.ply, b.packed)]


def split(*args, check=True):
    return subprocess.run([MANAKA, "stream", "split", *map(str, args)], capture_output=True, text=True, check=check)


def test_split_keeps_whole_games_and_the_share(tmp_path):
    games = write_games(tmp_path / "a.mpk", 40)
    done = split(tmp_path / "a.mpk", "--train", tmp_path / "t.mpk", "--validation", tmp_path / "v.mpk",
                 "--share", 0.1, "--seed", 7, "--json")
    summary = json.loads(done.stdout)
    assert summary["validation"]["games"] == 4 and summary["train"]["games"] == 36
    train, val = records(tmp_path / "t.mpk"), records(tmp_path / "v.mpk")
    assert summary["train"]["records"] == len(train) and summary["validation"]["records"] == len(val)
    # Each output is a sequence of whole input games, in input order; together they are the input.
    def cut(recs):
        out = []
        for r in recs:
            if not out or r[0] <= out[-1][-1][0]:
                out.append([])
            out[-1].append(r)
        return out
    got_train, got_val = cut(train), cut(val)
    assert sorted(got_train + got_val) == sorted(games)
    assert [games.index(g) for g in got_val] == sorted(games.index(g) for g in got_val)
    assert stream.Reader(str(tmp_path / "v.mpk")).header == stream.Reader(str(tmp_path / "a.mpk")).header


def test_split_is_deterministic_for_a_seed_and_packs(tmp_path):
    write_games(tmp_path / "a.mpk", 30)
    write_games(tmp_path / "b.mpk", 10, seed=2)
    outs = []
    for run, seed in ((1, 3), (2, 3), (3, 4)):
        t, v = tmp_path / f"t{run}.mpk", tmp_path / f"v{run}.mpk"
        split(tmp_path / "a.mpk", tmp_path / "b.mpk", "--train", t, "--validation", v, "--share", 0.2,
              "--seed", seed)
        outs.append((t.read_bytes(), v.read_bytes()))
    assert outs[0] == outs[1] and outs[0] != outs[2]
    shards.pack([str(tmp_path / "t1.mpk")], str(tmp_path / "shards" / "train" / "sp"))
    shards.pack([str(tmp_path / "v1.mpk")], str(tmp_path / "shards" / "val" / "sp"))
    report = shards.overlap(str(tmp_path / "shards" / "train"), str(tmp_path / "shards" / "val"))
    assert report["valid_rows"] > 0 and report["beyond_opening_share"] < 1.0


def test_split_refusals_name_the_rule(tmp_path):
    write_games(tmp_path / "one.mpk", 1)
    t, v = tmp_path / "t.mpk", tmp_path / "v.mpk"
    done = split(tmp_path / "one.mpk", "--train", t, "--validation", v, check=False)
    assert done.returncode != 0 and "holds 1 game; a split needs at least 2" in done.stderr
    assert not t.exists() and not v.exists()
    done = split(tmp_path / "one.mpk", "--train", t, "--validation", v, "--share", 1, check=False)
    assert done.returncode != 0 and "--share" in done.stderr
    done = split(tmp_path / "one.mpk", "--train", t, "--validation", t, check=False)
    assert done.returncode != 0 and "--train and --validation" in done.stderr
    done = split(tmp_path / "one.mpk", "--train", tmp_path / "one.mpk", "--validation", v, check=False)
    assert done.returncode != 0 and "input" in done.stderr
    h = stream.selfplay_header()
    h.eval_coef = 600.0
    h.policy_source = 1
    with stream.Writer(str(tmp_path / "other.mpk"), h):
        pass
    write_games(tmp_path / "two.mpk", 2)
    done = split(tmp_path / "two.mpk", tmp_path / "other.mpk", "--train", t, "--validation", v, check=False)
    assert done.returncode != 0 and "header differs" in done.stderr and "other.mpk" in done.stderr
    assert not t.exists() and not v.exists()


def test_split_refuses_a_pipe(tmp_path):
    os.mkfifo(tmp_path / "fifo")
    done = split(tmp_path / "fifo", "--train", tmp_path / "t.mpk", "--validation", tmp_path / "v.mpk", check=False)
    assert done.returncode != 0 and "a pipe or FIFO" in done.stderr and "stream split" in done.stderr


def test_python_split_is_the_command(tmp_path):
    write_games(tmp_path / "a.mpk", 20)
    summary = stream.split(tmp_path / "a.mpk", tmp_path / "t.mpk", tmp_path / "v.mpk", share=0.25, seed=5)
    assert (summary["train"]["games"], summary["validation"]["games"]) == (15, 5)
    split(tmp_path / "a.mpk", "--train", tmp_path / "t2.mpk", "--validation", tmp_path / "v2.mpk", "--share", 0.25,
          "--seed", 5)
    assert (tmp_path / "v.mpk").read_bytes() == (tmp_path / "v2.mpk").read_bytes()
    for bad in (0, 1.5, float("nan")):
        try:
            stream.split(tmp_path / "a.mpk", tmp_path / "t3.mpk", tmp_path / "v3.mpk", share=bad)
        except ValueError as e:
            assert "share" in str(e)
        else:
            raise AssertionError(f"share={bad} accepted")
