"""manaka report on bad input (docs/report.md, "Bad input"): a file it cannot
read is refused with one line "<path>: <where>: <rule>" (JSON lines 1-based,
corpus parquet rows 0-based within the file as `teacher convert` words them,
shard rows by file, row group and row as `stream export` words them, VPD1
rows by id), exit status 1 and no page; rows it can leave out are left out
and counted by reason; what the figures cannot show is said.

Most checks read through the loading layer (read_input), which is what the
command runs; one test runs the command end to end."""

from __future__ import annotations

import json
import math
import sqlite3
import subprocess
from pathlib import Path
from typing import Any, Optional

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from manaka import shards, shogi, teacher
from manaka.report.__main__ import printable
from manaka.report.figures import Figure
from manaka.report.sources import InputError, Section, read_input
from test_report import MANAKA, corpus_table, write_games

NULL_REASON = "field {} is null, absent or of the wrong type"


def read(path: Path, max_rows: int = 200_000) -> Section:
    return read_input(str(path), max_rows=max_rows, n_boards=2, eval_coef=None)


def refused(path: Path) -> str:
    """The one line read_input refuses the input with."""
    with pytest.raises(InputError) as e:
        read(path)
    message = str(e.value)
    assert "\n" not in message and "Traceback" not in message
    return message


def figure(sec: Section, name: str) -> Figure:
    return next(f for f in sec.figures if f.name == name)


def drawn(sec: Section, name: str) -> int:
    counts = figure(sec, name).counts
    assert counts is not None
    return int(counts.sum())


def skipped(sec: Section) -> dict[str, tuple[int, str]]:
    return {k.reason: (k.count, k.first) for k in sec.skipped.values()}


def refusals(corpus: Path, tmp_path: Path) -> dict[str, int]:
    """What `teacher convert` refuses in the same corpus, by reason."""
    s = teacher.convert(str(corpus), str(tmp_path / "converted.mpk"), eval_coef=600, mate_scale=32000, overwrite=True)
    return {k: v for k, v in s["refused"].items() if v}


def with_column(t: pa.Table, name: str, values: list) -> pa.Table:
    i = t.schema.get_field_index(name)
    return t.set_column(i, t.schema.field(i), pa.array(values, t.schema.field(i).type))


# ---- teacher corpora -----------------------------------------------------------------------------

@pytest.mark.parametrize("field", ["cp", "ply", "result", "side", "sfen", "cand_moves", "cand_cp"])
def test_corpus_rows_with_a_null_are_skipped_and_counted_as_teacher_convert_refuses_them(tmp_path: Path,
                                                                                       field: str) -> None:
    t = corpus_table(40, 500.0, seed=2)
    values = t.column(field).to_pylist()
    values[5] = values[17] = None
    path = tmp_path / "c.parquet"
    pq.write_table(with_column(t, field, values), path)
    sec = read(path)
    # Counted with the first one named as `teacher convert` names it (row 0-based within the file).
    assert skipped(sec) == {"missing_value": (2, f"{path}: row 5: {NULL_REASON.format(field)}")}
    assert sec.rows_skipped == 2 and refusals(path, tmp_path) == {"missing_value": 2}
    assert dict(sec.summary)["rows drawn"] == "38 of the first 40 rows"
    assert drawn(sec, "ply") == drawn(sec, "outcome") == drawn(sec, "candidates") == 38


def test_a_jsonl_corpus_counts_each_rule_by_its_line(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = corpus_table(30, 500.0, seed=3).to_pylist()
    del rows[3]["cp"]                            # absent
    rows[7]["ply"] = 1.5                         # of the wrong type
    rows[9]["result"] = 2
    rows[12]["cand_cp"] = rows[12]["cand_cp"][:1]
    rows[15]["cand_moves"] = rows[15]["cand_cp"] = []
    rows[20]["cp"] = None
    # A blank line after the tenth row: lines are counted as a text editor counts them.
    text = "".join(json.dumps(r) + "\n" for r in rows[:10]) + "\n" + "".join(json.dumps(r) + "\n" for r in rows[10:])
    path = tmp_path / "c.jsonl"
    path.write_text(text)
    sec = read(path)
    assert skipped(sec) == {
        "missing_value": (3, f"{path}: line 4: {NULL_REASON.format('cp')}"),
        "out_of_range": (1, f"{path}: line 10: result 2, must be 1, -1 or 0"),
        "length_mismatch": (1, f"{path}: line 14: 2 cand_moves but 1 cand_cp"),
        "no_candidates": (1, f"{path}: line 17: no candidates"),
    }
    assert refusals(path, tmp_path) == {"missing_value": 3, "out_of_range": 1, "length_mismatch": 1, "no_candidates": 1}
    assert drawn(sec, "ply") == 24 and dict(sec.summary)["rows"] == "30"


def test_a_corpus_whose_every_row_is_skipped_still_gets_its_section(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text('{"sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"}\n')
    sec = read(path)
    assert skipped(sec) == {"missing_value": (1, f"{path}: line 1: {NULL_REASON.format('ply')}")}
    assert drawn(sec, "ply") == 0 and sec.boards == []
    assert any(n.startswith("no calibration curve: ") for n in sec.notes)


@pytest.mark.parametrize("name,text,where,rule", [
    ("num.json", "5\n", "line 1", "not a JSON object (a JSON number)"),
    ("list.jsonl", "[1, 2]\n", "line 1", "not a JSON object (a JSON array)"),
    ("metrics.jsonl", '{"step": 1, "loss": 0.5}\n[3]\n', "line 2", "not a JSON object (a JSON array)"),
    ("metrics.jsonl", '{"step": 1, "loss": 0.5}\n{"step": 2, "loss":\n', "line 2",
     "not a JSON object (Expecting value at column 20)"),
    ("metrics.jsonl", '{"step": 1, "loss": 0.5}\n\n{"step": 2, "loss": "\xe9"}\n', "line 3", None),
])
def test_json_lines_that_are_not_objects_are_refused_by_line(tmp_path: Path, name: str, text: str, where: str,
                                                            rule: Optional[str]) -> None:
    path = tmp_path / name
    if rule is None:  # a line that is not UTF-8
        path.write_bytes(text.encode("latin-1"))
        rule = "not UTF-8 text (byte 22 of the line)"
    else:
        path.write_text(text)
    assert refused(path) == f"{path}: {where}: {rule}"


def test_a_corpus_line_that_does_not_parse_is_named_by_its_own_line(tmp_path: Path) -> None:
    good = "".join(json.dumps(r) + "\n" for r in corpus_table(100, 500.0, seed=5).to_pylist())
    path = tmp_path / "c.jsonl"
    path.write_text(good + '{"sfen": "broken\tjson"}\n' + good)
    assert refused(path) == f"{path}: line 101: not a JSON object (Invalid control character at column 17)"
    # Reading only the first 100 rows, the report never reaches it (and says how many it read).
    assert dict(read(path, max_rows=100).summary)["rows drawn"] == "100 of the first 100 rows"


def test_a_corpus_row_group_that_does_not_decode_is_named(tmp_path: Path) -> None:
    path = tmp_path / "c.parquet"
    pq.write_table(corpus_table(400, 500.0, seed=1), path, row_group_size=200, compression="snappy")
    chunk = pq.ParquetFile(path).metadata.row_group(1).column(0)
    start = chunk.dictionary_page_offset or chunk.data_page_offset
    data = bytearray(path.read_bytes())
    data[start:start + 8] = bytes(b ^ 0xFF for b in data[start:start + 8])
    path.write_bytes(bytes(data))
    message = refused(path)
    assert message.startswith(f"{path}: row group 1: ") and len(message) > len(f"{path}: row group 1: ")


def test_corpus_columns_are_checked_as_teacher_convert_checks_them(tmp_path: Path) -> None:
    t = corpus_table(10, 500.0, seed=1)
    path = tmp_path / "c.parquet"
    pq.write_table(t.set_column(1, "ply", pa.array(np.zeros(10), pa.float64())), path)
    assert refused(path) == f'{path}: column "ply" (field ply) is double, expected an integer'
    pq.write_table(t.drop_columns(["cp"]), path)
    assert refused(path) == (f'{path}: no column "cp" for field cp (the column is missing; columns: sfen, ply, side, '
                             "cand_moves, cand_cp, move, result)")
    # A directory corpus reads its *.parquet only (a JSON file beside them is not taken for one).
    (tmp_path / "dir").mkdir()
    pq.write_table(t, tmp_path / "dir" / "a.parquet")
    (tmp_path / "dir" / "notes.jsonl").write_text("{}\n")
    assert dict(read(tmp_path / "dir").summary)["rows"] == "10"


def test_unparsable_sfen_and_moves_of_a_pictured_row_are_said(tmp_path: Path) -> None:
    t = corpus_table(3, 500.0, seed=1)
    sfen = t.column("sfen").to_pylist()
    moves = t.column("cand_moves").to_pylist()
    sfen[0] = "garbage"
    moves[2] = ["zz", moves[2][1]]
    path = tmp_path / "c.parquet"
    pq.write_table(with_column(with_column(t, "sfen", sfen), "cand_moves", moves), path)
    sec = read(path)
    assert len(sec.boards) == 1  # rows 0 and 2 are pictured; row 0 has no picture
    assert (f"{path}: row 0: sfen \"garbage\": offset 1: expected a piece letter, digit 1-9 or '/', got 'a'; teacher "
            "convert refuses the row (bad_sfen), so it has no picture") in sec.notes
    assert any(n.startswith(f'{path}: row 2: candidate "zz" is not a USI move') for n in sec.notes)


# ---- shard sets --------------------------------------------------------------------------------

def shard_set(tmp_path: Path) -> tuple[Path, Path, int]:
    """A shard set of three files; the second's path and its row count."""
    write_games(tmp_path / "g.mpk", [12, 15, 9, 20], seed=1)
    shards.pack([str(tmp_path / "g.mpk")], str(tmp_path / "set" / "a"), seed=1, rows_per_shard=20)
    files = sorted((tmp_path / "set").glob("*.parquet"))
    assert len(files) == 3
    return tmp_path / "set", files[1], pq.read_metadata(files[1]).num_rows


def rewrite(path: Path, column: str, row: int, value: Any) -> None:
    """One value of a shard changed, its footer (the set's keys) kept."""
    t = pq.read_table(path)
    values = t.column(column).to_pylist()
    values[row] = value
    pq.write_table(with_column(t, column, values).replace_schema_metadata(t.schema.metadata), path)


def bad_board() -> bytes:
    packed = bytearray(shogi.Board().pack())
    packed[35] = 0x17  # a White pawn on 6i
    return bytes(packed)


def test_a_shard_board_that_breaks_a_rule_is_named_by_file_row_group_and_row(tmp_path: Path) -> None:
    directory, second, _ = shard_set(tmp_path)
    rewrite(second, "packed", 4, bad_board())
    assert refused(directory) == f"{second}: row group 0 row 4: packed: byte 35: White pawn on 6i can never move (rank 9)"


def test_shard_values_a_figure_cannot_show_are_said(tmp_path: Path) -> None:
    directory, second, rows = shard_set(tmp_path)
    rewrite(second, "value_z", 3, 3.0)
    rewrite(second, "value_q", 7, math.nan)
    rewrite(second, "candidates", 6, [])
    sec = read(directory)
    n = pq.read_table(directory).num_rows
    assert sec.alarms == [
        f"1 of the {n} rows drawn has value_z not within [-1, 1] (stream export refuses such rows), left out of the "
        f"value_z figure; the first: {second}: row group 0 row 3: value_z 3",
        f"1 of the {n} rows drawn has value_q not within [-1, 1] (stream export refuses such rows), left out of the "
        f"value_q figure; the first: {second}: row group 0 row 7: value_q nan",
        f"1 of the {n} rows drawn has no candidate (stream export refuses such rows), drawn as 0 in the candidates "
        f"figure and left out of entropy and top-1; the first: {second}: row group 0 row 6",
    ]
    assert drawn(sec, "value_z") == drawn(sec, "value_q") == n - 1 and drawn(sec, "candidates") == n


# ---- VPD1 ----------------------------------------------------------------------------------------

def vpd(path: Path, rows: list[tuple[Optional[int], str]], complete: str = "true") -> None:
    """A VPD1 file of the schema vpd build writes (src/vpd/database.cpp): (ply, result) per row, ids from 1."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE metadata(key TEXT PRIMARY KEY, value TEXT)")
    db.execute("CREATE TABLE positions(id INTEGER PRIMARY KEY, random_key INTEGER NOT NULL, fen TEXT NOT NULL UNIQUE, "
               "source_split TEXT, source_member TEXT, game_number INTEGER, ply INTEGER, result TEXT, "
               "side_to_move INTEGER, phase INTEGER, piece_count INTEGER, non_pawn_material INTEGER, "
               "material_balance INTEGER, legal_moves INTEGER, in_check INTEGER, castling_mask INTEGER, "
               "halfmove_clock INTEGER)")
    db.executemany("INSERT INTO metadata VALUES (?, ?)", [("format", "VPD1"), ("complete", complete)])
    db.executemany("INSERT INTO positions (id, random_key, fen, ply, result, phase, piece_count, material_balance, "
                   "legal_moves) VALUES (?, ?, ?, ?, ?, 2, 2, 0, 3)",
                   [(i + 1, i, f"8/8/8/8/8/8/8/K6k w - - 0 {i + 1}", ply, result) for i, (ply, result) in enumerate(rows)])
    db.commit()
    db.close()


def test_a_truncated_vpd_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "p.vpd"
    vpd(path, [(i, "1-0") for i in range(3000)])
    path.write_bytes(path.read_bytes()[:8192])
    assert refused(path) == f"{path}: table metadata: SQLite: database disk image is malformed"


def test_an_incomplete_vpd_null_columns_and_other_results_are_said(tmp_path: Path) -> None:
    path = tmp_path / "p.vpd"
    vpd(path, [(10, "1-0"), (11, "*"), (None, "0-1"), (13, "1/2-1/2"), (None, "1-0")], complete="false")
    sec = read(path)
    assert skipped(sec) == {"missing_value": (2, f"{path}: positions row id 3: column ply is null or not an integer")}
    assert sec.alarms == [
        f'{path}: the VPD1 file is not marked complete (metadata complete = "false"): a build that did not finish; '
        "`manaka vpd report` refuses it, the figures draw what it holds",
        '1 of the 3 rows drawn has a result other than 1-0, 0-1 or 1/2-1/2 ("*": 1), left out of the outcome figure',
    ]
    assert drawn(sec, "ply") == 3 and drawn(sec, "outcome") == 2


# ---- training metrics --------------------------------------------------------------------------

def test_metrics_values_that_are_not_numbers_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text('{"step": 1, "loss": "x"}\n{"step": 2, "loss": 0.4}\n{"step": 3, "loss": NaN}\n'
                    '{"kind": "epoch", "epoch": 1, "val_loss": "n/a"}\n')
    sec = read(path)
    assert skipped(sec) == {"not_a_number": (3, f'{path}: line 1: loss is "x", not a finite number')}
    assert [len(s.x) for s in figure(sec, "loss").series] == [1]
    assert "best epoch" not in dict(sec.summary)


# ---- the command -------------------------------------------------------------------------------

def test_the_command_refuses_with_one_line_and_writes_nothing(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text("".join(json.dumps(r) + "\n" for r in corpus_table(20, 500.0, seed=1).to_pylist()))
    directory, second, _ = shard_set(tmp_path)
    rewrite(second, "packed", 4, bad_board())
    not_object = tmp_path / "m.jsonl"
    not_object.write_text('{"step": 1, "loss": 0.5}\n[3]\n')
    truncated = tmp_path / "p.vpd"
    vpd(truncated, [(i, "1-0") for i in range(3000)])
    truncated.write_bytes(truncated.read_bytes()[:8192])
    out = tmp_path / "out"
    out.mkdir()
    for bad, rule in [
            (directory, f"{second}: row group 0 row 4: packed: byte 35: White pawn on 6i can never move (rank 9)"),
            (not_object, f"{not_object}: line 2: not a JSON object (a JSON array)"),
            (truncated, f"{truncated}: table metadata: SQLite: database disk image is malformed")]:
        run = subprocess.run([MANAKA, "report", str(good), str(bad), "-o", str(out / "r.html")],
                             capture_output=True, text=True)
        assert (run.returncode, run.stdout, run.stderr) == (1, "", f"manaka: report: {rule}\n")
        assert list(out.iterdir()) == []  # no page, no temporary
    # Rows skipped: written, and said in the summary and on the page.
    values = corpus_table(20, 500.0, seed=1).column("cp").to_pylist()
    values[2] = values[9] = None
    pq.write_table(with_column(corpus_table(20, 500.0, seed=1), "cp", values), tmp_path / "c.parquet")
    run = subprocess.run([MANAKA, "report", str(tmp_path / "c.parquet"), "-o", str(out / "r.html")],
                         capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    first = f"{tmp_path / 'c.parquet'}: row 2: {NULL_REASON.format('cp')}"
    assert (f"  Skipped 2 rows: missing_value, a field is null, absent or of the wrong type. The first: {first}\n"
            in run.stdout)
    html = (out / "r.html").read_text()
    assert "data-skipped='2' data-reason='missing_value'" in html and "<td>skipped</td><td>2 rows (missing_value)" in html


def test_error_lines_carry_no_control_characters() -> None:
    assert printable("a\x1bb\ncd\udcff\x85") == "a\\x1bb\\x0acd\\xff\\u0085"
