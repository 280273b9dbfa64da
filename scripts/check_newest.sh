#!/usr/bin/env bash
# Run the test suite on the newest versions of every dependency pyproject.toml allows (not the tested ones of
# constraints.txt), in a venv of its own (.venv-newest), so a new release that breaks benchclaims is found
# before a fresh machine finds it. Arguments go to pytest (default: the whole suite, quietly).
#   scripts/check_newest.sh                      # the suite on the newest versions
#   scripts/check_newest.sh --write              # ... and, when green, record them in constraints.txt
#   scripts/check_newest.sh tests/cli/test_cli_*.py  # part of it
set -euo pipefail
cd "$(dirname "$0")/.."
write=0
if [ "${1:-}" = "--write" ]; then write=1; shift; fi
rm -f .venv-newest/.benchclaims-setup
BENCHCLAIMS_VENV=.venv-newest BENCHCLAIMS_NEWEST=1 scripts/setup.sh test
echo "check_newest: versions that differ from constraints.txt:" >&2
.venv-newest/bin/python -m pip freeze --exclude-editable | grep -v '^benchclaims' | sort -f \
    | diff <(grep -v '^#' constraints.txt) - | grep '^[<>]' >&2 || echo "  (none)" >&2
.venv-newest/bin/python -m pytest -q -p no:cacheprovider "${@:-tests}"
if [ "$write" = 1 ]; then
    { grep '^#' constraints.txt; .venv-newest/bin/python -m pip freeze --exclude-editable | grep -v '^benchclaims' | sort -f; } \
        > constraints.txt.new && mv constraints.txt.new constraints.txt
    echo "check_newest: constraints.txt now holds the versions just tested" >&2
fi
