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


def test_a_model_and_its_chat_variant_are_two_checkpoints_not_a_restatement():
    text = ("# Nova\n\n## Scores\n\n| Model | MBPP | GSM8K |\n| --- | --- | --- |\n| Nova-7B | 37.4 | 51.2 |\n"
            "| Nova-14B | 44.9 | 60.3 |\n\n## Quantized\n\nWe quantize the chat models to Int4.\n\n"
            "| Model | MBPP | GSM8K |\n| --- | --- | --- |\n| Nova-7B-Chat | 33.1 | 51.2 |\n| Nova-14B-Chat | 45.5 | 58.1 |\n")
    rec = extract_text(text, "t.md")
    assert sorted(c.conditions["model"].value for c in rec.claims if c.value == 51.2) == ["Nova-7B", "Nova-7B-Chat"]
    # a name written out more fully is the same model: one claim with two mentions
    text = ("# Nova\n\nNova scores 37.4 on MBPP.\n\n## Scores\n\n| Model | MBPP |\n| --- | --- |\n"
            "| Nova-7B | 37.4 |\n")
    merged = [c for c in extract_text(text, "t.md").claims if c.value == 37.4]
    assert len(merged) == 1 and len(merged[0].mentions) == 2
