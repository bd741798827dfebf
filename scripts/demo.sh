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
  python scripts/random_selfplay.py "$OUT/selfplay.mpk" 200 1
step "Validate every record of it" manaka stream validate "$OUT/selfplay.mpk"
step "What is in it" manaka stream inspect "$OUT/selfplay.mpk"
step "The first record as JSON" bash -c "manaka stream dump '$OUT/selfplay.mpk' --limit 1 | cut -c1-400"
