#!/bin/bash
# The main job on data the project makes itself. Run through `make demo`,
# which builds first and puts the venv's `manaka` on the PATH.
set -euo pipefail
OUT=${OUT:-out/demo}
mkdir -p "$OUT"
step() { printf '\n== %s\n$ %s\n' "$1" "${*:2}"; "${@:2}"; }

step "Legal move generation: perft from the initial position (30, 900, 25470, 719731, 19861490)" \
  manaka shogi perft startpos 5
step "A position packed into the 96 bytes an MPK1 record stores" \
  manaka shogi pack "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
packed=$(manaka shogi pack "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2")
step "... and unpacked again" manaka shogi unpack "$packed"

step "Self-play: random legal games written as an MPK1 stream (value_z per side to move)" \
  python scripts/random_selfplay.py "$OUT/selfplay.mpk" 200 1 --overwrite
step "Validate every record of it" manaka stream validate "$OUT/selfplay.mpk"
step "What is in it" manaka stream inspect "$OUT/selfplay.mpk"
step "The first record as JSON" bash -c "manaka stream dump '$OUT/selfplay.mpk' --limit 1 | cut -c1-400"

# ---- Self-play through the C++ search with a network (docs/search.md) ----
step "An untrained shogi network (2 residual blocks of 16 channels)" \
  python -m manaka.selfplay init --game shogi -o "$OUT/shogi-init.pt" --blocks 2 --channels 16 --overwrite
step "Self-play through the search with it: 4 games at once, 16 simulations a move, 4 leaves a round each (network calls of up to 16); MPK1 and SAZ2" \
  manaka shogi selfplay --checkpoint "$OUT/shogi-init.pt" -o "$OUT/search-selfplay" --games 4 --simulations 16 \
  --threads 4 --batch-size 4 --max-plies 80 --saz --overwrite
step "Both files pass validation" bash -c \
  "manaka stream validate '$OUT/search-selfplay/selfplay.mpk' && manaka saz validate '$OUT/search-selfplay/selfplay.saz'"

# ---- Teacher data: engine games -> corpus -> MPK1 -> shards (docs/teacher.md) ----
TEACHER="$OUT/teacher"
ENGINE=${ENGINE:-/usr/games/fairy-stockfish}
rm -rf "$TEACHER"  # this demo's own files from an earlier run
mkdir -p "$TEACHER"
step "Teacher corpus: $ENGINE plays 8 games (MultiPV 5, depth 2, 2 workers); one row per searched position" \
  manaka teacher generate --engine "$ENGINE" --games 8 --multipv 5 --depth 2 --workers 2 --seed 1 \
  --opening-plies 4 -o "$TEACHER/corpus.parquet"
step "Its first two rows (sfen, side, ply, root cp, candidates and their cp, the move played, result)" \
  python -c "import pyarrow.parquet as pq, sys; [print(r) for r in pq.read_table(sys.argv[1]).slice(0, 2).to_pylist()]" \
  "$TEACHER/corpus.parquet"
step "Convert it to MPK1 (policy_source 1): value_z to the side to move, value_q = tanh(cp / 1200), mates at |cp| >= 31680" \
  manaka teacher convert "$TEACHER/corpus.parquet" -o "$TEACHER/teacher.mpk" --eval-coef 600 --mate-scale 32000
step "What is in the stream" manaka stream inspect "$TEACHER/teacher.mpk"
if manaka pack --help >/dev/null 2>&1; then
  step "Pack it: folded, shuffled parquet shards (softmax over cp at 100 cp)" \
    manaka pack "$TEACHER/teacher.mpk" -o "$TEACHER/shards/teacher"
  step "Inspect the shards" bash -c "manaka shards inspect '$TEACHER'/shards/teacher-*.parquet"
fi
printf '\nTeacher files are in %s: corpus.parquet, teacher.mpk, shards/\n' "$TEACHER"

# ---- See the data (docs/report.md) ----
report_inputs=("$OUT/selfplay.mpk" "$OUT/search-selfplay/selfplay.mpk" "$OUT/search-selfplay/selfplay.saz"
  "$TEACHER/corpus.parquet" "$TEACHER/teacher.mpk")
[ -d "$TEACHER/shards" ] && report_inputs+=("$TEACHER/shards")
step "How well the teacher's cp predicts its own results: eval_coef fitted by maximum likelihood" \
  manaka teacher fit-coef "$TEACHER/corpus.parquet"
step "A report of this demo's own output: distributions, boards with their policy targets, shuffle, calibration" \
  manaka report "${report_inputs[@]}" -o "$OUT/report.html" --eval-coef 600
printf '\nThe report is %s: open it in a browser (one self-contained HTML file)\n' "$OUT/report.html"

# ---- The shipped chess network against Stockfish (models/README.md) ----
step "One short game of models/chess-6x64-cpu.pt (800 simulations a move, its own settings) against Stockfish at UCI_Elo 1500, 0.05 s a move; the PGN" \
  bash -c "python -m manaka.eval --game chess --checkpoint models/chess-6x64-cpu.pt --num-games 1 --elo 1500 \
    --movetime 0.05 --torch-threads 1 --pgn '$OUT/chess-game.pgn' --overwrite && cat '$OUT/chess-game.pgn'"
