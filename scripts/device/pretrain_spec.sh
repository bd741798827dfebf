#!/usr/bin/env bash
# The spec's pre-training at its size (configs/chess-pretrain.toml, 15.4 M parameters) on a
# lent GPU machine (1 H200, 16 cores; 10 minutes a command, 15 in all): every phase is
# bounded so the whole fits in two commands, and a phase cut short leaves what it finished.
#
#   here:   bash scripts/device/prepare.sh                         # .device/: debs, once
#   there:  PHASES="env build corpus bench" bash scripts/device/pretrain_spec.sh   # ~7 min
#           PHASES="env train eval" bash scripts/device/pretrain_spec.sh           # ~7 min, warm
#   (device run: carry [".device"]; results under $OUT when it is set, else $RUN)
#
# Phases:
#   env     the carried debs unpacked under /tmp/sys (nothing installed in /), PATH and libs
#   build   the module and the command into /tmp/site with the image's python3 and pyarrow
#   corpus  Stockfish at --nodes NODES on every core, cut at CORPUS_SECONDS (whole shards stay;
#           the same command continues it)
#   bench   bench/train_loader_bench.py on the corpus: samples/s fed by iter_batches against
#           random tensors already on the GPU (the aim: >= 0.95)
#   train   one epoch of the spec's config over the corpus, cut at TRAIN_SECONDS
#   eval    EVAL_GAMES games against Stockfish at UCI_Elo 1500, 0.05 s a move, through the search
#
# On this 2-core CPU the same phases run with tiny bounds (a test of the script, not a result):
#   PY=.venv/bin/python PHASES="corpus bench train eval" DEVICE=cpu GAMES=8 SHARD_SIZE=300 BENCH_STEPS=3 \
#     CONFIG=configs/chess-pretrain-small.toml EVAL_GAMES=2 SIMULATIONS=8 bash scripts/device/pretrain_spec.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

PHASES=${PHASES:-env build corpus bench train eval}
PY=${PY:-python3}
RUN=${RUN:-out/device}
CONFIG=${CONFIG:-configs/chess-pretrain.toml}
DEVICE=${DEVICE:-cuda}
WORKERS=${WORKERS:-$(nproc)}
GAMES=${GAMES:-10000}           # ~1.25 M positions; 16 workers at 1,000 nodes make ~90 games/s
NODES=${NODES:-1000}
SHARD_SIZE=${SHARD_SIZE:-10000}  # positions a shard (the spec's)
CORPUS_SECONDS=${CORPUS_SECONDS:-150}
BUILD_SECONDS=${BUILD_SECONDS:-300}
BENCH_STEPS=${BENCH_STEPS:-200}
TRAIN_SECONDS=${TRAIN_SECONDS:-330}
EVAL_GAMES=${EVAL_GAMES:-20}
EVAL_SECONDS=${EVAL_SECONDS:-150}
SIMULATIONS=${SIMULATIONS:-400}
ENGINE=${ENGINE:-/usr/games/stockfish}
RESULTS=${OUT:-$RUN}
mkdir -p "$RUN" "$RESULTS"

say() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }
# A bounded phase: its own exit status, 124 when cut at its bound (said, not fatal).
bounded() {
  local seconds=$1; shift
  local rc=0
  timeout --signal=INT --kill-after=20 "$seconds" "$@" || rc=$?
  [ "$rc" -eq 124 ] && echo "(cut at ${seconds} s; what it finished stays)"
  return $(( rc == 124 ? 0 : rc ))
}

use_env() {  # what `env` set up, for every phase after it in this or a later command
  if [ -d /tmp/sys/usr ]; then
    export PATH="/tmp/sys/usr/games:/tmp/sys/usr/bin:$PATH"
    export LD_LIBRARY_PATH="/tmp/sys/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    ENGINE=/tmp/sys/usr/games/stockfish
  fi
  if [ -d /tmp/site/manaka ]; then
    export PYTHONPATH="/tmp/site${PYTHONPATH:+:$PYTHONPATH}"
    export PATH="/tmp/site/bin:$PATH"
  fi
}

for phase in $PHASES; do
  use_env
  case $phase in
  env)
    say "env: the carried debs under /tmp/sys"
    mkdir -p /tmp/sys
    for f in .device/deb/*.deb; do dpkg -x "$f" /tmp/sys; done
    use_env
    "$ENGINE" <<<"quit" | head -1
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader || true
    "$PY" -c 'import torch, pyarrow; print("torch", torch.__version__, "cuda", torch.cuda.is_available(), "pyarrow", pyarrow.__version__)'
    ;;
  build)
    say "build: the module and the command into /tmp/site"
    # The image's pyarrow, whichever version, is what the module links (no pip resolution: --no-deps).
    bounded "$BUILD_SECONDS" "$PY" -m pip install -q --no-build-isolation --no-deps --no-index --target /tmp/site \
      -C build-dir=build/device -C build.tool-args=-j"$(nproc)" \
      -C cmake.define.CMAKE_PREFIX_PATH=/tmp/sys/usr -C cmake.define.MANAKA_BUILD_TESTS=OFF .
    use_env
    manaka --help | head -1
    ;;
  corpus)
    say "corpus: $GAMES games at $NODES nodes on $WORKERS workers, at most $CORPUS_SECONDS s"
    bounded "$CORPUS_SECONDS" manaka chess corpus -o "$RUN/corpus" --games "$GAMES" --workers "$WORKERS" \
      --nodes "$NODES" --shard-size "$SHARD_SIZE" --seed 1 --scores --engine "$ENGINE"
    manaka chess shards inspect "$RUN/corpus" | tee "$RESULTS/corpus.txt"
    ;;
  bench)
    say "bench: training samples/s, iter_batches against random tensors on $DEVICE"
    PYTHONUNBUFFERED=1 "$PY" bench/train_loader_bench.py --config "$CONFIG" --device "$DEVICE" \
      --corpus "$RUN/corpus" --steps "$BENCH_STEPS" | tee "$RESULTS/train_loader_bench.txt"
    ;;
  train)
    say "train: one epoch of $CONFIG on $DEVICE, at most $TRAIN_SECONDS s"
    bounded "$TRAIN_SECONDS" "$PY" -m manaka.train pretrain --config "$CONFIG" --corpus "$RUN/corpus" \
      --out "$RUN/pretrained.pt" --metrics "$RESULTS/pretrain-metrics.jsonl" --epochs 1 --device "$DEVICE" --overwrite
    ;;
  eval)
    if [ ! -f "$RUN/pretrained.pt" ]; then
      echo "eval: no $RUN/pretrained.pt (training did not finish an epoch); nothing to play"; continue
    fi
    say "eval: $EVAL_GAMES games against Stockfish at UCI_Elo 1500, $SIMULATIONS simulations a move"
    bounded "$EVAL_SECONDS" "$PY" -m manaka.eval --game chess --checkpoint "$RUN/pretrained.pt" \
      --num-games "$EVAL_GAMES" --elo 1500 --movetime 0.05 --simulations "$SIMULATIONS" --device "$DEVICE" \
      --engine "$ENGINE" --pgn "$RESULTS/eval.pgn" --overwrite | tee "$RESULTS/eval.txt"
    ;;
  *) echo "pretrain_spec.sh: unknown phase '$phase' (env build corpus bench train eval)" >&2; exit 2 ;;
  esac
done
say "done: results in $RESULTS"
