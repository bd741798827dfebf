"""`manaka vpd build` and `manaka vpd sample` against python-chess 1.11.

A few hundred seeded random games are written as PGN by python-chess (one
file under train/, one under test/ with a corrupt game inside), built into a
VPD1 file, and the file is read with Python's sqlite3: the schema and index,
every row's features recomputed with python-chess from its FEN, the row
found again at its game and ply, the phase rule, uniqueness, quotas,
reproducibility, and the sample command (the game's FEN, fullmove number
included).

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import chess  # test-only oracle, python-chess
import chess.pgn
import pytest

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
TARGET = 200
QUOTAS = {0: 30, 1: 120, 2: 50}  # floor 15 %, the rest, floor 25 %
COLUMNS = [
    ("id", "INTEGER"), ("random_key", "INTEGER"), ("fen", "TEXT"), ("source_split", "TEXT"),
    ("source_member", "TEXT"), ("game_number", "INTEGER"), ("ply", "INTEGER"), ("result", "TEXT"),
    ("side_to_move", "INTEGER"), ("phase", "INTEGER"), ("piece_count", "INTEGER"),
    ("non_pawn_material", "INTEGER"), ("material_balance", "INTEGER"), ("legal_moves", "INTEGER"),
    ("in_check", "INTEGER"), ("castling_mask", "INTEGER"), ("halfmove_clock", "INTEGER"),
]
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
CORRUPT = '[Event "corrupt"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n\n'


def random_game(rng: random.Random, plies: tuple[int, int] = (8, 220),
                results: tuple[str, ...] = ("1-0", "0-1", "1/2-1/2", "*")) -> chess.pgn.Game:
    """A random game of plies[0]..plies[1] plies (captures half the time, so
    that games reach endgames), its Result tag drawn from results."""
    board = chess.Board()
    for _ in range(rng.randint(*plies)):
        legal = list(board.legal_moves)
        if not legal:
            break
        captures = [m for m in legal if board.is_capture(m)]
        board.push(rng.choice(captures if captures and rng.random() < 0.5 else legal))
    game = chess.pgn.Game.from_board(board)
    game.headers["Result"] = rng.choice(results)
    return game


def normalized(board: chess.Board) -> str:
    return " ".join(board.fen().split()[:5] + ["1"])


def build(out: Path, inputs: list[Path], seed: int, env: dict) -> dict:
    cmd = [MANAKA, "vpd", "build", *map(str, inputs), "-o", str(out), "--target", str(TARGET),
           "--seed", str(seed), "--json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("vpd")
    rng = random.Random(20240501)
    games = [random_game(rng) for _ in range(400)]
    train, test = root / "train" / "games.pgn", root / "test" / "more.pgn"
    train.parent.mkdir()
    test.parent.mkdir()
    train.write_text("".join(str(g) + "\n\n" for g in games[:300]))
    # Game 301 + 25 = 326 overall is the corrupt one.
    test.write_text("".join(str(g) + "\n\n" for g in games[300:325]) + CORRUPT +
                    "".join(str(g) + "\n\n" for g in games[325:]))
    numbered = {}  # game number -> (game, source member, split)
    for i, g in enumerate(games[:300]):
        numbered[i + 1] = (g, "games.pgn", "train")
    for i, g in enumerate(games[300:]):
        numbered[301 + i + (1 if i >= 25 else 0)] = (g, "more.pgn", "test")
    env = dict(os.environ, SOURCE_DATE_EPOCH="1700000000")
    out = root / "a.vpd"
    summary = build(out, [train, test], 1, env)
    return {"root": root, "inputs": [train, test], "games": games, "numbered": numbered, "out": out,
            "summary": summary, "env": env}


def rows(path: Path) -> list[sqlite3.Row]:
    con = sqlite3.connect(path)
    con.row_factory = sqlite3.Row
    try:
        return con.execute("SELECT * FROM positions ORDER BY id").fetchall()
    finally:
        con.close()


def metadata(path: Path) -> dict:
    con = sqlite3.connect(path)
    try:
        return dict(con.execute("SELECT key, value FROM metadata").fetchall())
    finally:
        con.close()


def test_schema_and_index(corpus):
    con = sqlite3.connect(corpus["out"])
    cols = [(r[1], r[2]) for r in con.execute("PRAGMA table_info(positions)")]
    assert cols == COLUMNS
    info = {r[1]: r for r in con.execute("PRAGMA table_info(positions)")}
    assert info["id"][5] == 1 and info["random_key"][3] == 1 and info["fen"][3] == 1  # pk, NOT NULL
    assert [(r[1], r[2]) for r in con.execute("PRAGMA table_info(metadata)")] == [("key", "TEXT"), ("value", "TEXT")]
    indexes = {r[1]: r for r in con.execute("PRAGMA index_list(positions)")}
    keyed = [name for name in indexes if [c[2] for c in con.execute(f"PRAGMA index_info({name})")] == ["random_key"]]
    assert keyed
    unique_fen = [name for name, r in indexes.items() if r[2] == 1
                  and [c[2] for c in con.execute(f"PRAGMA index_info({name})")] == ["fen"]]
    assert unique_fen
    plan = " ".join(r[3] for r in con.execute(
        "EXPLAIN QUERY PLAN SELECT fen FROM positions WHERE random_key >= 5 ORDER BY random_key LIMIT 1"))
    assert keyed[0] in plan
    con.close()


def test_metadata_and_counts(corpus):
    m = metadata(corpus["out"])
    s = corpus["summary"]
    assert m["format"] == "VPD1" and m["format_version"] == "1"
    assert m["sampling_seed"] == "1" and m["target_size"] == str(TARGET)
    assert [int(m[f"quota_{p}"]) for p in ("opening", "middlegame", "endgame")] == [30, 120, 50]
    assert m["complete"] == "true" and m["completed_at"] == "2023-11-14T22:13:20Z"
    assert int(m["games_read"]) == s["games_read"] == 400
    assert int(m["games_skipped"]) == s["games_skipped"] == 1  # the corrupt game
    assert "game 26" in s["first_errors"][0] and "Ke3" in s["first_errors"][0]
    plies = sum(len(list(g.mainline_moves())) for g in corpus["games"])
    assert int(m["positions_considered"]) == s["positions_considered"] == plies
    assert int(m["duplicates"]) == s["duplicates"] > 0  # at least the start position
    sources = json.loads(m["sources"])
    assert [(x["member"], x["split"], x["games_read"], x["games_skipped"]) for x in sources] == [
        ("games.pgn", "train", 300, 0), ("more.pgn", "test", 100, 1)]
    assert int(m["rows"]) == len(rows(corpus["out"]))


def test_rows_against_python_chess(corpus):
    table = rows(corpus["out"])
    assert len(table) > 0
    for r in table:
        fen = r["fen"]
        board = chess.Board(fen)
        assert board.fen() == fen and fen.endswith(" 1"), fen
        assert r["side_to_move"] == (1 if board.turn == chess.WHITE else 0)
        pieces = board.piece_map().values()
        assert r["piece_count"] == len(board.piece_map())
        npm = sum(VALUE[p.piece_type] for p in pieces if p.piece_type not in (chess.PAWN, chess.KING))
        assert r["non_pawn_material"] == npm
        assert r["material_balance"] == sum(VALUE[p.piece_type] * (1 if p.color else -1) for p in pieces)
        assert r["legal_moves"] == board.legal_moves.count() > 0
        assert r["in_check"] == int(board.is_check())
        mask = (board.has_kingside_castling_rights(chess.WHITE) | board.has_queenside_castling_rights(chess.WHITE) << 1
                | board.has_kingside_castling_rights(chess.BLACK) << 2
                | board.has_queenside_castling_rights(chess.BLACK) << 3)
        assert r["castling_mask"] == mask
        assert r["halfmove_clock"] == board.halfmove_clock
        # The phase rule, opening first.
        ply, pc = r["ply"], r["piece_count"]
        phase = 0 if ply <= 20 and npm >= 50 else 2 if npm <= 20 or pc <= 12 else 1
        assert r["phase"] == phase, (fen, ply)
        assert 0 <= r["random_key"] < 2**63
        # The row is the position before move `ply` of its game.
        game, member, split = corpus["numbered"][r["game_number"]]
        replay = game.board()
        for move in list(game.mainline_moves())[:ply]:
            replay.push(move)
        assert normalized(replay) == fen
        assert ply < len(list(game.mainline_moves()))
        assert (r["source_member"], r["source_split"], r["result"]) == (member, split, game.headers["Result"])


def test_uniqueness_and_quotas(corpus):
    table = rows(corpus["out"])
    fens = [r["fen"] for r in table]
    assert len(set(fens)) == len(fens)
    pairs = [(r["game_number"], r["phase"]) for r in table]
    assert len(set(pairs)) == len(pairs)
    per_phase = {p: sum(1 for r in table if r["phase"] == p) for p in QUOTAS}
    for p, quota in QUOTAS.items():
        assert per_phase[p] <= quota
        assert per_phase[p] == corpus["summary"]["phases"][["opening", "middlegame", "endgame"][p]]["rows"]
    # 400 games fill the opening and middlegame quotas.
    assert per_phase[0] == QUOTAS[0] and per_phase[1] == QUOTAS[1]
    assert [r["id"] for r in table] == list(range(1, len(table) + 1))
    assert [(r["game_number"], r["ply"]) for r in table] == sorted((r["game_number"], r["ply"]) for r in table)


def test_same_seed_same_bytes_other_seed_other_sample(corpus):
    again = corpus["root"] / "again.vpd"
    build(again, corpus["inputs"], 1, corpus["env"])
    assert again.read_bytes() == corpus["out"].read_bytes()
    other = corpus["root"] / "other.vpd"
    build(other, corpus["inputs"], 2, corpus["env"])
    assert {r["fen"] for r in rows(other)} != {r["fen"] for r in rows(corpus["out"])}
    assert not list(corpus["root"].glob("*.tmp-*"))


def test_sample_prints_the_fen_the_game_had(corpus):
    # A stored FEN has fullmove number 1; sample prints its row's ply // 2 + 1,
    # which is python-chess's FEN of the game at that ply.
    by_fen = {r["fen"]: r for r in rows(corpus["out"])}
    proc = subprocess.run([MANAKA, "vpd", "sample", str(corpus["out"]), "--count", "200", "--seed", "3"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    drawn = proc.stdout.splitlines()
    assert len(drawn) == 200 and len(set(drawn)) > 50
    for line in set(drawn):
        r = by_fen[" ".join(line.split()[:5] + ["1"])]
        game = corpus["numbered"][r["game_number"]][0]
        replay = game.board()
        for move in list(game.mainline_moves())[:r["ply"]]:
            replay.push(move)
        assert line == replay.fen() and replay.fullmove_number == r["ply"] // 2 + 1, (line, r["ply"])
    assert sum(not line.endswith(" 1") for line in drawn) > 130
    again = subprocess.run([MANAKA, "vpd", "sample", str(corpus["out"]), "--count", "200", "--seed", "3"],
                           capture_output=True, text=True)
    assert again.stdout == proc.stdout


def test_inputs_untouched_and_errors(corpus, tmp_path):
    before = [p.read_bytes() for p in corpus["inputs"]]
    bad = tmp_path / "bad.vpd"
    bad.write_text("not a database\n")
    proc = subprocess.run([MANAKA, "vpd", "sample", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 1 and "bad.vpd" in proc.stderr
    proc = subprocess.run([MANAKA, "vpd", "build", str(tmp_path / "missing.pgn"), "-o", str(tmp_path / "x.vpd")],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "missing.pgn" in proc.stderr
    assert not (tmp_path / "x.vpd").exists()
    assert [p.read_bytes() for p in corpus["inputs"]] == before


def test_no_position_exits_nonzero_and_leaves_no_file(tmp_path):
    binary = tmp_path / "random.bin"
    binary.write_bytes(random.Random(7).randbytes(65536))
    refused = tmp_path / "refused.pgn"
    refused.write_text(CORRUPT * 3)
    for source in (binary, refused):
        out = tmp_path / "x.vpd"
        proc = subprocess.run([MANAKA, "vpd", "build", str(source), "-o", str(out), "-q"],
                              capture_output=True, text=True)
        assert proc.returncode == 1, (source, proc.stdout)
        assert source.name in proc.stderr and "no position" in proc.stderr, proc.stderr
        assert sorted(p.name for p in tmp_path.iterdir()) == ["random.bin", "refused.pgn"]


def test_sample_refuses_more_draws_than_rows_and_prints_its_seed(corpus):
    n = len(rows(corpus["out"]))
    proc = subprocess.run([MANAKA, "vpd", "sample", str(corpus["out"]), "-n", "99999999999"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stdout == ""
    assert f"-n 99999999999 is more than the {n} rows of {corpus['out']}" in proc.stderr
    # Without --seed the drawn seed is printed, and giving it back repeats the draw.
    proc = subprocess.run([MANAKA, "vpd", "sample", str(corpus["out"]), "-n", "20"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    seed = proc.stderr.split("--seed ")[1].split()[0]
    again = subprocess.run([MANAKA, "vpd", "sample", str(corpus["out"]), "-n", "20", "--seed", seed],
                           capture_output=True, text=True)
    assert again.returncode == 0 and again.stdout == proc.stdout and again.stderr == ""
