"""A table that maps labels to levels (a severity, a priority, a tier) configures a system: its cells are no results,
even under a header that says "score" (issue 23). A score of a benchmark and a result beside a priority column stay.
Tables written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def claims(text: str) -> list[tuple[str, str]]:
    return [(c.quote, c.metric) for c in extract_text(text, "t.md").claims]


@pytest.mark.parametrize("header", ["Severity score", "Severity", "Priority", "Risk level", "Tier"])
def test_the_levels_a_mapping_table_assigns_are_no_results(header):
    text = (f"# Triage\n\n**Verdict mapping**:\n\n| Verdict | {header} | Action |\n|---|---|---|\n"
            "| SUPPORTED | 0 | keep |\n| UNCLEAR | 3 | flag |\n| REFUTED | 5 | block |\n")
    assert claims(text) == []


def test_a_result_beside_a_priority_column_and_benchmark_scores_stay_claims():
    queues = ("# Queues\n\n| Queue | Priority | Mean wait (ms) |\n|---|---|---|\n"
              "| interactive | 1 | 42 |\n| batch | 4 | 910 |\n")
    assert claims(queues) == [("42", "latency"), ("910", "latency")]
    scores = ("# Quiz\n\n| Model | Quiz score | Code score |\n|---|---|---|\n"
              "| Tiny-1B | 41.5 | 22.0 |\n| Tiny-3B | 55.2 | 31.4 |\n")
    assert {m for _, m in claims(scores)} == {"accuracy"} and len(claims(scores)) == 4
