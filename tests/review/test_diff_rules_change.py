"""Editing one rule in a copied rules folder and rerunning names exactly the claims and fields it changed."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.api import extract_path
from extractor.cli import app
from extractor.rules_io import default_rules_dir

POST = """# Serving numbers for our new release

On one H100 80GB the engine delivers 2,400 output tokens per second for Llama 3.1 8B at batch size 64.

Median TTFT is 85 ms with 1,024 input tokens and 256 output tokens.
"""

runner = CliRunner()


def copy_rules(tmp_path: Path, name: str) -> Path:
    dest = tmp_path / name
    shutil.copytree(default_rules_dir(), dest, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    return dest


def drop_ttft_cues(rules: Path) -> None:
    """The rule edit under test: the `ttft` metric loses all its cue phrases except the spelled-out ones."""
    path = rules / "claims.yaml"
    text = path.read_text(encoding="utf-8")
    edited, n = re.subn(r"(?ms)^  ttft: \[.*?\]\n", "  ttft: [time to first token]\n", text, count=1)
    assert n == 1, "claims.yaml no longer has a `ttft:` cue list; update this test's rule edit"
    path.write_text(edited, encoding="utf-8")


def test_editing_one_rule_changes_only_the_claims_it_governs(tmp_path):
    post = tmp_path / "post.md"
    post.write_text(POST, encoding="utf-8")
    before_rules, after_rules = copy_rules(tmp_path, "rules_before"), copy_rules(tmp_path, "rules_after")
    before = extract_path(post, rules_dir=str(before_rules))
    ttft = [c for c in before.claims if c.metric == "ttft"]
    if not ttft or len(before.claims) < 2:
        pytest.skip(f"extraction finds {len(before.claims)} claims in the sample yet (needs a TTFT claim and another)")
    saved = tmp_path / "saved.jsonl"
    saved.write_text(before.model_dump_json() + "\n", encoding="utf-8")

    # same rules: nothing changes
    same = runner.invoke(app, ["rerun", "--against", str(saved), "--rules", str(before_rules)])
    assert same.exit_code == 0, same.output

    drop_ttft_cues(after_rules)
    res = runner.invoke(app, ["rerun", "--against", str(saved), "--rules", str(after_rules), "--format", "json"])
    assert res.exit_code == 1, res.output
    report = json.loads(res.output)
    [doc] = report["documents"]
    assert doc["claims"], "the rule edit changed nothing"
    # every difference is the TTFT claim: its metric changed, or it is no longer a claim
    for c in doc["claims"]:
        assert c["kind"] in ("changed", "removed"), c
        assert c["old"]["metric"] == "ttft" and c["old"]["quote"] == ttft[0].quote
        if c["kind"] == "changed":
            assert {f["field"] for f in c["fields"]} == {"metric"}
    assert report["summary"]["claims"]["unchanged"] == len(before.claims) - len(ttft)
