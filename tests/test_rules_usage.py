"""`benchclaims rules usage`: per rule entry, on how many posts and how often it fires; unused and one-post lists."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli import app
from extractor.rules_io import default_rules_dir
from extractor.rules_usage import rules_usage


@pytest.fixture
def posts(tmp_path: Path) -> Path:
    d = tmp_path / "posts"
    d.mkdir()
    (d / "a.md").write_text("# Results\n\nWe replayed ShareGPT prompts with a batch size of 32 and saw a "
                            "time to first token of 80 ms.\n", encoding="utf-8")
    (d / "b.md").write_text("# Setup\n\nPrompts come from ShareGPT; the server ran on two H100 GPUs.\n",
                            encoding="utf-8")
    return d


def _entry(report, file: str, entry: str):
    return next(e for e in report.entries if e.file == file and e.entry == entry)


def test_counts_documents_and_matches_per_entry(posts):
    report = rules_usage(sorted(posts.iterdir()))
    assert report.documents == 2
    batch = _entry(report, "conditions.yaml", "batch_size_n")
    assert (batch.documents, batch.matches, batch.examples) == (1, 1, ["a.md"])
    assert batch.line and batch.kind == "pattern"
    sharegpt = next(e for e in report.entries if e.kind == "gazetteer" and e.documents == 2
                    and e.file == "gazetteers/datasets.jsonl")
    assert sharegpt.examples == ["a.md", "b.md"]
    assert batch in report.single() and sharegpt not in report.single()
    # a claim cue of claims.yaml is a phrase entry, found by its YAML path and line
    ttft = next(e for e in report.entries if e.file == "claims.yaml" and e.kind == "phrase"
                and e.entry.startswith("metric_cues.ttft") and e.documents)
    assert ttft.documents == 1 and ttft.line
    # a pattern whose phrasing is in neither post fires on nothing
    assert _entry(report, "conditions.yaml", "bench_command") in report.unused()


def test_schema_name_lists_are_not_entries(posts):
    report = rules_usage(sorted(posts.iterdir()))
    assert not [e for e in report.entries if ".sweepable." in e.entry or ".needs." in e.entry]


def test_another_rules_folder_is_counted(posts, tmp_path):
    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    gaz = rules / "gazetteers" / "datasets.jsonl"
    gaz.write_text(gaz.read_text(encoding="utf-8")
                   + '{"label": "DATASET", "pattern": "Made Up Prompt Set", "id": "Made Up Prompt Set"}\n',
                   encoding="utf-8")
    report = rules_usage(sorted(posts.iterdir()), rules)
    last = max((e for e in report.entries if e.file == "gazetteers/datasets.jsonl"), key=lambda e: e.line)
    assert last.documents == 0 and last in report.unused()


def test_cli_lists_unused_and_single(posts):
    result = CliRunner().invoke(app, ["rules", "usage", str(posts), "--lists-only"])
    assert result.exit_code == 0, result.output
    assert "Fire on exactly one document" in result.output
    assert "batch_size_n" in result.output.split("Fire on exactly one document")[1]
    assert "2 documents" in result.output
    as_json = CliRunner().invoke(app, ["rules", "usage", str(posts / "a.md"), "--format", "json"])
    assert json.loads(as_json.output)["documents"] == 1
    missing = CliRunner().invoke(app, ["rules", "usage", str(posts / "nope.md")])
    assert missing.exit_code == 2
