"""A concurrency written as the short label of one point of a sweep ("1.6x at C=4", "(c=64)", "at c256") is
the load of the result in its own sentence, and of no other result (rules/conditions.yaml `c_equals_n`,
scopes.yaml `own_sentence_only`); ", with" before another result parts the sentence's clauses
(`coordinated_break`). Sentences written for this test."""
from __future__ import annotations

import shutil

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text
from extractor.conditions.mentions import find_mentions
from extractor.rules_check import check_rules
from extractor.rules_io import default_rules_dir

_SWEEP = ("# Results\n\n## Drafting\n\nWe ran the draft with Qwen3-32B on 4x H100. At C=4 the draft still gives 1.6x, "
          "and at C=16 it gives 1.4x.\n\nThe draft model also reaches 812 tok/s per user.\n")


def _loads(text: str) -> list:
    return [m.value for m in find_mentions(text) if m.kind == "batch_or_concurrency"]


@pytest.mark.parametrize("text,value", [
    ("The gain is 1.6x at C=4.", 4),
    ("The gain stays at 9% (c=64).", 64),
    ("Throughput peaks at 5,120 tok/s at c256.", 256),
    ("Ratios: 1.5x (c=1), 1.3x (c=2).", 1),
])
def test_a_point_label_is_a_concurrency(text: str, value: int) -> None:
    assert value in _loads(text)


@pytest.mark.parametrize("text", [
    "Set C=4 in the config matrix before the run.",     # not after "at", "(" or ", "
    "The cell at c5x of the grid ran out of memory.",     # a cell name, not a count
    "The result at C=4.5 is noisy.",                     # not a whole count
    "We used the at C=4x multiplier.",
])
def test_other_uses_of_the_letter_are_no_concurrency(text: str) -> None:
    assert _loads(text) == []


def test_each_result_takes_its_own_point_label() -> None:
    rec = extract_text(_SWEEP, "t.md")
    assert stated(claim(rec, 1.6), "batch_or_concurrency").value == 4
    assert stated(claim(rec, 1.4), "batch_or_concurrency").value == 16


def test_a_point_label_is_no_load_of_another_sentences_result() -> None:
    # (the section rung leaves it out: "812 tok/s" was measured at no labelled point)
    unrecoverable(claim(extract_text(_SWEEP, "t.md"), 812), "batch_or_concurrency")


def test_with_before_another_result_parts_the_clauses() -> None:
    text = ("# Results\n\nUnder light load (c=1) the new scheduler adds 55% more throughput, with a 12% lift left "
            "under heavy load (c=64).\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 55), "batch_or_concurrency").value == 1
    assert stated(claim(rec, 12), "batch_or_concurrency").value == 64


def test_a_setting_after_with_results_still_covers_both() -> None:
    text = "# Results\n\nThe engine reaches 2.1x higher throughput, with 30% lower latency at batch size 8.\n"
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 2.1), "batch_or_concurrency").value == 8
    assert stated(claim(rec, -30), "batch_or_concurrency").value == 8


def test_a_point_label_pattern_name_that_names_no_pattern_is_a_rules_problem(tmp_path) -> None:
    # (a typo in scopes.yaml `own_sentence_only` would let the phrasing through every rung silently)
    folder = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), folder)
    scopes = folder / "scopes.yaml"
    scopes.write_text(scopes.read_text().replace("own_sentence_only: [c_equals_n", "own_sentence_only: [c_equal_n"))
    problems = check_rules(folder)
    assert any(p.where == "own_sentence_only" and "c_equal_n" in p.reason for p in problems), problems
