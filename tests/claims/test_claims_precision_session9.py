"""Claim fields from the independent draws of session 9 (issue 23, helper `precise9`): the baseline of a load sweep,
a stated range kept whole (a hedge on both ends, two units of one dimension), a change read as a change (an
"enhanced ... by N%" verb, a hard-wrapped line), and the direction of a change whose quantity sits in the change
word's clause. Every sentence here is written for the test; each class has its negatives."""
from __future__ import annotations

import pytest

from claim_checks import claims_in


def _one(text: str):
    found = claims_in(text)
    assert len(found) == 1, [(c.quote, c.metric, c.value) for c in found]
    return found[0]


# ---- the baseline of a sweep is its low end
@pytest.mark.parametrize("text, baseline", [
    ("When the batch size is raised from 4 to 48, token throughput is up 6.5x.", "batch size 4"),
    ("Scaling from 1 to 4 nodes gives 3.7x higher throughput.", "1 node"),
    ("Between 2 and 6 replicas, request throughput ends up 2.7x higher.", "2 replicas"),
    ("As concurrency rises from 1 to 128, aggregate throughput climbs by 750%.", "concurrency 1"),
    ("Increasing the batch size from 8 to 64 lifts prefill throughput 4.2x.", "batch size 8"),
])
def test_a_sweep_stated_before_its_growth_is_the_baseline(text: str, baseline: str) -> None:
    assert _one(text).baseline == baseline


@pytest.mark.parametrize("text, baseline", [
    # the comparison names its own baseline at every point of the sweep
    ("Across batch sizes of 2 to 32, the fused kernel is 2.5x faster than the reference GEMM.", "the reference GEMM"),
    # a system is the subject: compared with something unnamed at each point, not with the sweep's low end
    ("For batch sizes 1 to 32, INT8 weights give a 1.6x gain.", "not named in the text"),
    # a range of ratios over a sweep compares each point with another system
    ("Across batch sizes of 1 to 32, throughput is 1.9x to 2.8x higher.", "not named in the text"),
    # a sweep that shrinks names no low end to start from
    ("From 16 to 2 GPUs, throughput drops 7x.", "not named in the text"),
    # the sweep is the object of another clause
    ("We tried batch sizes of 1 to 32; the engine is 3x quicker.", "not named in the text"),
    # a cause named in the figure's clause: with and without it at every point (review 9, must fix 2)
    ("Across batch sizes of 2 to 24, decode runs 1.7x faster with paged attention.", "not named in the text"),
    ("Between 2 and 12 nodes, goodput is 45% higher using the new transport.", "not named in the text"),
    ("For concurrency levels of 4 to 96, throughput climbs by 28% with the revised router.",
     "not named in the text"),
    ("Across batch sizes of 2 to 48, serving throughput is 3x higher when INT4 is on.", "not named in the text"),
    # a system is the subject of the clause after the sweep's comma
    ("Scaling from 2 to 16 GPUs, the fused collective raises throughput by 55%.", "not named in the text"),
])
def test_no_sweep_baseline_where_the_figure_compares_systems(text: str, baseline: str) -> None:
    assert _one(text).baseline == baseline


# ---- a stated range keeps both ends
@pytest.mark.parametrize("text, value, value_max, unit", [
    ("Replaying the trace took ~40 s to ~5 min on each node.", 40.0, 300.0, "second"),
    ("Cold loading takes 45 s to 2 min on the small node.", 45.0, 120.0, "second"),
    ("Its first-token time was 300 ms to 1.5 s across the tested loads.", 300.0, 1500.0, "millisecond"),
    ("The rebuilt index answers in ~4 to ~9 ms.", 4.0, 9.0, "millisecond"),
    ("Overheads range from ~12% to ~45% on the small model.", 12.0, 45.0, "percent"),
])
def test_a_range_keeps_both_ends_in_one_unit(text: str, value: float, value_max: float, unit: str) -> None:
    c = _one(text)
    assert (c.value, c.value_max, c.unit, c.qualifier) == (value, value_max, unit, "range")


def test_a_fall_between_two_units_is_no_range() -> None:
    # a change from one level to another: the level reached is the claim, the start is the baseline's level
    c = _one("Warm-up time dropped from 3 minutes to 40 seconds.")
    assert (c.value, c.value_max, c.unit) == (40.0, None, "second")


def test_a_hedged_second_number_after_a_setting_is_no_range() -> None:
    # "load 0.25" is the setting of the first level, not the low end of a range of percentages
    text = "The cache hit ratio shrinks from 93% at load 0.25 to ~61% once load reaches 3."
    quotes = [(c.quote, c.value_max) for c in claims_in(text)]
    assert ("~61%", None) in quotes and not any(q.startswith("0.25") for q, _ in quotes)


# ---- a change is a change
@pytest.mark.parametrize("text, value", [
    ("Retraining enhanced the accuracy of our receipt parser by 150 percent.", 150.0),
    ("The new tokenizer enhances the cache hit rate by 18%.", 18.0),
])
def test_enhanced_by_n_percent_is_a_change(text: str, value: float) -> None:
    c = _one(text)
    assert (c.metric, c.value, c.direction, c.baseline) == ("relative_change", value, "better", "not named in the text")


def test_an_enhanced_system_keeps_its_level() -> None:
    c = _one("Our enhanced parser reaches 91% accuracy on the held-out receipts.")
    assert (c.metric, c.value) == ("accuracy", 91.0)


def test_a_hard_wrapped_line_does_not_end_the_clause_of_a_change() -> None:
    text = "The sweep found a setting that doubles our throughput and raises SM\nutilization by ~31% in one pass.\n"
    c = next(c for c in claims_in(text) if c.value == 31.0)
    assert (c.metric, c.direction) == ("relative_change", "better")


def test_a_new_line_that_starts_a_sentence_still_ends_the_clause() -> None:
    text = "Latency dropped by 40%\nThroughput stays at 1,200 tokens/s on one GPU.\n"
    c = next(c for c in claims_in(text) if c.value == 1200.0)
    assert (c.metric, c.direction) == ("throughput", None)


# ---- the direction of a change whose quantity sits in the change word's clause
def test_a_higher_cost_in_the_clause_before_the_range_is_worse() -> None:
    c = _one("For the MoE checkpoint the extra cost is higher still, somewhere between 7% and 39%.")
    assert (c.metric, c.direction) == ("relative_change", "worse")


def test_a_lower_latency_in_the_clause_before_is_better() -> None:
    c = _one("The new build is lower in latency across the board, down 20%.")
    assert c.direction == "better"


def test_a_short_line_of_a_printed_summary_is_no_wrapped_sentence() -> None:
    # each line is a label and its figure: the next line's metric word is not the figure's
    text = "Under that load:\n\n  p90 E2E latency ..... 3.1 s\n  median TPOT ......... 8.2 ms\n"
    c = next(c for c in claims_in(text) if c.value == 3.1)
    assert c.metric == "e2e_latency"


def test_a_wrapped_cost_of_a_throughput_is_a_worse_change() -> None:
    text = ("Longer prompts hurt the decoder most of all. Moving from 2048 to 8192 input tokens at batch 32 costs 27% of\n"
            "output throughput on the same card.\n")
    c = next(c for c in claims_in(text) if abs(c.value) == 27.0)
    assert (c.metric, c.value, c.direction) == ("relative_change", -27.0, "worse")


# ---- baselines and directions of comparisons written in one sentence
def test_two_figures_joined_by_and_share_the_comparison_after_the_second() -> None:
    text = ("On A100 GPUs, we achieve 3x faster decoding for the small model and 1.8x faster decoding for the large"
            " model with the fused engine compared to the stock engine (baseline).")
    assert [c.baseline for c in claims_in(text)] == ["the stock engine", "the stock engine"]


def test_a_comparison_between_the_two_figures_keeps_them_apart() -> None:
    text = ("The new kernel is 3x faster than the seed kernel on short prompts of the chat workload and 2x faster"
            " on long prompts of the summarisation workload compared to the vendor library.")
    assert [c.baseline for c in claims_in(text)] == ["the seed kernel", "the vendor library"]


def test_an_and_that_opens_a_clause_of_another_subject_keeps_two_figures_apart() -> None:
    # (the second comparison stands past the first figure's own reach, so only the sharing could carry it over)
    text = ("Encoding is 2.5x quicker with fused norms on the long prompts and the sampler is 1.4x quicker with"
            " cached masks on every prompt of the suite than the plain loop.")
    assert [c.baseline for c in claims_in(text)] == ["not named in the text", "the plain loop"]


def test_a_sentence_end_keeps_two_figures_apart() -> None:
    text = "The new kernel is 3x faster. On B200 it gives 2x more throughput than the old kernel."
    assert [c.baseline for c in claims_in(text)] == ["not named in the text", "the old kernel"]


@pytest.mark.parametrize("text, baseline", [
    ("The pool handles 30% more sessions than last year's cluster powered by the older accelerators.",
     "last year's cluster"),
    ("It answers 2x faster than the stock server running on the same four cards.", "the stock server"),
    ("It answers 2x faster than the cache-based router.", "the cache-based router"),
])
def test_a_participle_after_the_baseline_ends_its_name(text: str, baseline: str) -> None:
    assert _one(text).baseline == baseline


def test_a_neutral_word_in_the_baseline_name_does_not_make_the_change_neutral() -> None:
    c = _one("Our rented nodes are 45% cheaper than similar boxes from the prior generation.")
    assert (c.value, c.direction) == (-45.0, "better")


def test_parity_as_the_level_a_gain_grows_from_is_no_neutral_figure() -> None:
    c = _one("Relative to the greedy packer, our speed-up rises from parity at 1 tenant to 1.7x at 16 tenants.")
    assert c.direction == "better"


def test_parity_said_of_the_figure_stays_neutral() -> None:
    c = _one("The two builds are at parity, within 1.5x of each other.")
    assert c.direction == "neutral"


# ---- a table's change cells of an absolute quantity
_IMPACT = """| Change | KV cache reduction | ITL delta @ 32 users |
| --- | --- | --- |
| shard experts | 2.4 GB | **+1.3 ms** |
| fuse norm | 0.7 GB | −0.4 ms |

| Run | Peak memory | ITL (ms) |
| --- | --- | --- |
| base | 41.2 GB | 9.7 |
"""


def test_a_signed_time_in_a_table_is_a_change_with_its_direction() -> None:
    found = {c.quote: (c.metric, c.value, c.direction) for c in claims_in(_IMPACT)}
    assert found["+1.3 ms"] == ("itl", 1.3, "worse")
    assert found["−0.4 ms"] == ("itl", -0.4, "better")


def test_a_size_under_a_memory_reduction_header_is_a_reduction() -> None:
    found = {c.quote: (c.metric, c.value, c.direction) for c in claims_in(_IMPACT)}
    assert found["2.4 GB"] == ("memory", -2.4, "better")


def test_levels_of_a_plain_table_stay_levels() -> None:
    found = {c.quote: (c.metric, c.value, c.direction) for c in claims_in(_IMPACT)}
    assert found["41.2 GB"] == ("memory", 41.2, None) and found["9.7"] == ("itl", 9.7, None)


# ---- judge draw 9a (seed 10101): what a system is built on
@pytest.mark.parametrize("text, baseline", [
    ("Our gateway is built upon Tornado yet answers 4x quicker for streamed replies.", "Tornado"),
    # a comma opens a clause with its own subject: the base is a platform, not what the figure is compared with
    ("Built on top of the stock runtime, our build decodes 1.6x faster.", "not named in the text"),
    ("Since it is built on JAX, the trainer runs 2.2x faster.", "not named in the text"),
    # built in a time, not on a base
    ("Built in two weeks, the new kernel is 2x faster.", "not named in the text"),
    # a comparison of its own wins
    ("Built on Starlette, the server is 3x faster than the old gateway.", "the old gateway"),
])
def test_what_a_system_is_built_on_is_its_baseline(text: str, baseline: str) -> None:
    assert _one(text).baseline == baseline
