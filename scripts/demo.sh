#!/usr/bin/env bash
# Set up (see scripts/setup.sh) and run the main job on the bundled sample posts:
# `benchclaims batch corpus/` into ./claims.db, a query over it, the audit of one post (text and
# ./audit.html), the corpus report (./report.html, linking every post's page in ./audit/) and the eval on
# the bundled gold.
# Rerunning is cheap: setup is skipped and unchanged posts are skipped by the batch.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PWD/.venv/bin:$PATH"

run() { printf '\n$ %s\n' "$*"; "$@"; }
run benchclaims batch corpus/
run benchclaims query --metric throughput --format text
run benchclaims audit corpus/version-compare-docker.md
run benchclaims audit corpus/version-compare-docker.md --format html -o audit.html
run benchclaims report --db claims.db -o report.html --audit-pages --audit-dir audit
run benchclaims eval --gold corpus/gold --docs corpus
