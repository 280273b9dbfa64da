"""A bare benchmark score takes the 0-100 scale of its column: written like the column's other scores (as many
decimals), within 0-100, beside a score over 10 that is a percent written without its sign. Tables of our own."""
from __future__ import annotations

from claim_checks import claims_in


def units(text: str) -> dict[float, str]:
    return {c.value: c.unit for c in claims_in(text) if c.metric == "accuracy"}


def test_a_low_score_in_a_column_of_percents_is_a_percent():
    text = ("# Evaluation\n\n| Model | MMLU | GSM8K |\n|---|---|---|\n| Small-1B | 31.4 | 4.7 |\n"
            "| Base-7B | 52.8 | 21.6 |\n| Large-70B | 71.2 | 58.3 |\n")
    assert units(text) == {31.4: "percent", 4.7: "percent", 52.8: "percent", 21.6: "percent", 71.2: "percent",
                           58.3: "percent"}


def test_benchmarks_in_rows_and_models_in_columns():
    text = ("# Evaluation\n\n| Benchmark | Ours-7B | Other-7B |\n|---|---|---|\n| MMLU | 55.21 | 48.02 |\n"
            "| GSM8K | 3.95 | 12.40 |\n")
    assert units(text)[3.95] == "percent"


def test_a_column_of_small_scores_keeps_its_scale():
    # no score over 10 in the column: nothing says it is on a 0-100 scale
    text = ("# Evaluation\n\n| Model | HumanEval | MMLU |\n|---|---|---|\n| Draft-A | 2.71 | 44.10 |\n"
            "| Draft-B | 3.46 | 47.30 |\n")
    got = units(text)
    assert got[2.71] == "dimensionless" and got[3.46] == "dimensionless" and got[44.1] == "percent"


def test_a_fraction_written_otherwise_beside_a_percent_stays_a_fraction():
    # rows of different metrics in one column: "0.731" (three decimals) is no score out of 100
    text = ("# Evaluation\n\n| Benchmark | Metric | Our score |\n|---|---|---|\n| SetA | span IoU | 0.731 |\n"
            "| SetB | example F1 | 79.4 |\n")
    assert units(text) == {0.731: "dimensionless", 79.4: "percent"}


def test_a_column_over_100_is_no_percent_scale():
    text = ("# Evaluation\n\n| Model | Arena score |\n|---|---|\n| Ours | 1204 |\n| Other | 87 |\n| Tiny | 4 |\n")
    assert units(text)[4] == "dimensionless"
