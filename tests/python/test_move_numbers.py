"""The move number in printed SFENs comes from the ply where one is known.

MPK1's ply is 0-based (the starting position is ply 0, SFEN move number 1)
and the packed bytes hold no move number, so `manaka stream dump` prints
ply + 1, and `manaka shogi unpack` takes it from --ply (move 1 without).
cshogi, the oracle, replays the same games: its SFEN at each ply must be the
one dumped. (VPD's FENs: tests/python/test_vpd.py, against python-chess.)
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import cshogi  # test-only oracle

from manaka import shogi, stream

MANAKA = str(Path(sys.executable).with_name("manaka"))


def test_stream_dump_numbers_each_sfen_from_its_ply(tmp_path: Path) -> None:
    rng = random.Random(5)
    path = tmp_path / "games.mpk"
    expected = []  # cshogi's SFEN of every record, in order
    with stream.SelfPlayWriter(str(path)) as w:
        for _ in range(3):
            ours, theirs = shogi.Board(), cshogi.Board()
            w.begin_game()
            for ply in range(rng.randint(20, 60)):
                moves = ours.legal_move16s()
                if len(moves) == 0:
                    break
                mv = int(rng.choice(list(moves)))
                w.add_position(ours.pack(), ply, 0.0, [mv], [1])
                expected.append(theirs.sfen())
                move = shogi.Move.from_move16(mv)
                ours.push(move)
                theirs.push_usi(move.usi())
            w.end_game(0)
    run = subprocess.run([MANAKA, "stream", "dump", str(path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert [r["sfen"] for r in rows] == expected
    for r in rows:
        assert r["sfen"].endswith(f" {r['ply'] + 1}") and cshogi.Board(r["sfen"]).move_number == r["ply"] + 1
    assert max(r["ply"] for r in rows) >= 19


def test_shogi_unpack_takes_the_ply(tmp_path: Path) -> None:
    board = shogi.Board()
    for usi in ("7g7f", "3c3d", "8h2b+"):
        board.push_usi(usi)
    hex_text = bytes(board.pack()).hex()

    def unpack(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([MANAKA, "shogi", "unpack", hex_text, *args], capture_output=True, text=True)

    sfen = unpack("--ply", "3").stdout.strip()
    assert sfen == board.sfen() and cshogi.Board(sfen).move_number == 4
    assert unpack().stdout.strip() == " ".join(board.sfen().split()[:3] + ["1"])
    assert unpack("--ply", "65535").stdout.strip().endswith(" 65536")
    refused = unpack("--ply", "-1")
    assert refused.returncode != 0 and "--ply: -1 is out of range" in refused.stderr
    assert "move 1" in unpack("--help").stdout

