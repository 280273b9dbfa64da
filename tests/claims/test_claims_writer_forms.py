"""Claim decisions for phrasings of many writers (issue 11, classes 5-8): metric cues beyond the usual words,
levels versus changes and the direction of a comparison, units as writers spell them, and figures that
are not claims. Every sentence here is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def claims(text: str):
    return extract_text(text, doc="t.md").claims


def find(text: str, value: float):
    return [c for c in claims(text) if abs(abs(c.value) - value) < 1e-9]


def one(text: str, value: float):
    found = find(text, value)
    assert found, f"no claim with value {value} in {[(c.metric, c.value, c.quote) for c in claims(text)]}"
    return found[0]


# -- direction (class 6) --------------------------------------------------------------------------------
@pytest.mark.parametrize("text,value,direction", [
    ("Speculation gives a 1.6x slowdown at batch 128 on the big model.", 1.6, "worse"),
    ("Turning on offloading makes TTFT 35% higher at 64k context.", 35, "worse"),
    ("Without the patch we measure 7% worse output throughput.", 7, "worse"),
    ("The int4 path shows a 0.4% degradation on the reasoning suite.", 0.4, "worse"),
    ("Long prompts increase time to first token by 2.2x on this card.", 2.2, "worse"),
    ("The larger page size brings a 12% throughput reduction at batch 8.", 12, "worse"),
    ("The new scheduler cuts P99 TPOT by 12% compared to the old one.", 12, "better"),
    ("Our build is 2.5x faster than the reference container.", 2.5, "better"),
    ("We see 9% better TTFT with chunked prefill enabled.", 9, "better"),
    ("Kernel fusion gives a 1.2x higher end-to-end decode throughput.", 1.2, "better"),
    ("Memory use drops 30% with FP8 weights on the same node.", 30, "better"),
    ("The quantized model stays within 0.3% of the reference on every task.", 0.3, "neutral"),
    ("| Metric | Before | After | Change |\n|---|---|---|---|\n| Median ITL (ms) | 20.0 | 16.0 | −20% |", 20,
     "better"),
    ("| Metric | Before | After | Change |\n|---|---|---|---|\n| Median ITL (ms) | 16.0 | 20.0 | +25% |", 25,
     "worse"),
])
def test_direction_of_a_comparison(text, value, direction):
    c = next(c for c in find(text, value) if c.metric in ("speedup", "relative_change"))
    assert c.direction == direction


def test_direction_is_only_on_comparisons():
    c = one("The node sustains 14,200 tok/s of output at batch 64.", 14200)
    assert c.metric == "throughput" and c.direction is None


def test_speedup_group_row_in_a_table_is_better_for_latency_columns():
    text = ("| Model | Tput (tok/s) | Latency (ms) |\n|---|---|---|\n| **Old GPU** |\n| M-7B | 3,000 | 480 |\n"
            "| **New GPU** |\n| M-7B | 9,000 | 110 |\n| **Speedup** |\n| M-7B | 3.0x | 4.4x |")
    c = one(text, 4.4)
    assert c.metric == "speedup" and c.direction == "better"


# -- levels versus changes (class 6) --------------------------------------------------------------------
@pytest.mark.parametrize("text,value,direction", [
    ("FP8 brings the cost per step down to 61% of its BF16 value.", 61, "better"),
    ("Offline throughput falls to 72% of the BF16 run at long context.", 72, "worse"),
    ("The FP8 ITL slope sits at 64% of the BF16 slope.", 64, "better"),
])
def test_share_of_a_reference_is_a_level_not_a_change(text, value, direction):
    c = one(text, value)
    assert c.metric == "speedup" and c.unit == "percent" and c.value == value   # unsigned: a level
    assert c.direction == direction


def test_share_of_accuracy_keeps_its_metric():
    c = one("The 4-bit checkpoint keeps 97.5% of BF16 accuracy on GSM8K.", 97.5)
    assert c.metric == "accuracy" and c.direction is None


def test_score_without_percent_sign_is_percent_but_small_scores_are_not():
    assert one("After quantization IFEval held at 81.25 for the FP4 model.", 81.25).unit == "percent"
    c = one("The chat model scored 8.4 on MT-Bench.", 8.4)
    assert c.metric == "accuracy" and c.unit != "percent"    # a 0-10 scale


def test_up_from_names_the_baseline_and_the_result_is_kept():
    text = "With 128 concurrent users the router handled 5.12 req/s, up from 4.70 req/s before the change."
    c = one(text, 5.12)
    assert c.metric == "request_throughput"
    assert not find("Clients send 5.12 req/s with Poisson arrivals.", 5.12)   # a load setting stays out


# -- metric cues beyond the usual words (class 5) ---------------------------------------------------------
def test_acceptance_length_after_its_acronym_or_name():
    c = one("On the code split the drafter averages AL 3.05 per step.", 3.05)
    assert c.metric == "other" and c.unit == "token"
    c = one("With MTP at an average acceptance length of 2.7 the decode rate doubles.", 2.7)
    assert c.metric == "other" and c.unit == "token"


def test_lowercase_al_is_not_the_acronym():
    assert not find("As Jones et al. 2021 point out, caching helps.", 2021)


@pytest.mark.parametrize("text,value", [
    ("The tokenizer takes 21% of the total execution time in this trace.", 21),
    ("Only 44% of the step time is spent in GPU kernels.", 44),
    ("The first draft token is accepted about 71% of the time on chat prompts.", 71),
])
def test_shares_of_time(text, value):
    c = one(text, value)
    assert c.metric == "other" and c.unit == "percent"


def test_capacity_and_break_even_in_tokens_but_not_lengths():
    c = one("On one card the KV cache capacity is about 1,310,720 tokens.", 1310720)
    assert c.metric == "memory" and c.unit == "token"
    c = one("With FP8 the break-even point falls to ~9k tokens.", 9000)
    assert c.metric == "other"
    assert not find("Prompts are 2,048 tokens long and outputs 256 tokens.", 2048)


@pytest.mark.parametrize("text,value", [
    ("Under light load, a small model streams a token every 11 ms.", 11),
    ("Decode now takes 14ms per token on one card.", 14),
])
def test_per_token_times_are_tpot(text, value):
    assert one(text, value).metric == "tpot"


@pytest.mark.parametrize("text,value,metric", [
    ("At 64 users the 1st token latency stays near 180 ms.", 180, "ttft"),
    ("Short prompts get to 1st token in under 35 ms.", 35, "ttft"),
    ("With the new kernel the first-token latency is 42 ms.", 42, "ttft"),
])
def test_first_token_latency_as_writers_spell_the_ordinal(text, value, metric):
    assert one(text, value).metric == metric


def test_a_first_step_duration_is_not_a_first_token_latency():
    assert all(c.metric != "ttft" for c in find("The 1st step of the warm-up takes 35 ms.", 35))


# -- units as writers spell them (class 7) -----------------------------------------------------------------
@pytest.mark.parametrize("text,value", [
    ("The rack sustained 1.9k tokens/s per H200 GPU during the soak test.", 1900),
    ("We reach 3.1k tok/s/MI355X decode throughput with wide EP.", 3100),
    ("Each die delivers 880 tok/s/die at batch 32.", 880),
    ("We measured 18.5K prefill TPGS on the rack.", 18500),
])
def test_rate_per_named_device_is_per_gpu(text, value):
    c = one(text, value)
    assert c.per == "gpu" and c.unit == "token / second / gpu"


@pytest.mark.parametrize("text,value", [
    ("It reached 9,400 tok/s per H100 node in the same run.", 9400),
    ("Racks deliver 31k tok/s per GB300 NVL72 at batch 8.", 31000),
])
def test_rate_per_named_system_is_not_per_gpu(text, value):
    assert one(text, value).per != "gpu"


def test_completed_tokens_are_output_tokens():
    c = one("Our offline pass logged 18,204.5 completed tokens per second.", 18204.5)
    assert c.metric == "throughput" and c.tokens == "output"


# -- not claims (class 8) -------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "The maintainers are doubling down on portable kernels this year.",
    "The board uses double data rate memory on every channel.",
    "Format: ~2 hours, 8 video lessons and 2 code labs.",
])
def test_idioms_and_course_durations_are_not_claims(text):
    assert claims(text) == []


def test_a_request_that_took_hours_is_still_a_latency():
    assert one("Under full load the batch job took 2 hours to complete.", 2).metric == "latency"


# -- script output in code blocks (class 7) -------------------------------------------------------------------
SCRIPT_POST = """# Run

When the harness finishes it prints its summary:

```text
Scenario : Offline
Queries per second: 61.25
Tokens per second: 17804.2
Avg latency: 2.75 seconds
Batch size: 64
Mean TPOT (ms): 21.5
Successful requests: 500
Benchmark duration (s): 81.6
```

```yaml
timeout: 30 s
Request rate: 8
```
"""


def test_labelled_result_lines_of_script_output_are_claims():
    got = {(c.metric, c.value, c.unit) for c in claims(SCRIPT_POST)}
    assert ("request_throughput", 61.25, "request / second") in got
    assert ("throughput", 17804.2, "token / second") in got
    assert ("latency", 2.75, "second") in got
    assert ("tpot", 21.5, "millisecond") in got
    c = one(SCRIPT_POST, 21.5)
    assert c.context.block == "code" and c.quote == "21.5"


def test_settings_counts_and_configuration_blocks_are_not():
    values = {c.value for c in claims(SCRIPT_POST)}
    assert not values & {64, 500, 30, 8, 81.6}   # 81.6: how long the benchmark ran, not a latency


PRINTED_TABLE_POST = """# Decoding on a small board

```
$ ./bench-tool -m tiny-q4.gguf -p 256 -n 64
| model           |     size | backend | threads |  test |          t/s |
| --------------- | -------: | ------- | ------: | ----: | -----------: |
| tiny 1B Q4_0    | 0.62 GiB | CPU     |       4 | pp256 | 41.20 ± 0.30 |
| tiny 1B Q4_0    | 0.62 GiB | CPU     |       4 |  tg64 | 12.75 ± 0.05 |
```

```
| not | a table without its delimiter row |
| 55 | 66 |
```
"""


def test_a_pipe_table_printed_by_a_tool_in_a_code_block_is_read_as_a_table():
    found = claims(PRINTED_TABLE_POST)
    assert {(c.metric, c.value, c.unit) for c in found} == {("throughput", 41.2, "token / second"),
                                                          ("throughput", 12.75, "token / second")}
    for c in found:
        assert PRINTED_TABLE_POST[c.span[0]:c.span[1]] == c.quote


USER_SWEEP = """# A sweep of users

We served Qwen3-14B with vLLM 0.9.1 on one L40S and added users step by step.

- At 1 user: 44 tokens/s per user, p50 TTFT 80 ms.
- At 32 users: 21 tokens/s per user, p50 TTFT 420 ms, 672 tokens/s in aggregate.
"""


def test_a_lead_label_covers_every_result_of_its_item_and_aggregate_is_per_system():
    record = extract_text(USER_SWEEP, doc="t.md")
    by_value = {c.value: c for c in record.claims}
    assert by_value[80].conditions["batch_or_concurrency"].value == 1
    assert by_value[420].conditions["batch_or_concurrency"].value == 32
    assert by_value[21].per == "user" and by_value[672].per == "system"


@pytest.mark.parametrize("text,unit", [
    ("Serving costs €0.45 per 1M tokens on our cloud.", "EUR / megatoken"),
    ("It costs ¥120 per million tokens.", "JPY / megatoken"),
    ("Cost per 1M tokens is £0.30 for the small model.", "GBP / megatoken"),
])
def test_a_price_per_token_in_any_currency_is_a_cost_claim(text, unit):
    [c] = claims(text)
    assert (c.metric, c.unit) == ("cost", unit)


def test_how_long_a_benchmark_ran_is_not_a_latency():
    table = ("| Config | Median TTFT (ms) | Total duration (s) |\n|---|---|---|\n| FP8 | 512.4 | 402.7 |\n")
    assert {c.value for c in claims(table)} == {512.4}
    assert {c.value for c in claims("The benchmark duration was 94 s, and median TTFT was 55 ms.")} == {55}


# -- a bare number compared with a measured one (class 7) -------------------------------------------------------
def test_bare_number_after_a_comparison_takes_the_measured_unit():
    c = one("Our node produced 7,400 output tokens per second against 5,150 on the older one.", 5150)
    assert c.metric == "throughput" and c.unit == "token / second"
    # a published value beside ours is another party's (set_aside.official_result): no claim of the post
    text = "We measured 18,800 tokens per second, which matches the published result (18,650)."
    assert [c.value for c in extract_text(text, doc="t.md").claims] == [18800]


@pytest.mark.parametrize("text,value", [
    ("It reached 1,900 tok/s compared to 2024 releases.", 2024),              # a year
    ("It reached 1,900 tok/s at batch 64 versus 16 for the baseline.", 16),   # of another size
    ("TTFT was 120 ms at batch 8 and 96 at batch 4.", 96),                    # no comparison word
])
def test_bare_numbers_that_are_not_the_compared_figure(text, value):
    assert not [c for c in find(text, value) if c.metric in ("throughput", "ttft")]


# -- the headline flag (class 8) ---------------------------------------------------------------------------------
HEADLINE_POST = """---
title: "Serving a 70B model at 9,600 tok/s on one node"
---

We show how the node reaches 9,600 tok/s.

## Results

At 64 concurrent requests the node sustained 9,600 output tokens per second, and 5,100 output tokens per second at 16.
"""


def test_headline_flag_only_where_the_post_leads_with_the_figure():
    found = claims(HEADLINE_POST)
    lead = [c for c in found if c.headline]
    assert lead and all(c.value == 9600 for c in lead)
    others = [c for c in found if c.value != 9600]
    assert others and not any(c.headline for c in others)   # the other results figure is no headline
    # the restatement in the results is a mention of the headline claim, itself not in a headline position
    (headline,) = lead
    in_results = [m for m in headline.mentions if m.context.section == ["Results"]]
    assert in_results and not any(m.headline for m in in_results)
    assert any(m.headline for m in headline.mentions)


NO_HEADINGS_POST = """# A faster decode path

The new build serves 2.4x more output tokens per second than the previous one on the same L40S card.

| Batch | Output tok/s |
|---|---|
| 8 | 1,130 |
| 32 | 3,420 |

All figures are medians of five runs, taken after two warm-up runs.
"""


def test_a_table_ends_the_lead_of_a_post_without_sections():
    found = claims(NO_HEADINGS_POST)
    assert [c.value for c in found if c.headline] == [2.4]
    assert {1130, 3420} <= {c.value for c in found if not c.headline}


HTML_TITLE_AGAIN = """<html><head><title>Faster decode | Example Blog</title></head><body>
<h1>Faster decode on the L40S</h1>
<p>The new build serves 2.4x more output tokens per second than the previous one on the same card.</p>
<h2>Results</h2>
<p>At batch 32 the card sustained 3,420 output tokens per second.</p>
</body></html>"""


def test_the_lead_follows_a_first_heading_that_repeats_the_title():
    found = extract_text(HTML_TITLE_AGAIN, doc="t.html").claims
    assert [c.value for c in found if c.headline] == [2.4]
    assert not [c for c in found if c.value == 3420 and c.headline]


def test_tokens_counted_of_a_headline_read_from_its_restatement():
    record = extract_text(HEADLINE_POST, doc="t.md")
    notes = [n for n in record.provenance + record.caveats if n.kind == "tokens-counted"]
    assert notes and "output" in notes[0].message


# -- "<change word> ... by N" and the sign of a change in a lower-is-better quantity (class 6) ------------------
@pytest.mark.parametrize("text,value,signed,direction", [
    ("The async output path improves the time per output token of the 70B model on 4xH100 by 6.2%.", 6.2, -1,
     "better"),
    ("The new drafter outperforms the old one by 24% on HumanEval.", 24, 1, "better"),
    ("The allocator cuts peak memory usage by up to 41% on long prompts.", 41, -1, "better"),
    ("The larger page size raises TTFT on long prompts by 12%.", 12, 1, "worse"),
    ("We see 9% better TTFT with chunked prefill.", 9, -1, "better"),
])
def test_amount_of_a_change_stated_earlier_in_the_clause(text, value, signed, direction):
    c = one(text, value)
    assert c.metric == "relative_change" and (c.value > 0) == (signed > 0) and c.direction == direction


def test_by_without_a_change_word_is_no_change():
    assert not [c for c in claims("The batch is split by 50% across the two nodes.") if c.metric == "relative_change"]


def test_change_word_after_the_metric_it_changes():
    c = one("The new indexer gives a 14% P99 time to first token reduction on long prompts.", 14)
    assert c.metric == "relative_change" and c.value < 0 and c.direction == "better"


# -- tables whose unit is only in the caption or lead-in; systems as rows or columns (class 7) -------------------
TABLE_POST = """# Results

Table 1: Output throughput (tokens/s) at batch 64.

| Model | Engine A | Engine B |
|---|---|---|
| Small-8B | 4,210 | 3,120 |

Mean TTFT in milliseconds for each system:

| System | 1K prompt | 8K prompt |
|---|---|---|
| Engine A | 95 | 610 |

We list the runs in the cluster:

| Run | Nodes | Prompts |
|---|---|---|
| first | 2 | 500 |
"""


def test_caption_or_lead_in_unit_applies_to_bare_cells():
    got = {(c.metric, c.value, c.unit) for c in claims(TABLE_POST)}
    assert ("throughput", 4210, "token / second") in got and ("throughput", 3120, "token / second") in got
    assert ("ttft", 610, "millisecond") in got
    assert not {500, 2} & {c.value for c in claims(TABLE_POST)}   # a lead-in without a metric and unit


def test_datasheet_power_is_not_a_claim_but_measured_power_is():
    assert not claims("The MI355X ships with 288GB of HBM3E and draws 1400W.")
    assert one("Under load the node consumed 5.2 kW on average.", 5.2).unit == "kilowatt"


@pytest.mark.parametrize("text,kept", [
    ("On a T4 with 16 GB, the speed-up is smaller: about 1.2x.", {("speedup", 1.2)}),
    ("The B300, with 288 GB of HBM3e, is 1.5x faster than the B200.", {("speedup", 1.5)}),
    ("The card has 48 GB, and its TTFT is 30% lower than on the L4.", {("relative_change", -30.0)}),
])
def test_a_devices_capacity_beside_a_comparison_is_not_a_claim(text, kept):
    assert {(c.metric, c.value) for c in claims(text)} == kept


@pytest.mark.parametrize("text,value", [
    ("The new kernel runs with 18 GB less memory than before.", 18),
    ("We measured 3.1 TB/s of memory bandwidth on the copy test, 12% higher than before.", 3.1),
    ("Peak memory dropped to 41 GB with the new allocator.", 41),
])
def test_a_measured_or_changed_capacity_is_still_a_claim(text, value):
    assert one(text, value).metric in ("memory", "bandwidth")


def test_the_two_levels_of_a_from_to_change_in_time():
    text = "Prefill went from ~4710 ms to ~540 ms after the fix."
    assert {(c.metric, c.value) for c in claims(text)} == {("latency", 540)}   # 4710 ms: the baseline's level
    assert not claims("Timeouts were raised from 2 s to 5 s for the long runs.")
