"""`manaka vpd report` against an independent recomputation in Python.

A VPD1 file is built from a few hundred seeded python-chess random games
(test_vpd.random_game); every check's value in `manaka vpd report --json`
is recomputed with sqlite3, math and statistics, high_variance must equal
all(pass), and `--write` stores the report in the metadata of a file that
`manaka vpd sample` still opens. The build itself records the same report.

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import json
import math
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from test_vpd import metadata, random_game  # noqa: E402

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
TARGET = 200
NAMES = ["corpus_size", "phase_entropy_bits", "min_phase_share", "min_result_share", "side_to_move_imbalance",
         "legal_moves_std", "piece_count_std", "material_imbalance_share", "castling_states", "in_check_share"]
THRESHOLDS = {"phase_entropy_bits": 1.2, "min_phase_share": 0.10, "min_result_share": 0.05,
              "side_to_move_imbalance": 0.05, "legal_moves_std": 5.0, "piece_count_std": 5.0,
              "material_imbalance_share": 0.20, "castling_states": 8.0, "in_check_share": 0.02}


def manaka(*args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run([MANAKA, "vpd", *args], capture_output=True, text=True,
                          env=dict(os.environ, SOURCE_DATE_EPOCH="1700000000"))
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("vpdvar")
    rng = random.Random(20240502)
    pgn = root / "games.pgn"
    pgn.write_text("".join(str(random_game(rng)) + "\n\n" for _ in range(300)))
    out = root / "a.vpd"
    manaka("build", str(pgn), "-o", str(out), "--target", str(TARGET), "--seed", "3", "--json")
    return out


def expected_values(path: Path) -> dict:
    con = sqlite3.connect(path)
    try:
        rows = con.execute("SELECT phase, result, side_to_move, legal_moves, piece_count, material_balance, "
                           "castling_mask, in_check FROM positions").fetchall()
        target = int(con.execute("SELECT value FROM metadata WHERE key = 'target_size'").fetchone()[0])
    finally:
        con.close()
    n = len(rows)
    phase_shares = [sum(1 for r in rows if r[0] == p) / n for p in range(3)]
    decided = [r[1] for r in rows if r[1] in ("1-0", "0-1", "1/2-1/2")]
    return {
        "corpus_size": (n, max(0.95 * target, 1)),
        "phase_entropy_bits": -sum(p * math.log2(p) for p in phase_shares if p > 0),
        "min_phase_share": min(phase_shares),
        "min_result_share": min(decided.count(t) / len(decided) for t in ("1-0", "0-1", "1/2-1/2")),
        "side_to_move_imbalance": abs(sum(1 for r in rows if r[2] == 1) / n - 0.5),
        "legal_moves_std": statistics.pstdev(r[3] for r in rows),
        "piece_count_std": statistics.pstdev(r[4] for r in rows),
        "material_imbalance_share": sum(1 for r in rows if r[5] != 0) / n,
        "castling_states": len({r[6] for r in rows}),
        "in_check_share": sum(1 for r in rows if r[7] == 1) / n,
    }


def test_report_matches_an_independent_computation(built):
    report = json.loads(manaka("report", str(built), "--json").stdout)
    assert report["format"] == "VPD1-variance" and report["version"] == 1
    assert report["target_size"] == TARGET
    checks = {c["name"]: c for c in report["checks"]}
    assert [c["name"] for c in report["checks"]] == NAMES
    expected = expected_values(built)
    rows, size_threshold = expected.pop("corpus_size")
    assert report["rows"] == rows
    assert checks["corpus_size"]["value"] == rows
    assert checks["corpus_size"]["threshold"] == pytest.approx(size_threshold)
    for name, value in expected.items():
        assert checks[name]["value"] == pytest.approx(value, rel=1e-12, abs=1e-12), name
        assert checks[name]["threshold"] == pytest.approx(THRESHOLDS[name]), name
    for c in report["checks"]:
        want = c["value"] <= c["threshold"] if c["comparison"] == "<=" else c["value"] >= c["threshold"]
        assert c["comparison"] == ("<=" if c["name"] == "side_to_move_imbalance" else ">=")
        assert c["pass"] == want, c
    assert report["high_variance"] == all(c["pass"] for c in report["checks"])


def test_table_output(built):
    out = manaka("report", str(built)).stdout
    for name in NAMES:
        assert name in out
    report = json.loads(manaka("report", str(built), "--json").stdout)
    assert f"high_variance              {'true' if report['high_variance'] else 'false'}" in out


def test_build_records_the_report(built):
    m = metadata(built)
    report = json.loads(manaka("report", str(built), "--json").stdout)
    assert json.loads(m["variance_report"]) == report
    assert m["high_variance"] == ("true" if report["high_variance"] else "false")


def test_write_stores_the_report_and_the_file_stays_valid(built, tmp_path):
    copy = tmp_path / "b.vpd"
    shutil.copyfile(built, copy)
    con = sqlite3.connect(copy)
    con.execute("DELETE FROM metadata WHERE key IN ('variance_report', 'high_variance')")
    con.commit()
    con.close()
    before = metadata(copy)
    printed = json.loads(manaka("report", str(copy), "--json", "--write").stdout)
    after = metadata(copy)
    assert json.loads(after.pop("variance_report")) == printed
    assert after.pop("high_variance") == ("true" if printed["high_variance"] else "false")
    assert after == before
    con = sqlite3.connect(copy)
    assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    con.close()
    fens = manaka("sample", str(copy), "--count", "5", "--seed", "1").stdout.split("\n")
    assert len([f for f in fens if f]) == 5


def test_refuses_an_incomplete_file(built, tmp_path):
    copy = tmp_path / "c.vpd"
    shutil.copyfile(built, copy)
    con = sqlite3.connect(copy)
    con.execute("UPDATE metadata SET value = 'false' WHERE key = 'complete'")
    con.commit()
    con.close()
    proc = subprocess.run([MANAKA, "vpd", "report", str(copy), "--write"], capture_output=True, text=True)
    assert proc.returncode != 0
    assert "not marked complete" in proc.stderr


def test_thresholds_from_the_command_line_and_a_file(built, tmp_path):
    default = json.loads(manaka("report", str(built), "--json").stdout)
    assert "changed_thresholds" not in default
    values = {c["name"]: c["value"] for c in default["checks"]}
    # Just above and just below what the file has: one check flips to fail, one stays.
    file = tmp_path / "th.json"
    file.write_text(json.dumps({"min_phase_share": values["min_phase_share"] + 0.01, "min_castling_states": 2}))
    report = json.loads(manaka("report", str(built), "--json", "--thresholds", str(file),
                               "--threshold", "min_legal_moves_std=0.5").stdout)
    checks = {c["name"]: c for c in report["checks"]}
    assert checks["min_phase_share"]["threshold"] == pytest.approx(values["min_phase_share"] + 0.01)
    assert checks["min_phase_share"]["pass"] is False and report["high_variance"] is False
    assert checks["castling_states"]["threshold"] == 2 and checks["legal_moves_std"]["threshold"] == 0.5
    assert report["changed_thresholds"] == {
        "min_phase_share": {"value": pytest.approx(values["min_phase_share"] + 0.01), "default": 0.10},
        "min_legal_moves_std": {"value": 0.5, "default": 5.0},
        "min_castling_states": {"value": 2, "default": 8},
    }
    # The command line after the file: the same name set twice takes the command line's value.
    again = json.loads(manaka("report", str(built), "--json", "--thresholds", str(file),
                              "--threshold", "min_castling_states=9").stdout)
    assert again["changed_thresholds"]["min_castling_states"] == {"value": 9, "default": 8}
    text = manaka("report", str(built), "--threshold", "min_in_check_share=0.5").stdout
    assert "changed threshold min_in_check_share = 0.5 (default 0.02)" in text
    # A build records the report under its thresholds.
    pgn = tmp_path / "g.pgn"
    pgn.write_text("".join(str(random_game(random.Random(5))) + "\n\n" for _ in range(40)))
    out = tmp_path / "b.vpd"
    manaka("build", str(pgn), "-o", str(out), "--target", "50", "-q", "--threshold", "min_rows=1000")
    stored = json.loads(metadata(out)["variance_report"])
    assert stored["changed_thresholds"] == {"min_rows": {"value": 1000, "default": 1}}
    assert stored["checks"][0]["pass"] is False


@pytest.mark.parametrize("args, message", [
    (["--threshold", "min_phase_shares=0.2"], "no threshold named 'min_phase_shares'"),
    (["--threshold", "min_phase_share=1.5"], "a share, 1.5"),
    (["--threshold", "min_phase_share"], "expected NAME=VALUE"),
    (["--threshold", "min_castling_states=2.5"], "not a whole number"),
    (["--threshold", "min_legal_moves_std=x"], "'x' is not a number"),
    (["--thresholds", "/nonexistent/th.json"], "th.json"),
])
def test_bad_thresholds_are_refused(built, args, message):
    proc = subprocess.run([MANAKA, "vpd", "report", str(built), *args], capture_output=True, text=True)
    assert proc.returncode != 0 and message in proc.stderr, proc.stderr
