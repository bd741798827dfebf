"""manaka.sazpack: the surface rsshogi.sazpack has, the extras, the columnar
decode against a replay of its own, files, errors, and `manaka saz`."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import manaka
from manaka import sazpack, shogi, stream
from test_sazpack_compat import build, describe, expected, random_game

import rsshogi.sazpack as rs  # test-only oracle, installed by the test extra
from rsshogi.record import GameResult as RsGameResult  # noqa: E402

MANAKA = str(Path(sys.executable).with_name("manaka"))
START = shogi.Board().sfen()


def games(n=30, seed=3):
    import random
    rng = random.Random(seed)
    return [random_game(rng) for _ in range(n)]


def test_the_reference_surface_is_all_here():
    for name in rs.__all__:
        assert hasattr(sazpack, name), name
    for cls in ("SazWdl", "SazPolicyEntry", "SazPosition", "SazGame"):
        ref = {n for n in dir(getattr(rs, cls)) if not n.startswith("_")}
        here = {n for n in dir(getattr(sazpack, cls)) if not n.startswith("_")}
        assert ref <= here, (cls, ref - here)


def test_the_spec_example_runs_unchanged():
    board_sfen = START
    wdl = sazpack.SazWdl(win=30000, draw=5535, loss=30000)
    outcome = sazpack.SazWdl(win=65535, draw=0, loss=0)
    pos = sazpack.SazPosition(
        played="7g7f", root_wdl=wdl, outcome_wdl=outcome, raw_wdl=wdl, raw_mate=0, raw_moves_left=3200,
        plies_left=95, requested_visits=800, target_weight_milli=1000, exploration_flags=1,
        policy=[sazpack.SazPolicyEntry(mv="7g7f", prior=40000, raw_prior=40000, visits=500, lower=0, upper=2),
                sazpack.SazPolicyEntry(mv="2g2f", prior=25535, raw_prior=25535, visits=300, lower=0, upper=2)],
        mate=None)
    game = sazpack.SazGame(stem=board_sfen, game_result=RsGameResult.BLACK_WIN, termination_reason=0,
                           entering_king_rule=3, positions=[pos])
    data = sazpack.write_sazpack([game])
    decoded = sazpack.decode_sazpack(data)
    assert decoded == [game]
    g = decoded[0]
    assert g.game_result == sazpack.GameResult.BLACK_WIN == RsGameResult.BLACK_WIN == 0
    assert isinstance(g.stem_packed_sfen, bytes) and len(g.stem_packed_sfen) == 32
    assert g.stem_sfen == START
    p = g.positions[0]
    assert (p.played, p.mate, p.raw_moves_left) == ("7g7f", None, 3200)
    assert [(e.mv, e.visits, e.lower, e.upper) for e in p.policy] == [("7g7f", 500, 0, 2), ("2g2f", 300, 0, 2)]


def test_value_types_match_the_reference():
    descs = games(5)
    data = rs.write_sazpack([build(rs, d) for d in descs])
    for ref, here in zip(rs.decode_sazpack(data), sazpack.decode_sazpack(data)):
        assert type(here.stem_packed_sfen) is type(ref.stem_packed_sfen)
        assert type(here.positions) is list and type(here.termination_reason) is int
        assert int(here.game_result) == int(ref.game_result) and str(here.game_result) == str(ref.game_result)
        assert repr(here.game_result) == repr(ref.game_result)
        for rp, hp in zip(ref.positions, here.positions):
            for name in ("played", "raw_mate", "raw_moves_left", "plies_left", "requested_visits",
                         "target_weight_milli", "exploration_flags", "mate"):
                assert type(getattr(hp, name)) is type(getattr(rp, name)), name
                assert getattr(hp, name) == getattr(rp, name), name
            for re_, he in zip(rp.policy, hp.policy):
                for name in ("mv", "prior", "raw_prior", "visits", "lower", "upper"):
                    assert type(getattr(he, name)) is type(getattr(re_, name)), name


def test_arguments_the_reference_accepts():
    from rsshogi.core import Move
    e = sazpack.SazPolicyEntry(mv=0x1e3b, prior=1, raw_prior=1, visits=0, lower=0, upper=2)
    assert e.mv == "7g7f" and e.move16 == 0x1e3b
    assert sazpack.SazPolicyEntry(mv=Move.from_usi("P*5e"), prior=1, raw_prior=1, visits=0, lower=0,
                                  upper=0).mv == "P*5e"
    assert sazpack.SazPolicyEntry(mv="p*5e", prior=1, raw_prior=1, visits=0, lower=0, upper=0).mv == "P*5e"
    assert sazpack.SazPolicyEntry(mv="0000", prior=1, raw_prior=1, visits=0, lower=0, upper=0).mv == "null"
    for result in ("black_win", "DRAW_BY_ADJUDICATION", 14, RsGameResult.PAUSED, sazpack.GameResult.WHITE_WIN):
        g = sazpack.SazGame(stem=START, game_result=result, termination_reason=9, entering_king_rule=6, positions=[])
        r = rs.SazGame(stem=START, game_result=result if not isinstance(result, sazpack.GameResult) else int(result),
                       termination_reason=9, entering_king_rule=6, positions=[])
        assert int(g.game_result) == int(r.game_result)
    stem = bytes(range(32))  # 32 bytes are taken as they are, as the reference does
    g = sazpack.SazGame(stem=bytearray(stem), game_result=0, termination_reason=0, entering_king_rule=0,
                        positions=[])
    assert g.stem_packed_sfen == stem
    assert sazpack.decode_sazpack(list(sazpack.write_sazpack([g])))[0].stem_packed_sfen == stem
    assert sazpack.decode_sazpack(memoryview(sazpack.write_sazpack([g]))) == [g]


def test_game_result_enum():
    R = sazpack.GameResult
    assert R.from_str("white_win_by_try_rule") is R.WHITE_WIN_BY_TRY_RULE
    assert R(21).is_win_by_try_rule() and R(21).is_white_win() and R(21).is_win()
    assert R.DRAW_BY_ADJUDICATION.is_draw() and not R.PAUSED.is_win() and not R.ERROR.is_draw()
    assert {r.name for r in R} == set(RsGameResult.__members__)
    for name, ref in RsGameResult.__members__.items():
        assert int(R[name]) == int(ref)


def test_invalid_arguments_state_the_rule():
    with pytest.raises(manaka.InvalidDataError, match="lower bound 3 is unknown"):
        sazpack.SazPolicyEntry(mv="7g7f", prior=0, raw_prior=0, visits=0, lower=3, upper=0)
    with pytest.raises(manaka.InvalidDataError, match=r'move "7g7f\+\+" is not USI'):
        sazpack.SazPolicyEntry(mv="7g7f++", prior=0, raw_prior=0, visits=0, lower=0, upper=0)
    with pytest.raises(manaka.InvalidDataError, match="SazWdl.win 65536 is out of range 0..65535"):
        sazpack.SazWdl(65536, 0, 0)
    with pytest.raises(manaka.InvalidDataError, match="termination_reason 10 is unknown"):
        sazpack.SazGame(stem=START, game_result=0, termination_reason=10, entering_king_rule=0, positions=[])
    with pytest.raises(manaka.InvalidDataError, match="stem packed sfen must be 32 bytes, got 31"):
        sazpack.SazGame(stem=bytes(31), game_result=0, termination_reason=0, entering_king_rule=0, positions=[])
    with pytest.raises(manaka.InvalidDataError, match="stem: "):
        sazpack.SazGame(stem="garbage", game_result=0, termination_reason=0, entering_king_rule=0, positions=[])
    with pytest.raises(manaka.InvalidDataError, match="games must contain SazGame instances"):
        sazpack.write_sazpack([1])
    w = sazpack.SazWdl(65535, 0, 0)
    bad = sazpack.SazPosition(played="7g7f", root_wdl=w, outcome_wdl=sazpack.SazWdl(1, 1, 1), raw_wdl=w,
                              raw_mate=0, raw_moves_left=0, plies_left=0, requested_visits=0,
                              target_weight_milli=0, exploration_flags=0, policy=[])
    game = sazpack.SazGame(stem=START, game_result=0, termination_reason=0, entering_king_rule=0,
                           positions=[bad])
    with pytest.raises(manaka.InvalidDataError,
                       match=r"sazpack: game 0, position 0, outcome_wdl 1 \+ 1 \+ 1 = 3, a WDL must sum to exactly"):
        sazpack.write_sazpack([game])


def test_decode_errors_are_value_errors_with_context():
    with pytest.raises(manaka.TruncatedError, match="sazpack: chunk is 4 bytes"):
        sazpack.decode_sazpack(b"SAZ2")
    with pytest.raises(ValueError):
        sazpack.decode_sazpack(b"SAZ2\x04\x01\x00\x00\x00\x00")
    with pytest.raises(TypeError):
        sazpack.decode_sazpack("SAZ2")


def test_files(tmp_path):
    descs = games(20)
    path = tmp_path / "games.sazpack"
    sazpack.write_sazpack_file(path, [build(sazpack, d) for d in descs])
    assert path.read_bytes() == rs.write_sazpack([build(rs, d) for d in descs])
    assert [describe(g) for g in sazpack.decode_sazpack_file(path)] == [expected(d) for d in descs]
    assert [describe(g) for g in rs.decode_sazpack_file(str(path))] == [expected(d) for d in descs]
    assert [describe(i.game) for i in sazpack.decode_sazpack_file_indexed(str(path))] == [expected(d) for d in descs]
    assert not list(tmp_path.glob("*.tmp-*"))
    (tmp_path / "short").write_bytes(path.read_bytes()[:-1])
    with pytest.raises(manaka.TruncatedError, match="short: truncated chunk"):
        sazpack.decode_sazpack_file(tmp_path / "short")
    with pytest.raises(manaka.FileError, match="missing: cannot open"):
        sazpack.decode_sazpack_file(tmp_path / "missing")


def replay_columns(descs):
    """The columns the test expects, by replaying with manaka.shogi."""
    rows = []
    for g, d in enumerate(descs):
        pos = shogi.Board(d["stem"])
        n = len(d["positions"])
        for i, p in enumerate(d["positions"]):
            rows.append((g, i, pos.pack(), pos.turn, p))
            if i + 1 < n:
                pos.push_usi(p["played"])
    return rows


@pytest.mark.parametrize("threads", [1, 3])
def test_columns_follow_a_replay_of_the_games(threads):
    descs = games(60, seed=8)
    data = rs.write_sazpack([build(rs, d) for d in descs])
    cols = sazpack.decode_sazpack_columns(data, threads=threads)
    rows = replay_columns(descs)
    assert len(cols) == len(rows) and cols.games == len(descs)
    assert cols.packed.shape == (len(rows), 96) and cols.stem.shape == (len(descs), 32)
    offsets = np.cumsum([0] + [len(d["positions"]) for d in descs])
    assert (cols.game_offsets == offsets).all()
    entry = 0
    for r, (g, i, packed, turn, p) in enumerate(rows):
        assert cols.packed[r].tobytes() == packed
        assert (cols.game[r], cols.ply[r]) == (g, i)
        assert tuple(cols.root_wdl[r]) == p["root_wdl"] and tuple(cols.raw_wdl[r]) == p["raw_wdl"]
        assert cols.has_mate[r] == (p["mate"] is not None) and cols.mate[r] == (p["mate"] or 0)
        assert cols.value_q[r] == np.float32((p["root_wdl"][0] - p["root_wdl"][2]) / 65535)
        result = sazpack.GameResult(descs[g]["game_result"])
        if result.is_black_win() or result.is_white_win():
            assert cols.value_z[r] == (1 if result.is_black_win() == (turn == shogi.BLACK) else -1)
        elif result.is_draw():
            assert cols.value_z[r] == 0
        else:
            assert np.isnan(cols.value_z[r])
        if "*" in p["played"] or p["played"][0].isdigit():
            assert cols.played[r] == shogi.move16_from_usi(p["played"])
        else:
            assert cols.played[r] == 0
        assert cols.policy_offsets[r] == entry
        for mv, prior, raw, visits, lo, up in p["policy"]:
            assert cols.mv[entry] == shogi.move16_from_usi(mv)
            assert (cols.prior[entry], cols.raw_prior[entry], cols.visits[entry]) == (prior, raw, visits)
            assert (cols.lower[entry], cols.upper[entry]) == (lo, up)
            entry += 1
    assert cols.policy_offsets[-1] == entry == len(cols.mv)


def test_threads_change_nothing_not_even_which_refusal():
    descs = games(40, seed=11)
    data = rs.write_sazpack([build(rs, d) for d in descs])
    one = sazpack.decode_sazpack_columns(data, threads=1)
    for threads in (2, 5, 64):
        many = sazpack.decode_sazpack_columns(data, threads=threads)
        for f in one.__dataclass_fields__:
            assert np.array_equal(getattr(one, f), getattr(many, f), equal_nan=f == "value_z"), f
    bad = [dict(d, positions=[dict(p) for p in d["positions"]]) for d in descs]
    for g in (17, 33):  # two refused games: the lower one is named, as one thread would
        bad[g]["positions"][0]["policy"] = [("resign", 65535, 65535, 1, 0, 0)]
    data = rs.write_sazpack([build(rs, d) for d in bad])
    messages = set()
    for threads in (1, 2, 4):
        with pytest.raises(manaka.InvalidDataError, match=r"^sazpack: game 17 \(byte \d+\), position 0") as e:
            sazpack.decode_sazpack_columns(data, threads=threads)
        messages.add(str(e.value))
    assert len(messages) == 1
    with pytest.raises(ValueError, match=r"^threads: -1 is out of range; give an integer in 0\.\.256$"):
        sazpack.decode_sazpack_columns(data, threads=-1)


def test_columns_from_a_file_and_refusals(tmp_path):
    descs = games(10, seed=4)
    path = tmp_path / "g.sazpack"
    rs.write_sazpack_file(str(path), [build(rs, d) for d in descs])
    a, b = sazpack.decode_sazpack_columns(path), sazpack.decode_sazpack_columns(path.read_bytes())
    assert all(np.array_equal(getattr(a, f), getattr(b, f), equal_nan=f == "value_z") for f in a.__dataclass_fields__)
    d = dict(descs[0], positions=[dict(p) for p in descs[0]["positions"]])
    d["positions"][0]["policy"] = [("resign", 65535, 65535, 1, 0, 0)]
    with pytest.raises(manaka.InvalidDataError, match=r"game 0 \(byte 10\), position 0, policy entry 0: move resign"):
        sazpack.decode_sazpack_columns(rs.write_sazpack([build(rs, d)]))


def test_command_line(tmp_path):
    descs = games(25, seed=12)
    path = tmp_path / "a.sazpack"
    rs.write_sazpack_file(str(path), [build(rs, d) for d in descs])
    bad = tmp_path / "bad.sazpack"
    bad.write_bytes(path.read_bytes() + b"\x00")
    run = subprocess.run([MANAKA, "saz", "validate", str(path), str(bad)], capture_output=True, text=True)
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0] == f"{path}: ok, 25 games, {sum(len(d['positions']) for d in descs)} positions"
    assert lines[1].startswith(f"{bad}: 1 trailing bytes after the chunk")
    info = json.loads(subprocess.run([MANAKA, "saz", "inspect", str(path), "--json"], capture_output=True,
                                     text=True, check=True).stdout)
    assert info["games"] == 25 and info["positions"]["total"] == sum(len(d["positions"]) for d in descs)
    out = tmp_path / "out.mpk"
    run = subprocess.run([MANAKA, "saz", "to-mpk", str(path), "-o", str(out)], capture_output=True, text=True,
                         check=True)
    refused = sum(d["game_result"] in (3, 7, 11) for d in descs)
    assert f"{refused} refused" in run.stdout
    records = sum(1 for d in descs if d["game_result"] not in (3, 7, 11)
                  for p in d["positions"] if any(e[3] for e in p["policy"]))
    assert stream.validate(str(out)) == records
    cols = sazpack.decode_sazpack_columns(path)
    batch = next(stream.read_batches(str(out), 1 << 20))
    keep = [r for r in range(len(cols))
            if not np.isnan(cols.value_z[r])
            and cols.visits[cols.policy_offsets[r]:cols.policy_offsets[r + 1]].any()]
    assert (batch.packed == cols.packed[keep]).all()
    assert (batch.value_z == cols.value_z[keep]).all() and (batch.value_q == cols.value_q[keep]).all()
    assert (batch.ply == cols.ply[keep]).all()
    assert not list(tmp_path.glob("*.tmp-*"))
