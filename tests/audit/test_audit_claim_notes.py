"""`audit --claim ID`, notes said once, and an absent engine version beside a pinned-version note."""
from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from extractor.api import extract_path
from extractor.audit import build_audit, render_audit
from extractor.cli import app
from extractor.records import Note

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
POST = CORPUS / "recipe-repo-command.md"


def test_audit_claim_chooses_the_claim_headline_by_default():
    record = extract_path(POST)
    default = build_audit(record)
    assert record.claims[[c.id for c in record.claims].index(default.claim_id)].headline
    other = next(c for c in record.claims if not c.headline)
    chosen = json.loads(render_audit(record, "json", other.id))
    assert chosen["claim_id"] == other.id and chosen["chosen"] and chosen["figure"]["quote"] == other.quote
    assert build_audit(record, other.id[:6]).claim_id == other.id      # a unique prefix will do
    res = CliRunner().invoke(app, ["audit", str(POST), "--claim", other.id])
    assert res.exit_code == 0 and f"(Audit of claim {other.id}, chosen with --claim.)" in res.stdout
    res = CliRunner().invoke(app, ["audit", str(POST), "--claim", "nope"])
    assert res.exit_code == 2 and res.stderr.startswith("benchclaims: ") and record.claims[0].id in res.stderr


def test_audit_writes_each_link_once():
    record = extract_path(POST)
    text = render_audit(record, "text")
    urls = [w for w in text.split() if w.startswith("https://")]
    absent_part = text.split("ABSENT CONDITIONS", 1)[1]
    absent_urls = [w for w in absent_part.split() if w.startswith("https://")]
    assert len(absent_urls) == len(set(absent_urls)) and absent_urls      # each link once...
    assert "(link above)" in absent_part                                  # ...then referred to
    assert urls


def test_absent_engine_version_beside_a_pinned_version_says_why():
    record = extract_path(CORPUS / "two-isl-ambiguous.md")
    claim = record.claims[0]
    claim.conditions["engine_version"] = claim.conditions["engine_version"].model_copy(
        update={"status": "unrecoverable", "value": None, "canonical": None, "quote": None, "span": None,
                "scope": None, "where": "the release notes", "why": "no version is tied to this figure"})
    record.provenance.append(Note(kind="repro-pinned-version", message="a pinned version is named (v9.9.1)",
                                  quote="v9.9.1", span=(0, 6)))
    report = build_audit(record, claim.id)
    [engine] = [a for a in report.absent if a.name == "engine_version"]
    assert "v9.9.1" in engine.note and "not tie it to this figure" in engine.note
    record.provenance = [n for n in record.provenance if n.kind != "repro-pinned-version"]
    [engine] = [a for a in build_audit(record, claim.id).absent if a.name == "engine_version"]
    assert not engine.note or "pinned" not in engine.note


def test_the_same_note_is_said_once():
    record = extract_path(POST)
    note = Note(kind="repro-recipe", message="recipes are published in the project's own repository")
    record.provenance += [note, note, note]
    text = render_audit(record, "text")
    assert text.count("Recipes are published in the project's own repository.") == 1
