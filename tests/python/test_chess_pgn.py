"""SAN and PGN against python-chess 1.11, an independent implementation.

SAN: at a few thousand positions along seeded random games (biased towards
castling, en passant, promotion and positions with several pieces of a
kind), Board.san(m) must print what python-chess's board.san(m) prints for
every legal move, and push_san must read it back to the same move.

PGN: a few hundred random games, some from a FEN, with comments, nested
variations and NAGs added through python-chess's node API, are written by
python-chess's exporter; manaka.chess.read_pgn and `manaka chess pgn
--positions` must read the same headers, moves and positions (FEN at every
ply) as python-chess's chess.pgn.read_game.

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import io
import os
import random
import subprocess
import sys
from pathlib import Path

import chess  # test-only oracle, python-chess
import chess.pgn
import pytest

import manaka
from manaka import chess as mchess

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Several knights, rooks and queens a side, so that disambiguation is common.
CROWDED = "r3k2r/1n2q1n1/8/3q4/8/2N1Q1N1/8/R3K2R w KQkq - 0 1"


def is_special(board: chess.Board, move: chess.Move) -> bool:
    return (board.is_castling(move) or board.is_en_passant(move) or move.promotion is not None
            or board.gives_check(move))


def random_game(rng: random.Random, start: str, plies: int) -> tuple[chess.Board, list[chess.Move]]:
    board = chess.Board(start)
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal:
            break
        special = [m for m in legal if is_special(board, m)]
        move = rng.choice(special if special and rng.random() < 0.3 else legal)
        moves.append(move)
        board.push(move)
    return chess.Board(start), moves


def sample_boards(seed: int, target: int) -> list[chess.Board]:
    rng = random.Random(seed)
    boards = []
    while len(boards) < target:
        start, moves = random_game(rng, rng.choice([chess.STARTING_FEN, KIWIPETE, CROWDED]), rng.randint(10, 150))
        board = start
        for move in moves:
            if rng.random() < 0.25:
                boards.append(board.copy(stack=False))
            board.push(move)
    return boards[:target]


BOARDS = sample_boards(seed=5, target=2000)


def test_san_matches_python_chess_and_push_san_round_trips():
    sans = 0
    disambiguated = mates = promotions = castles = 0
    for board in BOARDS:
        ours = mchess.Board(board.fen())
        for move in board.legal_moves:
            expected = board.san(move)
            got = ours.san(mchess.Move.from_uci(move.uci()))
            assert got == expected, (board.fen(), move.uci())
            replay = ours.copy()
            assert replay.push_san(got).uci() == move.uci(), (board.fen(), got)
            after = board.copy(stack=False)
            after.push(move)
            assert replay.fen() == after.fen(), (board.fen(), got)
            sans += 1
            piece = board.piece_type_at(move.from_square)
            disambiguated += piece not in (chess.PAWN, chess.KING) and len(expected.rstrip("+#").replace("x", "")) > 3
            mates += expected.endswith("#")
            promotions += "=" in expected
            castles += expected.startswith("O-O")
    assert sans > 50000
    assert disambiguated >= 200 and mates >= 1 and promotions >= 100 and castles >= 100, (
        disambiguated, mates, promotions, castles)


def test_push_san_accepts_python_chess_spellings_and_refuses_with_a_message():
    board = mchess.Board()
    assert board.push_san("e4") == mchess.Move.from_uci("e2e4")
    assert board.push_san("e7-e5") == mchess.Move.from_uci("e7e5")
    assert board.push_san("Ng1f3") == mchess.Move.from_uci("g1f3")
    assert board.parse_san("Nc6!?") == mchess.Move.from_uci("b8c6")
    with pytest.raises(manaka.InvalidDataError, match=r"illegal san: 'Nf4' in .* b KQkq - 1 2: no legal knight"):
        board.push_san("Nf4")
    with pytest.raises(ValueError, match="invalid san: 'xyz'"):
        board.parse_san("xyz")
    with pytest.raises(ValueError, match="illegal uci"):
        board.san(mchess.Move.from_uci("e2e4"))


def annotated_game(rng: random.Random, number: int) -> chess.pgn.Game:
    """A random game with comments, NAGs and nested variations; some from a FEN."""
    start_fen = chess.STARTING_FEN
    if number % 4 == 1:
        start, moves = random_game(rng, rng.choice([chess.STARTING_FEN, KIWIPETE]), rng.randint(5, 60))
        for move in moves:
            start.push(move)
        start_fen = start.fen()
    game = chess.pgn.Game()
    game.headers["Event"] = f"random \"{number}\" \\ test"
    game.headers["White"] = rng.choice(["Alpha", "Beta, B.", "?"])
    game.headers["Round"] = str(number)
    if start_fen != chess.STARTING_FEN:
        game.setup(chess.Board(start_fen))
    if number % 5 == 0:
        game.comment = "a comment before the first move (with parentheses)"
    _, moves = random_game(rng, start_fen, rng.randint(0, 120))
    node: chess.pgn.GameNode = game
    for move in moves:
        parent = node
        node = node.add_variation(move)
        r = rng.random()
        if r < 0.1:
            node.comment = rng.choice(["good", "a {brace-free} note", "line; with ; semicolons", "x) y ("])
        elif r < 0.2:
            node.nags.add(rng.randint(1, 30))
        elif r < 0.27:
            # A side line from the parent, sometimes with a nested one.
            board = parent.board()
            alternatives = [m for m in board.legal_moves if m != move]
            if alternatives:
                side = parent.add_variation(rng.choice(alternatives))
                side.comment = "side"
                for depth in range(rng.randint(1, 4)):
                    sboard = side.board()
                    legal = list(sboard.legal_moves)
                    if not legal:
                        break
                    if depth == 1:  # a sibling of this side line's move: a nested variation
                        siblings = [m for m in side.parent.board().legal_moves if m != side.move]
                        if siblings:
                            side.parent.add_variation(rng.choice(siblings)).comment = "nested"
                    side = side.add_variation(rng.choice(legal))
                    side.nags.add(rng.randint(1, 9))
    board = node.board()
    game.headers["Result"] = board.result() if board.is_game_over() else rng.choice(["1-0", "0-1", "1/2-1/2", "*"])
    return game


@pytest.fixture(scope="module")
def pgn_file(tmp_path_factory) -> Path:
    rng = random.Random(17)
    path = tmp_path_factory.mktemp("pgn") / "games.pgn"
    with open(path, "w", encoding="utf-8") as f:
        for number in range(1, 301):
            exporter = chess.pgn.StringExporter(headers=True, variations=True, comments=True)
            f.write(annotated_game(rng, number).accept(exporter) + "\n\n")
    return path


def python_chess_games(path: Path) -> list[chess.pgn.Game]:
    games = []
    with open(path, encoding="utf-8") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            assert not game.errors, game.errors
            games.append(game)
    return games


def test_read_pgn_matches_python_chess(pgn_file):
    expected = python_chess_games(pgn_file)
    text = pgn_file.read_text()
    assert text.count("(") >= 100 and text.count("{") >= 300 and text.count("$") >= 300 and "[FEN " in text
    ours = list(mchess.read_pgn(str(pgn_file)))
    assert len(ours) == len(expected) == 300
    for number, (game, theirs) in enumerate(zip(ours, expected), start=1):
        assert game.number == number
        assert game.headers == dict(theirs.headers)
        assert list(game.headers) == list(theirs.headers)
        assert game.fen == theirs.board().fen()
        assert game.moves == [m.uci() for m in theirs.mainline_moves()]
        assert game.result == theirs.headers["Result"]


def test_cli_positions_match_python_chess(pgn_file):
    expected = []
    for number, theirs in enumerate(python_chess_games(pgn_file), start=1):
        board = theirs.board()
        for ply, move in enumerate(theirs.mainline_moves()):
            expected.append(f"{number}\t{ply}\t{board.fen()}\t{theirs.headers['Result']}")
            board.push(move)
    out = subprocess.run([MANAKA, "chess", "pgn", str(pgn_file), "--positions"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == expected
    summary = subprocess.run([MANAKA, "chess", "pgn", str(pgn_file)], capture_output=True, text=True, timeout=120)
    assert summary.returncode == 0, summary.stderr
    assert summary.stdout.startswith(f"games   300\nplies   {len(expected)}\nskipped 0\n")


def test_bad_game_is_reported_and_the_next_one_read(tmp_path):
    path = tmp_path / "bad.pgn"
    text = '[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "good"]\n\n1. d4 1-0\n'
    path.write_text(text)
    reader = mchess.read_pgn(str(path))
    where = f"bad.pgn: game 1, line 3, byte {text.index('Ke3')}, ply 2"
    with pytest.raises(manaka.InvalidDataError, match=where + r": illegal san: 'Ke3' in .*: no legal king"):
        next(reader)
    good = next(reader)
    assert (good.number, good.headers, good.moves, good.result) == (2, {"Event": "good"}, ["d2d4"], "1-0")
    assert list(reader) == []
    skipping = mchess.read_pgn(str(path), skip_invalid=True)
    assert [g.headers["Event"] for g in skipping] == ["good"]
    assert len(skipping.errors) == 1 and "'Ke3'" in skipping.errors[0]
    out = subprocess.run([MANAKA, "chess", "pgn", str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "games   1\n" in out.stdout and "skipped 1\n" in out.stdout and "'Ke3'" in out.stdout
