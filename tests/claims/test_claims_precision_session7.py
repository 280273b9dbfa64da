"""Precision classes from the random draws of session 7 (issue 23, helper `precise5`): a range of ratios written in
LaTeX math, "on average over A and B" (both baselines, statistic mean), a per-device column header over memory
cells, durations to train or build, and the headline flag. Every sentence here is written for the test; each class
has its negatives."""
from __future__ import annotations

import pytest

from claim_checks import claims_in
from extractor.api import extract_text


def _claims(text: str):
    return [(c.quote, c.metric, c.value, c.value_max, c.qualifier, c.direction) for c in claims_in(text)]


# ---- a range of ratios in LaTeX math keeps its low end and its direction
@pytest.mark.parametrize("text,low,high", [
    ("Across our four clip lengths, rendering got $40 \\sim 90\\times$ quicker after the rewrite.\n", 40, 90),
    ("Our sparse kernel runs $2$--$3\\times$ faster than the dense reference.\n", 2, 3),
    ("Decoding becomes $1.5\\text{-}2.5\\times$ faster with the fused cache.\n", 1.5, 2.5),
    ("Prefill is $3-7\\times$ quicker once the tiles are reordered.\n", 3, 7),
])
def test_a_latex_range_of_ratios_is_one_range(text: str, low: float, high: float) -> None:
    found = [c for c in claims_in(text) if c.metric == "speedup"]
    assert len(found) == 1, _claims(text)
    c = found[0]
    assert (c.value, c.value_max, c.qualifier, c.direction) == (low, high, "range", "better"), _claims(text)
    assert not any(a.reason == "markup" for a in extract_text(text, "t.md").set_aside)


@pytest.mark.parametrize("text,value", [
    ("Our sparse kernel runs $3\\times$ faster than the dense reference.\n", 3),     # one ratio, no range
    ("The tile is $64 \\times 128$ elements and the kernel is 2x faster.\n", 2),     # a shape, not a range
])
def test_latex_math_that_is_no_range_stays_as_it_was(text: str, value: float) -> None:
    speedups = [c for c in claims_in(text) if c.metric == "speedup"]
    assert [(c.value, c.value_max) for c in speedups] == [(value, None)], _claims(text)


# ---- "N x on average over A and B": both are the baseline, and the average is the statistic
@pytest.mark.parametrize("text,baseline,statistic", [
    ("Measured over twelve traces, our planner answers **2.3×** faster on average than ZetaAttn and OmegaFlash.\n",
     "ZetaAttn and OmegaFlash", "mean"),
    ("Our router is 3.1x faster than vLLM and SGLang on 8 GPUs.\n", "vLLM and SGLang", None),
    ("The fused path is 1.4x faster than TGI or Ollama.\n", "TGI or Ollama", None),
    ("The median run was 2.1x faster than the stock build.\n", "the stock build", "median"),
    ("The new allocator gives an average 1.5x speedup compared with the old allocator.\n", "the old allocator", "mean"),
    ("P99 TTFT drops by 30% compared to the static batcher.\n", "the static batcher", "p99"),
])
def test_a_ratio_keeps_every_named_baseline_and_its_statistic(text: str, baseline: str, statistic) -> None:
    c = [c for c in claims_in(text) if c.metric in ("speedup", "relative_change")][0]
    assert (c.baseline, c.statistic) == (baseline, statistic), _claims(text)


@pytest.mark.parametrize("text,baseline", [
    ("Our router is 3.1x faster than vLLM and TPOT stays flat.\n", "vLLM"),          # a metric: a new clause
    ("It is 2x faster than vLLM and uses half the memory.\n", "vLLM"),              # a verb: a new clause
    ("On average, it gives 4.5x lower latency than the A10 card and 4x more throughput.\n", "the A10 card"),
])
def test_and_that_opens_a_new_clause_ends_the_baseline(text: str, baseline: str) -> None:
    c = [c for c in claims_in(text) if c.metric == "speedup"][0]
    assert c.baseline == baseline, _claims(text)


@pytest.mark.parametrize("text", [
    "Sharding the index brings a minimum 2x gain in lookup speed against one shard.\n",   # a bound, no statistic
    "The kernel reaches a maximum of 3x over the naive loop.\n",
])
def test_a_minimum_or_maximum_right_before_a_ratio_is_no_statistic(text: str) -> None:
    c = [c for c in claims_in(text) if c.metric == "speedup"][0]
    assert c.statistic is None, _claims(text)


# ---- a per-device column header governs the memory cells under it
def test_memory_under_a_per_gpu_header_is_per_gpu() -> None:
    text = ("| Layout | Memory held per GPU | Seqs in flight |\n|---|---|---|\n| TP=2 | 11.40 GB | 300 |\n"
            "| TP=4 | 6.10 GB | 650 |\n")
    mem = [c for c in claims_in(text) if c.metric == "memory"]
    assert [(c.value, c.per, c.unit) for c in mem] == [(11.4, "gpu", "gigabyte / gpu"), (6.1, "gpu", "gigabyte / gpu")]


@pytest.mark.parametrize("text", [
    "| Setup | Peak memory | Largest batch |\n|---|---|---|\n| 2-way TP | 11.40 GB | 300 |\n",   # no per word
    "Each request keeps 1.5 GiB of KV cache per sequence at its peak.\n",     # per sequence: no device
])
def test_memory_without_a_per_device_word_has_no_per(text: str) -> None:
    mem = [c for c in claims_in(text) if c.metric == "memory"]
    assert mem and all(c.per is None for c in mem), _claims(text)


# ---- how long training took: GOLD.md's `latency` (any other latency), read through the training words
@pytest.mark.parametrize("text,value", [
    ("Our small predictor stays cheap: trainable within 1-3 days on a pair of gaming cards.\n", 1),
    ("Thanks to the offload path, a lab can train its 20B assistant in 7 hours.\n", 7),
    ("Training time for the 7B reward model drops to 3.5 hours with the fused optimizer.\n", 3.5),
    ("On the bigger cluster the reward model can be trained in 11 hours instead of two days.\n", 11),
    ("Distillation takes about 6 hours on a single node.\n", 6),
    ("Fine-tuning the adapter took 40 minutes on one card.\n", 40),
    ("With the new scheduler a 7B model can be fine-tuned in 2.5 hours on one node.\n", 2.5),
    ("Each run needs about 2 days of training on a small cluster.\n", 2),
])
def test_a_training_duration_is_a_latency(text: str, value: float) -> None:
    found = [c for c in claims_in(text) if c.value == value]
    assert found and found[0].metric == "latency", _claims(text)


@pytest.mark.parametrize("text,value,metric", [
    ("Our draft head, trained on chat logs, cuts latency to 40 ms.\n", 40, "latency"),   # another metric, nearer
    ("The fine-tuned model answers in 320 ms on average.\n", 320, "latency"),           # an adjective, no training
    ("Loading the checkpoint takes 2 minutes on first start.\n", 2, "latency"),
    ("Training with the new data lowers TTFT to 80 ms.\n", 80, "ttft"),                # an inference metric
    ("Render latency falls from 200 s per clip to 9.5 s per clip after distillation.\n", 9.5, "latency"),
    ("After training, TTFT of the served model is 180 ms.\n", 180, "ttft"),
])
def test_a_time_of_the_trained_system_stays_a_latency(text: str, value: float, metric: str) -> None:
    found = [c for c in claims_in(text) if c.value == value]
    assert found and found[0].metric == metric, _claims(text)


def test_a_table_captioned_as_training_time_holds_training_durations() -> None:
    body = "| GPUs | 7B | 13B |\n|---|---|---|\n| 8x A100 | 3.1 hours | 6.2 hours |\n\n"
    trained = claims_in("## Results\n\n" + body + "*Table 1. Training time of the two models on one node.*\n")
    served = claims_in("## Results\n\n" + body.replace("hours", "s") + "*Table 1. Time to answer one request.*\n")
    assert [c.metric for c in trained] == ["latency", "latency"]
    assert [c.metric for c in served] == ["latency", "latency"]


# ---- the headline flag: what the post leads with, not every figure under a lead heading
_TOP_SUMMARY = """# Fast decoding on one box

A short opening with no figures.

# Summary

Our build decodes at 14 tokens/s on one desktop.

## Setup

The runs used a single workstation.

## Results

Prefill reaches 210 tokens/s with the new kernel.
"""


def test_a_top_level_summary_leads_with_its_own_text_only() -> None:
    flags = {c.value: c.headline for c in claims_in(_TOP_SUMMARY)}
    assert flags == {14: True, 210: False}


def test_a_deeper_introduction_leads_with_its_subsections() -> None:
    text = ("# Post title\n\n## Introduction\n\nWe built a cache.\n\n### Why it matters\n\n"
            "Switching models becomes 30x faster than a full reload.\n\n## Method\n\nIt took 4 hours to get 2.5x "
            "lower TTFT on the long prompts.\n")
    flags = {c.value: c.headline for c in claims_in(text)}
    assert flags[30] is True and flags[2.5] is False


def test_table_cells_under_an_overview_heading_are_not_headlines() -> None:
    text = ("# Post title\n\n## Overview\n\nThe new engine serves 1,200 tokens/s on one node.\n\n"
            "| Model | Throughput (tokens/s) |\n|---|---|\n| 7B | 1,200 |\n| 13B | 740 |\n")
    flags = {c.value: c.headline for c in claims_in(text)}
    assert flags == {1200: True, 740: False}    # the 1,200 cell restates the lead's figure; 740 is the body


# ---- a table of groups, each with its own 1.00x row: a speed-up is against the baseline row of its group
_GROUPED = """| Task | Step time | Ratio | Run | Comment |
|---|---|---|---|---|
| Summaries | 3.2 s | 1.0x | Reference run (no cache) | four prompts |
| Summaries | 1.6 s | **2.00x** | with prefix cache | |
| Translation | 8.0 s | 1.0x | plain decoder | |
| Translation | 2.5 s | **3.20x** | with prefix cache | |
"""


def test_a_speedup_takes_the_baseline_row_of_its_group() -> None:
    bases = {c.value: c.baseline for c in claims_in(_GROUPED) if c.metric == "speedup"}
    assert bases == {2.0: "Reference run (no cache)", 3.2: "plain decoder"}, bases


def test_a_single_baseline_row_still_serves_every_row_below_it() -> None:
    text = ("| Setup | Time | Speedup |\n|---|---|---|\n| eager loop | 9.0 s | 1.00x |\n| graphs | 6.0 s | 1.50x |\n"
            "| graphs + fused | 4.5 s | 2.00x |\n")
    assert {c.value: c.baseline for c in claims_in(text) if c.metric == "speedup"} == {1.5: "eager loop",
                                                                                     2.0: "eager loop"}


# ---- a named score compared after it ("a WER of 4.7%, close to the reported 4.9%") is the score, no change
@pytest.mark.parametrize("text,value,metric", [
    ("Our speech model transcribes the noisy split at a WER of 7.35%; that is close to what the authors report.\n",
     7.35, "accuracy"),
    ("Our build scores an accuracy of 71.2%, on par with the FP16 model.\n", 71.2, "accuracy"),
])
def test_a_named_score_compared_after_it_keeps_its_metric(text: str, value: float, metric: str) -> None:
    c = [c for c in claims_in(text) if c.value == value][0]
    assert (c.metric, c.direction) == (metric, None), _claims(text)


@pytest.mark.parametrize("text,value", [
    ("Throughput is 12% higher, close to the ideal.\n", 12),        # a change stays a change
    ("TTFT dropped 8%, close to what we expected.\n", 8),
])
def test_a_change_compared_after_it_stays_a_change(text: str, value: float) -> None:
    c = [c for c in claims_in(text) if abs(c.value) == value][0]
    assert c.metric == "relative_change", _claims(text)


# ---- a statistic word outside a parenthesis does not reach the figure inside it
def test_a_statistic_outside_a_parenthesis_is_not_the_figure_s() -> None:
    text = "On the tablet the mean RAM draw is 1.7 GB (close to 5 tokens/s while charging).\n"
    c = [c for c in claims_in(text) if c.metric == "throughput"][0]
    assert c.statistic is None, _claims(text)


@pytest.mark.parametrize("text,statistic", [
    ("P99 TTFT (at 64 users) is 30 ms.\n", "p99"),              # the parenthesis closes before the figure
    ("The mean TPOT for 8 GPUs is 21 ms.\n", "mean"),
])
def test_a_statistic_before_a_closed_parenthesis_still_applies(text: str, statistic: str) -> None:
    c = claims_in(text)[0]
    assert c.statistic == statistic, _claims(text)


def test_a_figure_in_parentheses_restating_its_statistic_keeps_it() -> None:
    text = "Once the queue fills, the mean TTFT climbs steeply (41.9s) and users start to retry.\n"
    c = [c for c in claims_in(text) if c.metric == "ttft"][0]
    assert c.statistic == "mean", _claims(text)


# ---- a frequency in hertz is a specification (a clock, a sample rate, a codec's frame rate), never a result
@pytest.mark.parametrize("text,quote", [
    ("Our board lowers its clock to about 1500 MHz whenever the fan fails.\n", "about 1500 MHz"),
    ("The codec uses a 25 Hz tokenizer for the audio stream.\n", "25 Hz"),
    ("Input audio is resampled to 16 kHz before decoding.\n", "16 kHz"),
])
def test_a_frequency_is_set_aside_as_a_specification(text: str, quote: str) -> None:
    record = extract_text(text, "t.md")
    assert not record.claims and [(a.quote, a.reason) for a in record.set_aside] == [(quote, "datasheet")]


def test_a_rate_beside_a_frequency_stays_a_claim() -> None:
    record = extract_text("Audio is resampled to 16 kHz and decoding runs at 120 tokens/s.\n", "t.md")
    assert [(c.value, c.metric) for c in record.claims] == [(120, "throughput")]
