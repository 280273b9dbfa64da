#!/usr/bin/env bash
# Create ./.venv (Python >= 3.11) and install benchclaims into it, editable, with the given extras.
#   scripts/setup.sh            # the tool only
#   scripts/setup.sh test       # + pytest, hypothesis, dask, duckdb, pyarrow
# Idempotent and quiet: pip runs only when pyproject.toml or constraints.txt changed or an extra is not
# installed yet; its log is shown only when it fails. Override the interpreter with PYTHON=/path/to/python3.
# Versions come from constraints.txt (the tested ones); BENCHCLAIMS_NEWEST=1 installs the newest versions
# pyproject.toml allows instead (scripts/check_newest.sh uses it; see docs/dependencies.md).
set -euo pipefail
cd "$(dirname "$0")/.."

extras="${1:-}"
venv="${BENCHCLAIMS_VENV:-.venv}"
stamp="$venv/.benchclaims-setup"

pick_python() {
    local c
    for c in "${PYTHON:-}" python3 python3.13 python3.12 python3.11; do
        [ -n "$c" ] && command -v "$c" >/dev/null 2>&1 || continue
        if "$c" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$c"; return 0
        fi
    done
    echo "setup: need Python >= 3.11 (set PYTHON=/path/to/python3.11)" >&2
    return 1
}

if [ ! -x "$venv/bin/python" ]; then
    py="$(pick_python)"
    if ! "$py" -m venv "$venv" 2>/tmp/benchclaims-venv.$$; then
        cat /tmp/benchclaims-venv.$$ >&2; rm -f /tmp/benchclaims-venv.$$
        echo "setup: '$py -m venv' failed; on Debian: apt-get install python3-venv" >&2
        exit 1
    fi
    rm -f /tmp/benchclaims-venv.$$ "$stamp"
fi

# The stamp holds the pyproject hash and the extras installed against it.
pins=(-c constraints.txt)
[ "${BENCHCLAIMS_NEWEST:-}" = 1 ] && pins=(--upgrade --upgrade-strategy eager)
hash="$(cat pyproject.toml constraints.txt <(echo "${BENCHCLAIMS_NEWEST:-}") | sha256sum | cut -c1-16)"
have=""
if [ -f "$stamp" ] && [ "$(head -n1 "$stamp")" = "$hash" ]; then
    have="$(sed -n 2p "$stamp")"
fi
need=0
[ -n "$have" ] || need=1
IFS=',' read -r -a wanted <<< "$extras"
for e in "${wanted[@]}"; do
    [ -z "$e" ] && continue
    case ",$have," in *",$e,"*) ;; *) need=1 ;; esac
done
[ "$need" = 1 ] || exit 0

all="$(printf '%s\n' ${have//,/ } "${wanted[@]}" | sed '/^$/d; /^-$/d' | sort -u | paste -sd, -)"
spec="."
[ -n "$all" ] && spec=".[$all]"
log="$venv/pip.log"
echo "setup: installing benchclaims ($spec) into $venv ..." >&2
if ! "$venv/bin/python" -m pip install -q "${pins[@]}" -e "$spec" >"$log" 2>&1; then
    cat "$log" >&2
    echo "setup: pip install -e '$spec' failed (log: $log)" >&2
    exit 1
fi
printf '%s\n%s\n' "$hash" "${all:--}" > "$stamp"
