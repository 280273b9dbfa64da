"""Clause-level scope on its own: a sentence of several results parts into clauses at the breaks of
rules/scopes.yaml, and a coordinated "and" parts clauses only right before another result."""
from __future__ import annotations

from extractor.api import extract_text
from extractor.conditions.clauses import ClauseScope
from extractor.conditions.rules import load_scope_rules
from extractor.ingest.segment import Passage
from extractor.rules_io import default_rules_dir


def _parts(text: str, figures: list[str]) -> list[str]:
    scope = ClauseScope(load_scope_rules(default_rules_dir()))
    spans = [(text.index(f), text.index(f) + len(f)) for f in figures]
    p = Passage(start=0, end=len(text), kind="paragraph", block=0, section=None)
    return [text[lo:hi] for lo, hi, _ in scope.clauses(text, p, spans)]


def test_a_semicolon_parts_two_results():
    text = "Batch 8 gave 410 tok/s on the small card; batch 32 gave 950 tok/s on the large one"
    assert _parts(text, ["410 tok/s", "950 tok/s"]) == [
        "Batch 8 gave 410 tok/s on the small card", "batch 32 gave 950 tok/s on the large one"]


def test_and_parts_clauses_only_before_another_result():
    two = "Prefill took 90 ms with short prompts and 240 ms with long prompts"
    assert _parts(two, ["90 ms", "240 ms"]) == ["Prefill took 90 ms with short prompts", "240 ms with long prompts"]
    one = "Prefill took 90 ms with short prompts and a warm cache"
    assert _parts(one, ["90 ms"]) == [one]


def test_a_series_item_that_says_how_the_results_were_measured_is_theirs():
    # (written for this test) "7x ..., 1.5x ..., measured on 8x H100": the last item states no result of its
    # own, and says where both were measured
    r = extract_text("# Results\n\nWe see 7x faster decode, 1.5x faster prefill, measured on 8x H100.\n", "t.md")
    assert {c.conditions["hardware"].value for c in r.claims} == {"8x H100"}


def test_a_series_item_that_states_no_result_and_no_measurement_is_nobodys():
    r = extract_text("# Results\n\nWe see 7x faster decode, 1.5x faster prefill, support for 8x H100.\n", "t.md")
    assert {c.conditions["hardware"].status for c in r.claims} == {"unrecoverable"}


def test_and_before_a_second_verb_phrase_parts_its_results_clauses():
    # (written for this test) each result keeps its own clause's scenario
    r = extract_text("# Results\n\nThe new allocator raised offline throughput by 12% and reduced TPOT by 40% in "
                     "high-concurrency serving runs.\n", "t.md")
    by_value = {c.value: c.conditions["scenario"] for c in r.claims}
    assert "offline" in by_value[12].value.lower()
    assert "serving" in by_value[-40].value.lower() or "serving" in by_value[40].value.lower()


def test_a_setting_before_the_first_result_stays_shared_by_both_verb_phrases():
    r = extract_text("# Results\n\nIn offline inference the patch raised throughput by 12% and lowered the p99 "
                     "latency of the decode step by 40%.\n", "t.md")
    assert all("offline" in (c.conditions["scenario"].value or "").lower() for c in r.claims)


def test_then_opens_the_next_step_of_a_sequence_of_results():
    text = "Mode B holds 100% attainment up to rate 4, then falls to 38% at rate 12"
    assert _parts(text, ["100%", "38%"]) == ["Mode B holds 100% attainment up to rate 4", "falls to 38% at rate 12"]
    one = "We warm the cache for a minute, then measure 1,234 tok/s at rate 6"
    assert _parts(one, ["1,234 tok/s"])[-1] == "measure 1,234 tok/s at rate 6"
