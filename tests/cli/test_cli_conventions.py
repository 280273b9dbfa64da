"""Conventions of every sub-command: --help ends with an example, --format names mean the same
everywhere, `-o -` writes to standard output."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from extractor.cli import app
from extractor.cli.conventions import FORMATS
from extractor.corpus.batch import run_batch

CORPUS = Path(__file__).resolve().parents[2] / "corpus"


def commands() -> list[tuple[str, ...]]:
    """Every command path: ('extract',), ('rules', 'check'), ... and the groups themselves."""
    root = typer.main.get_command(app)
    found: list[tuple[str, ...]] = [()]

    def walk(group, prefix: tuple[str, ...]) -> None:
        for name, cmd in sorted(group.commands.items()):
            found.append(prefix + (name,))
            if hasattr(cmd, "commands"):   # a group (typer vendors its own click)
                walk(cmd, prefix + (name,))

    walk(root, ())
    return found


def format_choices() -> dict[tuple[str, ...], list[str]]:
    """The --format names each command's help lists."""
    root = typer.main.get_command(app)
    out = {}
    for path in commands():
        cmd = root
        for part in path:
            cmd = cmd.commands[part]  # type: ignore[attr-defined]
        for p in cmd.params:
            if "--format" in getattr(p, "opts", []):
                help_text = p.help.split(":", 1)[1].split(".")[0]
                out[path] = [f.strip() for f in help_text.split(",")]
    return out


@pytest.mark.parametrize("path", commands(), ids=lambda p: " ".join(p) or "benchclaims")
def test_help_ends_with_an_example(path):
    res = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})
    assert res.exit_code == 0, res.output
    lines = [line.strip() for line in res.output.splitlines() if line.strip()]
    at = max(i for i, line in enumerate(lines) if line.startswith("Example"))
    assert at > max(i for i, line in enumerate(lines) if "--help" in line)      # after every option
    assert lines[at + 1].startswith("$ benchclaims " + " ".join(path))
    assert all(line.startswith("$ ") for line in lines[at + 1:])


def test_format_names_are_one_vocabulary():
    choices = format_choices()
    assert len(choices) >= 10
    for path, names in choices.items():
        assert names and set(names) <= set(FORMATS), (path, names)
    assert "json" in choices[("extract",)] and "jsonl" in choices[("export",)]


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("conv") / "c.db"
    run_batch([CORPUS], db=path, progress=False)
    return path


def test_export_dash_writes_to_stdout(db, tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["export", "--db", str(db), "--format", "csv", "-o", "-"])
    assert res.exit_code == 0
    rows = list(csv.DictReader(io.StringIO(res.stdout)))
    assert rows and {"source", "date_source"} <= set(rows[0])
    assert not Path("-").exists()
    jl = runner.invoke(app, ["export", "--db", str(db), "-f", "jsonl", "-o", "-"])
    assert [json.loads(line)["doc"] for line in jl.stdout.splitlines()] == sorted(
        p.name for p in CORPUS.iterdir() if p.suffix in (".md", ".html", ".txt"))
    posts = sum(p.suffix in (".md", ".html", ".txt") for p in CORPUS.iterdir())
    assert f"wrote {posts} records to standard output" in jl.stderr


def test_same_format_name_same_shape(db, tmp_path):
    runner = CliRunner()
    post = str(CORPUS / "plain-text-latency.txt")
    as_json = json.loads(runner.invoke(app, ["quantities", post, "--format", "json"]).stdout)
    as_lines = [json.loads(line) for line in runner.invoke(app, ["quantities", post, "-f", "jsonl"]).stdout.splitlines()]
    assert isinstance(as_json, list) and as_json == as_lines
    q_json = json.loads(runner.invoke(app, ["query", "--db", str(db), "--format", "json"]).stdout)
    q_lines = [json.loads(x) for x in runner.invoke(app, ["query", "--db", str(db), "-f", "jsonl"]).stdout.splitlines()]
    assert q_json == q_lines and len(q_json) > 100
    table = runner.invoke(app, ["query", "--db", str(db), "--format", "table"]).stdout   # the older name
    assert table == runner.invoke(app, ["query", "--db", str(db), "--format", "text"]).stdout
    assert runner.invoke(app, ["query", "--db", str(db), "--format", "xml"]).exit_code == 2


def test_dash_output_is_stdout_for_every_writer(db, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    post = str(CORPUS / "two-isl-ambiguous.md")
    runs = {"audit": ["audit", post, "-f", "html", "-o", "-"],
            "report": ["report", "--db", str(db), "-f", "json", "-o", "-"],
            "eval": ["eval", "--gold", str(CORPUS / "gold"), "--docs", str(CORPUS), "-o", "-"],
            "diff": ["diff", str(db), str(db), "-f", "json", "-o", "-"]}
    for name, args in runs.items():
        res = runner.invoke(app, args)
        assert res.exit_code == 0, (name, res.output)
        assert res.stdout.strip(), name
    assert not (tmp_path / "-").exists()


def test_version_and_several_input_files(tmp_path):
    runner = CliRunner()
    res = runner.invoke(app, ["--version"])
    assert res.exit_code == 0 and res.stdout.startswith("benchclaims ") and len(res.stdout.split()) == 2
    a, b = str(CORPUS / "plain-text-latency.txt"), str(CORPUS / "two-isl-ambiguous.md")
    one = json.loads(runner.invoke(app, ["extract", a]).stdout)
    assert isinstance(one, dict) and one["doc"] == "plain-text-latency.txt"     # one file: the record
    many = json.loads(runner.invoke(app, ["extract", a, b, "-f", "json"]).stdout)
    lines = [json.loads(x) for x in runner.invoke(app, ["extract", a, b, "-f", "jsonl"]).stdout.splitlines()]
    assert [r["doc"] for r in many] == ["plain-text-latency.txt", "two-isl-ambiguous.md"] and many == lines
    assert many[0] == one
    res = runner.invoke(app, ["extract", a, str(tmp_path / "gone.md"), b, "-f", "jsonl", "-o", str(tmp_path / "o")])
    assert res.exit_code == 2 and f"benchclaims: {tmp_path / 'gone.md'}: no such file" in res.stderr
    assert len((tmp_path / "o").read_text().splitlines()) == 2                 # the others are still written


def test_rules_check_json_is_one_document():
    res = CliRunner().invoke(app, ["rules", "check", "--no-run", "-f", "json"])
    assert res.exit_code == 0 and json.loads(res.stdout) == []


def test_one_error_prefix(db, tmp_path):
    runner = CliRunner()
    cases = [["query", "--db", str(tmp_path / "none.db")],
             ["export", "--db", str(tmp_path / "none.db"), "-f", "csv", "-o", "-"],
             ["batch", str(tmp_path / "*.md"), "--db", str(tmp_path / "x.db")],
             ["extract", str(tmp_path / "none.md")],
             ["report", "--db", str(tmp_path / "none.db")]]
    for args in cases:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, (args, res.output)
        assert res.stderr.startswith("benchclaims: "), (args, res.stderr)
