"""Claims right (issue 23, precision): the direction of signed changes in a difference column and of a speed-up
below 1x, overheads as relative changes, metric words that name a setting, settings written as assignments and
counts out of N, and the baseline a table names. Sentences and tables written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from tests.claim_checks import credited_record
from extractor.records import BASELINE_NOT_NAMED
from claim_checks import claim_in as one, claims_in as claims


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
    text = ("# R\n\nHere the copy engine wins: the gain is around 4.5% at a 0 hit rate, "
            "and it climbs to around 12% at an 80% hit rate.\n")
    record = extract_text(text, "t.md")
    c = [c for c in record.claims if c.value == 4.5][0]
    assert (c.metric, c.direction) == ("relative_change", "better")
    assert not [c for c in record.claims if c.value == 80]
    assert [(s.quote, s.reason) for s in record.set_aside] == [("80%", "setting")]


@pytest.mark.parametrize("text,value,direction", [
    ("# R\n\nOn the larger model the peak HBM footprint grew by about 17% (20.0 → 23.4 GB).\n", 17, "worse"),
    ("# R\n\nOn the 64B model, HBM usage fell by 30%.\n", 30, "better"),
    ("# R\n\nOverall we saw a 38% performance increase at the throughput end and a 13% performance increase at "
     "low latency.\n", 13, "better"),
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
    ("# R\n\nWith a bf16 cache and 256K context, our model needs only 3.2 GiB KV cache per sequence.\n", 3.2),
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


SPANNED = """<html><body><h1>Speed</h1>
<p>We measured the mean decode speed and peak memory of each model size in each precision.</p>
<table>
<tr><td>Size</td><td>Precision</td><td>Speed (tokens/s)</td><td>Peak memory</td></tr>
<tr><td rowspan="2">3B</td><td>BF16</td><td>61.5</td><td>7.1GB</td></tr>
<tr><td>Int4</td><td>80.2</td><td>3.2GB</td></tr>
<tr><td>8B</td><td>BF16</td><td>30.4</td><td>16.5GB</td></tr>
</table>
<table>
<tr><th rowspan="2">Engine</th><th colspan="2">Decode speed (tokens/s)</th></tr>
<tr><th>batch 1</th><th>batch 8</th></tr>
<tr><td>ours</td><td>95.0</td><td>410.0</td></tr>
</table></body></html>
"""


def test_cells_below_a_rowspan_sit_under_their_own_column():
    by_value = {c.value: (c.metric, c.context.column_header) for c in extract_text(SPANNED, "t.html").claims}
    assert by_value[80.2] == ("throughput", "Speed (tokens/s)")
    assert by_value[3.2] == ("memory", "Peak memory")
    assert by_value[30.4] == ("throughput", "Speed (tokens/s)")


def test_a_header_spanning_columns_heads_each_of_them():
    by_value = {c.value: c.metric for c in extract_text(SPANNED, "t.html").claims}
    assert by_value[95.0] == by_value[410.0] == "throughput"


@pytest.mark.parametrize("text,value", [
    ("# R\n\nStock pipeline, E2E Time: 184s. Ours, E2E Time: 5.3s.\n", 5.3),
    ("# R\n\nThe end-to-end time drops to 2.1 s on the small model.\n", 2.1),
])
def test_an_end_to_end_time_is_an_end_to_end_latency(text, value):
    assert one(text, value).metric == "e2e_latency"


def test_a_step_time_stays_a_latency():
    assert one("# R\n\nThe decode step time is 41 ms at batch 8.\n", 41).metric == "latency"


@pytest.mark.parametrize("text,quote", [
    ("# R\n\nA quick calculation shows offloading needs only 4 GB/s of disk bandwidth.\n", "4 GB/s"),
    ("# R\n\nRemoving that step would give, at best, a theoretical maximum gain of 8% in throughput.\n", "8%"),
    ("# R\n\nA back-of-the-envelope estimate puts the transfer at about 12 GB/s per node.\n", "about 12 GB/s per node"),
    ("# R\n\n| Item | Before | After |\n| --- | --- | --- |\n| Monthly estimated API cost | ~$24 | ~$14 |\n", "~$14"),
])
def test_arithmetic_about_a_design_is_set_aside(text, quote):
    record = extract_text(text, "t.md")
    assert record.claims == []
    assert (quote, "design_arithmetic") in [(s.quote, s.reason) for s in record.set_aside]


def test_a_measured_figure_near_a_theoretical_peak_stays_a_claim():
    c = one("# R\n\nOn one GPU our kernel gets 80% of the theoretical peak and 3 TB/s memory bandwidth.\n", 3)
    assert c.metric == "bandwidth"


@pytest.mark.parametrize("table,value,baseline", [
    ("| Metric | Baseline | Ours | Difference |\n| --- | --- | --- | --- |\n| Decode throughput | 500 tok/s | 560 tok/s | +12.0% |\n",
     12.0, "Baseline"),
    ("| Task | Before | After | Change |\n| --- | --- | --- | --- |\n| Chat | 300 ms | 270 ms | −10% |\n", 10.0, "Before"),
    ("| Batch | Speedup over eager |\n| --- | --- |\n| 1 | 1.4x |\n", 1.4, "eager"),
    ("| Task | Ref | New | Delta vs Ref (pp) |\n| --- | --- | --- | --- |\n| QA | 76.1% | 77.5% | +1.4 pp |\n", 1.4, "Ref"),
    ("| Model | Cache | Time | Speedup | Notes |\n| --- | --- | --- | --- | --- |\n"
     "| **M** | None | 20.0s | 1.0x | plain pipeline |\n| **M** | Ours | 10.5s | **1.9x** | Recommended |\n",
     1.9, "None; plain pipeline"),
])
def test_a_table_names_the_baseline_of_its_changes(table, value, baseline):
    c = one(f"# Results\n\n{table}", value)
    assert c.metric in ("speedup", "relative_change") and c.baseline == baseline


def test_a_table_without_a_reference_leaves_the_baseline_open():
    c = one("# Results\n\n| Model | Throughput | Speedup |\n| --- | --- | --- |\n| M | 900 tok/s | 1.7x |\n", 1.7)
    assert c.baseline == BASELINE_NOT_NAMED


CITED_TABLE = ("# Results\n\n{lead}\n\n| Area | Naive | Optimized |\n| --- | --- | --- |\n"
               "| Throughput | ~4,400 tokens/sec | ~8,730 tokens/sec |\n")


def test_a_table_its_lead_in_credits_to_another_party_is_cited():
    record = credited_record(CITED_TABLE.format(lead="*Note: these figures come from benchmarks published by "
                                                     "the Contoso project.*"))
    assert {c.cited_from for c in record.claims} == {"the Contoso project"}
    assert not any(c.headline for c in record.claims)


def test_a_table_of_the_posts_own_runs_is_not_cited():
    record = extract_text(CITED_TABLE.format(lead="We measured the following on our cluster:"), "t.md")
    assert record.claims and {c.cited_from for c in record.claims} == {None}


def test_a_title_row_over_a_table_is_no_header_of_its_columns():
    html = """<html><body><h1>Tools</h1>
<p>Accuracy of the tool calls of each model on our tool-use benchmark:</p>
<table>
<tr><th colspan="3">Tool-use benchmark (version 3)</th></tr>
<tr><th>Model</th><th>Selection accuracy (%)</th><th>Input accuracy (%)</th></tr>
<tr><td>ours-7b</td><td>91.5</td><td>88.0</td></tr>
</table></body></html>
"""
    values = {c.value for c in extract_text(html, "t.html").claims}
    assert {91.5, 88.0} <= values


@pytest.mark.parametrize("text,quote,reason", [
    ("# R\n\nIt is most effective at lower GPU-to-expert ratios (10%-70%), where the gain is largest.\n",
     "10%-70%", "setting"),
    ("# R\n\nAt low cache hit rates (20%), the router falls back to round robin.\n", "20%", "setting"),
    ("# R\n\nHow long did the slowest CI job take, and how has that changed over the past 2 weeks?\n",
     "2 weeks", ("date_or_version", "setting")),
])
def test_setting_values_and_calendar_periods_are_set_aside(text, quote, reason):
    record = extract_text(text, "t.md")
    assert record.claims == []
    reasons = reason if isinstance(reason, tuple) else (reason,)
    assert any((quote, r) in [(s.quote, s.reason) for s in record.set_aside] for r in reasons)


def test_a_share_in_parentheses_after_a_metric_stays_a_claim():
    c = one("# R\n\nThe new router raised the cache hit rate (+18%) on the chat trace.\n", 18)
    assert c.metric == "relative_change"


@pytest.mark.parametrize("text", [
    "# R\n\n**Benchmark duration**: roughly 800 seconds per model.\n",
    "# R\n\n| concurrency | success | duration (s) |\n| --- | --- | --- |\n| 4 | 40 / 40 | 725.38 |\n",
])
def test_how_long_the_benchmark_ran_is_no_latency(text):
    assert [c.value for c in claims(text)] == []


def test_an_overhead_column_is_a_relative_change_against_the_native_column():
    text = ("# R\n\nThe mean step times over the window were:\n\n| Metric | Native | Ours | Overhead |\n"
            "| :--- | :--- | :--- | :--- |\n| Generation | 591.3 s | 776.6 s | **31.3%** |\n")
    c = one(text, 31.3)
    assert (c.metric, c.direction, c.baseline) == ("relative_change", "worse", "Native")


def test_the_sparsity_of_a_model_is_a_setting():
    record = extract_text("# R\n\nPruning gives a 60% sparse-quantized network, 7x faster than the dense "
                          "baseline.\n", "t.md")
    assert [c.value for c in record.claims] == [7.0]
    assert ("60%", "setting") in [(s.quote, s.reason) for s in record.set_aside]


def test_counts_of_a_fault_run_take_no_metric_from_the_lead_in():
    text = ("# R\n\nWe check the exact final-answer accuracy of each session after faults:\n\n"
            "| Fault phase | Requests | Injected errors | Affected sessions | Recovery (%) |\n"
            "|---|---:|---:|---:|---:|\n| provider state | 360 | 48 | 8 | 100.00% |\n")
    assert {c.value for c in claims(text)} <= {100.0}


@pytest.mark.parametrize("sentence,party", [
    ("One study of tool routing with larger catalogs found that 2.5x more tokens are spent per request.", "One study"),
    ("Recent studies have documented a 2.5x slowdown when tools sit in the middle of the list.", "Recent studies"),
    ("Research shows that the naive loader spends 2.5x more memory.", "Research"),
])
def test_a_figure_credited_to_unnamed_studies_is_cited(sentence, party):
    claims = credited_record(f"# Background\n\n{sentence}\n").claims
    assert [c.cited_from for c in claims if c.value == 2.5] == [party]


def test_the_posts_own_study_is_not_cited():
    assert one("# Results\n\nOur study shows 2.1x higher throughput on the long trace.\n", 2.1).cited_from is None


def test_a_table_validated_against_a_vendor_report_is_not_cited():
    text = ("# Accuracy\n\nWe validated accuracy against the official Contoso report using our harness:\n\n"
            "| | Quiz A | Quiz B |\n|---|---|---|\n| Reported | 80.5 | 90 |\n| Ours FP8 | 80.4 | 89.4 |\n")
    assert {c.cited_from for c in claims(text)} == {None}


@pytest.mark.parametrize("text,values,metric", [
    ("# R\n\nIn our stress run, tool-selection accuracy fell from 78% with 10 tools to 13.6% with 100 tools.\n",
     (78, 13.6), "accuracy"),
    # the level it starts from is the reference's, set aside (`set_aside.from_level`): the level reached stays
    ("# R\n\nThe prefix hit rate rose from 40% to 65% after the router change.\n", (65,), "other"),
])
def test_two_levels_from_a_to_b_are_levels_not_changes(text, values, metric):
    found = {c.value: c for c in claims(text)}
    for v in values:
        assert found[v].metric == metric and found[v].direction is None


def test_a_range_from_a_to_b_stays_one_change():
    c = one("# R\n\nThe kernel-level speedups range from 8% to 100% across shapes.\n", 8)
    assert (c.metric, c.value_max) == ("relative_change", 100)


def test_a_latency_the_run_was_constrained_to_is_a_target():
    record = extract_text("# R\n\nWith TTFT capped under 500ms, our FP8 build at batch 16 "
                          "gives a 2.3x speedup over FP16.\n", "t.md")
    assert [c.value for c in record.claims] == [2.3]
    assert ("under 500ms", "target") in [(s.quote, s.reason) for s in record.set_aside]
    assert one("# R\n\nWe measured a first token latency of 420 ms at batch 16.\n", 420).metric == "ttft"


def test_of_several_reference_columns_the_one_naming_the_same_quantity_is_the_baseline():
    text = ("# R\n\n| Conc | Base TPOT(ms) | Base Throughput(TPS) | New TPOT(ms) | New Throughput(TPS) | TPOT Gain | "
            "TPS Gain |\n|---|---|---|---|---|---|---|\n| 1 | 53.1 | 18.7 | 31.8 | 34.1 | 40.1% | 81.9% |\n")
    assert one(text, 40.1).baseline == "Base TPOT(ms)"
    assert one(text, 81.9).baseline == "Base Throughput(TPS)"
