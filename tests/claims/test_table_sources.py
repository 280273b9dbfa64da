"""Tables (issue 23 item 3): a table's metric and unit come from its headers, then its caption, its section
heading, the paragraphs before it; decimal commas; scores out of 100; ratio and cost columns. Every table here
is written for the test."""
from __future__ import annotations

from extractor.api import extract_text


def claims(text: str):
    return extract_text(text, doc="t.md").claims


def got(text: str) -> set[tuple[str, float, str]]:
    return {(c.metric, c.value, c.unit) for c in claims(text)}


HEADING_AND_LEAD = """# A small accelerator

## Prompt processing time

The prompt processing time is the wall-clock time in seconds from request to first token.

We vary the prompt size from short chat turns to long documents.

| prompt tokens | model A | model B |
|---|---|---|
| 128 | 0,4 | 0,9 |
| 1024 | 1,2 | 2,5 |

## Generation speed

Speed is the number of generated tokens per second, averaged over five runs.

| new tokens | model A | model B |
|---|---|---|
| 128 | 41 | 23 |
"""


def test_metric_from_the_heading_and_unit_from_a_paragraph_before_the_table():
    found = got(HEADING_AND_LEAD)
    assert {("latency", 0.4, "second"), ("latency", 2.5, "second")} <= found
    assert ("throughput", 41.0, "token / second") in found and ("throughput", 23.0, "token / second") in found
    # the first column names the configuration (prompt or generated tokens): no claim
    assert not {v for _, v, _ in found} & {128.0, 1024.0}


def test_decimal_commas_keep_their_quote():
    c = next(c for c in claims(HEADING_AND_LEAD) if c.value == 0.9)
    assert c.quote == "0,9"


def test_thousands_separators_are_not_decimal_commas():
    text = ("## Decode throughput\n\nFigures are output tokens per second.\n\n| setup | rate |\n|---|---|\n"
            "| big node | 12,480 |\n| small node | 3,015 |\n")
    assert {v for _, v, _ in got(text)} == {12480.0, 3015.0}


def test_without_a_metric_and_unit_around_it_a_bare_table_is_not_read():
    text = ("## Notes\n\nWe list a few numbers here.\n\n| setup | value |\n|---|---|\n| a | 12 |\n| b | 30 |\n")
    assert not claims(text)


def test_a_lead_unit_fits_bare_number_cells_only():
    text = ("## Throughput (tokens/s)\n\nMeasured with one user.\n\n| GPU | CPU | 4k prompt |\n|---|---|---|\n"
            "| 1 x small card | 2 x Some CPU 9000 | 310 |\n")
    assert {v for _, v, _ in got(text)} == {310.0}


def test_scores_out_of_100_are_shares_even_under_a_count_label():
    text = ("## Goodput\n\n| Metric | old stack | new stack |\n|---|---|---|\n"
            "| Requests within both SLOs | 31/100 | 68/100 |\n| Requests sent | 100 | 100 |\n")
    found = claims(text)
    assert {(c.value, c.unit) for c in found} == {(31.0, "percent"), (68.0, "percent")}
    assert {c.quote for c in found} == {"31/100", "68/100"}


def test_ratio_and_cost_columns():
    text = ("## Results\n\n| Model | Tok/s | Ratio to eager | Cost per 1M tokens ($) | Instance ($/h) |\n"
            "|---|---|---|---|---|\n| small | 210 | 2.35 | $0.42 | $1.10 |\n| large | 88 | 1 | $3.10 | $4.20 |\n")
    found = {(c.metric, c.value, c.unit) for c in claims(text)}
    assert ("speedup", 2.35, "x") in found
    assert ("speedup", 1.0, "x") not in found          # the baseline row itself
    assert ("cost", 0.42, "USD / megatoken") in found and ("cost", 3.1, "USD / megatoken") in found


def test_a_ratio_header_with_a_percent_sign_holds_percents():
    text = "## Results\n\n| Model | Accuracy ratio to FP16 (%) |\n|---|---|\n| small | 97 |\n"
    found = claims(text)
    assert found and all(c.unit == "percent" for c in found)


def test_a_row_label_with_a_count_word_names_a_setup_under_a_metric_column():
    text = ("## Scaling\n\n| Setup | Throughput (tok/s) |\n|---|---|\n| every card | 2400 |\n| half the GPUs | 1300 |\n"
            "| long prompts | 900 |\n")
    assert {c.value for c in claims(text)} == {2400.0, 1300.0, 900.0}
    # a row of counts under a column without a unit stays out
    text = "## Runs\n\n| Item | Value |\n|---|---|\n| Requests | 100 |\n| Mean TTFT (ms) | 41 |\n"
    assert {c.value for c in claims(text)} == {41.0}
