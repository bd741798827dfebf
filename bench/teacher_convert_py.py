"""A plain Python teacher converter: the peer of `manaka teacher convert` in
bench/teacher_bench.py, and a second, independent reading of the spec.

pyarrow reads the corpus a batch at a time, cshogi holds the position and
judges legality, and the record is packed with struct. The derivations are the
spec's (mpk1-training-data-formats, "Teacher generation"):

  value_z  result (Black's view) * (1 if side == 0 else -1)
  value_q  sign(cp) when |cp| >= mate_scale - (mate_slack or 320),
           else tanh(cp / (2 * eval_coef)) with eval_coef as its f32
  packed   the 96-byte position; mv the move16 of each USI candidate; visits 0;
           cp carried unshifted; ply as is

Rows are refused for the same reasons in the same order as the C++ converter
(cshogi accepts some malformed SFENs the C++ side refuses; the benchmark's
corpus has none). For a corpus of valid rows the output is byte-identical.

    python bench/teacher_convert_py.py corpus.parquet out.mpk 600 32000
"""

from __future__ import annotations

import math
import struct
import sys

import cshogi
import pyarrow.parquet as pq

FIELDS = ["sfen", "ply", "side", "cp", "cand_moves", "cand_cp", "move", "result"]
HAND_LETTERS = "PLNSGBR"
# cshogi piece codes (1..14, +16 for White) -> the spec's kinds K R B G S N L P +R +B +S +N +L +P.
CSHOGI_TO_KIND = {1: 7, 2: 6, 3: 5, 4: 4, 5: 2, 6: 1, 7: 3, 8: 0, 9: 13, 10: 12, 11: 11, 12: 10, 13: 9, 14: 8}
# cshogi square (file - 1) * 9 + rank - 1  ->  the spec's (9 - file) * 9 + rank - 1
SQUARE_FROM_CSHOGI = [(8 - csq // 9) * 9 + csq % 9 for csq in range(81)]
BYTE_OF_PIECE = {p: (1 if p >= 16 else 0) << 4 | CSHOGI_TO_KIND[p & 15] for p in list(range(1, 15)) + list(range(17, 31))}
RECORD_HEAD = struct.Struct("<HffH")
CANDIDATE = struct.Struct("<HIh")


def square(s: str) -> int:
    return (9 - (ord(s[0]) - 48)) * 9 + (ord(s[1]) - 97)


def move16(usi: str) -> int:
    """The move16 of a USI move, or -1 when it is not one."""
    n = len(usi)
    if n < 4 or n > 5:
        return -1
    if usi[1] == "*":
        hk = HAND_LETTERS.find(usi[0])
        if n != 4 or hk < 0 or not ("1" <= usi[2] <= "9" and "a" <= usi[3] <= "i"):
            return -1
        return (81 + hk) << 7 | square(usi[2:4])
    if not ("1" <= usi[0] <= "9" and "a" <= usi[1] <= "i" and "1" <= usi[2] <= "9" and "a" <= usi[3] <= "i"):
        return -1
    if n == 5 and usi[4] != "+":
        return -1
    frm, to = square(usi[0:2]), square(usi[2:4])
    if frm == to:
        return -1
    return to | frm << 7 | (1 << 14 if n == 5 else 0)


def packed_position(board: cshogi.Board) -> bytes:
    out = bytearray(b"\xff" * 81)
    for csq, piece in enumerate(board.pieces):
        if piece:
            out[SQUARE_FROM_CSHOGI[csq]] = BYTE_OF_PIECE[piece]
    black, white = board.pieces_in_hand  # P L N S G B R, as the spec's hands
    out += bytes(black) + bytes(white) + bytes([board.turn])
    return bytes(out)


def convert(paths, output, eval_coef, mate_scale, mate_slack=0, fv_scale=0):
    """Returns (rows read, records written, refusals by reason)."""
    coef = struct.unpack("<f", struct.pack("<f", eval_coef))[0]
    threshold = mate_scale - (mate_slack or 320)
    refused: dict[str, int] = {}
    rows = written = 0
    board = cshogi.Board()
    with open(output, "wb") as f:
        f.write(struct.pack("<4sHHBBHHHfI", b"MPK1", 1, 96, 0, 1, mate_scale, fv_scale, mate_slack,
                            eval_coef, 0))
        for path in paths:
            for batch in pq.ParquetFile(path).iter_batches(batch_size=32768, columns=FIELDS):
                cols = batch.to_pydict()
                out = bytearray()
                for sfen, ply, side, cp, moves, cps, move, result in zip(*(cols[k] for k in FIELDS)):
                    rows += 1
                    why = None
                    if None in (sfen, ply, side, cp, moves, cps, move, result) or None in moves or None in cps:
                        why = "missing_value"
                    elif side not in (0, 1) or result not in (-1, 0, 1) or not 0 <= ply <= 65535 or any(
                            c <= -32768 or c > 32767 for c in cps):
                        why = "out_of_range"
                    else:
                        board.set_sfen(sfen)
                        if board.turn != side:
                            why = "side_mismatch"
                        elif len(moves) != len(cps):
                            why = "length_mismatch"
                        elif not moves:
                            why = "no_candidates"
                        else:
                            mvs = [move16(m) for m in moves]
                            played = move16(move)
                            if -1 in mvs or played < 0:
                                why = "unparsable_move"
                            elif len(set(mvs)) != len(mvs):
                                why = "repeated_move"
                            elif not all(board.is_legal(board.move_from_usi(m)) for m in moves):
                                why = "illegal_move"
                            elif played not in mvs:
                                why = "played_not_candidate"
                    if why:
                        refused[why] = refused.get(why, 0) + 1
                        continue
                    z = result if side == 0 else -result
                    if cp >= threshold or cp <= -threshold:
                        q = 1.0 if cp > 0 else -1.0
                    else:
                        q = math.tanh(cp / (2.0 * coef))
                    out += RECORD_HEAD.pack(ply, z, q, len(moves))
                    out += packed_position(board)
                    for m, c in zip(mvs, cps):
                        out += CANDIDATE.pack(m, 0, c)
                    written += 1
                f.write(out)
    return rows, written, refused


if __name__ == "__main__":
    src, dst, coef, scale = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
    print(convert([src], dst, coef, scale))
