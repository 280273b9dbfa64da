"""Figures no one read (issue 23): classes of figures that were neither a claim nor set aside, each now decided.
Sentences, tables and program output written for these tests; positives and negatives."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _claims(text: str):
    return extract_text(text, "t.md").claims


def _aside(text: str) -> dict[str, tuple[str, str]]:
    return {a.quote: (a.reason, a.rule) for a in extract_text(text, "t.md").set_aside}


# ---- HTML tables with rowspan/colspan: each value under its own header

ROWSPAN_TABLE = """## Speed and memory

<table>
  <tr><td>Size</td><td>Precision</td><td>Speed (tokens/s)</td><td>GPU Memory Usage</td></tr>
  <tr><td rowspan="2">small</td><td>BF16</td><td>48.5</td><td>5.10GB</td></tr>
  <tr><td>Int4</td><td>66.2</td><td>2.75GB</td></tr>
</table>
"""


def test_rows_below_a_rowspan_cell_keep_their_metric_and_unit():
    got = {(c.metric, c.quote) for c in _claims(ROWSPAN_TABLE)}
    assert {("throughput", "48.5"), ("memory", "5.10GB"), ("throughput", "66.2"), ("memory", "2.75GB")} <= got
    # the second row's memory is no throughput (it sat under the speed header before spans were read)
    assert not any(c.metric == "throughput" and c.quote.endswith("GB") for c in _claims(ROWSPAN_TABLE))


# ---- load-generator summaries: statistic labels and percentile lines

LOAD_OUTPUT = """We sent traffic for a while to the endpoint.

```
Summary:
  Slowest:\t4.2051 secs
  Fastest:\t0.0210 secs
  Average:\t0.0457 secs
  Requests/sec:\t88.1200

Latency distribution:
  50% in 0.0301 secs
  99.9% in 0.9100 secs
```
"""


def test_statistic_labels_and_percentile_lines_are_latencies_with_their_statistic():
    got = {(c.metric, c.statistic, c.value, c.quote) for c in _claims(LOAD_OUTPUT)}
    assert ("latency", "max", 4.2051, "4.2051 secs") in got
    assert ("latency", "min", 0.021, "0.0210 secs") in got
    assert ("latency", "mean", 0.0457, "0.0457 secs") in got
    assert ("latency", "median", 0.0301, "50% in 0.0301 secs") in got
    assert ("latency", "p99.9", 0.91, "99.9% in 0.9100 secs") in got


@pytest.mark.parametrize("text", [
    "```\nAverage:\t42\n```\n",                       # no unit: nothing says it is a time
    "```\nAverage:\t3.5 GB\n```\n",                   # a size is no latency
    "```\nTimeout:\t30 secs\n```\n",                  # a setting, not a statistic
    "The fastest run took 3 s and the average one 5 s in our notes.\n",   # prose is read as before
])
def test_statistic_labels_take_only_times_in_program_output(text):
    assert not any(c.metric == "latency" and c.statistic in ("mean", "min", "max") and "\n" not in c.quote
                   and c.context.block == "code" for c in _claims(text))


# ---- the reference of a comparison

def test_the_reference_row_of_a_ratio_column_is_set_aside_as_baseline():
    text = ("| Setup | Speed-up |\n|---|---|\n| Eager (reference) | 1.00x |\n| Compiled | 1.62x |\n\n"
            "| Precision | Score | Relative |\n|---|---|---|\n| BF16 (baseline) | 71.5% | 100% |\n"
            "| FP8 | 70.1% | 98.0% |\n")
    aside = _aside(text)
    assert aside["1.00x"] == ("baseline", "set_aside.baseline_ratio")
    assert aside["100%"] == ("baseline", "set_aside.baseline_share")
    assert any(c.quote == "1.62x" and c.metric == "speedup" for c in _claims(text))


@pytest.mark.parametrize("text,quote", [
    ("Caching made the warm path 1.0x faster, so no gain at all.\n", "1.0x"),   # a change word: a claim's job
    ("| Model | Score |\n|---|---|\n| A | 100% |\n| B | 97% |\n", "100%"),     # no baseline named
    ("| Stage | Shape | Time |\n|---|---|---|\n| fwd | 1 × 4,096 tokens | 5.1 ms |\n", "1 ×"),   # a shape
])
def test_a_one_or_a_hundred_percent_is_no_baseline_without_its_row(text, quote):
    assert _aside(text).get(quote, ("", ""))[0] != "baseline"


# ---- profiler listings in program output

@pytest.mark.parametrize("line,quote", [
    ("  matmul_kernel_12 0.0412 ms 88.1%", "0.0412 ms"),
    ("  matmul_kernel_12 0.0412 ms 88.1%", "88.1%"),
    ("   71.02%  worker::loop_body", "71.02%"),
])
def test_profiler_listing_lines_are_log_text(line, quote):
    assert _aside(f"```\n{line}\n```\n").get(quote) == ("log_or_error", "set_aside.profile_listing")


def test_a_labelled_result_line_is_no_profiler_listing():
    text = "```\nLatency: 12.5 ms 5%\n```\n"
    assert _aside(text).get("12.5 ms", ("", ""))[1] != "set_aside.profile_listing"


# ---- results tables: a time or a size no metric word names

@pytest.mark.parametrize("table,expected", [
    ("| Stage | P50 | P99 |\n|---|---|---|\n| Router | 9ms | 31ms |\n",
     {("latency", "median", "9ms"), ("latency", "p99", "31ms")}),
    ("| Phase | Before | After |\n|---|---|---|\n| Rollout | 402.5 s | 311.0 s |\n",
     {("latency", None, "402.5 s"), ("latency", None, "311.0 s")}),
    ("| GPUs | Peak memory | Tokens/s |\n|---|---|---|\n| 2 | 21.4 GB | 9.1 |\n",
     {("memory", "max", "21.4 GB"), ("throughput", None, "9.1")}),   # a peak is the maximum (session 8)
])
def test_times_and_sizes_in_results_tables_are_measurements(table, expected):
    got = {(c.metric, c.statistic, c.quote) for c in _claims(table)}
    assert expected <= got


@pytest.mark.parametrize("table,quote", [
    ("| Model | Clip length | Frame rate |\n|---|---|---|\n| A | 8 seconds | 24 fps |\n", "8 seconds"),
    ("| Tier | Timeout |\n|---|---|\n| chat | 45 s |\n", "45 s"),
    ("| Model | Size |\n|---|---|\n| A | 640MB |\n", "640MB"),                 # a file size, no memory header
    ("| Model | Download |\n|---|---|\n| A | 3.2 GB |\n", "3.2 GB"),
])
def test_lengths_settings_and_file_sizes_in_tables_stay_no_claims(table, quote):
    assert not any(c.quote == quote for c in _claims(table))


# ---- ratio tables whose lead-in names the comparison

def test_a_ratio_table_under_a_lead_in_that_names_the_change_holds_speedups():
    text = ("**How many times slower in TPS vs the fused kernel (64 requests):**\n\n"
            "| Hardware | Fused | Split | Naive |\n| --- | --- | --- | --- |\n| A100 | **1.00x** | 1.07x | 2.90x |\n")
    got = {(c.quote, c.metric, c.direction) for c in _claims(text)}
    assert {("1.07x", "speedup", "worse"), ("2.90x", "speedup", "worse")} <= got
    assert _aside(text)["1.00x"][0] == "baseline"


def test_a_ratio_table_with_no_comparison_named_stays_unread():
    text = "The cluster layout we used:\n\n| Nodes | Layout |\n|---|---|\n| 2 | 4x |\n"
    assert not any(c.metric == "speedup" for c in _claims(text))


# ---- LaTeX inline math that opens with a number

def test_inline_math_opening_with_a_number_is_markup_and_a_price_is_not():
    text = ("Each layer holds $1152 + 256 = 1408$ bytes per token.\n\n"
            "It costs $0.20 per 1M tokens versus $1.10 before.\n")
    assert _aside(text)["$1152"] == ("markup", "set_aside.latex_inline_math")
    assert any(c.quote.startswith("$0.20") and c.metric == "cost" for c in _claims(text))


# ---- hardware listings and run lengths

@pytest.mark.parametrize("text,quote", [
    ("+ Memory: 512GB\n+ Storage: 4 TB\n", "512GB"),
    ("+ Memory: 512GB\n+ Storage: 4 TB\n", "4 TB"),
    ("- **Host RAM**: 1 TB\n", "1 TB"),
])
def test_a_hardware_listing_line_is_datasheet(text, quote):
    assert _aside(text)[quote] == ("datasheet", "set_aside.hardware_listing")


def test_a_memory_line_that_says_it_was_used_is_no_listing():
    text = "- GPU memory used: 60 GB after the warm-up\n"
    assert _aside(text).get("60 GB", ("", ""))[1] != "set_aside.hardware_listing"


def test_over_the_past_hours_is_a_run_length():
    assert _aside("Over the past 24 hours the fleet served every region.\n")["24 hours"] == ("setting", "set_aside.run_length_then_run")


# ---- a second header row, accuracy named by a table's lead-in

def test_a_row_of_names_under_a_row_of_groups_names_each_column():
    text = ("| | | Eager | | Compiled | |\n|---|---|---|---|---|---|\n"
            "| Model | Batch | Tokens/sec | | Tokens/sec | Speedup |\n| Tiny-1B | 4 | 310.5 | | 402.0 | 1.29x |\n")
    got = {(c.quote, c.metric) for c in _claims(text)}
    assert {("310.5", "throughput"), ("402.0", "throughput"), ("1.29x", "speedup")} <= got


def test_shares_under_a_lead_in_naming_accuracy_are_accuracies_and_others_are_shares():
    text = ("**Accuracy by catalogue size:**\n\n| Catalogue | Plain | Filtered |\n|---|---|---|\n"
            "| 60 entries | 93% | 95% |\n\nWhere the entries were placed:\n\n| Position | A | B |\n|---|---|---|\n"
            "| Early | 14% | 27% |\n")
    got = {(c.quote, c.metric) for c in _claims(text)}
    assert {("93%", "accuracy"), ("95%", "accuracy")} <= got
    # a result cell nothing names the metric of is a claim all the same (issue 23: a claim unless a reason
    # applies), of metric `other`: no accuracy is guessed for it
    assert {("14%", "other"), ("27%", "other")} <= got


# ---- load-generator output: the run's length, statistics listed by a group line

HEY_DETAILS = """We loaded the service.

```
Summary:
  Total:\t20.0410 secs
  Average:\t0.0512 secs

Details (average, fastest, slowest):
  resp wait:\t0.0490 secs, 0.0101 secs, 7.2000 secs

Request latency:
  queue: 1.5 ms

Setup:
  warm-up: 5 s
```
"""


def test_a_group_line_listing_statistics_gives_each_value_its_statistic():
    got = {(c.metric, c.statistic, c.quote) for c in _claims(HEY_DETAILS)}
    assert {("latency", "mean", "0.0490 secs"), ("latency", "min", "0.0101 secs"),
            ("latency", "max", "7.2000 secs"), ("latency", None, "1.5 ms")} <= got
    assert not any(c.quote in ("20.0410 secs", "5 s") for c in _claims(HEY_DETAILS))   # a setup line: no result


def test_the_printed_length_of_the_run_is_a_setting():
    assert _aside(HEY_DETAILS)["20.0410 secs"] == ("setting", "set_aside.run_duration_line")


# ---- set aside by the column a figure sits under

@pytest.mark.parametrize("table,quote,reason,rule", [
    ("| Model | Block size | Pool size |\n|---|---|---|\n| tiny-1b | 16 KB | 2 GB |\n", "16 KB", "setting",
     "size_setting_column"),
    ("| Variant | Size | Speed |\n|---|---|---|\n| Q4 | ~380MB | 5.8 tok/s |\n", "~380MB", "model_size",
     "model_size_column"),
    ("| Model | Clip length | Timeout |\n|---|---|---|\n| A | 8 seconds | 45 s |\n", "8 seconds", "setting",
     "setting_column"),
    ("| Tier | TTFT SLO | TTFT |\n|---|---|---|\n| chat | 500 ms | 320 ms |\n", "500 ms", "target", "target_column"),
])
def test_a_column_header_names_why_its_figures_are_no_claims(table, quote, reason, rule):
    assert _aside(table)[quote] == (reason, f"set_aside.{rule}")


def test_a_column_of_measured_values_beside_a_target_column_stays_claimed():
    table = "| Tier | TTFT SLO | TTFT |\n|---|---|---|\n| chat | 500 ms | 320 ms |\n"
    assert [c.quote for c in _claims(table)] == ["320 ms"]
    peak = "| Variant | Peak memory usage |\n|---|---|\n| Q4 | 2.5 GB |\n"
    assert "2.5 GB" not in _aside(peak) and any(c.quote == "2.5 GB" for c in _claims(peak))


def test_a_figure_outside_a_table_has_no_column_header():
    assert _aside("The block size is set to 16 KB for every run.\n").get("16 KB", ("", ""))[1] \
        != "set_aside.size_setting_column"


# ---- error rates of speech models are accuracies; a statistic word makes a time a latency

def test_word_and_character_error_rates_are_accuracy_claims():
    text = ("| Metric | Result |\n| --- | --- |\n| WER | 8.70% |\n| CER | 2.10% |\n\n"
            "After tuning, the model reaches a WER of 5.3% on the held-out clips.\n")
    got = {(c.quote, c.metric) for c in _claims(text)}
    assert {("8.70%", "accuracy"), ("2.10%", "accuracy"), ("5.3%", "accuracy")} <= got


@pytest.mark.parametrize("text,quote,claimed", [
    ("- Average per switch was 2.6s across the runs\n", "2.6s", True),
    ("We ran the test for 10 minutes on average hardware.\n", "10 minutes", False),
    ("The P99 TTFT SLO is 2 s for every tier.\n", "2 s", False),
])
def test_a_time_after_a_statistic_word_is_a_latency(text, quote, claimed):
    assert any(c.quote == quote and c.metric == "latency" for c in _claims(text)) is claimed


def test_columns_named_by_a_configuration_value_hold_results():
    text = ("We profile the peak GPU memory of the model at several batch sizes.\n\n"
            "| Quantized cache | bs=1 | bs=16 |\n|---|---|---|\n| No | 16.0GB | 30.5GB |\n\n"
            "| Model | # GPUs |\n|---|---|\n| A | 8 |\n")
    got = {(c.quote, c.metric) for c in _claims(text)}
    assert {("16.0GB", "memory"), ("30.5GB", "memory")} <= got
    assert not any(q == "8" for q, _ in got)      # a column of counts stays unread


def test_a_column_named_for_a_budget_configuration_still_holds_results():
    text = ("### End-to-end latency\n\nThe total time in seconds to reach 512 tokens.\n\n"
            "| new tokens | Small latency | Small budget |\n|---|---|---|\n| 256 | 2,1 | 14,2 |\n")
    assert "14,2" in {c.quote for c in _claims(text)}


def test_numbers_under_a_header_spanning_columns_name_those_columns():
    text = ("<table>\n<tr><th rowspan='2'>Method</th><th colspan='2'>Prompt length</th></tr>\n"
            "<tr><th>512</th><th>2048</th></tr>\n"
            "<tr><td>Paged</td><td>0.9s/it</td><td>2.4s/it</td></tr>\n</table>\n")
    got = {(c.quote, c.metric) for c in _claims(text)}
    assert {("0.9s/it", "latency"), ("2.4s/it", "latency")} <= got


def test_a_unit_glued_to_its_metric_in_a_header_is_read_as_spaced():
    text = "| Concurrency | Base TPOT(ms) | Base Throughput(TPS) |\n|---|---|---|\n| 1 | 54.1 | 18.3 |\n"
    got = {(c.quote, c.metric, c.unit) for c in _claims(text)}
    assert {("54.1", "tpot", "millisecond"), ("18.3", "throughput", "token / second")} <= got


def test_a_count_beside_a_score_name_is_no_score():
    text = "| Metric | Result |\n| --- | --- |\n| WER = 0 (exact) | 2,931 / 10,471 (28.0%) |\n"
    assert not any(c.quote == "2,931" for c in _claims(text))


# ---- a period is a run length only where the line speaks of a measurement run

@pytest.mark.parametrize("text,quote", [
    ("Did the cluster go down? For the past 3 days, no.\n", "3 days"),
    ("For the last 2 weeks we have been on holiday.\n", "2 weeks"),
    # a run word in the next sentence of the line does not make the period a run's length
    ("Any outage? For the past 3 days, no. Why did the nightly jobs stall, then?\n", "3 days"),
])
def test_a_period_outside_a_measurement_is_no_run_length(text, quote):
    assert _aside(text)[quote] == ("date_or_version", "set_aside.calendar_period")


@pytest.mark.parametrize("text,quote", [
    ("We ran each benchmark for 10 minutes.\n", "10 minutes"),
    ("Every load test lasted for 1 hour, 5 minutes at a fixed request rate.\n", "1 hour, 5 minutes"),
    ("The soak test kept traffic on the cluster for 3 days.\n", "3 days"),
    ("It runs for 90 seconds per setting.\n", "90 seconds"),
])
def test_a_period_of_a_measurement_run_is_a_run_length(text, quote):
    assert _aside(text)[quote] == ("setting", "set_aside.run_length")


def test_a_period_before_the_run_it_measures_is_a_run_length():
    assert _aside("During the first 5 minutes the load generator sent no requests.\n")["5 minutes"] == \
        ("setting", "set_aside.run_length_then_run")


def test_a_compound_duration_is_one_claim():
    claims = _claims("The fine-tune finished in 30 minutes and 14 seconds on our node.\n")
    assert [(c.quote, c.value, c.unit) for c in claims] == [("30 minutes and 14 seconds", 1814.0, "second")]


# ---- capacity in tokens: what a model holds is a setting, not a claim

@pytest.mark.parametrize("text,quote", [
    ("The new release serves the model with 1M context.\n", "1M context"),
    ("It supports a 128K context window and reaches 2,400 tokens/s.\n", "128K context window"),
    ("The base model was trained with a 32k-token context.\n", "32k-token context"),
    ("Each replica holds 64k tokens of context.\n", "64k tokens of context"),
])
def test_a_context_capacity_is_set_aside_as_a_setting(text, quote):
    assert _aside(text)[quote] == ("setting", "set_aside.context_capacity")
    assert not any(quote in c.quote for c in _claims(text))


@pytest.mark.parametrize("text", [
    "Each of the 2 context switches cost little.\n",
    "We compared 3 contexts of use.\n",
])
def test_a_count_of_contexts_is_no_capacity(text):
    assert not any(r == "set_aside.context_capacity" for _, r in _aside(text).values())


def test_a_throughput_next_to_a_context_capacity_stays_a_claim():
    claims = _claims("It supports a 128K context window and reaches 2,400 tokens/s.\n")
    assert [(c.quote, c.metric) for c in claims] == [("2,400 tokens/s", "throughput")]


@pytest.mark.parametrize("text,quote", [
    ("If a replica stays idle for 5 minutes, the controller scales it down.\n", "5 minutes"),
    ("Once the alarm condition is no longer met for 30 seconds, the controller resets.\n", "30 seconds"),
])
def test_how_long_a_condition_must_hold_is_a_setting(text, quote):
    assert _aside(text)[quote] == ("setting", "set_aside.hold_time")


def test_a_time_after_for_without_a_condition_is_no_hold_time():
    aside = _aside("We thank the team for 3 years of support.\n")
    assert aside.get("3 years", ("", ""))[1] != "set_aside.hold_time"
