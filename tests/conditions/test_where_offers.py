"""Where-note offers: an offer's `text` pattern searched only in the words that can hold it finds what a
search of the whole view finds; a bad `text_holds` stops at load with file and line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from extractor.conditions.where_rules import load_where_rules
from extractor.conditions.where import WhereNotes
from extractor.rules_check import check_rules
from extractor.rules_io import default_rules_dir

WORDS = ["docker", "run", "lmsysorg/sglang:v0.5.1", "nvcr.io/nvidia/tritonserver:25.01-trtllm-python-py3",
         "vllm/vllm-openai:v0.10.1@sha256:" + "ab12" * 8, "https://github.com/org/repo", "a/b", "x:y", "/", ":",
         "image", "the", "`", "**", "\n", "\n\n", " ", "\t", "(", ")", "-", "é", "8x", "H100"]


@pytest.fixture(scope="module")
def notes() -> WhereNotes:
    return WhereNotes(load_where_rules(default_rules_dir()))


def test_the_installed_image_offer_is_searched_by_words(notes):
    assert "image" in notes.offer_holds
    view = "We pulled `lmsysorg/sglang:v0.5.1` and compared with vllm/vllm-openai:v0.10.1 later."
    assert notes.offer_text("image", view).group() == "lmsysorg/sglang:v0.5.1"
    assert notes.offer_text("image", "no image at https://example.com/a:b here") is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(WORDS) | st.text(max_size=4), max_size=30).map(" ".join))
def test_word_search_finds_what_a_whole_search_finds(notes, view: str):
    whole = notes.offer_rx["image"]["text"].search(view)
    found = notes.offer_text("image", view)
    assert (found and found.span()) == (whole and whole.span())


def test_an_empty_text_holds_is_a_rule_error(tmp_path: Path):
    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    path = rules / "where_notes.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("text_holds: '/'", "text_holds: ''"), encoding="utf-8")
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("where_notes.yaml")]
    assert problems and "text_holds" in problems[0].where + problems[0].reason
