"""Claims in prose as writers spell them (issue 23, items 4 and 5): work items counted per time or per item,
number words, shares of requests meeting an SLA, named ratios, a rate named before its number, levels
reached, absolute changes, and the statistic a latency or rate states. Every sentence here is written for
the test; each class has its negative cases."""
from __future__ import annotations

import pytest

from claim_checks import claim_in as one, claims_in as claims


def none_with(text: str, value: float) -> None:
    found = [(c.metric, c.value, c.quote) for c in claims(text) if abs(abs(c.value) - value) < 1e-9]
    assert not found, f"unexpected claim for {value}: {found}"


# -- work items per time or per item --------------------------------------------------------------------
@pytest.mark.parametrize("text,value,metric,unit", [
    ("The diffusion service renders 96.5 videos/h on four cards.", 96.5, "request_throughput", "request / hour"),
    ("Our captioning endpoint answered 310 images/sec at peak load.", 310, "request_throughput", "request / second"),
    ("With CUDA graphs the training loop ran at 12,300 iters/s.", 12300, "other", "1 / second"),
    ("The sampler reached 2.7 it/s on a single card after the fix.", 2.7, "other", "1 / second"),
    ("The decoder streams 240 fps of 720p output on one GPU.", 240, "other", "1 / second"),
    ("Eight parallel requests achieve 2.9 video frames/s in total.", 2.9, "other", "1 / second"),
    ("Our tuned kernels reached 212 OTPS for the 20B model.", 212, "throughput", "token / second"),
    ("Each clip costs 18.2 Wh/video on the new nodes.", 18.2, "energy_efficiency", "watt_hour / request"),
    ("The draft model runs at 0.41 J/token in our measurements.", 0.41, "energy_efficiency", "joule / token"),
    ("Llama 2 13B achieved 21ms per token on the larger instance.", 21, "tpot", "millisecond"),
])
def test_work_items_per_time_or_item(text, value, metric, unit):
    c = one(text, value)
    assert (c.metric, c.unit) == (metric, unit)


def test_output_tokens_per_second_count_output_tokens():
    assert one("Our tuned kernels reached 212 OTPS for the 20B model.", 212).tokens == "output"


@pytest.mark.parametrize("text,value", [
    ("Frames are sampled at 24 fps before encoding.", 24),     # the setting of the input, not a result
    ("The schedule uses 50 steps of denoising.", 50),           # a count of steps, no rate
    ("The accelerator draws 700 W under load.", 700),           # a datasheet power, not an efficiency
    ("The model outputs clips at a frame rate of 16 fps.", 16),  # the video's setting, not a speed
    ("Expect this step to take 60-90 minutes to run.", 60),          # how long a setup step runs
])
def test_work_item_settings_are_not_claims(text, value):
    none_with(text, value)


def test_a_time_per_step_spent_on_an_overhead_is_a_latency():
    c = one("The fixed all-gather overhead (~90 ms/step) is hidden behind compute.", 90)
    assert (c.metric, c.unit) == ("latency", "millisecond")


# -- number words ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,value,unit,qualifier", [
    ("Once the cache is warm, a short prompt returns in under half a second.", 0.5, "second", "up_to"),
    ("Autotuning usually takes less than a minute per shape.", 1, "minute", "up_to"),
    ("A full sweep of the grid takes about an hour.", 1, "hour", "approx"),
])
def test_an_article_after_a_qualifier_is_a_number(text, value, unit, qualifier):
    c = one(text, value)
    assert (c.metric, c.unit, c.qualifier) == ("latency", unit, qualifier)


@pytest.mark.parametrize("text", [
    "We ran the benchmark a second time to check it.",
    "A minute later the server was back.",
    "An hour of video was transcribed for the demo.",
])
def test_an_article_alone_is_no_number(text):
    assert not claims(text)


def test_a_spelled_percent_is_read_whatever_follows():
    c = one("Under chat traffic, KV-cache utilization stays below forty percent on the small box.", 40)
    assert (c.metric, c.unit, c.qualifier) == ("memory", "percent", "up_to")


def test_spelled_ratios_still_need_their_metric():
    assert not claims("We repeat every run five times and keep the median.")


# -- shares of requests meeting an SLA ----------------------------------------------------------------
@pytest.mark.parametrize("text,value", [
    ("Some 35% of requests failed to meet our 10 tokens/s SLA at that rate.", 35),
    ("Our scheduler keeps 99% of requests within the latency SLO at 8 QPS.", 99),
    ("The disaggregated setup holds 100% SLO attainment up to 6 QPS.", 100),
])
def test_a_share_of_requests_under_an_sla_is_a_claim(text, value):
    c = one(text, value)
    assert (c.metric, c.unit) == ("other", "percent")


@pytest.mark.parametrize("text,value", [
    ("We sample 20% of requests from the long-context bucket.", 20),
    ("Roughly 10% of requests use images.", 10),
])
def test_a_share_of_requests_without_an_sla_is_a_setting(text, value):
    none_with(text, value)


def test_a_rate_measured_under_the_same_sla_is_a_result():
    c = one("At the same SLA, our server achieved 2.8 queries/sec.", 2.8)
    assert c.metric == "request_throughput"


# -- named ratios and rates written before their number ------------------------------------------------
@pytest.mark.parametrize("text,value", [
    ("The speech stage holds a real-time factor of 0.36 at concurrency 32.", 0.36),
    ("Mean audio RTF goes from 0.92 under the old scheduler to 0.41 at concurrency 16.", 0.41),
])
def test_a_named_ratio_is_a_claim(text, value):
    c = one(text, value)
    assert (c.metric, c.unit) == ("other", "x")


def test_a_bare_number_without_the_ratios_name_is_no_claim():
    assert not claims("The speech stage holds 0.36 at concurrency 32.")


@pytest.mark.parametrize("text,value,qualifier", [
    ("Both engines can sustain an RPS > 12 on this node.", 12, "at_least"),
    ("The write path sustains full attainment up to rate ~4.5 before it declines.", 4.5, "approx"),
])
def test_a_rate_named_before_its_number_is_a_request_rate(text, value, qualifier):
    c = one(text, value)
    assert (c.metric, c.unit, c.qualifier) == ("request_throughput", "request / second", qualifier)


@pytest.mark.parametrize("text,value", [
    ("Attainment falls to ~40% at rate 9.", 9),                 # the load a run was made at
    ("With a request rate of 8, the P99 latency is 2 s.", 8),
    ("We lowered the learning rate 3 times.", 3),
    ("The cache hit rate 0.9 is assumed throughout.", 0.9),
])
def test_a_rate_setting_is_not_a_result(text, value):
    none_with(text, value)


# -- levels reached and absolute changes ---------------------------------------------------------------
def test_a_percentage_reached_after_a_change_word_is_a_level():
    c = one("Attainment holds full until rate ~4.5, then declines slowly to ~52% at rate 9.", 52)
    assert (c.metric, c.value) == ("other", 52)


def test_a_gain_that_increases_to_a_percentage_stays_a_change():
    c = one("Our gain is around 4% at low load and climbs to around 18% at high load.", 18)
    assert c.metric == "relative_change"


@pytest.mark.parametrize("text,value,metric,signed,direction", [
    ("Prefix caching reduced TTFT by 420 ms on the chat trace.", 420, "ttft", -420, "better"),
    ("Our engine is 900 ms faster than the baseline on long prompts.", 900, "latency", -900, "better"),
    ("There is a 12 ms difference in TTFT between the two builds.", 12, "ttft", 12, "neutral"),
    ("The new allocator saves 2.4 GB of KV cache memory per GPU.", 2.4, "memory", -2.4, "better"),
    ("Decode time is 2 s slower than the reference.", 2, "latency", 2, "worse"),
    ("Throughput is 150 tok/s lower than the other engine.", 150, "throughput", -150, "worse"),
])
def test_an_absolute_change_is_signed_with_a_direction(text, value, metric, signed, direction):
    c = one(text, value)
    assert (c.metric, c.value, c.direction) == (metric, signed, direction)


@pytest.mark.parametrize("text,value", [
    ("We land at a cost of $0.35 per 1M generated tokens.", 0.35),          # "cost of": a level
    ("The latency was improved to 2.5 seconds.", 2.5),             # the level reached
    ("Latency drops 40% (6 seconds vs. 10 seconds).", 6),    # the two levels compared
    ("With caching, each edit went from 120.5s down to 51.2s.", 51.2),  # "from A down to B": B the level reached
])
def test_a_level_is_not_a_change(text, value):
    c = one(text, value)
    assert c.value == value and c.direction is None


def test_a_percent_change_amount_read_through_markdown_emphasis():
    c = one("The new kernel reduces memory usage by **64%** and latency by **22%**.", 64)
    assert (c.metric, c.value, c.direction) == ("relative_change", -64, "better")


def test_a_percentage_with_a_per_word_after_it_stays_a_percentage():
    c = one("At long context the patch gives up to a 14% gain in per-token latency.", 14)
    assert (c.metric, c.unit, c.value, c.direction) == ("relative_change", "percent", -14, "better")


# -- statistic -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text,value,statistic", [
    ("Mean TTFT was 48.5 ms and the P99 TTFT 91 ms.", 48.5, "mean"),
    ("Mean TTFT was 48.5 ms and the P99 TTFT 91 ms.", 91, "p99"),
    ("Median TPOT for the 8B model on one GPU was 11 ms.", 11, "median"),
    ("The p50 end-to-end latency is 1.8 s on this trace.", 1.8, "median"),
    ("It decoded 3,400 tok/s on average over the run.", 3400, "mean"),
    ("Peak throughput reached 41,000 tok/s with 256 users.", 41000, "max"),
    ("| Config | P90 ITL (ms) |\n|---|---|\n| ours | 14.2 |\n", 14.2, "p90"),
])
def test_the_statistic_of_a_latency_or_rate(text, value, statistic):
    assert one(text, value).statistic == statistic


@pytest.mark.parametrize("text,value", [
    ("TTFT is 210 ms for the short prompts.", 210),                              # not said
    ("At the average load, TTFT is 210 ms, while the ITL stays at 9 ms.", 9),    # another clause
    ("The new build was 2.1x faster than the baseline on the long prompts.", 2.1),   # a speed-up that says none
])
def test_no_statistic_when_the_clause_does_not_say_one(text, value):
    assert one(text, value).statistic is None


# -- adoption counts are no performance ------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "GitHub stars grew from 9,000 to 21,600 (2.4x) over the year.",
    "Monthly downloads rose 3.5x since the spring release.",
    "Contributors increased by 60% in six months.",
])
def test_a_ratio_of_adoption_counts_is_no_claim(text):
    assert not [c for c in claims(text) if c.metric in ("speedup", "relative_change")]


def test_a_performance_ratio_beside_adoption_counts_stays():
    c = one("Throughput rose 3.5x after the update, while downloads kept growing.", 3.5)
    assert c.metric == "speedup"


# -- a ratio of memory written as the amount of a change -------------------------------------------------
@pytest.mark.parametrize("text,value,metric", [
    ("Weight-only INT4 lowers the memory footprint of the checkpoint by **3x**.", 3, "memory"),
    ("With the paged layout, KV cache size drops by roughly **2x**.", 2, "memory"),
    ("The fused kernel improves throughput by 2x, and memory stays flat.", 2, "speedup"),
    ("Memory-aware scheduling improves throughput by 3x.", 3, "speedup"),
])
def test_a_ratio_changing_memory_is_memory(text, value, metric):
    assert one(text, value).metric == metric
