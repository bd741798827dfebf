"""Byte compatibility with rsshogi 1.7.0's rsshogi.sazpack, the reference.

Thousands of random valid games (random legal playouts from random stems,
WDL and prior splits summing to 65535, mates present and absent, every game
result, termination reason and entering-king rule) are built in both
libraries from one description. Each library's chunk must equal the other's
byte for byte, decode in the other to the description, and write again to the
same bytes. Then every invalid case the spec names is refused by both.
"""

from __future__ import annotations

from typing import Optional

import random
import struct

import pytest

from manaka import InvalidDataError, TruncatedError, shogi
from manaka import sazpack as ours

import rsshogi.sazpack as rs  # test-only oracle, installed by the test extra

GAMES = 3000
RESULTS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 20, 21]
SPECIALS = ["resign", "win", "none", "null", "end"]


def split(rng: random.Random, k: int) -> list[int]:
    """k values summing to 65535, sometimes with zeros and a dominant one."""
    cuts = sorted(rng.randint(0, 65535) for _ in range(k - 1))
    return [b - a for a, b in zip([0] + cuts, cuts + [65535])]


def wdl(rng: random.Random) -> tuple[int, int, int]:
    w, d, _ = split(rng, 3)
    return (w, d, 65535 - w - d)


def random_stem(rng: random.Random) -> str:
    """A position some random plies into a game from startpos, sometimes with
    pieces taken off the board (a handicap stem: PackedSfen boxes them)."""
    pos = shogi.Board()
    for _ in range(rng.choice([0, 0, rng.randint(1, 120)])):
        moves = pos.legal_moves
        if not moves:
            break
        pos.push(rng.choice(moves))
    sfen = pos.sfen()
    if rng.random() < 0.1:
        board, rest = sfen.split(" ", 1)
        for letter in rng.sample("RBGSNLP", 2):
            board = board.replace(letter.lower(), "1", 1)
        # Re-count runs of empty squares ("11" -> "2").
        rows = []
        for row in board.split("/"):
            out, run = "", 0
            for ch in row:
                if ch.isdigit():
                    run += int(ch)
                else:
                    out += (str(run) if run else "") + ch
                    run = 0
            rows.append(out + (str(run) if run else ""))
        handicap = "/".join(rows) + " " + rest
        try:
            shogi.Board(handicap)  # taking a piece off may expose a king
            sfen = handicap
        except ValueError:
            pass
    return sfen


def random_game(rng: random.Random) -> dict:
    stem = random_stem(rng)
    pos = shogi.Board(stem)
    n = rng.choice([0, 1, rng.randint(2, 12), rng.randint(2, 90)])
    positions = []
    for i in range(n):
        legal = [m.usi() for m in pos.legal_moves]
        if not legal:
            break
        k = rng.randint(1, min(len(legal), 40))
        candidates = rng.sample(legal, k)
        last = i + 1 == n
        played = rng.choice(SPECIALS) if last and rng.random() < 0.5 else rng.choice(legal)
        mate = None if rng.random() < 0.7 else rng.randint(-32768, 32767)
        positions.append({
            "played": played,
            "root_wdl": wdl(rng), "outcome_wdl": wdl(rng), "raw_wdl": wdl(rng),
            "raw_mate": rng.randint(0, 65535),
            "raw_moves_left": rng.randint(0, 65535),
            "plies_left": rng.randint(0, 65535),
            "requested_visits": rng.choice([0, 800, rng.randint(0, 2**32 - 1)]),
            "target_weight_milli": rng.randint(0, 65535),
            "exploration_flags": rng.randint(0, 255),
            "mate": mate,
            "policy": [
                (mv, p, r, rng.choice([0, 1, rng.randint(0, 300), rng.randint(0, 2**32 - 1)]),
                 rng.randint(0, 2), rng.randint(0, 2))
                for mv, p, r in zip(candidates, split(rng, k), split(rng, k))
            ],
        })
        if not last and played in legal:
            pos.push_usi(played)
    return {
        "stem": stem,
        "game_result": rng.choice(RESULTS),
        "termination_reason": rng.randint(0, 9),
        "entering_king_rule": rng.randint(0, 6),
        "positions": positions,
    }


def build(lib, desc: dict):
    """The description as lib's SazGame (the same calls for both libraries)."""
    positions = []
    for p in desc["positions"]:
        policy = [lib.SazPolicyEntry(mv=mv, prior=pr, raw_prior=rp, visits=v, lower=lo, upper=up)
                  for mv, pr, rp, v, lo, up in p["policy"]]
        positions.append(lib.SazPosition(
            played=p["played"], root_wdl=lib.SazWdl(*p["root_wdl"]), outcome_wdl=lib.SazWdl(*p["outcome_wdl"]),
            raw_wdl=lib.SazWdl(*p["raw_wdl"]), raw_mate=p["raw_mate"], raw_moves_left=p["raw_moves_left"],
            plies_left=p["plies_left"], requested_visits=p["requested_visits"],
            target_weight_milli=p["target_weight_milli"], exploration_flags=p["exploration_flags"],
            policy=policy, mate=p["mate"]))
    return lib.SazGame(stem=desc["stem"], game_result=desc["game_result"],
                       termination_reason=desc["termination_reason"],
                       entering_king_rule=desc["entering_king_rule"], positions=positions)


def describe(game) -> dict:
    """A decoded game (either library's) as comparable plain values."""
    def w(x):
        return (x.win, x.draw, x.loss)
    return {
        "stem": bytes(game.stem_packed_sfen),
        "game_result": int(game.game_result),
        "termination_reason": game.termination_reason,
        "entering_king_rule": game.entering_king_rule,
        "positions": [{
            "played": p.played, "root_wdl": w(p.root_wdl), "outcome_wdl": w(p.outcome_wdl),
            "raw_wdl": w(p.raw_wdl), "raw_mate": p.raw_mate, "raw_moves_left": p.raw_moves_left,
            "plies_left": p.plies_left, "requested_visits": p.requested_visits,
            "target_weight_milli": p.target_weight_milli, "exploration_flags": p.exploration_flags,
            "mate": p.mate,
            "policy": [(e.mv, e.prior, e.raw_prior, e.visits, e.lower, e.upper) for e in p.policy],
        } for p in game.positions],
    }


def expected(desc: dict) -> dict:
    out = dict(desc)
    out["stem"] = ours.to_packed_sfen(desc["stem"])
    out["positions"] = [dict(p, played="null" if p["played"] == "0000" else p["played"])
                        for p in desc["positions"]]
    return out


@pytest.fixture(scope="module")
def corpus():
    rng = random.Random(20261130)
    return [random_game(rng) for _ in range(GAMES)]


def test_thousands_of_random_games_are_byte_identical(corpus):
    # Chunks of 1 to 40 games, every game in exactly one chunk.
    rng = random.Random(5)
    i = positions = mates = 0
    reasons, results = set(), set()
    while i < len(corpus):
        descs = corpus[i:i + rng.randint(1, 40)]
        i += len(descs)
        ref_bytes = rs.write_sazpack([build(rs, d) for d in descs])
        our_bytes = ours.write_sazpack([build(ours, d) for d in descs])
        assert our_bytes == ref_bytes
        want = [expected(d) for d in descs]
        ours_of_ref = ours.decode_sazpack(ref_bytes)
        ref_of_ours = rs.decode_sazpack(our_bytes)
        assert [describe(g) for g in ours_of_ref] == want
        assert [describe(g) for g in ref_of_ours] == want
        # Written again, the decoded games give the same bytes.
        assert ours.write_sazpack(ours_of_ref) == ref_bytes
        assert rs.write_sazpack(ref_of_ours) == our_bytes
        for d in descs:
            positions += len(d["positions"])
            mates += sum(p["mate"] is not None for p in d["positions"])
            reasons.add(d["termination_reason"])
            results.add(d["game_result"])
    assert i == GAMES
    assert positions > 30_000 and mates > 7_000
    assert reasons == set(range(10)) and results == set(RESULTS)


def test_indexed_ranges_cover_each_game(corpus):
    descs = corpus[:60]
    data = rs.write_sazpack([build(rs, d) for d in descs])
    indexed = ours.decode_sazpack_indexed(data)
    assert indexed[0].payload_range.start == 10 and indexed[-1].payload_range.stop == len(data)
    for item, d in zip(indexed, descs):
        alone = rs.write_sazpack([build(rs, d)])
        assert data[item.payload_range.start:item.payload_range.stop] == alone[10:]
        assert describe(item.game) == expected(d)


# ---- invalid cases: each refused by both ----

def golden() -> bytes:
    """One game of two positions (layout offsets below), written by rsshogi."""
    wdl_ = rs.SazWdl(30000, 5535, 30000)
    a = rs.SazPosition(played="7g7f", root_wdl=wdl_, outcome_wdl=rs.SazWdl(65535, 0, 0), raw_wdl=wdl_,
                       raw_mate=0, raw_moves_left=0, plies_left=2, requested_visits=800, target_weight_milli=1000,
                       exploration_flags=0, mate=None,
                       policy=[rs.SazPolicyEntry(mv="7g7f", prior=40000, raw_prior=40000, visits=500, lower=0, upper=2),
                               rs.SazPolicyEntry(mv="2g2f", prior=25535, raw_prior=25535, visits=300, lower=0,
                                                 upper=2)])
    b = rs.SazPosition(played="resign", root_wdl=wdl_, outcome_wdl=rs.SazWdl(0, 0, 65535), raw_wdl=wdl_,
                       raw_mate=0, raw_moves_left=0, plies_left=1, requested_visits=800, target_weight_milli=1000,
                       exploration_flags=0, mate=-1,
                       policy=[rs.SazPolicyEntry(mv="3c3d", prior=65535, raw_prior=65535, visits=2**32 - 1,
                                                 lower=0, upper=0)])
    return rs.write_sazpack([rs.SazGame(stem=shogi.Board().sfen(), game_result=0, termination_reason=0,
                                        entering_king_rule=3, positions=[a, b])])


# Offsets in golden(): the game's three enum bytes, positions and entries.
RESULT, REASON, RULE, COUNT = 42, 43, 44, 45
P0 = 46                 # position 0: 34 fixed bytes, count at 80
E00, E01 = 81, 91       # its entries: mv 2, prior 2, raw_prior 2, visits 2, lower, upper
P1 = 101                # position 1: 34 fixed, mate 2, count at 137
E10 = 138               # its entry: visits ff ff ff ff 0f at 144..148, bounds at 149, 150


def patched(data: bytes, at: int, new: bytes, remove: Optional[int] = None) -> bytes:
    """data with new bytes at `at` (replacing as many, or `remove`), payload_len fixed."""
    remove = len(new) if remove is None else remove
    out = bytearray(data[:at] + new + data[at + remove:])
    struct.pack_into("<I", out, 6, len(out) - 10)
    return bytes(out)


def both_refuse(data: bytes) -> str:
    with pytest.raises(ValueError):
        rs.decode_sazpack(data)
    with pytest.raises((InvalidDataError, TruncatedError)) as err:
        ours.decode_sazpack(data)
    return str(err.value)


def u16(v: int) -> bytes:
    return struct.pack("<H", v)


def test_golden_layout_offsets():
    data = golden()
    assert len(data) == 151 and data[COUNT] == 2 and data[P0 + 33] == 0 and data[P1 + 33] == 1
    assert data[144:149] == b"\xff\xff\xff\xff\x0f"
    assert ours.decode_sazpack(data)[0].positions[1].policy[0].visits == 2**32 - 1


def test_header_truncation_and_trailing_bytes_are_refused_by_both():
    data = golden()
    assert "magic" in both_refuse(b"XAZ2" + data[4:])
    assert "version 3" in both_refuse(data[:4] + b"\x03" + data[5:])
    assert "flags are 1" in both_refuse(data[:5] + b"\x01" + data[6:])
    assert "trailing" in both_refuse(data + b"\x00")
    assert "trailing" in both_refuse(data + data)
    for n in range(0, len(data)):
        both_refuse(data[:n])                      # payload_len says more
        if n > 10:
            both_refuse(patched(data[:n], 0, b""))  # payload_len agrees: the payload ends inside a game


@pytest.mark.parametrize("value", [15, 18, 19, 22, 100, 255])
def test_unknown_game_result(value):
    assert f"game_result {value} is not a known GameResult" in both_refuse(patched(golden(), RESULT, bytes([value])))


@pytest.mark.parametrize("value", [10, 11, 128, 255])
def test_unknown_termination_reason(value):
    assert f"termination_reason {value} is unknown" in both_refuse(patched(golden(), REASON, bytes([value])))


@pytest.mark.parametrize("value", [7, 8, 255])
def test_unknown_entering_king_rule(value):
    assert f"entering_king_rule {value} is unknown" in both_refuse(patched(golden(), RULE, bytes([value])))


@pytest.mark.parametrize("at,which", [(E00 + 8, "lower"), (E00 + 9, "upper"), (E01 + 8, "lower"),
                                      (149, "lower"), (150, "upper")])
@pytest.mark.parametrize("value", [3, 255])
def test_unknown_outcome_bound(at, which, value):
    assert f"{which} bound {value} is unknown" in both_refuse(patched(golden(), at, bytes([value])))


@pytest.mark.parametrize("value", [2, 255])
def test_unknown_mate_tag(value):
    assert f"mate tag {value}" in both_refuse(patched(golden(), P0 + 33, bytes([value])))
    assert f"mate tag {value}" in both_refuse(patched(golden(), P1 + 33, bytes([value])))


@pytest.mark.parametrize("offset,name", [(2, "root_wdl"), (8, "outcome_wdl"), (14, "raw_wdl")])
@pytest.mark.parametrize("field", [0, 2, 4])
def test_wdl_that_does_not_sum_to_65535(offset, name, field):
    data = golden()
    at = P0 + offset + field
    value = struct.unpack_from("<H", data, at)[0]
    for new in (value + 1, value - 1) if 0 < value < 65535 else ((value + 1) % 65536,):
        msg = both_refuse(patched(data, at, u16(new)))
        assert f"position 0, byte {P0 + offset}: {name}" in msg and "must sum to exactly 65535" in msg


@pytest.mark.parametrize("field,name", [(2, "prior"), (4, "raw_prior")])
def test_prior_sums_over_and_under(field, name):
    data = golden()
    assert "exceeds" in both_refuse(patched(data, E01 + field, u16(25536)))
    msg = both_refuse(patched(data, E01 + field, u16(25534)))
    assert f"{name}s sum to 65534, must be exactly 65535" in msg
    # Position 1's only entry: 65534.
    assert f"{name}s sum to 65534" in both_refuse(patched(data, E10 + field, u16(65534)))


def test_prior_list_that_would_wrap_a_u32_sum():
    # 65539 entries whose priors total 2^32 + 65535: a 32-bit running sum
    # would land on exactly 65535. The budget refuses at entry 1.
    data = golden()
    entry = u16(0x1e3b) + u16(65535) + u16(0) + b"\x00\x00\x02"
    first = u16(0x1e3b) + u16(65535) + u16(65535) + b"\x00\x00\x02"
    count = 65539
    policy = bytes([0x83, 0x80, 0x04]) + first + entry * (count - 1)   # ULEB128 65539
    bad = patched(data, E10 - 1, policy, remove=len(data) - (E10 - 1))
    msg = both_refuse(bad)
    assert "policy entry 1" in msg and "prior 65535 exceeds the 0 left of 65535" in msg


def test_empty_policy():
    data = golden()
    bad = patched(data, E10 - 1, b"\x00", remove=len(data) - (E10 - 1))
    assert "no policy entries" in both_refuse(bad)


def test_uleb128_of_six_bytes():
    bad = patched(golden(), 144, b"\xff\xff\xff\xff\x8f\x00", remove=5)
    assert "runs past 5 bytes" in both_refuse(bad)


def test_uleb128_above_u32_is_refused_here_and_truncated_by_the_reference():
    # The one place the two differ (docs/sazpack.md): a 5-byte ULEB128 whose
    # last byte has bits above bit 31. The spec bounds counts to u32 and we
    # refuse; rsshogi 1.7.0 drops the high bits and reads 2^32 - 1.
    bad = patched(golden(), 148, b"\x7f")
    with pytest.raises(InvalidDataError, match="does not fit in u32"):
        ours.decode_sazpack(bad)
    assert rs.decode_sazpack(bad)[0].positions[1].policy[0].visits == 2**32 - 1


def test_non_minimal_uleb128_is_read_by_both():
    data = patched(golden(), COUNT, b"\x82\x00", remove=1)
    assert [describe(g) for g in ours.decode_sazpack(data)] == [describe(g) for g in rs.decode_sazpack(data)]
    assert ours.write_sazpack(ours.decode_sazpack(data)) == golden()


def test_writers_refuse_the_same_games():
    def position(lib, wdl_=(65535, 0, 0), priors=((65535, 65535),)):
        return lib.SazPosition(
            played="7g7f", root_wdl=lib.SazWdl(*wdl_), outcome_wdl=lib.SazWdl(65535, 0, 0),
            raw_wdl=lib.SazWdl(65535, 0, 0), raw_mate=0, raw_moves_left=0, plies_left=0, requested_visits=0,
            target_weight_milli=0, exploration_flags=0,
            policy=[lib.SazPolicyEntry(mv="7g7f", prior=p, raw_prior=r, visits=1, lower=0, upper=2)
                    for p, r in priors])

    cases = [dict(wdl_=(1, 1, 1)), dict(wdl_=(65535, 1, 0)), dict(priors=()), dict(priors=((65534, 65535),)),
             dict(priors=((65535, 65534),)), dict(priors=((65535, 65535), (1, 0))),
             dict(priors=((65535, 65535),) + ((65535, 0),) * 65538)]
    for case in cases:
        for lib, error in ((rs, ValueError), (ours, InvalidDataError)):
            game = lib.SazGame(stem=shogi.Board().sfen(), game_result=0, termination_reason=0,
                               entering_king_rule=0, positions=[position(lib, **case)])
            with pytest.raises(error):
                lib.write_sazpack([game])


@pytest.mark.parametrize("kwargs", [dict(termination_reason=10), dict(entering_king_rule=7),
                                    dict(game_result=15), dict(game_result="NO_SUCH_RESULT")])
def test_constructors_refuse_unknown_enumerations(kwargs):
    args = dict(stem=shogi.Board().sfen(), game_result=0, termination_reason=0, entering_king_rule=0,
                positions=[])
    args.update(kwargs)
    with pytest.raises(ValueError):
        rs.SazGame(**args)
    with pytest.raises(InvalidDataError):
        ours.SazGame(**args)
    for lib, error in ((rs, ValueError), (ours, InvalidDataError)):
        with pytest.raises(error):
            lib.SazPolicyEntry(mv="7g7f", prior=0, raw_prior=0, visits=0, lower=3, upper=0)
