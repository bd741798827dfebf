"""manaka.stream against the test's own reading of the MPK1 layout (struct)."""

import json
import math
import random
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import manaka
from manaka import shogi, stream

MANAKA = str(Path(sys.executable).with_name("manaka"))
NO_CP = -32768


def header_bytes(packed_len=96, pov=0, policy_source=0, mate_scale=0, fv_scale=0, mate_slack=0,
                 eval_coef=0.0, flags=0, version=1) -> bytes:
    # magic u32 | version u16 | packed_len u16 | pov u8 | policy_source u8 | mate_scale u16
    # fv_scale u16 | mate_slack u16 | eval_coef f32 | flags u32
    return struct.pack("<4sHHBBHHHfI", b"MPK1", version, packed_len, pov, policy_source,
                       mate_scale, fv_scale, mate_slack, eval_coef, flags)


def record_bytes(ply, z, q, packed, cands) -> bytes:
    out = struct.pack("<HffH", ply, z, q, len(cands)) + packed
    for mv, visits, cp in cands:
        out += struct.pack("<HIh", mv, visits, cp)
    return out


def random_games(rng, n_positions):
    """(packed, legal move16s) along random legal games."""
    out = []
    while len(out) < n_positions:
        pos = shogi.Position()
        for _ in range(rng.randint(5, 80)):
            moves = pos.legal_move16s()
            if len(moves) == 0:
                break
            out.append((pos.pack(), [int(m) for m in moves]))
            pos.push(int(rng.choice(list(moves))))
    return out[:n_positions]


def test_reader_reads_a_stream_written_with_struct(tmp_path):
    rng = random.Random(7)
    expected = []
    body = b""
    for packed, legal in random_games(rng, 300):
        cands = [(mv, 0, rng.randint(-3000, 3000)) for mv in rng.sample(legal, min(5, len(legal)))]
        rec = (rng.randint(0, 500), float(rng.choice([-1, 0, 1])), rng.uniform(-1, 1), packed, cands)
        expected.append(rec)
        body += record_bytes(*rec)
    path = tmp_path / "teacher.mpk"
    path.write_bytes(header_bytes(policy_source=1, mate_scale=32000, mate_slack=100,
                                  eval_coef=600.0, fv_scale=16) + body)

    reader = stream.Reader(path)
    h = reader.header
    assert (h.policy_source, h.mate_scale, h.mate_slack, h.fv_scale, h.eval_coef) == (1, 32000, 100, 16, 600.0)
    batches = list(reader.batches(batch_size=128))
    assert [len(b) for b in batches] == [128, 128, 44]
    i = 0
    for b in batches:
        for j in range(len(b)):
            ply, z, q, packed, cands = expected[i]
            assert b.ply[j] == ply and b.value_z[j] == z
            assert b.value_q[j] == np.float32(q)
            assert b.packed[j].tobytes() == packed
            lo, hi = b.cand_offsets[j], b.cand_offsets[j + 1]
            assert list(zip(b.mv[lo:hi].tolist(), b.visits[lo:hi].tolist(), b.cp[lo:hi].tolist())) == cands
            i += 1
    assert i == 300 and reader.records_read == 300


def test_writer_bytes_match_the_layout(tmp_path):
    path = tmp_path / "w.mpk"
    pos = shogi.Position()
    mv = [shogi.move16_from_usi(u) for u in ("7g7f", "2g2f")]
    with stream.Writer(str(path), stream.selfplay_header()) as w:
        w.write(pos.pack(), 0, 1.0, 0.25, mv, visits=[600, 200])
    data = path.read_bytes()
    assert data[:24] == header_bytes()
    assert data[24:] == record_bytes(0, 1.0, 0.25, pos.pack(), [(mv[0], 600, NO_CP), (mv[1], 200, NO_CP)])


def test_random_records_round_trip_bit_exactly(tmp_path):
    rng = random.Random(11)
    h = stream.Header()
    h.policy_source = 0
    path = tmp_path / "rt.mpk"
    records = []
    with stream.Writer(str(path), h) as w:
        for packed, legal in random_games(rng, 500):
            mv = rng.sample(legal, rng.randint(1, len(legal)))
            visits = [rng.randint(1, 2**32 - 1) for _ in mv]
            q = float(np.float32(rng.uniform(-1, 1)))
            rec = (rng.randint(0, 65535), float(rng.choice([-1, 0, 1])), q, packed, mv, visits)
            w.write(rec[3], rec[0], rec[1], rec[2], mv, visits=visits)
            records.append(rec)
    (b,) = list(stream.read_batches(str(path), batch_size=10_000))
    for j, (ply, z, q, packed, mv, visits) in enumerate(records):
        lo, hi = b.cand_offsets[j], b.cand_offsets[j + 1]
        assert (b.ply[j], b.value_z[j], b.value_q[j]) == (ply, z, q)
        assert b.packed[j].tobytes() == packed
        assert b.mv[lo:hi].tolist() == mv and b.visits[lo:hi].tolist() == visits
        assert (b.cp[lo:hi] == NO_CP).all()


def test_selfplay_value_z_follows_each_side_to_move(tmp_path):
    path = tmp_path / "sp.mpk"
    pos = shogi.Position()
    with stream.SelfPlayWriter(str(path)) as w:
        w.begin_game()
        for ply, usi in enumerate(["7g7f", "3c3d", "2g2f"]):
            w.add_position(pos.pack(), ply, 0.1, [shogi.move16_from_usi(usi)], [800])
            pos.push_usi(usi)
        w.end_game(-1)  # White won
        w.begin_game()
        w.add_position(shogi.Position().pack(), 0, 0.0, [shogi.move16_from_usi("7g7f")], [5])
        w.end_game(0)
        w.begin_game()  # never ended: nothing of it may reach the file
        w.add_position(shogi.Position().pack(), 0, 0.0, [shogi.move16_from_usi("7g7f")], [5])
    (b,) = list(stream.read_batches(str(path)))
    assert b.value_z.tolist() == [-1.0, 1.0, -1.0, 0.0]
    assert b.packed[:, 95].tolist() == [0, 1, 0, 0]
    h = stream.Reader(str(path)).header
    assert (h.policy_source, h.eval_coef, h.mate_scale, h.fv_scale) == (0, 0.0, 0, 0)


def test_policy_is_stored_as_visits_at_the_fixed_scale(tmp_path):
    mv = [shogi.move16_from_usi(u) for u in ("7g7f", "2g2f", "1g1f")]
    moves, visits = stream.quantize_policy(mv, [0.75, 0.25 - 2**-18, 2**-18])
    assert moves.tolist() == mv[:2]  # 2^-18 is below half a quantum
    assert visits.tolist() == [49152, 16384]  # round(p * 65536)


def test_errors_name_the_record_offset_and_rule(tmp_path):
    pos = shogi.Position()
    good = record_bytes(0, 1.0, 0.0, pos.pack(), [(shogi.move16_from_usi("7g7f"), 3, NO_CP)])
    bad = record_bytes(1, 0.5, 0.0, pos.pack(), [(shogi.move16_from_usi("7g7f"), 3, NO_CP)])
    path = tmp_path / "bad.mpk"
    path.write_bytes(header_bytes() + good + bad)
    with pytest.raises(manaka.InvalidDataError, match=r"bad.mpk: record 1 at byte 140: value_z is 0.5"):
        list(stream.read_batches(str(path)))
    path.write_bytes(header_bytes() + good + good[:50])
    with pytest.raises(manaka.TruncatedError, match="truncated"):
        stream.validate(str(path))
    w = stream.Writer(str(tmp_path / "w.mpk"), stream.selfplay_header())
    with pytest.raises(manaka.InvalidDataError, match="no candidates"):
        w.write(pos.pack(), 0, 1.0, 0.0, [], visits=[])
    with pytest.raises(manaka.InvalidDataError, match="bit 15"):
        w.write(pos.pack(), 0, 1.0, 0.0, [0x8000 | 3095], visits=[1])


def test_commands_validate_inspect_dump(tmp_path):
    good = tmp_path / "good.mpk"
    pos = shogi.Position()
    with stream.SelfPlayWriter(str(good)) as w:
        w.begin_game()
        w.add_position(pos.pack(), 0, 0.2, [shogi.move16_from_usi("7g7f"), shogi.move16_from_usi("2g2f")], [1, 2])
        w.end_game(1)
    bad = tmp_path / "bad.mpk"
    bad.write_bytes(good.read_bytes()[:-3])
    run = subprocess.run([MANAKA, "stream", "validate", str(good), str(bad)], capture_output=True, text=True)
    assert run.returncode == 1
    assert "good.mpk: ok, 1 records" in run.stdout + run.stderr
    assert "truncated" in run.stdout + run.stderr
    info = json.loads(subprocess.run([MANAKA, "stream", "inspect", str(good), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    assert info["records"] == 1
    lines = subprocess.run([MANAKA, "stream", "dump", str(good)], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    row = json.loads(lines[0])
    assert row["sfen"].startswith("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -")
    assert row["value_z"] == 1 and math.isclose(row["value_q"], 0.2, rel_tol=1e-6)
