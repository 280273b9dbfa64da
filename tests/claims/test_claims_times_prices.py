"""Times and prices in prose (issue 23): a time in a comparison or a series with a measured time, a time a
measurement word or a statistic word names, a time in parentheses after what it measures, a time per item; and
the times and prices that are no result, each set aside with its reason (a media length, a sampling window, a
workload's timing, defaults, an estimate from a rate, a how-to's run time, arithmetic on an assumption, a list
price). Every sentence here is written for the test; each class has its negative cases."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def record(text: str):
    return extract_text(text, doc="t.md")


def claim_of(text: str, quote: str):
    found = [c for c in record(text).claims if c.quote == quote]
    assert found, f"no claim {quote!r} in {[(c.metric, c.quote) for c in record(text).claims]}"
    return found[0]


def no_claim(text: str, quote: str) -> None:
    found = [(c.metric, c.quote) for c in record(text).claims if quote in c.quote]
    assert not found, f"unexpected claim for {quote!r}: {found}"


def aside(text: str, quote: str):
    found = [a for a in record(text).set_aside if a.quote == quote]
    assert found, f"{quote!r} not set aside: {[(a.quote, a.reason) for a in record(text).set_aside]}"
    return found[0]


# -- times that are results -------------------------------------------------------------------------------
@pytest.mark.parametrize("text,quote,metric,value,statistic", [
    # a comparison: the figure after "vs" is a measured level too
    ("Cold restarts are ~4x slower than warm ones (1.92s vs 0.47s on the 1B model).", "0.47s", "latency", 0.47,
     None),
    # a series with a measured time: each level, the slashed ones included
    ("With the GPU build a lookup took **11.4 ms** for ~300 tokens, **17.9 ms** for ~1500 tokens and "
     "**41.2 ms** for ~6000 tokens, against **512.3 / 640.8 / 702.5 ms** with the CPU build.", "17.9 ms", "latency",
     17.9, None),
    ("With the GPU build a lookup took **11.4 ms** for ~300 tokens, **17.9 ms** for ~1500 tokens and "
     "**41.2 ms** for ~6000 tokens, against **512.3 / 640.8 / 702.5 ms** with the CPU build.", "702.5 ms", "latency",
     702.5, None),
    # a statistic word right after the time, even after "at"
    ("At peak traffic the proxy answered 30 calls in **4120 ms** median / 8890 ms p95.", "4120 ms",
     "latency", 4120, "median"),
    # a label's colon between the statistic word and the time
    ("- **Average per reload: ~3.4s** (see the table above)", "~3.4s", "latency", 3.4, "mean"),
    # a measurement word before the time
    ("With the cache warm, we measured 9.6 ms for the lookup.", "9.6 ms", "latency", 9.6, None),
    # a time in parentheses right after what it measures, and the next one of its list
    ("Afterwards every reload gets a quick first answer (0.38s, 0.71s) from the cached kernels.", "0.38s",
     "latency", 0.38, None),
    ("Afterwards every reload gets a quick first answer (0.38s, 0.71s) from the cached kernels.", "0.71s",
     "latency", 0.71, None),
    # a time per item is a latency ("s/video" keeps only the time)
    ("Per-video generation latency drops from 212.5 seconds/video with the teacher to 7.25 seconds/video"
     " after distillation.",
     "7.25 seconds/video", "latency", 7.25, None),
    # how long a job or a first request takes
    ("Right after boot, a first request builds its kernels and can take roughly 40 seconds here.",
     "roughly 40 seconds", "latency", 40, None),
    ("In the trace each kernel has dispatch times of ~0.3ms per layer.", "~0.3ms", "latency", 0.3, None),
])
def test_times_that_are_results(text, quote, metric, value, statistic):
    c = claim_of(text, quote)
    assert (c.metric, abs(c.value), c.statistic) == (metric, value, statistic)
    assert c.unit in ("second", "millisecond", "hour")


@pytest.mark.parametrize("text,quote", [
    ("We let the load generator run for a while (45 s) before timing.", "45 s"),      # a period, not a result
    ("The check costs little next to typical answer times (4-20 seconds).", "4-20 seconds"),  # background
    ("Take 10 minutes to read the setup guide first.", "10 minutes"),                # an imperative
    ("Keep about 20 minutes, 40 minutes and 60 minutes for the three parts of the lab.", "40 minutes"),
    ("After three weeks of sustained traffic the numbers looked stable.", "three weeks"),
])
def test_times_that_are_no_result(text, quote):
    no_claim(text, quote)


# -- times and prices set aside, with their reasons -----------------------------------------------------------
@pytest.mark.parametrize("text,quote,reason,rule", [
    # the length of the media a model takes in: a setting, even after a measurement word
    ("We transcribed 60 test clips (720 seconds total audio) on one card.", "720 seconds", "setting",
     "media_length"),
    ("The benchmark set has lectures over 50 minutes in length.", "over 50 minutes", "setting", "media_length"),
    # a sampling interval or a load pattern
    ("A sidecar polled the power meter with a 0.4s median interval.", "0.4s", "setting", "time_window"),
    ("The client sends traffic in 15 seconds spurts with 8 requests in flight.", "15 seconds", "setting",
     "time_window"),
    # the timing of a workload's requests
    ("Our replay sets inter-turn gaps from 3.9s median to 70s P99.", "3.9s", "setting",
     "workload_timing"),
    # defaults listed after "defaults of"
    ("The collector rolls up data with defaults of 30 seconds, 10 minutes, and 6 hours.", "6 hours",
     "setting", "default_values_listed"),
    # an estimate worked out from a rate
    ("At that link speed, a 12 GiB shard could be copied to the next host in about 3 seconds.",
     "about 3 seconds", "design_arithmetic", "estimate_at_rate"),
    # arithmetic on an assumption
    ("Assuming a rented node costs $20 per hour, the monthly bill amounts to $14,400.", "$14,400",
     "design_arithmetic", "assumed_figure"),
    ("Billed at the public rate, the same traffic would cost $9,300 a day.", "$9,300 a day", "design_arithmetic",
     "would_cost"),
    # how long a how-to's own step runs
    ("This script will take longer to finish than the quick check above (~25 minutes).", "~25 minutes",
     "example", "example_run_time"),
    # list prices: per hour of an instance, and an API's price per token
    ("A small VM serves the 8B model at an hourly cost of $1.20.", "$1.20", "datasheet", "hourly_cost"),
    ("At list prices of $3/$15 per 1M input/output tokens, a long session adds up.", "$3", "datasheet",
     "list_price"),
    ("Its public price is $0.25/M input tokens for cached prompts.", "$0.25/M input tokens", "datasheet",
     "list_price"),
])
def test_times_and_prices_set_aside(text, quote, reason, rule):
    a = aside(text, quote)
    assert (a.reason, a.rule) == (reason, f"set_aside.{rule}")
    no_claim(text, quote)


@pytest.mark.parametrize("text,quote,metric", [
    # a measured cost per token stays a claim; a measured run time in a clip's sentence too
    ("At full load the service came to $0.31 per million output tokens.", "$0.31 per million output tokens",
     "cost"),
    ("The 30 test clips were transcribed in 41 seconds on one card.", "41 seconds", "latency"),
    # a conditional that reports a measured result is no assumption
    ("If we enable CUDA graphs, TTFT drops to 180 ms on the same card.", "180 ms", "ttft"),
])
def test_results_next_to_set_aside_forms(text, quote, metric):
    assert claim_of(text, quote).metric == metric


# -- classes of error found by the sample check (docs/sample-check.md) ----------------------------------------
@pytest.mark.parametrize("text,quote,metric", [
    # a metric word after a comma names the next figure, not this one
    ("Measured on one card: TTFT = 1.5s, TPOT = 120ms here.", "1.5s", "ttft"),
    ("Measured on one card: TTFT = 1.5s, TPOT = 120ms here.", "120ms", "tpot"),
    ("Our run: TTFT is 640 ms, ITL is 31 ms.", "640 ms", "ttft"),
    # a label's colon still names the figure after it
    ("TPOT: 42 ms, far below the old build.", "42 ms", "tpot"),
])
def test_label_value_lists(text, quote, metric):
    assert claim_of(text, quote).metric == metric


def test_a_price_times_a_request_is_no_cost_per_request():
    text = "Served on our own box, a chat turn is a $0.004 request, not a $0.05 one."
    no_claim(text, "$0.004")
    # decided, not left silent: the price of the thing it buys, by its own rule
    price = aside(text, "$0.004 request")
    assert (price.reason, price.rule) == ("datasheet", "set_aside.price_of_a_thing")
    routed = "The router sends easy prompts to the $0 local model and hard ones to a $0.02 call."
    assert {(a.quote, a.rule) for a in record(routed).set_aside} == {
        ("$0", "set_aside.price_of_a_thing"), ("$0.02", "set_aside.price_of_a_thing")}
    no_claim(routed, "$0")
    assert claim_of("The new path costs $0.002 per request on our traffic.", "$0.002 per request").unit == "USD / request"


@pytest.mark.parametrize("text,quote", [
    ("- **Disk**: ~700GB for the model weights (INT4 as shipped)", "~700GB"),
    ("- **Storage**: >100 GB for BF16 model weights (96.2 GB)", "96.2 GB"),
])
def test_a_listed_weights_size_is_the_model_size(text, quote):
    assert aside(text, quote).reason == "model_size"
    assert aside("- **RAM**: 512GB DDR5 per socket", "512GB").reason == "datasheet"


@pytest.mark.parametrize("text,quote,reason,rule", [
    # every price of a listed pricing line
    ("_(*) List pricing: \\$0.15/M input tokens if cached, \\$0.50/M input tokens otherwise, $1.80/M output "
     "tokens._", "$1.80/M output tokens", "datasheet", "list_price"),
    # a ratio argued in theory is no measurement
    ("In theory the sparse layer decodes faster than the dense one, since it needs 4x less compute.", "4x",
     "design_arithmetic", "in_theory"),
    # a cache budget is the configuration the runs share
    ("Eight instances shared a host, each given the same 400 GiB cache budget.", "400 GiB", "setting",
     "cache_budget"),
    # a share of a model's parameters is its size, not a change
    ("Since the adapters touch under 2% of the model's parameters, swapping them is cheap.", "under 2%",
     "model_size", "parameter_share"),
    # the figure an example converts to
    ("The cache size follows the fraction you ask for (e.g. 0.8 → 80% of the card's memory).", "80%", "example",
     "example_conversion"),
])
def test_sample_check_set_aside_classes(text, quote, reason, rule):
    a = aside(text, quote)
    assert (a.reason, a.rule) == (reason, f"set_aside.{rule}")
    no_claim(text, quote)


@pytest.mark.parametrize("text,quote", [
    ("At full load the service came to $0.31 per million output tokens, and $0.12 per million input tokens.",
     "$0.12 per million input tokens"),
    ("Our kernels hit 75% of the theoretical peak and 2.9 TB/s memory bandwidth in the test.", "2.9 TB/s"),
])
def test_measured_figures_near_those_forms_stay_claims(text, quote):
    claim_of(text, quote)


@pytest.mark.parametrize("text,quote,statistic", [
    # a statistic word that ends a product's name states no statistic
    ("On an M3 Max the model decodes at 41 tokens/s with a median TTFT of 0.3 s.", "41 tokens/s", None),
    ("On an M3 Max the model decodes at 41 tokens/s with a median TTFT of 0.3 s.", "0.3 s", "median"),
    ("| Device | Latency (s) |\n|---|---|\n| iPhone 15 Pro Max | 9.8 |\n| Pixel 8 | 11.2 |\n", "9.8", None),
    # ...while the word alone still does
    ("Max TTFT was 2.1 s on the busiest node.", "2.1 s", "max"),
])
def test_statistic_words_in_product_names(text, quote, statistic):
    assert claim_of(text, quote).statistic == statistic


def test_a_ratio_is_no_unit_of_a_scaled_count_before_it():
    text = "Memory use drops 12X for prompts of length 4K, and 25X at 8K."
    no_claim(text, "4K")
    assert claim_of(text, "25X").unit == "x"
    # a plain series still shares its trailing ratio unit
    assert claim_of("Speedups of 1.5, 2 and 3x over the old kernel.", "2").unit == "x"
