#!/usr/bin/env bash
# Set up with the test extras (pytest, hypothesis, dask, duckdb, pyarrow) and run the test suite.
# Extra arguments go to pytest, e.g. scripts/test.sh tests/test_query_filters.py -x
# The exit code is pytest's (0 all passed, 1 failures, 5 no test collected...).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
exec .venv/bin/python -m pytest "$@"
