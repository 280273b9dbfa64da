"""One error style off a terminal (`benchclaims: ...`, never boxed or wrapped), every written file named,
and `-o` into a missing folder refused before any work."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cli_runner import in_process

POST = "Our server reached 2,400 tokens/s on two A100 GPUs at batch size 32.\n"


def cli(*args: str, cwd: Path | None = None, columns: str = "40") -> subprocess.CompletedProcess:
    r = in_process(*args, env={"COLUMNS": columns, "TERMINAL_WIDTH": columns}, cwd=cwd)
    assert "Traceback" not in r.stderr, r.stderr
    return r


@pytest.fixture
def post(tmp_path) -> Path:
    deep = tmp_path / ("a-rather-long-folder-name-" * 4) / "posts"
    deep.mkdir(parents=True)
    f = deep / "post.md"
    f.write_text(POST, encoding="utf-8")
    return f


@pytest.mark.parametrize("args", [("--rules", "{post}"), ("--format", "yaml"), ("--bogus",)])
def test_usage_errors_are_plain_lines_on_a_narrow_terminal(post, args):
    r = cli("extract", str(post), *(a.format(post=post) for a in args))
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert all(line.startswith("benchclaims: ") for line in lines), r.stderr
    assert not any(c in r.stderr for c in "╭│╰─"), r.stderr          # no box
    if "--rules" in args:
        assert f"{post}: is not a folder" in lines[0]                  # the path in one piece, copyable
    assert lines[-1] == "benchclaims: see 'benchclaims extract --help'"


def test_missing_argument_and_unknown_command(tmp_path):
    r = cli("audit")
    assert r.returncode == 2 and r.stderr.startswith("benchclaims: Missing argument")
    r = cli("frobnicate")
    assert r.returncode == 2 and r.stderr.startswith("benchclaims: No such command")


@pytest.mark.parametrize("command", [("extract", "{post}"), ("audit", "{post}", "-f", "html"),
                                     ("export", "--format", "csv", "--db", "{db}"),
                                     ("report", "--db", "{db}"), ("rerun", "--against", "{jsonl}")])
def test_output_into_a_missing_folder_is_refused(tmp_path, post, command):
    db, jsonl = tmp_path / "c.db", tmp_path / "c.jsonl"
    assert cli("batch", str(post), "--db", str(db), "--jsonl", str(jsonl)).returncode == 0
    target = tmp_path / "no-such-folder" / "out.txt"
    args = [a.format(post=post, db=db, jsonl=jsonl) for a in command]
    r = cli(*args, "-o", str(target))
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith(f"benchclaims: -o {target}: {target.parent}: no such folder"), r.stderr
    assert not target.parent.exists()


def test_every_written_file_is_named(tmp_path, post):
    db, jsonl = tmp_path / "c.db", tmp_path / "c.jsonl"
    r = cli("batch", str(post), "--db", str(db), "--jsonl", str(jsonl))
    assert f"wrote {db} and {jsonl}" in r.stdout
    for args, out in ((("audit", str(post), "-f", "html"), "a.html"), (("extract", str(post)), "r.json"),
                      (("report", "--db", str(db)), "report.html"),
                      (("export", "--format", "csv", "--db", str(db)), "c.csv"),
                      (("rerun", "--against", str(jsonl), "-f", "json"), "diff.json")):
        target = tmp_path / out
        r = cli(*args, "-o", str(target))
        assert r.returncode == 0 and target.is_file(), (args, r.stderr)
        assert f"wrote {target}" in r.stdout + r.stderr, (args, r.stdout, r.stderr)
