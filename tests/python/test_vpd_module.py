"""manaka.vpd against Python's sqlite3 reading the same file, and the planes
against manaka.chess_corpus's encoding of the same FENs through python-chess
boards (encode_board)."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import chess  # test-only oracle, python-chess
import chess.pgn
import numpy as np
import pytest

from test_vpd import random_game as random_pgn_game

import manaka
from manaka import vpd

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))


def random_game(rng: random.Random) -> str:
    return str(random_pgn_game(rng, plies=(10, 160))) + "\n\n"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vpdmod")
    rng = random.Random(77)
    pgn = root / "train" / "g.pgn"
    pgn.parent.mkdir()
    pgn.write_text("".join(random_game(rng) for _ in range(150)))
    out = root / "g.vpd"
    proc = subprocess.run([MANAKA, "vpd", "build", str(pgn), "-o", str(out), "--target", "120", "--seed", "4", "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return out


def sql_rows(path: Path, where: str = "", args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    try:
        return con.execute(f"SELECT * FROM positions {where} ORDER BY id", args).fetchall()
    finally:
        con.close()


def test_len_row_and_metadata(built: Path) -> None:
    f = vpd.open(built)
    expected = sql_rows(built)
    assert len(f) == len(expected) > 50
    for r in (expected[0], expected[len(expected) // 2], expected[-1]):
        assert f.row(r["id"]) == dict(r)
    assert f.metadata("format") == "VPD1" and f.metadata("no such key") == ""
    with pytest.raises(manaka.Error, match=f"no row with id {len(expected) + 1}"):
        f.row(len(expected) + 1)
    with pytest.raises(manaka.Error, match="nothing.vpd"):
        vpd.open(built.parent / "nothing.vpd")


def test_batches_are_the_table(built: Path) -> None:
    f = vpd.open(built)
    expected = sql_rows(built)
    batches = list(f.iter_batches(32))
    assert [len(b["id"]) for b in batches] == [32] * (len(expected) // 32) + ([len(expected) % 32] if len(expected) % 32 else [])
    for name in vpd.COLUMNS:
        got = np.concatenate([b[name] for b in batches])
        assert got.tolist() == [r[name] for r in expected], name
        if name not in vpd.TEXT_COLUMNS:
            assert got.dtype in (np.int64, np.int32), name
    assert list(f.iter_batches(1000, start_id=len(expected))) [0]["id"].tolist() == [len(expected)]


def test_sample_wraps_around_like_sql(built: Path) -> None:
    f = vpd.open(built)
    con = sqlite3.connect(built)
    keys = sorted(k for (k,) in con.execute("SELECT random_key FROM positions"))
    # The draws of `manaka vpd sample --seed 11`: the same rows in the same order
    # (it prints the FEN with the fullmove number of the row's ply). The command
    # draws at most the file's rows; the API as many as asked.
    ids = f.sample_ids(400, 11)
    proc = subprocess.run([MANAKA, "vpd", "sample", str(built), "-n", str(len(keys)), "--seed", "11"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    cols = f.sample(len(keys), 11)
    assert f.sample_ids(len(keys), 11).tolist() == ids.tolist()[:len(keys)]
    assert [" ".join(fen.split()[:5] + [str(ply // 2 + 1)]) for fen, ply in zip(cols["fen"], cols["ply"])] == (
        proc.stdout.splitlines())
    # Each draw is the row with the smallest key >= the drawn key, or the smallest key overall.
    state = 11
    mask = (1 << 64) - 1
    wrapped = 0
    for got in ids.tolist():
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        key = (z ^ (z >> 31)) >> 1
        row = con.execute("SELECT id FROM positions WHERE random_key >= ? ORDER BY random_key LIMIT 1", (key,)).fetchone()
        if row is None:
            wrapped += 1
            row = con.execute("SELECT id FROM positions WHERE random_key = ?", (keys[0],)).fetchone()
        assert got == row[0]
    con.close()
    assert len(set(ids.tolist())) > 40


def test_encode_planes_match_the_corpus_encoding(built: Path) -> None:
    from manaka import chess as mchess

    f = vpd.open(built)
    batch = f.sample(64, 5)
    planes = f.encode_planes(batch)
    assert planes.shape == (64, 20, 8, 8) and planes.dtype == np.int8
    for k, fen in enumerate(batch["fen"]):
        board = chess.Board(fen)
        # Independent: piece planes from python-chess, mover's view (rank flipped for Black).
        for square, piece in board.piece_map().items():
            row = chess.square_rank(square) if board.turn == chess.WHITE else 7 - chess.square_rank(square)
            plane = piece.piece_type - 1 + (0 if piece.color == board.turn else 6)
            assert planes[k, plane, row, chess.square_file(square)] == 1
        assert planes[k, :12].sum() == len(board.piece_map())
        assert (planes[k, 12] == (1 if board.turn == chess.WHITE else 0)).all()
        assert (planes[k, 18] == min(board.halfmove_clock, 100)).all()
        assert not planes[k, 19].any()
        decoded, repeated = mchess.decode_planes(planes[k])
        assert decoded.fen() == fen and not repeated
    with pytest.raises(manaka.Error, match=r"fens\[1\]"):
        vpd.encode_planes([chess.STARTING_FEN, "not a fen"])


def test_torch_dataset(built: Path) -> None:
    import torch
    ds = vpd.PositionDataset(built)
    expected = sql_rows(built)
    assert len(ds) == len(expected)
    # A map-style dataset by protocol (__len__, __getitem__): manaka.vpd does not import torch.
    loader = torch.utils.data.DataLoader(cast(Any, ds), batch_size=16, shuffle=False)
    seen = 0
    for batch in loader:
        ids = batch["id"].tolist()
        assert ids == list(range(seen + 1, seen + 1 + len(ids)))
        fens = [expected[i - 1]["fen"] for i in ids]
        assert torch.equal(batch["planes"], torch.from_numpy(vpd.encode_planes(fens)).float())
        for i, outcome in zip(ids, batch["outcome"].tolist()):
            r = expected[i - 1]
            white = {"1-0": 1.0, "0-1": -1.0, "1/2-1/2": 0.0}.get(r["result"])
            if white is None:
                assert np.isnan(outcome)
            else:
                assert outcome == (white if r["side_to_move"] == 1 else -white)
        seen += len(ids)
    assert seen == len(expected)
    with pytest.raises(IndexError):
        ds[len(ds)]
