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
    assert "Phrasings that fire on exactly one document" in result.output
    assert "batch_size_n" in result.output.split("Phrasings that fire on exactly one document")[1]
    assert "2 documents" in result.output
    as_json = CliRunner().invoke(app, ["rules", "usage", str(posts / "a.md"), "--format", "json"])
    assert json.loads(as_json.output)["documents"] == 1
    missing = CliRunner().invoke(app, ["rules", "usage", str(posts / "nope.md")])
    assert missing.exit_code == 2


def test_vocabulary_and_phrasing_are_told_apart():
    from extractor.rules_usage import entry_form

    # names and words of the field: gazetteer lines, unit spellings, one-word cues, name lists
    assert entry_form("gazetteers/hardware.jsonl", "hardware.jsonl:3", "gazetteer", "H100") == "vocabulary"
    assert entry_form("unit_spellings.jsonl", "microseconds", "phrase", "microseconds") == "vocabulary"
    assert entry_form("claims.yaml", "change_up.3", "phrase", "boosted") == "vocabulary"
    assert entry_form("claims.yaml", "metric_cues.tpot.1", "phrase", "time-per-output-token") == "vocabulary"
    assert entry_form("authorship.yaml", "orgs.3.patterns.0", "regex", r"\bSome\s+Cloud\b") == "vocabulary"
    assert entry_form("claims.yaml", "metric_cues.accuracy.9", "phrase", "Some Bench Verified") == "vocabulary"
    # phrasings: condition patterns, regexes, phrases of several words (outside the name lists)
    assert entry_form("conditions.yaml", "batch_size_n", "pattern", "batch_size_n") == "phrasing"
    assert entry_form("caveats.yaml", "sweep_best.patterns.0", "regex", r"\bsweep\w*") == "phrasing"
    assert entry_form("scopes.yaml", "setup_sections.4", "phrase", "test environment") == "phrasing"
    assert entry_form("claims.yaml", "metric_cues.ttft.2", "phrase", "time to first token") == "phrasing"


def test_single_post_entries_are_listed_by_form(posts):
    report = rules_usage(sorted(posts.iterdir()))
    phrasing, vocabulary = report.single("phrasing"), report.single("vocabulary")
    assert {e.form for e in phrasing} == {"phrasing"} and {e.form for e in vocabulary} == {"vocabulary"}
    assert sorted(map(id, phrasing + vocabulary)) == sorted(map(id, report.single()))
    # "time to first token" is only in a.md: a phrasing; the batch-size pattern too
    names = {e.text for e in phrasing}
    assert "time to first token" in names and "batch_size_n" in names
    # "ms" (a unit spelling) is only in a.md: vocabulary; no condition pattern is vocabulary
    assert "ms" in {e.text for e in vocabulary}
    assert not [e for e in vocabulary if e.kind == "pattern"]
    assert not [e for e in report.entries if e.file == "scopes.yaml" and e.entry.startswith("restatement_must_agree")]


def test_cli_lists_phrasings_apart_from_vocabulary(posts):
    out = CliRunner().invoke(app, ["rules", "usage", str(posts), "--lists-only"]).output
    phrasings = out.split("Phrasings that fire on exactly one document")[1].split("Vocabulary that fires")[0]
    vocabulary = out.split("Vocabulary that fires on exactly one document")[1]
    assert "batch_size_n" in phrasings and "time to first token" in phrasings
    assert "batch_size_n" not in vocabulary
    assert "phrasings," in out.splitlines()[-1] and "vocabulary)" in out.splitlines()[-1]
