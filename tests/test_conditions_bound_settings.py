"""Load settings bound to one metric, one mode or one run (issue 11, class 2), on sentences written for these
tests: a caption, legend, list or table that gives each metric or mode its own batch size or concurrency. The
setting goes to the claim whose metric family or mode matches, and to nothing else; a table row's own cell under
a labelled column is more specific than any of them."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- a table row's labelled cell wins over broader places ---------------------------------------------------
_TABLE = ("# Results\n\n"
          "| Engine | Batch Size | Output tok/s | TTFT (ms) |\n"
          "|---|---|---|---|\n"
          "| ours | 128 | 9,450 | 210 |\n"
          "| ours | 2 | 415 | 18.5 |\n\n")


def test_the_rows_batch_column_wins_over_a_caption_that_states_two_batches():
    text = ("# Results\n\n![chart](chart.png)\n\n<sub>One H100, FP8, BS=2 or BS=128.</sub>\n\n"
            + _TABLE[len("# Results\n\n"):])
    record = extract_text(text, "t.md")
    assert stated(claim(record, 9450), "batch_or_concurrency").value == 128
    assert stated(claim(record, 18.5), "batch_or_concurrency").value == 2


def test_the_rows_batch_column_wins_over_a_batch_the_section_states():
    text = ("# Results\n\nWe served the model at a batch size of 64 for the chat demo.\n\n" + _TABLE[len("# Results\n\n"):])
    record = extract_text(text, "t.md")
    cond = stated(claim(record, 415), "batch_or_concurrency")
    assert cond.value == 2 and cond.scope == "table_row"


def test_without_a_labelled_column_the_broader_place_still_states_it():
    text = ("# Results\n\nAll runs use a batch size of 64.\n\n"
            "| Engine | Output tok/s |\n|---|---|\n| ours | 9,450 |\n| theirs | 7,020 |\n")
    assert stated(claim(extract_text(text, "t.md"), 7020), "batch_or_concurrency").value == 64


def test_an_empty_cell_in_the_labelled_column_leaves_the_broader_value():
    text = ("# Results\n\nAll runs use a batch size of 64.\n\n"
            "| Engine | Batch Size | Output tok/s |\n|---|---|---|\n| ours | n/a | 9,450 |\n")
    cond = claim(extract_text(text, "t.md"), 9450).conditions["batch_or_concurrency"]
    assert cond.status == "unrecoverable" or cond.value == 64
