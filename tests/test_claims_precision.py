"""Claims right (issue 23, precision): the direction of signed changes in a difference column and of a speed-up
below 1x, overheads as relative changes, metric words that name a setting, settings written as assignments and
counts out of N, and the baseline a table names. Sentences and tables written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def claims(text: str):
    return extract_text(text, "t.md").claims


def one(text: str, value: float):
    found = [c for c in claims(text) if abs(abs(c.value) - value) < 1e-9]
    assert found, f"no claim with value {value} in {[(c.metric, c.value, c.quote) for c in claims(text)]}"
    return found[0]


DIFFERENCE_TABLE = ("# Results\n\n| Metric | Baseline | Ours | {header} |\n| --- | --- | --- | --- |\n"
                    "| Decode throughput | 500 tok/s | 560 tok/s | +12.0% |\n"
                    "| Median TTFT | 300 ms | 270 ms | −10.0% |\n"
                    "| Median TPOT | 30 ms | 33 ms | +10.0% |\n")


@pytest.mark.parametrize("header", ["Difference", "Delta", "Change"])
@pytest.mark.parametrize("value,direction", [(12.0, "better"), (10.0, None)])
def test_a_signed_cell_in_a_difference_column_has_the_direction_of_its_sign(header, value, direction):
    found = {(c.value, c.direction) for c in claims(DIFFERENCE_TABLE.format(header=header))
             if c.metric == "relative_change"}
    # more throughput is better; less TTFT is better, more TPOT worse
    assert found == {(12.0, "better"), (-10.0, "better"), (10.0, "worse")}


def test_an_unsigned_difference_stays_neutral():
    c = one("# Results\n\nBetween the two runs we saw a 2% difference in decode throughput.\n", 2)
    assert c.direction == "neutral"


@pytest.mark.parametrize("text,value,direction", [
    ("# R\n\n| Pair | Task | Speedup - old | Speedup - new |\n| --- | --- | --- | --- |\n| a / b | chat | 0.91x | 1.21x |\n",
     0.91, "worse"),
    ("# R\n\n| Pair | Task | Speedup - old | Speedup - new |\n| --- | --- | --- | --- |\n| a / b | chat | 0.91x | 1.21x |\n",
     1.21, "better"),
    ("# R\n\nOn chat, the static policy gives a 0.85x speedup while ours gives 1.3x.\n", 0.85, "worse"),
    ("# R\n\nThe fused kernel needs 0.6x the latency of the unfused one.\n", 0.6, "better"),
])
def test_a_speedup_below_one_is_a_slowdown(text, value, direction):
    c = one(text, value)
    assert c.metric == "speedup" and c.direction == direction


@pytest.mark.parametrize("text,value,metric,direction", [
    ("# R\n\nFP8 adds almost nothing, whereas the 3-bit cache overhead ranges from 7% to 45%.\n", 7, "relative_change", "worse"),
    ("# R\n\nThe scheduler has an overhead of only 4% on our cluster.\n", 4, "relative_change", "neutral"),
    ("# R\n\nThe all-reduce overhead accounts for only 3% of end-to-end time.\n", 3, "other", None),
])
def test_an_overhead_in_percent_is_a_relative_change(text, value, metric, direction):
    c = one(text, value)
    assert (c.metric, c.direction) == (metric, direction)


def test_a_metric_word_naming_the_setting_does_not_name_the_figure():
    text = ("# R\n\nThe copy engine beats the kernel here. The gain starts at around 4.5% at the 0 hit rate, "
            "and increases to around 12% at the 80% hit rate measurement.\n")
    record = extract_text(text, "t.md")
    c = [c for c in record.claims if c.value == 4.5][0]
    assert (c.metric, c.direction) == ("relative_change", "better")
    assert not [c for c in record.claims if c.value == 80]
    assert [(s.quote, s.reason) for s in record.set_aside] == [("80%", "setting")]


@pytest.mark.parametrize("text,value,direction", [
    ("# R\n\nAfter the change, peak HBM grew about 17% (20.0 → 23.4 GB) on the larger model.\n", 17, "worse"),
    ("# R\n\nOn the 64B model, HBM usage fell by 30%.\n", 30, "better"),
    ("# R\n\nIn the end, a 38% performance increase at max throughput, and 13% performance increase at min "
     "latency.\n", 13, "better"),
    ("# R\n\nWithout the cache we measured a 9% performance drop at low latency.\n", 9, "worse"),
])
def test_the_quantity_changed_decides_the_direction(text, value, direction):
    c = one(text, value)
    assert c.metric == "relative_change" and c.direction == direction


@pytest.mark.parametrize("text", [
    "# R\n\nFigure 4 shows the acceptance length (AL) we get with `k=3, v=5` on chat.\n",
    "# R\n\nWe keep the accuracy check simple: top_k=4 and num_beams=2 for all runs.\n",
])
def test_a_setting_written_as_an_assignment_is_no_claim(text):
    assert [c.value for c in claims(text)] == []


def test_a_named_acceptance_length_stays_a_claim():
    c = one("# R\n\nWith the new drafter the mean acceptance length of 2.8 holds on code.\n", 2.8)
    assert c.unit == "token"


@pytest.mark.parametrize("text", [
    "# R\n\nIn the replay run, **12/12** exact-scored task traces complete.\n",
    "# R\n\nThe quantised model scored 44/50 on the quiz.\n",
])
def test_a_count_out_of_n_is_no_score_in_percent(text):
    assert [c.value for c in claims(text)] == []


def test_a_score_out_of_100_in_a_table_stays_a_share():
    c = one("# R\n\n| Model | Quiz |\n| --- | --- |\n| A | 73/100 |\n", 73)
    assert c.unit == "percent"


@pytest.mark.parametrize("text,value", [
    ("# R\n\nWith a bf16 cache, the new model only has 7.5 GiB KV cache per sequence at 512K context.\n", 7.5),
    ("# R\n\nThe latent layout keeps about 70 KB of KV cache per token.\n", 70),
])
def test_the_size_of_a_runs_state_per_sequence_is_a_memory_claim(text, value):
    c = one(text, value)
    assert c.metric == "memory"


@pytest.mark.parametrize("text,quote", [
    ("# R\n\nEach node has 96 GB HBM3 and the card has 24 GB of memory.\n", "24 GB"),
    ("# R\n\nThe pool reserves 40 GB KV cache for the decode workers.\n", None),
])
def test_a_device_or_a_pool_size_is_no_state_claim(text, quote):
    record = extract_text(text, "t.md")
    assert record.claims == []
    if quote:
        assert (quote, "datasheet") in [(s.quote, s.reason) for s in record.set_aside]
