"""manaka.stream.import_from / export_to against cshogi 1.1.0 (and pyarrow for shards).

Records are written with cshogi's own dtypes (PackedSfenValue,
HuffmanCodedPosAndEval) and encoders (Board.to_psfen, Board.to_hcp, move16,
move16_to_psv) from random legal playouts; hcpe3 is laid out with numpy as
dlshogi's tools write it. Importing must give back cshogi's boards, moves,
scores, results and visits; exporting what was imported must give back the
bytes.
"""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Iterator, List, Tuple

import cshogi
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from manaka import InvalidDataError, shards, shogi, stream

N = 3000
EVAL_COEF = 600.0


def playouts(seed: int, target: int) -> Iterator[Tuple[cshogi.Board, int]]:
    """(board, a legal move of it) along random legal games."""
    rng = random.Random(seed)
    seen = 0
    while seen < target:
        board = cshogi.Board()
        for _ in range(rng.randint(20, 200)):
            moves = list(board.legal_moves)
            if not moves:
                break
            drops = [m for m in moves if cshogi.move_is_drop(m)]
            move = rng.choice(drops if drops and rng.random() < 0.3 else moves)
            yield board, move
            seen += 1
            if seen >= target:
                return
            board.push(move)


def without_move_number(sfen: str) -> str:
    return sfen.rsplit(" ", 1)[0]


def read_all(path: Path) -> stream.Batch:
    batches = list(stream.read_batches(str(path), 1 << 20))
    assert len(batches) == 1
    return batches[0]


def sfen_of(packed: np.ndarray) -> str:
    return without_move_number(shogi.Board.unpack(packed.tobytes()).sfen())


def random_psv(seed: int, playout_seed: int) -> Tuple[np.ndarray, List[Tuple[str, str]]]:
    """N PackedSfenValue records of random playouts (cshogi writes them), and
    each one's board (without its move number) and move in USI."""
    rng = random.Random(seed)
    recs = np.zeros(N, cshogi.PackedSfenValue)
    expected: List[Tuple[str, str]] = []
    for i, (board, move) in enumerate(playouts(seed=playout_seed, target=N)):
        board.to_psfen(recs[i : i + 1]["sfen"])
        recs[i]["score"] = rng.randint(-3000, 3000)
        recs[i]["move"] = cshogi.move16_to_psv(cshogi.move16(move))
        recs[i]["gamePly"] = board.move_number
        recs[i]["game_result"] = rng.choice([-1, 0, 1])
        expected.append((without_move_number(board.sfen()), cshogi.move_to_usi(move)))
    return recs, expected


def test_psv_decodes_to_cshogis_boards_and_moves(tmp_path: Path) -> None:
    recs, expected = random_psv(1, 20261201)
    src = tmp_path / "a.psv"
    recs.tofile(src)
    summary = stream.import_from("psv", src, tmp_path / "a.mpk", eval_coef=EVAL_COEF, mate_scale=32000, threads=2)
    assert summary["records_written"] == N and summary["refused_total"] == 0
    assert summary["header"]["policy_source"] == 1
    b = read_all(tmp_path / "a.mpk")
    assert (b.cand_offsets == np.arange(N + 1)).all()
    for i, (sfen, usi) in enumerate(expected):
        assert sfen_of(b.packed[i]) == sfen
        assert shogi.move16_to_usi(int(b.mv[i])) == usi
    assert (b.cp == recs["score"]).all()
    assert (b.ply == recs["gamePly"]).all()
    assert (b.value_z == recs["game_result"]).all()
    np.testing.assert_allclose(b.value_q, np.tanh(recs["score"] / (2 * EVAL_COEF)), atol=1e-6)
    # Export is the identity on what psv holds.
    stream.export_to("psv", tmp_path / "a.mpk", tmp_path / "back.psv")
    assert (tmp_path / "back.psv").read_bytes() == src.read_bytes()


def test_hcpe_decodes_to_cshogis_boards_and_moves(tmp_path: Path) -> None:
    rng = random.Random(2)
    recs = np.zeros(N, cshogi.HuffmanCodedPosAndEval)
    expected: List[Tuple[str, str, int]] = []
    for i, (board, move) in enumerate(playouts(seed=20261202, target=N)):
        board.to_hcp(recs[i : i + 1]["hcp"])
        recs[i]["eval"] = rng.randint(-29000, 29000)
        recs[i]["bestMove16"] = cshogi.move16(move)
        result = rng.choice([cshogi.DRAW, cshogi.BLACK_WIN, cshogi.WHITE_WIN])
        recs[i]["gameResult"] = result
        z = 0 if result == cshogi.DRAW else (1 if (result == cshogi.BLACK_WIN) == (board.turn == cshogi.BLACK) else -1)
        expected.append((without_move_number(board.sfen()), cshogi.move_to_usi(move), z))
    src = tmp_path / "a.hcpe"
    recs.tofile(src)
    summary = stream.import_from("hcpe", [src], tmp_path / "a.mpk", eval_coef=756.0865, mate_scale=30000)
    assert summary["records_written"] == N and summary["refused_total"] == 0
    b = read_all(tmp_path / "a.mpk")
    for i, (sfen, usi, z) in enumerate(expected):
        assert sfen_of(b.packed[i]) == sfen
        assert shogi.move16_to_usi(int(b.mv[i])) == usi
        assert b.value_z[i] == z
    assert (b.cp == recs["eval"]).all()
    stream.export_to("hcpe", tmp_path / "a.mpk", tmp_path / "back.hcpe")
    assert (tmp_path / "back.hcpe").read_bytes() == src.read_bytes()


HCPE3_HEADER = np.dtype([("hcp", np.uint8, 32), ("moveNum", np.uint16), ("result", np.uint8), ("opponent", np.uint8)])
HCPE3_MOVE = np.dtype([("selectedMove16", np.uint16), ("eval", np.int16), ("candidateNum", np.uint16)])
HCPE3_VISITS = np.dtype([("move16", np.uint16), ("visitNum", np.uint16)])


def write_hcpe3(path: Path, games: int, seed: int) -> list:
    """Random games as dlshogi lays hcpe3 out; returns per searched position
    (sfen, [(usi, visits)], eval, value_z)."""
    rng = random.Random(seed)
    expected = []
    with open(path, "wb") as f:
        for _ in range(games):
            board = cshogi.Board()
            header = np.zeros(1, HCPE3_HEADER)
            board.to_hcp(header["hcp"])
            winner = rng.choice([cshogi.DRAW, cshogi.BLACK_WIN, cshogi.WHITE_WIN])
            header["result"] = winner | rng.choice([0, 0x04, 0x08, 0x10])
            header["opponent"] = rng.randint(0, 2)
            body = []
            for _ in range(rng.randint(1, 120)):
                moves = list(board.legal_moves)
                if not moves:
                    break
                selected = rng.choice(moves)
                ev = rng.randint(-5000, 5000)
                searched = rng.random() < 0.9  # dlshogi leaves book moves unsearched
                cands = rng.sample(moves, rng.randint(1, min(len(moves), 30))) if searched else []
                visits = [rng.randint(1, 65535) for _ in cands]
                info = np.zeros(1, HCPE3_MOVE)
                info["selectedMove16"] = cshogi.move16(selected)
                info["eval"] = ev
                info["candidateNum"] = len(cands)
                mv = np.zeros(len(cands), HCPE3_VISITS)
                mv["move16"] = [cshogi.move16(m) for m in cands]
                mv["visitNum"] = visits
                body += [info.tobytes(), mv.tobytes()]
                if cands:
                    z = 0 if winner == cshogi.DRAW else (
                        1 if (winner == cshogi.BLACK_WIN) == (board.turn == cshogi.BLACK) else -1)
                    expected.append((without_move_number(board.sfen()),
                                     [(cshogi.move_to_usi(m), v) for m, v in zip(cands, visits)], ev, z))
                board.push(selected)
            header["moveNum"] = len(body) // 2
            f.write(header.tobytes())
            f.write(b"".join(body))
    return expected


def test_hcpe3_reads_back_the_same_candidates_and_visits(tmp_path: Path) -> None:
    expected = write_hcpe3(tmp_path / "a.hcpe3", games=60, seed=3)
    summary = stream.import_from("hcpe3", tmp_path / "a.hcpe3", tmp_path / "a.mpk", eval_coef=756.0865,
                                 mate_scale=30000, threads=3)
    assert summary["games"] == 60
    assert summary["records_written"] == len(expected) and summary["refused_total"] == 0
    assert summary["header"]["policy_source"] == 0
    b = read_all(tmp_path / "a.mpk")
    for i, (sfen, cands, ev, z) in enumerate(expected):
        assert sfen_of(b.packed[i]) == sfen
        lo, hi = b.cand_offsets[i], b.cand_offsets[i + 1]
        got = [(shogi.move16_to_usi(int(m)), int(v)) for m, v in zip(b.mv[lo:hi], b.visits[lo:hi])]
        assert got == cands
        assert (b.cp[lo:hi] == stream.NO_CP).all()
        assert b.value_z[i] == z
        assert math.isclose(b.value_q[i], math.tanh(ev / (2 * 756.0865)), abs_tol=1e-6)


def test_refusals_are_counted_by_reason_and_strict_stops(tmp_path: Path) -> None:
    recs = np.zeros(3, cshogi.PackedSfenValue)
    board = cshogi.Board()
    for i in range(3):
        board.to_psfen(recs[i : i + 1]["sfen"])
    recs["move"] = cshogi.move16_to_psv(cshogi.move16(board.move_from_usi("7g7f")))
    recs[1]["game_result"] = 5
    recs[2]["sfen"] = 0xFF
    src = tmp_path / "bad.psv"
    recs.tofile(src)
    summary = stream.import_from("psv", src, tmp_path / "bad.mpk", eval_coef=600, mate_scale=32000)
    assert summary["records_written"] == 1
    assert summary["refused"]["out_of_range"] == 1 and summary["refused"]["bad_position"] == 1
    assert summary["first_refusal"]["out_of_range"]["where"] == "record 1"
    assert summary["first_refusal"]["out_of_range"]["offset"] == 40
    with pytest.raises(InvalidDataError, match=r"bad\.psv: record 1 at byte 40: refused \(out_of_range"):
        stream.import_from("psv", src, tmp_path / "strict.mpk", eval_coef=600, mate_scale=32000, strict=True)
    assert not (tmp_path / "strict.mpk").exists()
    with pytest.raises(ValueError, match="eval_coef"):
        stream.import_from("psv", src, tmp_path / "c.mpk", eval_coef=0.5, mate_scale=32000)


def test_export_of_a_visit_stream_keeps_the_most_visited_move(tmp_path: Path) -> None:
    write_hcpe3(tmp_path / "a.hcpe3", games=5, seed=4)
    stream.import_from("hcpe3", tmp_path / "a.hcpe3", tmp_path / "a.mpk", eval_coef=756.0865, mate_scale=30000)
    summary = stream.export_to("psv", tmp_path / "a.mpk", tmp_path / "a.psv")
    b = read_all(tmp_path / "a.mpk")
    recs = np.fromfile(tmp_path / "a.psv", cshogi.PackedSfenValue)
    assert summary["records_written"] == len(recs) == len(b)
    assert summary["scores_from_value_q"] == len(recs)
    board = cshogi.Board()
    for i in range(len(recs)):
        board.set_psfen(recs[i]["sfen"])
        assert without_move_number(board.sfen()) == sfen_of(b.packed[i])
        lo, hi = b.cand_offsets[i], b.cand_offsets[i + 1]
        best = int(b.mv[lo + int(np.argmax(b.visits[lo:hi]))])
        assert cshogi.move_to_usi(board.move_from_psv(int(recs[i]["move"]))) == shogi.move16_to_usi(best)
        # value_q turned back into centipawns with the header's eval_coef.
        assert abs(math.tanh(int(recs[i]["score"]) / (2 * 756.0865)) - b.value_q[i]) < 1e-3


def test_hcpe_cannot_hold_a_handicap_and_says_so(tmp_path: Path) -> None:
    recs = np.zeros(2, cshogi.PackedSfenValue)
    for i, sfen in enumerate(["lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                              "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"]):  # White gave up two
        board = cshogi.Board(sfen)
        board.to_psfen(recs[i : i + 1]["sfen"])
        recs[i]["move"] = cshogi.move16_to_psv(cshogi.move16(next(iter(board.legal_moves))))
    recs.tofile(tmp_path / "h.psv")
    stream.import_from("psv", tmp_path / "h.psv", tmp_path / "h.mpk", eval_coef=600, mate_scale=32000)
    summary = stream.export_to("hcpe", tmp_path / "h.mpk", tmp_path / "h.hcpe")
    assert summary["records_written"] == 1 and summary["refused"] == 1
    assert "record 1: huffman coded pos: the position has 1 bishops" in summary["first_refusal"]
    assert len(np.fromfile(tmp_path / "h.hcpe", cshogi.HuffmanCodedPosAndEval)) == 1
    with pytest.raises(InvalidDataError, match="no handicaps"):
        stream.export_to("hcpe", tmp_path / "h.mpk", tmp_path / "strict.hcpe", strict=True)
    assert not (tmp_path / "strict.hcpe").exists()


def shard_rows(directory: Path) -> list:
    """Every row of a shard set in file and row order, read with pyarrow."""
    rows = []
    for path in sorted(directory.glob("*.parquet")):
        rows += pq.read_table(path).to_pylist()
    return rows


def expected_result(value_z: float, threshold: float = 0.5) -> int:
    return 1 if value_z > threshold else (-1 if value_z < -threshold else 0)


def best_of(row: dict) -> dict:
    probs = [c["prob"] for c in row["candidates"]]
    return row["candidates"][probs.index(max(probs))]  # the first on ties


def test_export_of_a_cp_shard_set_matches_its_rows(tmp_path: Path) -> None:
    recs, _ = random_psv(5, 20261205)
    recs.tofile(tmp_path / "a.psv")
    stream.import_from("psv", tmp_path / "a.psv", tmp_path / "a.mpk", eval_coef=EVAL_COEF, mate_scale=32000)
    shards.pack([str(tmp_path / "a.mpk")], str(tmp_path / "set" / "train"), seed=7, rows_per_shard=1000)
    rows = shard_rows(tmp_path / "set")
    assert 1 < len(list((tmp_path / "set").glob("*.parquet")))
    assert len(rows) < N  # repeated boards (the start of every playout) folded
    rounded = sum(r["value_z"] not in (-1.0, 0.0, 1.0) for r in rows)
    assert rounded > 0  # some folded rows mix results

    summary = stream.export_to("psv", tmp_path / "set", tmp_path / "out.psv")
    assert summary["records_read"] == summary["shard_rows"] == summary["records_written"] == len(rows)
    assert summary["refused"] == 0 and summary["scores_from_value_q"] == 0
    assert summary["results_rounded"] == rounded
    out = np.fromfile(tmp_path / "out.psv", cshogi.PackedSfenValue)
    assert len(out) == len(rows)
    board = cshogi.Board()
    for rec, row in zip(out, rows):
        board.set_psfen(rec["sfen"])
        assert without_move_number(board.sfen()) == without_move_number(shogi.Board.unpack(row["packed"]).sfen())
        best = best_of(row)
        assert cshogi.move_to_usi(board.move_from_psv(int(rec["move"]))) == shogi.move16_to_usi(best["mv"])
        assert int(rec["score"]) == best["cp"]
        assert int(rec["gamePly"]) == row["ply"]
        assert int(rec["game_result"]) == expected_result(row["value_z"])

    summary = stream.export_to("hcpe", tmp_path / "set", tmp_path / "out.hcpe", result_threshold=0.0)
    hcpe = np.fromfile(tmp_path / "out.hcpe", cshogi.HuffmanCodedPosAndEval)
    assert summary["records_written"] == len(hcpe) == len(rows)
    for rec, row in zip(hcpe, rows):
        board.set_hcp(rec["hcp"])
        assert without_move_number(board.sfen()) == without_move_number(shogi.Board.unpack(row["packed"]).sfen())
        best = best_of(row)
        assert cshogi.move_to_usi(board.move_from_move16(int(rec["bestMove16"]))) == shogi.move16_to_usi(best["mv"])
        assert int(rec["eval"]) == best["cp"]
        z = expected_result(row["value_z"], 0.0)
        winner = cshogi.DRAW if z == 0 else (cshogi.BLACK_WIN if (z > 0) == (board.turn == cshogi.BLACK)
                                             else cshogi.WHITE_WIN)
        assert int(rec["gameResult"]) == winner

    # Streams and shards in one run, in the order given.
    both = stream.export_to("psv", [tmp_path / "a.mpk", tmp_path / "set"], tmp_path / "both.psv")
    assert both["records_written"] == N + len(rows) and both["shard_rows"] == len(rows)
    assert (tmp_path / "both.psv").read_bytes() == (tmp_path / "a.psv").read_bytes() + (tmp_path / "out.psv").read_bytes()


def test_export_of_a_visit_shard_set_scores_from_value_q(tmp_path: Path) -> None:
    write_hcpe3(tmp_path / "a.hcpe3", games=20, seed=6)
    stream.import_from("hcpe3", tmp_path / "a.hcpe3", tmp_path / "a.mpk", eval_coef=756.0865, mate_scale=30000)
    shards.pack([str(tmp_path / "a.mpk")], str(tmp_path / "set" / "train"), seed=8, rows_per_shard=300)
    rows = shard_rows(tmp_path / "set")
    summary = stream.export_to("psv", tmp_path / "set", tmp_path / "out.psv")
    assert summary["records_written"] == summary["scores_from_value_q"] == len(rows)
    out = np.fromfile(tmp_path / "out.psv", cshogi.PackedSfenValue)
    board = cshogi.Board()
    for rec, row in zip(out, rows):
        board.set_psfen(rec["sfen"])
        assert without_move_number(board.sfen()) == without_move_number(shogi.Board.unpack(row["packed"]).sfen())
        assert cshogi.move_to_usi(board.move_from_psv(int(rec["move"]))) == shogi.move16_to_usi(best_of(row)["mv"])
        # The footer's eval_coef turns the value_q mean back into centipawns.
        cp = 2 * float(np.float32(756.0865)) * math.atanh(row["value_q"])
        assert int(rec["score"]) == max(-32767, min(32767, int(math.copysign(math.floor(abs(cp) + 0.5), cp))))


def test_export_refuses_an_incomplete_shard_set(tmp_path: Path) -> None:
    write_hcpe3(tmp_path / "a.hcpe3", games=10, seed=9)
    stream.import_from("hcpe3", tmp_path / "a.hcpe3", tmp_path / "a.mpk", eval_coef=756.0865, mate_scale=30000)
    shards.pack([str(tmp_path / "a.mpk")], str(tmp_path / "set" / "train"), seed=8, rows_per_shard=100)
    (tmp_path / "set" / "train-00001.parquet").unlink()
    with pytest.raises(InvalidDataError, match="an incomplete shard set"):
        stream.export_to("psv", tmp_path / "set", tmp_path / "out.psv")
    assert not (tmp_path / "out.psv").exists()
    with pytest.raises(ValueError, match="result_threshold"):
        stream.export_to("psv", tmp_path / "a.mpk", tmp_path / "out.psv", result_threshold=1.5)


def test_export_turns_blacks_view_to_the_side_to_move(tmp_path: Path) -> None:
    """A pov-1 stream (values from Black's view) and the shards packed from it
    (footer pov "1") export the same side-to-move records."""
    h = stream.Header()
    h.pov, h.policy_source, h.eval_coef, h.mate_scale = 1, 1, 600.0, 32000
    board = cshogi.Board()
    expected = []
    w = stream.Writer(str(tmp_path / "b.mpk"), h)
    for usi in ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"]:
        move = board.move_from_usi(usi)
        black = board.turn == cshogi.BLACK
        w.write(shogi.Board(board.sfen()).pack(), board.move_number, 1.0, 0.0, [shogi.move16_from_usi(usi)],
                cp=[250])
        expected.append((usi, 250 if black else -250, 1 if black else -1))  # Black stands better and won
        board.push(move)
    w.close()
    shards.pack([str(tmp_path / "b.mpk")], str(tmp_path / "set" / "b"), seed=1)
    assert pq.read_metadata(next((tmp_path / "set").glob("*.parquet"))).metadata[b"pov"] == b"1"
    for source, name in [(tmp_path / "b.mpk", "s.psv"), (tmp_path / "set", "r.psv")]:
        stream.export_to("psv", source, tmp_path / name)
        got = {}
        for rec in np.fromfile(tmp_path / name, cshogi.PackedSfenValue):
            board.set_psfen(rec["sfen"])
            got[cshogi.move_to_usi(board.move_from_psv(int(rec["move"])))] = (int(rec["score"]), int(rec["game_result"]))
        assert got == {usi: (score, result) for usi, score, result in expected}, source


def test_export_refuses_rows_of_other_tools_it_cannot_write(tmp_path: Path) -> None:
    """A shard another tool wrote (pyarrow, no footer keys): a row without
    candidates and a NaN value_q are refused and counted; --strict names the row."""
    write_hcpe3(tmp_path / "a.hcpe3", games=3, seed=10)
    stream.import_from("hcpe3", tmp_path / "a.hcpe3", tmp_path / "a.mpk", eval_coef=756.0865, mate_scale=30000)
    shards.pack([str(tmp_path / "a.mpk")], str(tmp_path / "set" / "a"), seed=2)
    rows = shard_rows(tmp_path / "set")
    rows[1]["candidates"] = []
    rows[2]["value_q"] = float("nan")
    table = pa.Table.from_pylist(rows, schema=pq.read_schema(next((tmp_path / "set").glob("*.parquet"))).remove_metadata())
    pq.write_table(table, tmp_path / "other.parquet")
    summary = stream.export_to("psv", tmp_path / "other.parquet", tmp_path / "o.psv", eval_coef=756.0865)
    assert summary["refused"] == 2 and summary["records_written"] == len(rows) - 2
    assert summary["refused_by"] == {"no_candidate": 1, "value_range": 1}
    assert summary["first_by"]["value_range"].endswith("row group 0 row 2: value_q nan is not within [-1, 1]")
    assert summary["first_refusal"] == f"{tmp_path / 'other.parquet'}: row group 0 row 1: no candidate, so no move to write"
    with pytest.raises(InvalidDataError, match=r"other\.parquet: row group 0 row 1: no candidate"):
        stream.export_to("psv", tmp_path / "other.parquet", tmp_path / "strict.psv", eval_coef=756.0865, strict=True)
    # Without an eval_coef in the footer or the call, value_q cannot become a score.
    with pytest.raises(ValueError, match="no eval_coef"):
        stream.export_to("psv", tmp_path / "other.parquet", tmp_path / "x.psv")
