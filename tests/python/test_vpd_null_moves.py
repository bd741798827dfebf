"""Null moves in PGN read as python-chess 1.11 reads them (`--`, `Z0` as
ChessBase writes it, `0000`, `@@@@`), and `manaka vpd build` never samples a
position at or after one: python-chess is the oracle for the mainlines and
the positions."""

from __future__ import annotations

import io
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import chess  # test-only oracle, python-chess
import chess.pgn
import pytest

import manaka
from manaka import chess as mchess

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
NULL_TOKENS = ["--", "Z0", "0000", "@@@@"]

# python-chess's data/pgn/anastasian-lewis.pgn: ChessBase's Z0 in the main line.
ANASTASIAN = """[Event "World Senior Teams +50"]
[Site "Radebeul GER"]
[Date "2016.07.03"]
[Round "8.2"]
[White "Anastasian, A."]
[Black "Lewis, An"]
[Result "1-0"]
[ECO "E90"]
[WhiteElo "2532"]
[BlackElo "2269"]
[PlyCount "84"]
[EventDate "2016.06.26"]

1. d4 Nf6 2. c4 g6 3. Nc3 Bg7 4. e4 d6 5. Nf3 O-O 6. h3 e5 7. d5 Na6 8. Be3 Nh5
9. Nh2 Qe8 10. Be2 Nf4 11. Bf3 f5 12. a3 Nc5 13. Bxc5 dxc5 14. O-O Qe7 15. Re1
a6 16. Ne2 Qd6 17. Nf1 Bd7 18. Rb1 b6 19. Nd2 Bh6 20. Nxf4 Bxf4 21. b4 Rae8 22.
Qc2 Rf6 23. Qc3 Qf8 24. Nb3 cxb4 25. axb4 Bg5 26. Rb2 Rf7 27. Nc1 Qh6 28. Nd3
fxe4 29. Bxe4 Bxh3 30. gxh3 Qxh3 31. Bg2 Qh4 32. Re4 Qh5 33. Rbe2 Ref8 34. c5
Bf4 35. Nxe5 Qh2+ 36. Kf1 Rf5 37. Nf3 Qh5 38. Re7 Bh6 39. R2e5 bxc5 40. bxc5
Rxf3 41. Bxf3 Z0 42. Ke1 Qh1+ 1-0

"""


def random_game_with_nulls(rng: random.Random) -> chess.pgn.Game:
    board = chess.Board()
    for _ in range(rng.randint(6, 120)):
        legal = list(board.legal_moves)
        if not legal:
            break
        if not board.is_check() and rng.random() < 0.04:
            board.push(chess.Move.null())
        else:
            board.push(rng.choice(legal))
    game = chess.pgn.Game.from_board(board)
    game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game


def with_tokens(text: str, rng: random.Random) -> str:
    # python-chess writes "--"; every token python-chess accepts stands in for it.
    return " ".join(rng.choice(NULL_TOKENS) if t == "--" else t for t in text.split(" "))


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    rng = random.Random(1234)
    text = ANASTASIAN + "".join(with_tokens(str(random_game_with_nulls(rng)), rng) + "\n\n" for _ in range(250))
    assert sum(text.count(t) for t in ("Z0", " -- ", "0000", "@@@@")) > 100
    path = tmp_path_factory.mktemp("nulls") / "nulls.pgn"
    path.write_text(text)
    return path, text


def oracle_games(text: str) -> list[chess.pgn.Game]:
    out = []
    f = io.StringIO(text)
    while (g := chess.pgn.read_game(f)) is not None:
        assert not g.errors, g.errors
        out.append(g)
    return out


def test_mainlines_as_python_chess(games: tuple[Path, str]) -> None:
    path, text = games
    expected = oracle_games(text)
    reader = mchess.read_pgn(str(path))
    got = []  # next() until StopIteration: the stub's __iter__ is typed object
    while (g := next(reader, None)) is not None:
        got.append(g)
    assert len(got) == len(expected) == 251
    for g, e in zip(got, expected):
        assert g.moves == [m.uci() for m in e.mainline_moves()]
    assert got[0].moves[81] == "0000"  # 41... Z0
    assert sum(m == "0000" for g in got for m in g.moves) > 100


def test_null_move_in_check_is_refused(tmp_path: Path) -> None:
    text = '[Event "check"]\n\n1. e4 e5 2. Qh5 Nc6 3. Qxf7+ -- 4. Qxe8 *\n\n[Event "next"]\n\n1. d4 *\n'
    (e,) = [g for g in oracle_games(text) if g.headers["Event"] == "check"]
    assert [m.uci() for m in e.mainline_moves()][5] == "0000"  # python-chess reads it
    path = tmp_path / "check.pgn"
    path.write_text(text)
    it = mchess.read_pgn(str(path))
    with pytest.raises(manaka.Error, match="game 1, line 3, .*ply 5: a null move in check"):
        next(it)
    assert next(it).moves == ["d2d4"]


def test_build_never_samples_after_a_null_move(games: tuple[Path, str], tmp_path: Path) -> None:
    path, text = games
    expected = oracle_games(text)
    out = tmp_path / "n.vpd"
    proc = subprocess.run([MANAKA, "vpd", "build", str(path), "-o", str(out), "--target", "400", "--seed", "2", "-q",
                           "--json"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    con = sqlite3.connect(out)
    rows = con.execute("SELECT game_number, ply, fen FROM positions").fetchall()
    con.close()
    assert len(rows) > 100
    first_null = {}
    considered = 0
    for n, g in enumerate(expected, 1):
        moves = list(g.mainline_moves())
        first_null[n] = next((i for i, m in enumerate(moves) if not m), len(moves))
        considered += first_null[n]
    import json
    assert json.loads(proc.stdout)["positions_considered"] == considered
    for game_number, ply, fen in rows:
        assert ply < first_null[game_number], (game_number, ply)
        board = expected[game_number - 1].board()
        for m in list(expected[game_number - 1].mainline_moves())[:ply]:
            board.push(m)
        assert fen == " ".join(board.fen().split()[:5] + ["1"])
