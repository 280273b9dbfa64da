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
    ("The distilled pipeline cuts generation time, a speedup of $40 \\sim 90\\times$ on one workstation GPU.\n", 40, 90),
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
    ("On skewed batches the new scheduler decodes **2.3×** faster on average than ZetaAttn and OmegaFlash.\n",
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
    "Multi-process serving delivers a minimum 2x speedup over the single process.\n",   # a bound, no statistic
    "The kernel reaches a maximum of 3x over the naive loop.\n",
])
def test_a_minimum_or_maximum_right_before_a_ratio_is_no_statistic(text: str) -> None:
    c = [c for c in claims_in(text) if c.metric == "speedup"][0]
    assert c.statistic is None, _claims(text)


# ---- a per-device column header governs the memory cells under it
def test_memory_under_a_per_gpu_header_is_per_gpu() -> None:
    text = ("| Setup | Memory used per GPU | Largest batch |\n|---|---|---|\n| 2-way TP | 11.40 GB | 300 |\n"
            "| 4-way TP | 6.10 GB | 650 |\n")
    mem = [c for c in claims_in(text) if c.metric == "memory"]
    assert [(c.value, c.per, c.unit) for c in mem] == [(11.4, "gpu", "gigabyte / gpu"), (6.1, "gpu", "gigabyte / gpu")]


@pytest.mark.parametrize("text", [
    "| Setup | Peak memory | Largest batch |\n|---|---|---|\n| 2-way TP | 11.40 GB | 300 |\n",   # no per word
    "Each request keeps 1.5 GiB of KV cache per sequence at its peak.\n",     # per sequence: no device
])
def test_memory_without_a_per_device_word_has_no_per(text: str) -> None:
    mem = [c for c in claims_in(text) if c.metric == "memory"]
    assert mem and all(c.per is None for c in mem), _claims(text)
