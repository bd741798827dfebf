"""What fairy-stockfish's shogi levels mean on this machine: its UCI_Elo N at 0.05 s a move (the
evaluation's opponent) against a fixed reference, fairy-stockfish at full strength limited to a node
count a move, in manaka's shogi match (pairs from random openings, colours swapped, manaka's rules).

    python scripts/fairy_levels.py [--elos 1350 1500 1700] [--games 20] [--nodes 1000] [--json out.json]

The score printed is the reference's; a level's strength relative to the reference is its complement.
A node limit does not depend on the machine's speed, so the reference is the same everywhere, while
UCI_Elo at a movetime is what the evaluation plays against.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from typing import List, Optional

from manaka._atomic import write_json_atomically
from manaka._core import match
from manaka.eval import elo_text

FAIRY = "/usr/games/fairy-stockfish"


class NodeLimitedFairy:
    """A player for play_shogi_match: fairy-stockfish over USI, ``go nodes N`` for each move."""

    def __init__(self, engine: str, nodes: int) -> None:
        self.nodes = nodes
        self.proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._send("usi")
        self._wait("usiok")
        self._send("isready")
        self._wait("readyok")
        self.last: List[str] = []

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")

    def _wait(self, word: str) -> str:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.split()[:1] == [word]:
                return line
        raise RuntimeError(f"fairy-stockfish ended before '{word}'")

    def __call__(self, moves: list) -> str:
        if len(moves) < len(self.last) or moves[:len(self.last)] != self.last:
            self._send("usinewgame")  # a shorter game so far: the next game began
        self.last = list(moves)
        self._send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self._send(f"go nodes {self.nodes}")
        return self._wait("bestmove").split()[1]

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(10)


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine", default=FAIRY)
    p.add_argument("--elos", type=int, nargs="+", default=[1350, 1500, 1700])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--nodes", type=int, default=1000, help="the reference's nodes a move")
    p.add_argument("--movetime", type=float, default=0.05, help="the level's seconds a move")
    p.add_argument("--json", help="write the results here")
    args = p.parse_args(argv)
    reference = NodeLimitedFairy(args.engine, args.nodes)
    results = []
    try:
        for elo in args.elos:
            s = match.play_shogi_match(reference, args.engine, args.games, elo=elo, movetime=args.movetime, seed=0,
                                       player_name=f"fairy-stockfish nodes {args.nodes}")
            plies = sum(g["plies"] for g in s["games"]) / len(s["games"])
            print(f"UCI_Elo {elo} at {args.movetime:g} s a move against {args.nodes} nodes a move: reference "
                  f"+{s['wins']} ={s['draws']} -{s['losses']}, score {s['score']:.3f} (95%: {s['score_low']:.3f} .. "
                  f"{s['score_high']:.3f}), Elo difference {elo_text(s)}, {plies:.0f} plies a game", flush=True)
            results.append({"elo": elo, "movetime": args.movetime, "reference_nodes": args.nodes,
                            **{k: s[k] for k in ("wins", "draws", "losses", "score", "score_low", "score_high",
                                                 "elo_diff", "elo_diff_low", "elo_diff_high")},
                            "mean_plies": plies})
    finally:
        reference.close()
    if args.json:
        write_json_atomically(args.json, {"levels": results})  # strict JSON: null where not finite
    return 0


if __name__ == "__main__":
    sys.exit(main())
