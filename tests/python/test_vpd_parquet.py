"""`manaka vpd to-parquet` read back by pyarrow.dataset, DuckDB and polars.

A few hundred seeded python-chess random games under train/, test/ and
neither (split NULL) are built into a VPD1 file, converted with a small
--rows-per-file so that every partition has several files, and the
directory is read with Hive partitioning by three engines: the same rows as
the SQLite table (every column, phase as its name, split as stored), row
groups and codec from the parquet metadata, the manifest against the files
(CRC-32 recomputed with zlib), refusal of an existing output, no
temporary left.

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import json
import os
import random
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import chess  # test-only, python-chess
import chess.pgn
import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from test_vpd import random_game

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
PHASES = ["opening", "middlegame", "endgame"]
ROWS_PER_FILE = 50
STORED = ["id", "random_key", "fen", "source_member", "game_number", "ply", "result", "side_to_move",
          "piece_count", "non_pawn_material", "material_balance", "legal_moves", "in_check",
          "castling_mask", "halfmove_clock"]
TYPES = {"id": pa.int64(), "random_key": pa.int64(), "fen": pa.string(), "source_member": pa.string(),
         "game_number": pa.int64(), "ply": pa.int32(), "result": pa.string(), "side_to_move": pa.int8(),
         "piece_count": pa.int8(), "non_pawn_material": pa.int16(), "material_balance": pa.int16(),
         "legal_moves": pa.int16(), "in_check": pa.bool_(), "castling_mask": pa.int8(),
         "halfmove_clock": pa.int32()}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([MANAKA, "vpd", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    root = tmp_path_factory.mktemp("vpdpq")
    rng = random.Random(7)
    games = [random_game(rng) for _ in range(300)]
    files = [root / "train" / "a.pgn", root / "test" / "b.pgn", root / "c.pgn"]
    for i, f in enumerate(files):
        f.parent.mkdir(exist_ok=True)
        f.write_text("".join(str(g) + "\n\n" for g in games[i * 100:(i + 1) * 100]))
    vpd = root / "in.vpd"
    proc = run("build", *map(str, files), "-o", str(vpd), "--target", "1000", "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    out = root / "out"
    proc = run("to-parquet", str(vpd), "-o", str(out), "--rows-per-file", str(ROWS_PER_FILE))
    assert proc.returncode == 0, proc.stderr
    con = sqlite3.connect(vpd)
    con.row_factory = sqlite3.Row
    rows = {r["id"]: dict(r) for r in con.execute("SELECT * FROM positions ORDER BY id")}
    con.close()
    assert len(rows) > 300
    return {"root": root, "vpd": vpd, "out": out, "rows": rows, "stdout": proc.stdout}


def expected(row: dict) -> dict:
    e = {k: row[k] for k in STORED}
    e["in_check"] = bool(e["in_check"])
    e["phase"] = PHASES[row["phase"]]
    e["source_split"] = row["source_split"]
    return e


def check_rows(records: list[dict], rows: dict) -> None:
    assert len(records) == len(rows)
    by_id = {r["id"]: r for r in records}
    assert set(by_id) == set(rows)
    for i, row in rows.items():
        got = {k: by_id[i][k] for k in STORED + ["phase", "source_split"]}
        assert got == expected(row), i


def test_layout_and_types(exported):
    out = exported["out"]
    splits = {p.name for p in out.iterdir() if p.is_dir()}
    assert splits == {"source_split=train", "source_split=test", "source_split=__HIVE_DEFAULT_PARTITION__"}
    for split in out.iterdir():
        if not split.is_dir():
            continue
        assert {p.name for p in split.iterdir()} <= {f"phase={p}" for p in PHASES}
        for phase in split.iterdir():
            names = sorted(p.name for p in phase.iterdir())
            assert names == [f"part-{i:05d}.parquet" for i in range(len(names))]
    files = sorted(out.rglob("*.parquet"))
    assert len(files) > 9  # several files in some partitions
    for f in files:
        meta = pq.ParquetFile(f).metadata
        schema = pq.read_schema(f)
        assert schema.names == STORED
        assert {n: schema.field(n).type for n in STORED} == TYPES
        assert meta.num_rows <= ROWS_PER_FILE
        for g in range(meta.num_row_groups):
            assert meta.row_group(g).num_rows <= 65536
            for c in range(meta.num_columns):
                assert meta.row_group(g).column(c).compression == "ZSTD"
    leftovers = [p.name for p in exported["root"].iterdir() if ".tmp-" in p.name or ".old-" in p.name]
    assert leftovers == []
    assert not list(out.rglob("*.tmp-*"))
    assert "rows/s" in exported["stdout"]


def test_pyarrow_dataset(exported):
    part = ds.partitioning(pa.schema([("source_split", pa.string()), ("phase", pa.string())]), flavor="hive")
    dataset = ds.dataset(exported["out"], format="parquet", partitioning=part)
    check_rows(dataset.to_table().to_pylist(), exported["rows"])
    # The default inference reads the same.
    inferred = ds.dataset(exported["out"], format="parquet", partitioning="hive").to_table()
    assert inferred.num_rows == len(exported["rows"])


def test_duckdb(exported):
    glob = str(exported["out"] / "**" / "*.parquet")
    rel = duckdb.sql(f"SELECT * FROM read_parquet('{glob}', hive_partitioning=true)")
    records = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
    check_rows(records, exported["rows"])


def test_polars(exported):
    frame = pl.scan_parquet(str(exported["out"] / "**" / "*.parquet"), hive_partitioning=True).collect()
    check_rows(frame.to_dicts(), exported["rows"])


def test_manifest(exported):
    out = exported["out"]
    m = json.loads((out / "_manifest.json").read_text())
    assert m["source"]["crc32"] == f"{zlib.crc32(exported['vpd'].read_bytes()):08x}"
    assert m["source"]["bytes"] == exported["vpd"].stat().st_size
    assert m["rows"] == len(exported["rows"])
    listed = [f["path"] for f in m["files"]]
    assert sorted(listed) == sorted(str(p.relative_to(out)) for p in out.rglob("*.parquet"))
    for f in m["files"]:
        path = out / f["path"]
        table = pq.read_table(path)
        assert f["rows"] == table.num_rows
        assert f["bytes"] == path.stat().st_size
        assert f["row_groups"] == pq.ParquetFile(path).metadata.num_row_groups
        ids = table.column("id").to_pylist()
        assert ids == sorted(ids)
        assert (f["min_id"], f["max_id"]) == (min(ids), max(ids))
        assert f["crc32"] == f"{zlib.crc32(path.read_bytes()):08x}"
    assert sum(f["rows"] for f in m["files"]) == len(exported["rows"])


def test_existing_output_refused_then_overwritten(exported):
    out, vpd = exported["out"], exported["vpd"]
    before = (out / "_manifest.json").read_text()
    proc = run("to-parquet", str(vpd), "-o", str(out))
    assert proc.returncode != 0
    assert "exists; pass --overwrite" in proc.stderr
    assert (out / "_manifest.json").read_text() == before
    other = exported["root"] / "again"
    proc = run("to-parquet", str(vpd), "-o", str(other), "-q")
    assert proc.returncode == 0, proc.stderr
    (other / "stale").write_text("x")
    proc = run("to-parquet", str(vpd), "-o", str(other), "--overwrite", "-q")
    assert proc.returncode == 0, proc.stderr
    assert not (other / "stale").exists()
    m = json.loads((other / "_manifest.json").read_text())
    assert all(f["rows"] <= 1048576 for f in m["files"]) and len(m["files"]) <= 9
    assert not [p.name for p in exported["root"].iterdir() if ".tmp-" in p.name or ".old-" in p.name]


def test_refuses_a_non_vpd_file(exported):
    bad = exported["root"] / "bad.vpd"
    bad.write_bytes(b"not a database" * 20)
    proc = run("to-parquet", str(bad), "-o", str(exported["root"] / "bad_out"))
    assert proc.returncode != 0
    assert "bad.vpd" in proc.stderr
    assert not (exported["root"] / "bad_out").exists()


def test_a_bad_row_is_refused_naming_the_file_the_row_and_the_column(exported, tmp_path):
    import shutil
    import sqlite3

    for column, value, rule in [("source_split", "'valid'", "'valid' is not train, test or NULL"),
                                ("fen", "x'00'", "not text"),
                                ("random_key", "'x'", "not an integer")]:
        vpd = tmp_path / f"{column}.vpd"
        shutil.copy(exported["vpd"], vpd)
        con = sqlite3.connect(vpd)
        con.execute(f"UPDATE positions SET {column} = {value} WHERE id = 7")
        con.commit()
        con.close()
        out = tmp_path / f"{column}_out"
        proc = run("to-parquet", str(vpd), "-o", str(out))
        assert proc.returncode != 0
        assert f"{vpd}: positions row id 7, column {column}: {rule}" in proc.stderr, proc.stderr
        assert not out.exists()


def test_labels_are_carried(exported, tmp_path):
    """A labeled file: the label columns beside every row, NULL where unlabeled, as sqlite3 reads them."""
    labeled = tmp_path / "labeled.vpd"
    labeled.write_bytes(exported["vpd"].read_bytes())
    proc = subprocess.run([MANAKA, "vpd", "label", str(labeled), "--engine", "/usr/games/stockfish", "--nodes", "500",
                           "--max", "25", "--multipv", "2", "-q"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "out"
    proc = run("to-parquet", str(labeled), "-o", str(out), "-q")
    assert proc.returncode == 0, proc.stderr
    table = ds.dataset(out, format="parquet", partitioning="hive").to_table().sort_by("id")
    label_columns = {"label_cp": pa.int32(), "label_mate": pa.int32(), "label_wdl_win": pa.int16(),
                     "label_wdl_draw": pa.int16(), "label_wdl_loss": pa.int16(), "label_depth": pa.int16(),
                     "label_bestmove": pa.string(), "label_pv_lines": pa.string()}
    for name, t in label_columns.items():
        assert table.schema.field(name).type == t, name
    con = sqlite3.connect(labeled)
    want = con.execute("SELECT l.score_cp, l.score_mate, l.wdl_win, l.wdl_draw, l.wdl_loss, l.depth, l.bestmove, "
                       "l.pv_lines FROM positions p LEFT JOIN labels l ON l.id = p.id ORDER BY p.id").fetchall()
    meta = dict(con.execute("SELECT key, value FROM metadata WHERE key LIKE 'label_%' AND key != 'label_engine_path'"))
    con.close()
    got = list(zip(*(table.column(n).to_pylist() for n in label_columns)))
    assert got == want
    assert sum(r[6] is not None for r in got) == 25 and len(got) == len(exported["rows"])
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["labels"] == meta and meta["label_multipv"] == "2"
    # An unlabeled file has no label columns and no "labels" in its manifest.
    plain = json.loads((exported["out"] / "_manifest.json").read_text())
    assert "labels" not in plain
    assert "label_cp" not in ds.dataset(exported["out"], format="parquet", partitioning="hive").schema.names
