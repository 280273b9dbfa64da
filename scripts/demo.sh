#!/usr/bin/env bash
# Set up (see scripts/setup.sh) and run the main job on the bundled sample posts:
# `benchclaims batch corpus/` into ./claims.db, a query over it, and the audit of one post.
# Rerunning is cheap: setup is skipped and unchanged posts are skipped by the batch.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"

run() { printf '\n$ %s\n' "$*"; "$@"; }
run benchclaims batch corpus/
run benchclaims query --metric throughput --format table
run benchclaims audit corpus/version-compare-docker.md
