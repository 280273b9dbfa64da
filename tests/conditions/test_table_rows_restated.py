"""A figure in prose that gives a table row's figure rounded or cut takes that row's conditions (issue 24, helper
condmix; restatements.py `fill_from_table_rows`), on posts written for these tests; and a labelled text cell that
says a setting is absent ("None", "N/A") states no value (scopes.yaml `no_value_cell`)."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

_TABLE = ("# Serving Qwen on cloud instances\n\n## Results\n\n| Model | Quantization | Instance | concurrent requests | "
          "Throughput (tokens/second) |\n|---|---|---|---|---|\n| Qwen 7B | AWQ | g6.xlarge | 4 | 118.6342 |\n"
          "| Qwen 14B | AWQ | g6.xlarge | 4 | 70.9121 |\n| Qwen 14B | None | g6.12xlarge | 16 | 402.5517 |\n\n"
          "## Conclusions\n\n")


def test_a_summary_rounding_a_rows_figure_takes_the_rows_load():
    text = _TABLE + "Cheapest option: a 14B Qwen in AWQ on one g6.xlarge serves 71 tokens/sec.\n"
    c = claim(extract_text(text, "t.md"), 71)
    load = stated(c, "batch_or_concurrency")
    assert load.value == 4 and load.scope == "restatement" and "70.9121" in load.note


def test_a_rows_figure_given_again_under_another_name_lends_nothing():
    text = _TABLE + "Cheapest option: Mistral-7B in AWQ on one g6.xlarge serves 71 tokens/sec.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 71), "batch_or_concurrency")


def test_a_figure_two_rows_round_to_lends_nothing():
    text = (_TABLE.replace("118.6342", "71.2044") + "On g6.xlarge, Qwen with AWQ delivers 71 tokens/sec.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 71), "batch_or_concurrency")


def test_a_figure_whose_sentence_names_neither_model_nor_device_lends_nothing():
    text = _TABLE + "The cheapest setup delivers 71 tokens/sec.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 71), "batch_or_concurrency")


def test_a_none_cell_of_a_quantization_column_states_no_precision():
    rec = extract_text(_TABLE, "t.md")
    unrecoverable(claim(rec, 402.5517), "precision")
    assert stated(claim(rec, 70.9121), "precision").value == "AWQ"


def test_a_round_lower_bound_of_one_row_takes_the_rows_conditions():
    text = _TABLE + "On g6.12xlarge, 14B Qwen serves more than 350 tokens/sec.\n"
    c = claim(extract_text(text, "t.md"), 350)
    assert c.qualifier == "at_least"
    load = stated(c, "batch_or_concurrency")
    assert load.value == 16 and load.scope == "restatement" and "402.5517" in load.note


def test_a_bound_at_another_load_than_the_row_lends_nothing():
    text = _TABLE + "With 8 concurrent requests, Qwen 14B on g6.12xlarge serves more than 350 tokens/sec.\n"
    c = claim(extract_text(text, "t.md"), 350)
    assert not any(v.scope == "restatement" for v in c.conditions.values())


def test_a_bound_two_rows_of_its_model_exceed_lends_nothing():
    text = _TABLE.replace("| 16 | 402.5517 |", "| 16 | 402.5517 |\n| Qwen 14B | None | g6.12xlarge | 32 | 590.1180 |") \
        + "On g6.12xlarge, Qwen 14B serves more than 350 tokens/sec.\n"
    c = claim(extract_text(text, "t.md"), 350)
    unrecoverable(c, "batch_or_concurrency")


def test_a_bound_far_below_the_one_row_above_it_lends_nothing():
    """The one row above the bound is more than half again as large: "more than 100" says too little of 402.55 to
    be its summary (it may be a floor for some other setup), so the row's load is not given."""
    text = _TABLE + "On g6.12xlarge, Qwen 14B serves more than 100 tokens/sec.\n"
    c = claim(extract_text(text, "t.md"), 100)
    assert c.qualifier == "at_least"
    unrecoverable(c, "batch_or_concurrency")
