#!/usr/bin/env bash
# Here, before a device run: what pretrain_spec.sh needs on a lent GPU machine that
# cannot fetch anything (its image has python3 3.12 with torch, pyarrow, nanobind,
# scikit-build-core, cmake and ninja, and none of the Debian packages; manaka needs no
# other Python package at run time). Writes .device/ (ignored); the run carries it:
# carry [".device"].
#   bash scripts/device/prepare.sh            # about 25 MB
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .device/deb
# The system libraries the build links and the engine the corpus and the match run.
(cd .device/deb && apt-get download -q stockfish libzstd-dev libzstd1 libsqlite3-dev libsqlite3-0 \
  zlib1g-dev libcli11-dev nlohmann-json3-dev 2>&1 | grep -v "^W: Download is performed unsandboxed" || true)
du -sh .device
