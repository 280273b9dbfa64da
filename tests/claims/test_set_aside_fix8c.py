"""Classes from the judge's draw 8c, each a general rule (principle 3): a ratio of two models' sizes is a model's
size, not a speed-up; the time a how-to's build takes, written as "a very long time (N h)", is an example; a worked
scenario the post supposes ("Consider a ... model", "Suppose ...", "Imagine ...") and the list its lead sentence
opens are examples; a sentence opening "Averaged over ..., " or "On average, " gives its figures the mean. Every
sentence is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def decided(text: str):
    r = extract_text(text, doc="t.md")
    return {c.quote: c for c in r.claims}, {a.quote: (a.reason, a.rule) for a in r.set_aside}


@pytest.mark.parametrize("text,quote", [
    ("Swap in the bigger checkpoint if you like; it is about 5x larger than the 13B one, so it takes longer to load.",
     "about 5x"),
    ("A network 3x the size of our draft model still fits on the card.", "3x"),
    ("The flagship has 8× more parameters than the compact variant.", "8×"),
    ("This model is roughly 4× bigger than the 7B version.", "roughly 4×"),
])
def test_a_ratio_of_model_sizes_is_a_model_size(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("model_size", "set_aside.model_size_ratio") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("Our fused kernel is 2.7x faster than the 13B model's eager baseline.", "2.7x"),
    ("The server reaches 3x larger throughput than the 7B model did on the old stack.", "3x"),
])
def test_a_speed_up_beside_a_model_name_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside


@pytest.mark.parametrize("text,quote", [
    ("Without a parallel build tool, compiling can take a very long time (3h) on one core.", "3h"),
    ("Building the wheel may take a while (about 40 minutes) on a laptop.", "about 40 minutes"),
])
def test_a_build_step_taking_a_long_time_is_an_example(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("example", "set_aside.how_to_step_time") and quote not in claims


def test_a_compared_build_time_stays_a_claim():
    claims, _ = decided("With the cache, compiling takes a while (6 minutes), down from 25 minutes before.")
    assert "6 minutes" in claims


@pytest.mark.parametrize("text,quote", [
    ("Consider a 40B model in FP16 that needs ~80 GB before any cache is allocated.", "~80 GB"),
    ("Imagine a request that waits 3 s in the queue before its first token.", "3 s"),
    ("Suppose the link moves 25 GB/s and a layer's weights take 2 ms to arrive.", "2 ms"),
])
def test_a_supposed_scenario_is_an_example(text, quote):
    claims, aside = decided(text)
    assert aside[quote][0] == "example" and quote not in claims


def test_the_list_a_supposed_scenario_opens_is_an_example():
    text = ("Consider a 52B parameter model stored in FP16, which needs about 104 GB:\n\n"
            "- Casting it to FP8 halves the footprint to ~52 GB\n"
            "- Four-bit weights bring it to ~26 GB\n")
    claims, aside = decided(text)
    for quote in ("halves", "~52 GB", "~26 GB"):
        assert aside[quote] == ("example", "set_aside.hypothetical_scenario_list") and quote not in claims


def test_a_list_after_a_measured_lead_stays_claims():
    text = ("We measured the 52B model on our cluster:\n\n"
            "- FP8 weights cut decode latency by 31%\n"
            "- the fused kernel runs 1.8x faster than eager mode\n")
    claims, aside = decided(text)
    assert {"31%", "1.8x"} <= set(claims)


def test_consider_the_results_is_not_a_scenario():
    claims, _ = decided("Consider the results: our server reaches 2.2x the throughput of the old one.")
    assert "2.2x" in claims


@pytest.mark.parametrize("text,quote,metric", [
    ("Averaged over batch sizes, the new router is 1.37× faster than the best baseline.", "1.37×", "speedup"),
    ("Averaged across 4 runs, decode reaches 655 tokens/s on a single card.", "655 tokens/s", "throughput"),
    ("On average, time to first token drops to 88 ms with the prefix cache.", "88 ms", "ttft"),
])
def test_a_sentence_opening_averaged_over_gives_the_mean(text, quote, metric):
    claims, _ = decided(text)
    assert claims[quote].metric == metric and claims[quote].statistic == "mean"


@pytest.mark.parametrize("text,quote", [
    ("Across batch sizes, the new router is 1.37× faster than the best baseline.", "1.37×"),
    ("We averaged nothing here; decode reaches 655 tokens/s on a single card.", "655 tokens/s"),
])
def test_without_an_averaging_lead_no_statistic(text, quote):
    claims, _ = decided(text)
    assert claims[quote].statistic is None


def test_a_table_lead_averaged_over_runs_gives_its_cells_the_mean():
    text = ("# Results\n\nDecode rate of each engine, averaged across 3 runs:\n\n"
            "| Engine | Throughput (tokens/s) | TTFT (ms) |\n|---|---|---|\n| ours | 733 | 91 |\n| old | 518 | 137 |\n\n"
            "Table 2: Speedup over eager mode, averaged over batch sizes.\n\n"
            "| Model | Speedup |\n|---|---|\n| 8B | 1.46x |\n| 70B | 1.27x |\n")
    claims, _ = decided(text)
    for quote in ("733", "91", "518", "137", "1.46x", "1.27x"):
        assert claims[quote].statistic == "mean"


def test_a_table_lead_without_averaging_gives_no_statistic():
    text = ("# Results\n\nWe ran each engine once on a single card:\n\n"
            "| Engine | Throughput (tokens/s) |\n|---|---|\n| ours | 733 |\n| old | 518 |\n")
    claims, _ = decided(text)
    assert claims["733"].statistic is None and claims["518"].statistic is None


def test_a_lead_summing_the_table_up_as_an_average_leaves_its_cells_alone():
    text = ("# Results\n\nAveraged over batch sizes, the new kernel is 1.38× faster than the old one.\n\n"
            "| Batch | New (µs) | Old (µs) |\n|---|---|---|\n| 1 | 41.5 | 60.2 |\n| 8 | 77.3 | 101.9 |\n")
    claims, _ = decided(text)
    assert claims["1.38×"].statistic == "mean"
    assert claims["41.5"].statistic is None and claims["101.9"].statistic is None
