"""The scope ladder is data (rules/scopes.yaml `ladder`), and the resolution policy keys on structured
reasons, not on the wording of a message."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from extractor.pipeline import Extractor
from extractor.rules_io import RuleError, default_rules_dir

# A highlight bullet names two models for one measured figure (not a bound summing up runs over both); the
# section it links to restates its figure with one of them.
POST = """# Faster decoding in our engine

- Our new scheduler: 12,345 tokens per second on Llama-3-8B and Mistral-7B.

## Our new scheduler

We ran vLLM v0.6.0 on 8x H100 with a batch size of 64 and served Llama-3-8B. The server reached 12,345 tokens per second.
"""

# A sentence names one GPU, its section another one earlier.
SCOPED = """# Results

Every run used a single A100 board.

On one H100 the engine served 2,345 tokens per second.
"""

# The claim's paragraph names one GPU, a setup section before it another one; its own sentence names none.
SET_UP = """# Our engine

## Setup

All runs used an A100 board.

## Results

The engine ran on one H100. It served 2,345 tokens per second.
"""


def _rules(tmp_path: Path, edit) -> Path:
    dst = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), dst, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    edit(dst)
    return dst


def _edit_yaml(path: Path, change) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _moved(reader: str, to: int):
    """An edit of the rules that moves the rung of `reader` to place `to` on the ladder."""
    def edit(d: Path) -> None:
        def change(scopes):
            ladder = scopes["ladder"]
            rung = next(r for r in ladder if r["reader"] == reader)
            ladder.remove(rung)
            ladder.insert(to, rung)
        _edit_yaml(d / "scopes.yaml", change)
    return edit


def _claim(extractor: Extractor, text: str, quote: str):
    """The claim stated at `quote` (its primary place or another mention of it)."""
    record = extractor.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return next(c for c in record.claims if c.quote == quote or any(m.quote == quote for m in c.mentions))


def test_an_ambiguous_condition_is_not_filled_from_a_restatement():
    headline = _claim(Extractor.from_rules(), POST, "12,345 tokens per second")
    assert headline.headline
    assert headline.conditions["model"].status == "unrecoverable"
    assert "Llama-3-8B, Mistral-7B" in headline.conditions["model"].why
    assert headline.conditions["hardware"].value == "8x H100"


def test_rewording_the_ambiguous_why_changes_no_decision(tmp_path):
    reworded = _rules(tmp_path, lambda d: _edit_yaml(d / "where_notes.yaml", lambda w: w["why"].update(
        ambiguous="two or more candidates ({values}); the text does not say which")))
    headline = _claim(Extractor.from_rules(reworded), POST, "12,345 tokens per second")
    model = headline.conditions["model"]
    assert model.status == "unrecoverable"
    assert model.why == "two or more candidates (Llama-3-8B, Mistral-7B); the text does not say which"


def test_the_most_specific_rung_of_the_ladder_wins():
    claim = _claim(Extractor.from_rules(), SCOPED, "2,345 tokens per second")
    assert (claim.conditions["hardware"].value, claim.conditions["hardware"].scope) == ("1x H100", "sentence")


def test_the_ladder_order_is_read_from_the_rules(tmp_path):
    claim = _claim(Extractor.from_rules(), SET_UP, "2,345 tokens per second")
    assert (claim.conditions["hardware"].value, claim.conditions["hardware"].scope) == ("1x H100", "paragraph")

    claim = _claim(Extractor.from_rules(_rules(tmp_path, _moved("setup_sections", 1))), SET_UP, "2,345 tokens per second")
    assert (claim.conditions["hardware"].value, claim.conditions["hardware"].scope) == ("A100", "setup_section")


def test_the_claims_sentence_must_be_the_first_rung(tmp_path):
    # the other rungs ask what the claim's own sentence states: a ladder that reads another place first stops at load
    with pytest.raises(RuleError, match="first rung of the ladder must be"):
        Extractor.from_rules(_rules(tmp_path / "a", _moved("section", 0)))
    twice = _rules(tmp_path / "b", lambda d: _edit_yaml(d / "scopes.yaml", lambda s: s["ladder"].append(
        {"reader": "sentence", "scope": "sentence"})))
    with pytest.raises(RuleError, match="only the first rung reads the claim's sentence"):
        Extractor.from_rules(twice)


def test_a_rung_without_a_reader_stops_at_load(tmp_path):
    bad = _rules(tmp_path, lambda d: _edit_yaml(d / "scopes.yaml", lambda s: s["ladder"].append(
        {"reader": "whole_internet", "scope": "document"})))
    with pytest.raises(RuleError, match="whole_internet"):
        Extractor.from_rules(bad)


def test_a_rung_with_an_unknown_scope_stops_at_load(tmp_path):
    bad = _rules(tmp_path, lambda d: _edit_yaml(d / "scopes.yaml", lambda s: s["ladder"].append(
        {"reader": "section", "scope": "chapter"})))
    with pytest.raises(RuleError, match="chapter"):
        Extractor.from_rules(bad)
