"""No quiet success and no silent failure on the command line: invalid rules fail `rerun` even with nothing to
re-extract, `--min nan` is refused, every command without its required arguments prints its usage, and a file
name that is not valid UTF-8 is shown (its bytes escaped), never a codec error."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from extractor.rules_io import default_rules_dir

from cli_runner import in_process


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return in_process(*args, cwd=cwd, env={"NO_COLOR": "1", "COLUMNS": "100"})


def test_rerun_with_invalid_rules_fails_even_against_an_empty_run(tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules)
    with open(rules / "numbers.yaml", "a", encoding="utf-8") as fh:
        fh.write("multipliers: [1, 2\n")
    empty = tmp_path / "before.jsonl"
    empty.write_text("", encoding="utf-8")
    r = cli("rerun", "--against", str(empty), "--rules", str(rules))
    assert r.returncode == 2 and "invalid rules" in r.stderr and "numbers.yaml" in r.stderr


@pytest.mark.parametrize("option", ["--min", "--max"])
def test_nan_bounds_are_refused(tmp_path, option):
    r = cli("query", "--db", str(tmp_path / "none.db"), option, "nan", "--count")
    assert r.returncode == 2 and "NaN" in r.stderr


@pytest.mark.parametrize("command", [[], ["rules"], ["extract"], ["batch"], ["audit"], ["quantities"], ["diff"],
                                     ["rerun"], ["eval"]])   # export needs none: --format defaults to csv
def test_a_command_without_its_required_arguments_prints_its_usage(command):
    r = cli(*command)
    assert r.returncode == 2
    assert "Usage: " in r.stdout + r.stderr


def test_a_file_name_not_valid_utf8_is_shown_escaped(tmp_path):
    if sys.platform == "darwin":
        pytest.skip("the file system refuses such names")
    name = os.fsdecode(b"bench-\xff.md")
    (tmp_path / name).write_text("We served 100 tok/s on one GPU.\n", encoding="utf-8")
    r = cli("extract", name, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert '"doc": "bench-\\\\xff.md"' in r.stdout and "codec" not in r.stderr
    r = cli("audit", name, cwd=tmp_path)
    assert r.returncode == 0 and "codec" not in r.stderr
