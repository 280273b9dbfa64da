"""Configuration tables (issue 24): a post that lists its configurations in one table and reports results in
another whose columns name them ("Model A throughput") gives each result the settings of its configuration's row;
a table of other results, or a configuration named with another aside, gives nothing. Posts written for these
tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

CONFIGS = """| Configuration | cores | batch_size | repository |
|---------------|-------|------------|------------|
| Model A - latency | 8 | 1 | org/model-a-latency |
| Model A - throughput | 8 | 4 | org/model-a-throughput |
"""

RESULTS = """| new tokens | Model A latency | Model A throughput |
|------------|-----------------|--------------------|
| 256 | 210 tokens/s | 640 tokens/s |
| 512 | 170 tokens/s | 560 tokens/s |
"""


def _post(configs: str, results: str = RESULTS) -> str:
    return f"# Decoding speed\n\nAn introduction.\n\n## Configurations\n\n{configs}\n## Results\n\n{results}"


def test_a_result_column_named_by_a_configuration_takes_its_row_s_settings():
    rec = extract_text(_post(CONFIGS), "t.md")
    assert stated(claim(rec, 210), "batch_or_concurrency").value == 1
    c = claim(rec, 560)
    assert stated(c, "batch_or_concurrency").value == 4
    assert "Model A - throughput" in c.conditions["batch_or_concurrency"].note
    assert stated(c, "output_length").value == 512


def test_a_table_of_other_results_is_no_configuration_table():
    measured = CONFIGS.replace("| repository |", "| speed |").replace("|------------|\n", "|------------|\n", 1) \
        .replace("org/model-a-latency", "200 tokens/s").replace("org/model-a-throughput", "600 tokens/s")
    rec = extract_text(_post(measured), "t.md")
    unrecoverable(claim(rec, 560), "batch_or_concurrency")


def test_a_configuration_named_with_another_aside_or_twice_gives_nothing():
    rec = extract_text(_post(CONFIGS.replace("Model A - throughput", "Model A - throughput (Int4)")), "t.md")
    unrecoverable(claim(rec, 560), "batch_or_concurrency")
    twice = CONFIGS + "\n\n| Configuration | batch_size |\n|---|---|\n| Model A throughput | 16 |\n"
    rec = extract_text(_post(twice), "t.md")
    unrecoverable(claim(rec, 560), "batch_or_concurrency")
    assert stated(claim(rec, 210), "batch_or_concurrency").value == 1


def test_a_row_label_naming_a_model_of_another_table_gives_nothing():
    other = "| Model | Input Length | Score |\n|---|---|---|\n| Model B | 32K | good |\n"
    results = "| Model | Speed |\n|---|---|\n| Model B | 300 tokens/s |\n"
    rec = extract_text(_post(other, results), "t.md")
    unrecoverable(claim(rec, 300), "input_length")
