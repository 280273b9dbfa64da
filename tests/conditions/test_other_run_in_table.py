"""A figure of a table takes no setting of a neighbouring run: a column that names the run without the technique
(the "Base" column) takes no feature setting from the section on the technique, and a command shown after the
figure's table that introduces a later result is that result's. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

_DRAFTS = ("# Faster drafts\n\n## Results\n\nWe compare runs with Lookahead Decoding enabled against plain decoding "
           "on one L40S.\n\n{header}\n| --- | --- | --- |\n| 4 | 212.4 | 318.9 |\n")


def test_a_baseline_column_takes_no_feature_from_the_tables_topic():
    for header in ("| Concurrency | Base Throughput (tok/s) | Lookahead Throughput (tok/s) |",
                   "| Concurrency | Baseline (tok/s) | Lookahead (tok/s) |",
                   "| Concurrency | w/o speculation (tok/s) | with speculation (tok/s) |"):
        rec = extract_text(_DRAFTS.format(header=header), "t.md")
        base = claim(rec, 212.4)
        unrecoverable(base, "speculative_decoding")
        assert stated(base, "hardware").value == "1x L40S"   # the run's other settings stay
        assert stated(base, "batch_or_concurrency").value == 4
        assert stated(claim(rec, 318.9), "speculative_decoding").value == "Lookahead Decoding"


def test_a_column_that_names_no_baseline_keeps_the_feature():
    for header in ("| Concurrency | Short prompts (tok/s) | Long prompts (tok/s) |",
                   "| Concurrency | Database A (tok/s) | Based on traces (tok/s) |"):
        rec = extract_text(_DRAFTS.format(header=header), "t.md")
        assert stated(claim(rec, 212.4), "speculative_decoding").value == "Lookahead Decoding"


_SPLIT = ("# Splitting a model across cards\n\n## Sequential generation\n\n"
          "```shell\nlitgpt generate_sequentially org/Nimbus-70B --max_new_tokens 128\n```\n\n"
          "On L4 GPUs we need at least three.\n\n| Devices | Token/sec |\n|---------|-----------|\n"
          "| 3       | 6.41      |\n\n{after}")
_QUANTIZED = "```shell\nlitgpt generate_sequentially org/Nimbus-70B --max_new_tokens 128 --quantize bnb.nf4-dq\n```\n\n"


def test_a_command_after_the_table_that_introduces_a_later_result_is_not_the_tables():
    text = _SPLIT.format(after="The same run on two cards:\n\n" + _QUANTIZED
                         + "| Devices | Token/sec |\n|---------|-----------|\n| 2       | 5.12      |\n")
    rec = extract_text(text, "t.md")
    first = claim(rec, 6.41)
    unrecoverable(first, "precision")
    assert stated(first, "output_length").value == 128   # the command before the table stays
    assert stated(claim(rec, 5.12), "precision").value == "NF4"


def test_a_command_after_the_table_that_no_result_follows_stays():
    rec = extract_text(_SPLIT.format(after="To reproduce:\n\n" + _QUANTIZED), "t.md")
    assert stated(claim(rec, 6.41), "precision").value == "NF4"
