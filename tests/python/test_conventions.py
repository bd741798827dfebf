"""docs/conventions.md holds for every command: each native subcommand's --help is read and checked,
and the Python commands' spellings and aliases are parsed."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from manaka import eval as manaka_eval

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))


def native_help(path):
    return subprocess.run([MANAKA, *path, "--help"], capture_output=True, text=True, check=True).stdout


def leaf_commands(path=()):
    """Every native command that runs (has no subcommands of its own), with its --help."""
    text = native_help(path)
    subs = re.findall(r"^  (\S+)\s{2,}", text.split("Subcommands:")[1], re.M) if "Subcommands:" in text else []
    if not subs:
        return [(path, text)]
    return [leaf for s in subs for leaf in leaf_commands((*path, s))]


def options(text):
    """option spelling -> the rest of its help line (its type and default first)."""
    out = {}
    for line in text.split("Options:")[1].splitlines() if "Options:" in text else []:
        m = re.match(r"^  (-[-\w,]+)\s*(.*)$", line)
        if m:
            out[m.group(1)] = m.group(2)
    return out


def test_every_native_command_follows_the_table():
    leaves = leaf_commands()
    assert len(leaves) > 30
    seen = {"--json": 0, "-o,--output": 0, "--workers": 0}
    for path, text in leaves:
        name = "manaka " + " ".join(path)
        opts = options(text)
        for spelling, rest in opts.items():
            names = spelling.split(",")
            # The main output is -o/--output, both spellings, never another.
            assert not ({"-o", "--output", "--out"} & set(names)) or spelling == "-o,--output", (name, spelling)
            if "--json" in names or "--overwrite" in names or "--strict" in names:
                assert spelling in ("--json", "--overwrite", "--strict"), (name, spelling)
                # A flag: no value type follows it.
                assert not re.match(r"(TEXT|INT|UINT|FLOAT|\w+:)", rest), (name, spelling, rest)
            if "--quiet" in names or "-q" in names:
                assert spelling == "-q,--quiet", (name, spelling)
            if spelling == "--workers":
                assert re.search(r"=0\b", rest) and "one per core" in rest, (name, rest)
            if spelling == "--threads" and name != "manaka shogi selfplay":  # search threads: 1, the table says
                assert re.search(r"in 0\.\.\d+=0\b", rest) and "0: one per hardware thread" in rest, (name, rest)
            if spelling == "--seed" and name != "manaka vpd sample":  # a sample draws a random seed unasked
                assert re.search(r"=0\b", rest), (name, rest)
            if "--valid" in names:
                assert spelling == "--validation,--valid", (name, spelling)
            seen[spelling] = seen.get(spelling, 0) + 1
    assert seen["--json"] >= 10 and seen["-o,--output"] >= 10 and seen["--workers"] == 3


def test_native_exit_status_is_two_for_a_bad_command_line(tmp_path):
    for args in (["stream", "dump"], ["pack", "--no-such-option"], ["stream", "split", "a", "--train", "t",
                                                                     "--validation", "v", "--share", "2"], []):
        r = subprocess.run([MANAKA, *args], capture_output=True, text=True)
        assert r.returncode == 2, (args, r.returncode, r.stderr)
    r = subprocess.run([MANAKA, "stream", "dump", str(tmp_path / "missing.mpk")], capture_output=True, text=True)
    assert r.returncode == 1 and "missing.mpk" in r.stderr
    assert subprocess.run([MANAKA, "stream", "--help"], capture_output=True).returncode == 0


def test_python_commands_accept_the_table_and_the_old_spellings():
    p = manaka_eval._parser()
    a = p.parse_args(["--checkpoint", "c.pt", "--games", "6"])
    b = p.parse_args(["--checkpoint", "c.pt", "--num-games", "6"])
    assert a.num_games == b.num_games == 6 and a.game is None
    assert p.parse_args(["--checkpoint", "c.pt", "--json"]).json == "-"
    assert p.parse_args(["--checkpoint", "c.pt", "--json", "m.json"]).json == "m.json"
    from manaka.train.__main__ import _parser as train_parser

    t = train_parser()
    for spelling in ("-o", "--output", "--out"):
        assert t.parse_args(["pretrain", "--config", "x.toml", spelling, "n.pt"]).out == "n.pt"
    assert t.parse_args(["train", "--config", "x.toml"]).game == "chess"


def test_eval_takes_the_game_from_the_checkpoint_and_prints_json_on_stdout(tmp_path):
    init = tmp_path / "init.pt"
    subprocess.run([sys.executable, "-m", "manaka.selfplay", "init", "--game", "shogi", "-o", str(init),
                    "--blocks", "1", "--channels", "8"], check=True, capture_output=True)
    r = subprocess.run([sys.executable, "-m", "manaka.eval", "--checkpoint", str(init), "--games", "2",
                        "--movetime", "0.01", "--simulations", "0", "--max-plies", "30", "--json"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["num_games"] == 2 and summary["checkpoint"] == str(init)
    assert "fairy" in summary["engine"].lower() and "score:" in r.stderr
