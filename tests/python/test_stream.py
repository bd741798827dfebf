"""manaka.stream against the test's own reading of the MPK1 layout (struct)."""

import json
import math
import random
import re
import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import manaka
from manaka import shards, shogi, stream

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
        pos = shogi.Board()
        for _ in range(rng.randint(5, 80)):
            moves = pos.legal_move16s()
            if len(moves) == 0:
                break
            out.append((pos.pack(), [int(m) for m in moves]))
            pos.push(shogi.Move.from_move16(int(rng.choice(list(moves)))))
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

    with stream.Reader(path) as r:
        assert len(next(r.batches(10))) == 10
    with pytest.raises(ValueError, match="closed"):
        r.header
    with pytest.raises(ValueError, match="closed"):
        next(r.batches(10))


def test_writer_bytes_match_the_layout(tmp_path):
    path = tmp_path / "w.mpk"
    pos = shogi.Board()
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
    pos = shogi.Board()
    with stream.SelfPlayWriter(str(path)) as w:
        w.begin_game()
        for ply, usi in enumerate(["7g7f", "3c3d", "2g2f"]):
            w.add_position(pos.pack(), ply, 0.1, [shogi.move16_from_usi(usi)], [800])
            pos.push_usi(usi)
        w.end_game(-1)  # White won
        w.begin_game()
        w.add_position(shogi.Board().pack(), 0, 0.0, [shogi.move16_from_usi("7g7f")], [5])
        w.end_game(0)
        w.begin_game()  # never ended: nothing of it may reach the file
        w.add_position(shogi.Board().pack(), 0, 0.0, [shogi.move16_from_usi("7g7f")], [5])
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
    pos = shogi.Board()
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
    pos = shogi.Board()
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


# ---- validation is what every consumer enforces (issue 11, item 4) ----

def test_an_unknown_board_byte_is_refused_by_validate_pack_the_reader_and_the_writer(tmp_path):
    pos = shogi.Board()
    mv = shogi.move16_from_usi("7g7f")
    packed = bytearray(pos.pack())
    packed[37] = 0x37  # 5b, empty in the initial position
    path = tmp_path / "byte37.mpk"
    path.write_bytes(header_bytes() + record_bytes(0, 1.0, 0.0, pos.pack(), [(mv, 3, NO_CP)])
                     + record_bytes(1, 1.0, 0.0, bytes(packed), [(mv, 3, NO_CP)]))
    want = f"{path}: record 1 at byte 140: packed byte 37: unknown board byte 0x37"
    run = subprocess.run([MANAKA, "stream", "validate", str(path)], capture_output=True, text=True)
    assert (run.returncode, run.stdout.strip()) == (1, want)
    run = subprocess.run([MANAKA, "pack", str(path), "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode != 0 and run.stderr.strip() == f"manaka: {want}"
    assert not list(tmp_path.glob("out-*.parquet"))
    with pytest.raises(manaka.InvalidDataError, match=re.escape(want)):
        list(stream.read_batches(str(path)))
    with stream.Writer(str(tmp_path / "w.mpk"), stream.selfplay_header()) as w:
        with pytest.raises(manaka.InvalidDataError, match="packed byte 37: unknown board byte 0x37"):
            w.write(bytes(packed), 0, 1.0, 0.0, [mv], visits=[3])
    assert stream.validate(str(tmp_path / "w.mpk")) == 0


def test_a_move_listed_twice_is_refused_by_validate_naming_both_candidates(tmp_path):
    pos = shogi.Board()
    a, b = shogi.move16_from_usi("7g7f"), shogi.move16_from_usi("2g2f")
    path = tmp_path / "twice.mpk"
    path.write_bytes(header_bytes() + record_bytes(0, 1.0, 0.0, pos.pack(), [(a, 3, NO_CP), (b, 2, NO_CP),
                                                                               (a, 1, NO_CP)]))
    want = f"{path}: record 0 at byte 24: mv 0x{a:04X} is listed twice (candidates 0 and 2)"
    run = subprocess.run([MANAKA, "stream", "validate", str(path)], capture_output=True, text=True)
    assert run.returncode == 1 and run.stdout.startswith(want)
    run = subprocess.run([MANAKA, "pack", str(path), "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode != 0 and want in run.stderr
    with pytest.raises(manaka.InvalidDataError, match=re.escape(want)):
        stream.validate(str(path))
    with stream.SelfPlayWriter(str(tmp_path / "sp.mpk")) as w:
        w.begin_game()
        with pytest.raises(manaka.InvalidDataError, match=r"is listed twice \(candidates 0 and 2\)"):
            w.add_position(pos.pack(), 0, 0.0, [a, b, a], [3, 2, 1])


def float32_of(value: float) -> float:
    with np.errstate(over="ignore"):
        return float(np.float32(value))  # 1e40 -> inf, as a C++ float cast


@pytest.mark.parametrize("coef", [math.inf, math.nan, 1e40, -600.0, -0.0, 0.5, 2e5])
def test_an_eval_coef_a_converter_cannot_use_is_refused_by_validate_pack_and_the_writer(tmp_path, coef):
    pos = shogi.Board()
    mv = shogi.move16_from_usi("7g7f")
    path = tmp_path / "coef.mpk"
    path.write_bytes(header_bytes(policy_source=1, mate_scale=32000, eval_coef=float32_of(coef))
                     + record_bytes(0, 1.0, 0.0, pos.pack(), [(mv, 0, 35)]))
    want = (r"coef.mpk: header: eval_coef is \S+, must be 0 \(not applicable\) or a finite number of "
            r"centipawns from 1 to 100000")
    with pytest.raises(manaka.InvalidDataError, match=want):
        stream.validate(str(path))
    run = subprocess.run([MANAKA, "stream", "validate", str(path)], capture_output=True, text=True)
    assert run.returncode == 1 and ": header: eval_coef is " in run.stdout
    run = subprocess.run([MANAKA, "pack", str(path), "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert run.returncode != 0 and ": header: eval_coef is " in run.stderr
    h = stream.Header()
    h.policy_source, h.mate_scale = 1, 32000
    # A value no float holds is refused as it is set (UsageError), any other
    # one by the writer (InvalidDataError): both are ValueErrors.
    with pytest.raises(ValueError, match="eval_coef"):
        h.eval_coef = coef
        stream.Writer(str(tmp_path / "w.mpk"), h)
    assert not (tmp_path / "w.mpk").exists()


def test_validate_and_pack_agree_on_1000_flipped_position_bytes(tmp_path):
    """One byte of one record's packed position changed to another value, a
    thousand times: validate refuses exactly the copies whose position
    Board.unpack refuses, naming the record and the byte, and pack accepts
    exactly the copies validate accepts."""
    rng = random.Random(5)
    clean = tmp_path / "selfplay.mpk"
    offsets = []
    with stream.SelfPlayWriter(str(clean)) as w:
        offset = 24
        games = random_games(rng, 60)
        for start in range(0, 60, 15):
            w.begin_game()
            for ply, (packed, legal) in enumerate(games[start:start + 15]):
                moves = legal[:5]
                w.add_position(packed, ply, 0.0, moves, list(range(1, len(moves) + 1)))
                offsets.append(offset)
                offset += 12 + 96 + 8 * len(moves)
            w.end_game(1)
    original = clean.read_bytes()
    assert stream.validate(str(clean)) == 60
    path = tmp_path / "flipped.mpk"
    refused = {"unpack": 0, "validate": 0, "pack": 0}
    for flip in range(1000):
        record, byte = rng.randrange(60), rng.randrange(96)
        at = offsets[record] + 12
        data = bytearray(original)
        data[at + byte] ^= rng.randrange(1, 256)
        path.write_bytes(bytes(data))
        try:
            shogi.Board.unpack(bytes(data[at:at + 96]))
            why = None
        except manaka.InvalidDataError as e:
            why = str(e)
            refused["unpack"] += 1
        try:
            stream.validate(str(path))
            verdict = None
        except manaka.InvalidDataError as e:
            verdict = str(e)
            refused["validate"] += 1
        try:
            shards.pack([str(path)], str(tmp_path / "out"), overwrite=True)
            packed_verdict = None
        except manaka.InvalidDataError as e:
            packed_verdict = str(e)
            refused["pack"] += 1
        assert (verdict is None) == (why is None), (flip, record, byte, why, verdict)
        assert packed_verdict == verdict, (flip, packed_verdict, verdict)
        if why is not None:
            where = f"{path}: record {record} at byte {offsets[record]}: "
            assert verdict == where + ("packed " + why if why.startswith("byte ") else "packed position: " + why)
    assert refused["validate"] == refused["unpack"] == refused["pack"]
    assert 500 < refused["unpack"] < 1000


def test_inspect_is_what_the_command_prints(tmp_path):
    """One summary, computed and serialised once in C++: the Python dict is the
    command's JSON."""
    import json as _json
    path = tmp_path / "sp.mpk"
    with stream.SelfPlayWriter(str(path)) as w:
        pos = shogi.Board()
        for ply in range(3):
            w.begin_game()
            legal = [int(m) for m in pos.legal_move16s()]
            w.add_position(pos.pack(), ply, 0.25, legal[:3], [5, 3, 1])
            w.end_game(1)
    got = stream.inspect(path)
    run = subprocess.run([MANAKA, "stream", "inspect", str(path), "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert got == _json.loads(run.stdout)
    assert got["records"] == 3 and got["candidates"]["total"] == 9 and got["value_z"] == {"-1": 0, "0": 0, "1": 3}
