"""Percents and ratios in prose that are claims though no cue word sits by them (issue 23): the next items of
an enumeration, a share of a run's time, a decimal ratio before a device's name, a level "N x that of" another
system; and the reference value of a comparison, set aside as its baseline. Negative sentences beside each.
Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _claims(text: str) -> dict:
    return {c.quote: c for c in extract_text(text, "t.md").claims}


def test_each_item_of_an_enumerated_change_is_a_claim_with_the_sign_of_the_first() -> None:
    claims = _claims("After the rewrite, launch count fell by about 60%, copy events by about 35%, and "
                     "idle time by about 22%.\n")
    assert {"about 60%", "about 35%", "about 22%"} <= set(claims)
    third = claims["about 22%"]
    assert (third.metric, third.value, third.direction) == ("relative_change", -22.0, "better")


def test_an_enumerated_change_that_keeps_growing_is_a_claim() -> None:
    claims = _claims("Prefill time drops by about 20% on average, and decode time by about 12% on average, "
                     "growing to about 25% for the biggest batches.\n")
    assert claims["about 25%"].value == -25.0


def test_a_setting_after_a_change_is_no_item_of_the_enumeration() -> None:
    claims = _claims("The cache lifts throughput by 18% at a 40% hit rate on the chat trace.\n")
    assert "18%" in claims and "40%" not in claims


def test_a_share_of_the_time_is_a_claim_of_metric_other() -> None:
    claims = _claims("Profiling shows the sampler takes 35% of the total step time on small batches.\n")
    assert claims["35%"].metric == "other"
    claims = _claims("The gather kernels consume the remaining 15% of the model's runtime.\n")
    assert claims["15%"].metric == "other"


def test_a_share_of_something_else_is_not_a_share_of_time() -> None:
    claims = _claims("We keep 30% of the layers in the fast tier.\n")
    assert "30%" not in claims


def test_a_decimal_ratio_before_a_device_is_a_speed_up_over_it() -> None:
    claims = _claims("## The new board reaches up to 3.4x A100 on long prompts\n")
    c = claims["up to 3.4x"]
    assert (c.metric, c.baseline, c.direction) == ("speedup", "A100", "better")


def test_an_integer_before_a_device_stays_a_device_count() -> None:
    record = extract_text("We ran the sweep on 4x A100 over two days.\n", "t.md")
    assert not record.claims
    assert [(a.quote, a.reason) for a in record.set_aside] == [("4x", "setting")]


def test_a_ratio_that_of_another_system_names_it_as_the_baseline() -> None:
    c = _claims("The step time of the sparse kernel is 1.8x that of the dense kernel at 32K.\n")["1.8x"]
    assert (c.metric, c.baseline, c.direction) == ("speedup", "the dense kernel", "worse")


@pytest.mark.parametrize("text,quote", [
    ("The tuned model beats the base one (error rate 4.1% vs 7.9%).\n", "7.9%"),
    ("Retrieval improves 2.1x (40.2% vs 19.1% for the baseline).\n", "19.1%"),
])
def test_the_reference_value_of_a_comparison_is_set_aside_as_its_baseline(text: str, quote: str) -> None:
    record = extract_text(text, "t.md")
    assert quote not in [c.quote for c in record.claims]
    assert (quote, "baseline") in [(a.quote, a.reason) for a in record.set_aside]


@pytest.mark.parametrize("text,quote,metric", [
    ("The small draft kept an 85% accept rate at depth 2 on the chat set.\n", "85%", "other"),
    ("The patched build posts a 97.5% success rate on our needle test.\n", "97.5%", "accuracy"),
    ("The new router achieves 72% of the ideal throughput on eight nodes.\n", "72%", "other"),
    ("Lookahead Sampling produced a 1.6x speedup over greedy decoding on one card.\n", "1.6x", "speedup"),
])
def test_cue_words_of_shares_scores_and_speed_ups_in_prose(text: str, quote: str, metric: str) -> None:
    assert _claims(text)[quote].metric == metric


def test_a_spike_in_a_latency_is_a_change_for_the_worse() -> None:
    c = _claims("Under bursty load the P99 TTFT spikes by 40% on the old scheduler.\n")["40%"]
    assert (c.metric, c.direction) == ("relative_change", "worse")


def test_a_sampling_setting_is_still_no_claim() -> None:
    record = extract_text("We decode with a sampling rate of 10% of the steps and top-p sampling at 90%.\n", "t.md")
    assert not [c for c in record.claims if c.unit == "percent"]


def test_a_level_that_of_another_system_in_memory_is_no_speed_up() -> None:
    assert "2.5x" not in _claims("Per the spec sheet, VRAM on the workstation card is 2.5x that of the gaming card.\n")


def test_a_baseline_named_with_a_dotted_name_keeps_it_whole() -> None:
    c = _claims("Decode speed reached nearly 8 times that of llama.cpp on one socket.\n")["nearly 8 times"]
    assert c.baseline == "llama.cpp"


def test_the_other_end_of_a_range_written_with_markup_is_a_mention_of_the_claim() -> None:
    text = "Across the sweep the gains range from **1.3x** to **2.2x** over the old scheduler.\n"
    c = _claims(text)["1.3x"]
    assert (c.value, c.value_max) == (1.3, 2.2)
    assert [m.quote for m in c.mentions] == ["1.3x", "2.2x"]
    assert all(text[m.span[0]:m.span[1]] == m.quote for m in c.mentions)


def test_a_range_without_markup_keeps_one_mention() -> None:
    c = _claims("Across the sweep the gains range from 1.3x to 2.2x over the old scheduler.\n")["1.3x to 2.2x"]
    assert [m.quote for m in c.mentions] == ["1.3x to 2.2x"]


@pytest.mark.parametrize("text,quote,metric", [
    ("Eight workers reach 7.1x, about 89% of the ideal 8x scaling on this cluster.\n", "about 89%", "other"),
    ("The offloaded run finishes on time while using only 52% of the baseline's HBM.\n", "52%", "memory"),
    ("The small network scores 74.2% at 12.5M parameters on the image set.\n", "74.2%", "accuracy"),
    ("Four replicas give 3.5x the single-replica baseline on the chat trace.\n", "3.5x", "speedup"),
    ("Over the day, 120B prompt tokens (61.2%) hit the on-disk prefix cache.\n", "61.2%", "other"),
    ("Decode time fell by 20% (short prompts) and 12% (long prompts) on the new build.\n", "12%", "relative_change"),
])
def test_shares_of_an_ideal_of_memory_and_scores_at_a_size(text: str, quote: str, metric: str) -> None:
    assert _claims(text)[quote].metric == metric


def test_the_ideal_factor_is_set_aside_as_the_baseline_and_a_memory_setting_stays_a_setting() -> None:
    record = extract_text("Eight workers reach 7.1x, about 89% of the ideal 8x scaling on this cluster.\n", "t.md")
    assert ("8x", "baseline") in [(a.quote, a.reason) for a in record.set_aside]
    record = extract_text("We reserve 90% of GPU memory for the cache on each card.\n", "t.md")
    assert not record.claims
