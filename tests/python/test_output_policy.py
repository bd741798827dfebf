"""One output policy for every command that writes (docs/reliability.md).

Each command is run three ways, each a way data was lost before:
  1. its output is its own input (the same file, through another name too),
     with --overwrite: refused, the input's bytes unchanged;
  2. its output exists and --overwrite is not given: refused, unchanged;
  3. its output is an arbitrary directory of the user's, with --overwrite:
     what it holds is still there afterwards.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np
import pytest

from manaka import chess, sazpack, stream
from test_reliability import MANAKA, teacher_corpus
from test_shards import selfplay_stream

PY = sys.executable
ROOT = Path(__file__).resolve().parents[2]
FAKE_ENGINE = ROOT / "tests" / "fixtures" / "engine" / "fake_engine.sh"
PGN = '[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n'
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = tmp_path_factory.mktemp("inputs")
    f = {"mpk": selfplay_stream(d / "g.mpk", games=4), "parquet": teacher_corpus(d / "c.parquet")}
    f["pgn"] = d / "g.pgn"
    f["pgn"].write_text(PGN)
    f["vpd"] = d / "g.vpd"
    subprocess.run([MANAKA, "vpd", "build", f["pgn"], "-o", f["vpd"], "-q"], check=True, capture_output=True)
    f["hcpe"] = d / "g.hcpe"
    subprocess.run([MANAKA, "stream", "export", f["mpk"], "--to", "hcpe", "-o", f["hcpe"], "--eval-coef", "600"],
                   check=True, capture_output=True)
    wdl = sazpack.SazWdl(win=65535, draw=0, loss=0)
    pos = sazpack.SazPosition(
        played="7g7f", root_wdl=wdl, outcome_wdl=wdl, raw_wdl=wdl, raw_mate=0, raw_moves_left=0, plies_left=1,
        requested_visits=1, target_weight_milli=1000, exploration_flags=0,
        policy=[sazpack.SazPolicyEntry(mv="7g7f", prior=65535, raw_prior=65535, visits=1, lower=0, upper=0)],
        mate=None)
    game = sazpack.SazGame(stem=START, game_result=sazpack.GameResult.BLACK_WIN, termination_reason=0,
                           entering_king_rule=3, positions=[pos])
    f["saz"] = d / "g.saz"
    f["saz"].write_bytes(bytes(sazpack.write_sazpack([game])))
    # Engines and checkpoints are inputs too: copies, so that a failure here never touches /usr/games.
    f["engine"] = d / "engine.sh"
    shutil.copy(FAKE_ENGINE, f["engine"])
    for game_name in ("chess", "shogi"):
        f[game_name + "_net"] = d / f"{game_name}.pt"
        subprocess.run([PY, "-m", "manaka.selfplay", "init", "--game", game_name, "-o", f[game_name + "_net"],
                        "--blocks", "1", "--channels", "8"], check=True, capture_output=True)
    f["corpus"] = d / "corpus"
    f["corpus"].mkdir()
    rng = np.random.default_rng(0)
    for k in range(2):
        chess.write_shard(f["corpus"] / chess.shard_name(k), rng.integers(0, 2, (8, 20, 8, 8)).astype(np.int8),
                          rng.integers(0, 4672, 8).astype(np.int32), np.zeros(8, np.int8))
    f["config"] = d / "t.toml"
    f["config"].write_text((ROOT / "configs" / "chess-pretrain-small.toml").read_text())
    return f


@dataclass
class Case:
    name: str
    argv: Callable[[dict, Path], list]  # the command writing `out`
    input: Optional[str]                # the key in files of the input that check 1 writes onto
    kind: str = "file"                  # file, dir (a directory output) or prefix (pack's shard set)
    checks: tuple = (1, 2, 3)


def native(*args) -> list:
    return [MANAKA, *args]


CASES = [
    Case("teacher convert", lambda f, o: native("teacher", "convert", f["parquet"], "-o", o, "--eval-coef", "600",
                                                "--mate-scale", "32000"), "parquet"),
    Case("teacher generate", lambda f, o: native("teacher", "generate", "--engine", f["engine"], "-o", o,
                                                 "--games", "1", "--depth", "1"), "engine"),
    Case("saz to-mpk", lambda f, o: native("saz", "to-mpk", f["saz"], "-o", o), "saz"),
    Case("stream import", lambda f, o: native("stream", "import", "--from", "hcpe", f["hcpe"], "-o", o,
                                              "--eval-coef", "600", "--mate-scale", "32000"), "hcpe"),
    Case("stream export", lambda f, o: native("stream", "export", f["mpk"], "--to", "psv", "-o", o,
                                              "--eval-coef", "600"), "mpk"),
    Case("pack", lambda f, o: native("pack", f["mpk"], "-o", o, "-q"), "mpk", kind="prefix"),
    Case("vpd build", lambda f, o: native("vpd", "build", f["pgn"], "-o", o, "-q"), "pgn"),
    Case("vpd to-parquet", lambda f, o: native("vpd", "to-parquet", f["vpd"], "-o", o), "vpd", kind="dir"),
    Case("chess corpus", lambda f, o: native("chess", "corpus", "-o", o, "--games", "1", "--engine", f["engine"]),
         "engine", kind="dir", checks=(1, 3)),  # an existing corpus is continued: its own rule (test_chess_corpus)
    Case("shogi selfplay", lambda f, o: native("shogi", "selfplay", "--checkpoint", f["shogi_net"], "-o", o,
                                               "--games", "1", "--simulations", "2", "--max-plies", "4"),
         "shogi_net", kind="dir"),
    Case("report", lambda f, o: native("report", f["mpk"], "-o", o, "--boards", "0"), "mpk"),
    Case("python -m manaka.eval --pgn", lambda f, o: [PY, "-m", "manaka.eval", "--game", "chess", "--checkpoint",
                                                      f["chess_net"], "--num-games", "1", "--engine", f["engine"],
                                                      "--pgn", o], "chess_net"),
    Case("python -m manaka.eval --json", lambda f, o: [PY, "-m", "manaka.eval", "--game", "chess", "--checkpoint",
                                                       f["chess_net"], "--num-games", "1", "--engine", f["engine"],
                                                       "--json", o], "chess_net"),
    Case("python -m manaka.train pretrain --out", lambda f, o: [PY, "-m", "manaka.train", "pretrain", "--config",
                                                                f["config"], "--corpus", f["corpus"], "--out", o,
                                                                "--metrics", "", "--epochs", "1"], "config"),
    Case("python -m manaka.selfplay init", lambda f, o: [PY, "-m", "manaka.selfplay", "init", "--game", "chess",
                                                         "-o", o, "--blocks", "1", "--channels", "8"], None,
         checks=(2, 3)),
]


def with_overwrite(argv: list) -> list:
    return argv + ["--overwrite"]


def tree(path: Path) -> dict:
    return {str(p.relative_to(path)): p.read_bytes() if p.is_file() else None for p in sorted(path.rglob("*"))}


def run(argv: list) -> subprocess.CompletedProcess:
    return subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_writer_keeps_inputs_existing_outputs_and_directories(case: Case, files: dict, tmp_path: Path) -> None:
    if 1 in case.checks:
        assert case.input is not None
        victim = tmp_path / ("in-00000.parquet" if case.kind == "prefix" else files[case.input].name)
        shutil.copy(files[case.input], victim)
        f = {**files, case.input: victim}
        before = victim.read_bytes()
        # pack's output is a prefix: the set it would write names the input as its shard 0.
        out = tmp_path / "in" if case.kind == "prefix" else victim
        for argv in (case.argv(f, out), with_overwrite(case.argv(f, out))):
            proc = run(argv)
            assert proc.returncode != 0, (argv, proc.stdout, proc.stderr)
            assert "input" in proc.stderr and "never overwritten" in proc.stderr, proc.stderr
            assert victim.read_bytes() == before
        alias = tmp_path / "alias"  # another name for the same file
        os.symlink(victim, alias)
        if case.kind != "prefix":
            proc = run(with_overwrite(case.argv(f, alias)))
            assert proc.returncode != 0 and "never overwritten" in proc.stderr, proc.stderr
            assert victim.read_bytes() == before

    if 2 in case.checks:
        target = tmp_path / "exists"
        if case.kind == "dir":
            target.mkdir()
            (target / "mine.txt").write_text("precious")
            existing = target / "mine.txt"
        else:
            existing = Path(f"{target}-00000.parquet") if case.kind == "prefix" else target
            existing.write_bytes(b"precious")
        proc = run(case.argv(files, target))
        assert proc.returncode != 0, (proc.stdout, proc.stderr)
        assert "exist" in proc.stderr and "--overwrite" in proc.stderr, proc.stderr
        assert existing.read_bytes() == b"precious"

    if 3 in case.checks:
        users = tmp_path / "users"
        (users / "sub").mkdir(parents=True)
        (users / "t.txt").write_text("mine")
        (users / "sub" / "x").write_text("mine too")
        before_tree = tree(users)
        run(with_overwrite(case.argv(files, users)))  # refused, or written beside what is there
        after = tree(users)
        assert {k: v for k, v in after.items() if k in before_tree} == before_tree


def test_training_never_writes_over_its_corpus(files: dict) -> None:
    shard = files["corpus"] / chess.shard_name(0)
    before = shard.read_bytes()
    os.link(shard, files["corpus"] / "alias.npz")  # another name of the same file
    for out in (shard, files["corpus"] / "alias.npz"):
        proc = run([PY, "-m", "manaka.train", "pretrain", "--config", files["config"], "--corpus", files["corpus"],
                    "--out", out, "--metrics", "", "--overwrite"])
        assert proc.returncode == 2 and "is the input" in proc.stderr and "never overwritten" in proc.stderr
    proc = run([PY, "-m", "manaka.train", "pretrain", "--config", files["config"], "--corpus", files["corpus"],
                "--out", files["corpus"] / "net.pt", "--metrics", shard, "--overwrite"])
    assert proc.returncode == 2 and "metrics: " in proc.stderr and "is the input" in proc.stderr
    assert shard.read_bytes() == before


def test_python_writers_write_whole_files_or_none(tmp_path: Path) -> None:
    kept = selfplay_stream(tmp_path / "v.mpk", games=3)
    before = kept.read_bytes()
    with pytest.raises(ValueError, match="exists; pass --overwrite"):
        stream.SelfPlayWriter(str(kept))
    with pytest.raises(ValueError, match="exists; pass --overwrite"):
        stream.Writer(str(kept), stream.selfplay_header())
    assert kept.read_bytes() == before

    # Replaced only when the new stream is complete: an exception inside the block leaves the old one.
    with pytest.raises(RuntimeError):
        with stream.SelfPlayWriter(str(kept), overwrite=True) as w:
            assert w.path == str(kept)
            w.begin_game()
            raise RuntimeError("the game generator failed")
    assert kept.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.mpk"]
    # A writer dropped without close() leaves nothing either.
    dropped = stream.Writer(str(tmp_path / "dropped.mpk"), stream.selfplay_header())
    del dropped
    assert not (tmp_path / "dropped.mpk").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.mpk"]

    corpus = tmp_path / "corpus"
    subprocess.run([MANAKA, "chess", "corpus", "-o", corpus, "--games", "2", "--engine", "/usr/games/stockfish",
                    "--nodes", "50", "--workers", "1", "-q"], check=True, capture_output=True)
    shard = corpus / chess.shard_name(0)
    n = len(chess.read_shard(shard)[1])
    s = np.zeros((n + 1, 20, 8, 8), np.int8)
    with pytest.raises(ValueError, match="exists; pass --overwrite"):
        chess.write_shard(shard, s, np.zeros(n + 1, np.int32), np.zeros(n + 1, np.int8))
    # Replaced on purpose, the shard no longer is what corpus.json lists: both commands say so.
    chess.write_shard(shard, s, np.zeros(n + 1, np.int32), np.zeros(n + 1, np.int8), overwrite=True)
    inspect = subprocess.run([MANAKA, "chess", "shards", "inspect", corpus], capture_output=True, text=True)
    assert inspect.returncode == 1
    assert f"holds {n + 1} positions, but corpus.json lists {n}" in inspect.stdout + inspect.stderr
    again = subprocess.run([MANAKA, "chess", "corpus", "-o", corpus, "--games", "3", "--engine",
                            "/usr/games/stockfish", "--nodes", "50", "--workers", "1", "-q"],
                           capture_output=True, text=True)
    assert again.returncode == 1 and "corpus.json" in again.stderr and "--overwrite" in again.stderr
