#!/usr/bin/env bash
# Set up with the test extras (pytest, pytest-xdist, hypothesis, dask, duckdb, pyarrow) and run the test
# suite, in parallel on every core (pytest-xdist; BENCHCLAIMS_TEST_JOBS=1 runs it in one process).
# Extra arguments go to pytest, e.g. scripts/test.sh tests/corpus/test_query_filters.py -x
# The exit code is pytest's (0 all passed, 1 failures, 5 no test collected...); its closing summary line
# ("N passed in S s") is the last line printed.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
jobs="${BENCHCLAIMS_TEST_JOBS:-auto}"
parallel=()
if [ "$jobs" != 1 ] && .venv/bin/python -c 'import xdist' 2>/dev/null; then
    # --dist loadfile: a file's tests share its module fixtures (a corpus built once) on one worker
    parallel=(-n "$jobs" --dist loadfile)
fi
exec .venv/bin/python -m pytest -q "${parallel[@]}" "$@"
