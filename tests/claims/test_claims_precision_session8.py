"""Precision classes from the random draws of session 8 (issue 23, helper `precise8`): a table's change cells read
against the two levels of their row (a gain of speed beside a lower-is-better quantity, a cut, a slowdown), a gain
column's word, the statistic a column header or a table's lead sentence names, a qualifier a caption or a cell
states, and baselines. Every table and sentence here is written for the test; each class has its negatives."""
from __future__ import annotations

import pytest

from claim_checks import claims_in


def _changes(text: str) -> list[tuple[str, float, str | None, str | None]]:
    return [(c.quote, c.value, c.direction, c.baseline) for c in claims_in(text) if c.metric == "relative_change"]


# ---- a change cell computed from two levels of its row: the arithmetic says what changed and which way
GAIN_OF_SPEED = """## Decode results

We compared the plain decoder with the draft-assisted one on one card.

| Batch | Plain ITL (ms) | Draft ITL (ms) | ITL Gain |
| --- | --- | --- | --- |
| 1 | 40.0 | 25.0 | 60.0% |
| 8 | 52.0 | 40.0 | 30.0% |
"""
SIGNED_CUT = """## Prefill results

| Batch | Old TTFT (ms) | New TTFT (ms) | Improvement |
| --- | --- | --- | --- |
| 1 | 200.0 | 150.0 | +25.0% |
| 4 | 400.0 | 380.0 | +5.0% |
| 16 | 1000.0 | 700.0 | +30.0% |
"""
LEVELS_WITH_UNITS = """## Switch cost

| Step | Cold start | Warm pool | Improvement |
| --- | --- | --- | --- |
| Load | 120.0s | 30.0s | 75% faster |
| Reply | 2.00s | 2.20s | -10% (slower) |
"""


def test_a_gain_of_speed_beside_a_latency_is_positive() -> None:
    # 40.0 / 25.0 - 1 = 60 %: the decoder got 60 % faster; ITL fell by 37.5 %, not by 60 %
    assert _changes(GAIN_OF_SPEED) == [("60.0%", 60.0, "better", "Plain ITL"),
                                       ("30.0%", 30.0, "better", "Plain ITL")]


def test_a_signed_improvement_that_is_a_cut_is_negative() -> None:
    # (200 - 150) / 200 = 25 %: TTFT fell by 25 % (a reduction is negative); the row of batch 4 alone could be
    # either form, the column's other rows tell
    assert _changes(SIGNED_CUT) == [("+25.0%", -25.0, "better", "Old TTFT"),
                                    ("+5.0%", -5.0, "better", "Old TTFT"),
                                    ("+30.0%", -30.0, "better", "Old TTFT")]


def test_levels_written_with_units_name_the_baseline_and_a_slowdown_is_worse() -> None:
    # "-10% (slower)": the reply time rose from 2.00 s to 2.20 s, a rise of 10 %, worse
    assert _changes(LEVELS_WITH_UNITS) == [("75%", -75.0, "better", "Cold start"),
                                           ("-10%", 10.0, "worse", "Cold start")]


@pytest.mark.parametrize("table,expected", [
    # no two levels of one quantity in the row: the column word decides (a gain is positive, a cut negative)
    ("| Model | ITL Gain |\n| --- | --- |\n| Tiny-1B | 60.0% |\n", [("60.0%", 60.0, "better")]),
    ("| Model | TPOT speed-up (%) |\n| --- | --- |\n| Tiny-1B | 25% |\n", [("25%", 25.0, "better")]),
    ("| Model | TTFT Reduction |\n| --- | --- |\n| Tiny-1B | 25% |\n", [("25%", -25.0, "better")]),
    ("| Model | TTFT Improvement |\n| --- | --- |\n| Tiny-1B | 25% |\n", [("25%", -25.0, "better")]),
    # levels that do not give the change (it was computed from runs not shown): the cell stays as the column says
    ("| Model | Old TTFT (ms) | New TTFT (ms) | TTFT Gain |\n| --- | --- | --- | --- |\n"
     "| Tiny-1B | 90.0 | 80.0 | 44.0% |\n", [("44.0%", 44.0, "better")]),
    # a throughput gain is a rise of the throughput, as before
    ("| Model | Base tok/s | New tok/s | Gain |\n| --- | --- | --- | --- |\n| Tiny-1B | 100.0 | 150.0 | 50.0% |\n",
     [("50.0%", 50.0, "better")]),
])
def test_a_change_column_without_its_arithmetic_follows_its_word(table: str, expected) -> None:
    assert [x[:3] for x in _changes(table)] == expected


def test_levels_of_two_quantities_are_never_paired() -> None:
    # a TTFT and a throughput in one row: 25 % is neither's change from the other, so nothing is changed
    table = ("| Model | TTFT (ms) | Throughput (tok/s) | TTFT Reduction |\n| --- | --- | --- | --- |\n"
             "| Tiny-1B | 100.0 | 125.0 | 25% |\n")
    assert [x[:3] for x in _changes(table)] == [("25%", -25.0, "better")]


# ---- a statistic named by a column header or by the sentence that leads into the table
def _stats(text: str) -> list[tuple[str, str, str | None]]:
    return [(c.quote, c.metric, c.statistic) for c in claims_in(text)]


def test_a_statistic_in_a_column_header_reaches_memory_compute_and_utilization_cells() -> None:
    table = ("| Engine | Max. GPU memory | Peak host RAM | Max compute per GPU | Avg. GPU utilization (%) |\n"
             "| --- | --- | --- | --- | --- |\n| ours | 812MB | 2.1GB | 6.2 TFLOPS | 71.3 |\n")
    assert _stats(table) == [("812MB", "memory", "max"), ("2.1GB", "memory", "max"),
                             ("6.2 TFLOPS", "compute", "max"), ("71.3", "other", "mean")]


def test_a_minimum_memory_is_a_requirement_not_a_statistic() -> None:
    table = "| Setup | Minimum GPU memory |\n| --- | --- |\n| LoRA | 14.5GB |\n"
    assert _stats(table) == [("14.5GB", "memory", None)]
    assert [c.statistic for c in claims_in("Fine-tuning needs a minimum of 24 GB of GPU memory.\n")] in ([], [None])


def test_the_lead_sentence_names_the_statistic_of_its_metric_only() -> None:
    text = ("We timed the average decode speed (tokens/s) and the GPU memory of each build on one card.\n\n"
            "| Build | Speed (tokens/s) | GPU memory |\n| --- | --- | --- |\n| fp16 | 41.5 | 15.2GB |\n")
    assert _stats(text) == [("41.5", "throughput", "mean"), ("15.2GB", "memory", None)]
    caption = "Table 3: Median TTFT (ms) at each batch size\n\n| Batch | fp16 | int8 |\n| --- | --- | --- |\n| 1 | 45.1 | 38.7 |\n"
    assert _stats(caption) == [("45.1", "ttft", "median"), ("38.7", "ttft", "median")]


@pytest.mark.parametrize("text", [
    # a statistic word about something else than the table's metric
    "The average request carries 900 tokens, and we report throughput below.\n\n"
    "| Build | Throughput (tok/s) |\n| --- | --- |\n| ours | 1210.5 |\n",
    # a statistic word that describes a figure written before it (a link's datasheet peak), not the cells
    "We ran the kernels on one node (a 90 GB/s link peak bandwidth per direction).\n\n"
    "| Kernel | Achieved bandwidth |\n| --- | --- |\n| dispatch | 71 GB/s |\n",
])
def test_a_lead_statistic_of_another_quantity_is_not_carried(text: str) -> None:
    assert all(stat is None for *_, stat in _stats(text)), _stats(text)


def test_a_share_of_the_peak_states_no_statistic() -> None:
    found = _stats("Older clusters keep 7% of the peak busy; ours keep 41% of peak.\n")
    assert found and all(stat is None for *_, stat in found), found
    assert _stats("Our server used a peak memory of 38.5 GB during the benchmark.\n") == [("38.5 GB", "memory", "max")]


# ---- the level a change starts from, stated on its own before the change: the reference's level
def _decided(text: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    from extractor.api import extract_text
    r = extract_text(text, "t.md")
    return [c.quote for c in r.claims], [(s.quote, s.reason, s.rule) for s in r.set_aside]


def test_a_start_level_stated_before_its_change_is_the_baseline() -> None:
    text = ("## Planning\n\nOn the old planner, each plan took **48.5 seconds** of search.\n\n"
            "The pruned search is quicker; per plan it brings the search from 48.5 seconds to 12.1 seconds.\n")
    claims, aside = _decided(text)
    assert claims == ["12.1 seconds"]
    assert ("48.5 seconds", "baseline", "set_aside.from_level_restated") in aside


@pytest.mark.parametrize("text,kept", [
    # the level the first change reaches, where the second starts: a result of the first
    ("## Start-up\n\nThe first rewrite brought start-up from 90.0 seconds to 48.5 seconds. The second one cuts "
     "start-up from 48.5 seconds to 12.1 seconds.\n", "48.5 seconds"),
    # the same figure in another section: another run
    ("## Ours\n\nOur server answers in 48.5 ms.\n\n## Theirs\n\nThe old router went from 48.5 ms to 30 ms.\n",
     "48.5 ms"),
    # a printed result of the run, in a code block
    ("## Run\n\n```\ntotal time: 6.25s\n```\n\nWith the fused kernel the total time drops from 6.25s to 4.10s.\n",
     "6.25s"),
    # a start level that opens a change of its own ("(a → b)")
    ("## Memory\n\nWith the long prompts, resident memory rises 20%: 20.5 → 24.6 GB. Offloading "
     "takes resident memory from 20.5 GB to 12.0 GB.\n", "20.5"),
])
def test_a_level_that_is_a_result_of_its_own_is_kept(text: str, kept: str) -> None:
    claims, aside = _decided(text)
    assert kept in claims, (claims, aside)
    assert not any(rule == "set_aside.from_level_restated" for *_, rule in aside), aside


# ---- a hedge or a bound stated in a table's caption, its column header or its cell
def _qualifiers(text: str) -> list[tuple[str, str, str]]:
    return [(c.quote, c.metric, c.qualifier) for c in claims_in(text)]


def test_a_caption_that_hedges_one_metric_makes_only_its_cells_approximate() -> None:
    text = ("| GPUs | Small | Large |\n| --- | --- | --- |\n| 4x cards | 3.5 hours ($97) | 7 hours ($188) |\n\n"
            "Table 2: Run time and the approximate cost of each run.\n")
    assert _qualifiers(text) == [("3.5 hours", "latency", "exact"), ("$97", "cost", "approx"),
                                 ("7 hours", "latency", "exact"), ("$188", "cost", "approx")]


def test_a_hedged_column_header_makes_its_cells_approximate() -> None:
    table = ("| Model | Approx. cost | ~Latency (ms) | Est. cost (USD) | Cost |\n| --- | --- | --- | --- | --- |\n"
             "| Small | $41 | 120 | 17.5 | $12 |\n")
    assert _qualifiers(table) == [("$41", "cost", "approx"), ("120", "latency", "approx"),
                                  ("17.5", "cost", "approx"), ("$12", "cost", "exact")]


@pytest.mark.parametrize("text", [
    # a hedge about something else than the cells' metric
    "We give approximate prompt sizes in the notes; the latency below is measured.\n\n"
    "| Model | Latency (ms) |\n| --- | --- |\n| Small | 120 |\n",
    # a hedge far from the metric's word
    "Approximately half of the runs used the new kernel; the table lists the measured cost.\n\n"
    "| Model | Cost |\n| --- | --- |\n| Small | $12 |\n",
])
def test_a_hedge_of_another_word_leaves_the_cells_exact(text: str) -> None:
    assert all(q == "exact" for *_, q in _qualifiers(text)), _qualifiers(text)


def test_a_minimum_written_after_a_size_in_a_cell_is_a_floor() -> None:
    table = "| Model | GPU memory |\n| --- | --- |\n| Small | 6GB minimum |\n| Large | 9.5GB |\n"
    assert _qualifiers(table) == [("6GB", "memory", "at_least"), ("9.5GB", "memory", "exact")]


@pytest.mark.parametrize("text", ["Our router adds a 12 ms minimum latency per request.\n",
                                  "In our runs TTFT was 12 ms minimum and 40 ms at most.\n"])
def test_a_minimum_after_a_latency_is_its_statistic(text: str) -> None:
    c = claims_in(text)[0]
    assert (c.quote, c.qualifier, c.statistic) == ("12 ms", "exact", "min")


# ---- a baseline is a name, cleaned of markup, pictographs and the clause after it
@pytest.mark.parametrize("text,baseline", [
    ("Highlights: ✔ 3× faster than PlainHTTP ✔ streaming built in\n", "PlainHTTP"),
    ("Batching yields 12x over OldServe allowing far longer queues.\n", "OldServe"),
    ("The new scheduler is 1.7x quicker than legacy engines reaching only half their ideal rate.\n",
     "legacy engines"),
    ("| Model | Backend | Config | Time | Speedup |\n| --- | --- | --- | --- | --- |\n"
     "| M | Baseline | off | 32.0s | 1.00x |\n| M | Fast | k=2 | 16.0s | 2.00x |\n", "Baseline"),
    # a cell that names the reference run beside a setting keeps both, as before
    ("| Model | Backend | Config | Time | Speedup |\n| --- | --- | --- | --- | --- |\n"
     "| M | Stock | eager | 20.0s | 1.0x |\n| M | Fast | graphs | 10.0s | 2.0x |\n", "Stock; eager"),
    ("Our router answers 3 times faster than familiar gateways such as PlainGate or OldGate.\n", "familiar gateways"),
    # the participle inside a name stays ("leading", "that")
    ("Per request, ours costs 25% less than other leading open routers.\n", "other leading open routers"),
])
def test_a_baseline_is_a_clean_name(text: str, baseline: str) -> None:
    found = [c.baseline for c in claims_in(text) if c.metric in ("speedup", "relative_change")]
    assert found == [baseline], found


# ---- the baseline of a prose change that sums up the table next to it
SUMMED_TABLE = """## Decode

| Pool layout | Decode time (ms) |
|---|---|
| Pinned pool | 80.0 |
| Paged pool | 60.0 |

Paging the pool lowers decode time by 25%, with the same memory.
"""


@pytest.mark.parametrize("text,baseline", [
    (SUMMED_TABLE, "Pinned pool"),
    # the runs as columns: the reference column's header
    ("## Switch\n\n| Metric | Cold | Warm |\n|---|---|---|\n| Load time | 50.0s | 20.0s |\n\n"
     "Warm pools cut load time by 60%.\n", "Cold"),
    # no pair of cells gives the change
    ("## Decode\n\n| Pool layout | Decode time (ms) |\n|---|---|\n| Pinned pool | 90.0 |\n| Paged pool | 75.0 |\n\n"
     "Elsewhere, the new cache cuts load time by 40%.\n", "not named in the text"),
    # the sentence changes another quantity than the cells hold, even when a pair gives its value
    ("## Loader\n\n| Build | Throughput (tok/s) |\n|---|---|\n| Alpha | 1000 |\n| Beta | 800 |\n\n"
     "Separately, the new loader cuts cold-start time by 20%.\n", "not named in the text"),
    ("## Cache\n\n| Build | TTFT (ms) |\n|---|---|\n| Alpha | 100 |\n| Beta | 75 |\n\n"
     "Prefix caching improves throughput by 25% on the same trace.\n", "not named in the text"),
    # the exact metric: a TTFT or an end-to-end latency change names no TPOT column, though a pair gives its value
    ("## Kernels\n\n| Kernel | TPOT (ms) |\n|---|---|\n| Gamma | 50 |\n| Delta | 40 |\n\n"
     "Fusing the norm cuts TTFT by 20% on this workload.\n", "not named in the text"),
    ("## Kernels\n\n| Kernel | TPOT (ms) |\n|---|---|\n| Gamma | 50 |\n| Delta | 40 |\n\n"
     "Fusing the norm cuts end-to-end latency by 20% on this workload.\n", "not named in the text"),
    # a generic time word names a table's only time column, never one of two
    ("## Kernels\n\n| Kernel | TPOT (ms) |\n|---|---|\n| Gamma | 50 |\n| Delta | 40 |\n\n"
     "Fusing the norm cuts decode time by 20%.\n", "Gamma"),
    ("## Kernels\n\n| Kernel | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n| Gamma | 90 | 50 |\n| Delta | 85 | 40 |\n\n"
     "Fusing the norm cuts decode time by 20%.\n", "not named in the text"),
    # a metric word after the figure in another clause names that clause's quantity, not the change's
    ("## Warmup\n\n| Image | Output rate (tok/s) |\n|---|---|\n| Slim | 500 |\n| Fat | 350 |\n\n"
     "The lazy importer trims boot delays by 30%; output rate barely moves.\n", "not named in the text"),
    ("## Warmup\n\n| Image | Throughput (tok/s) |\n|---|---|\n| Slim | 500 |\n| Fat | 350 |\n\n"
     "The lazy importer trims boot delays by 30%, and throughput is unchanged otherwise.\n", "not named in the text"),
    ("## Warmup\n\n| Image | Throughput (tok/s) |\n|---|---|\n| Slim | 500 |\n| Fat | 350 |\n\n"
     "Boot delays shrink by 30% whereas throughput holds level.\n", "not named in the text"),
    # ... and before the figure, a metric word across a joining word
    ("## Warmup\n\n| Image | Throughput (tok/s) |\n|---|---|\n| Slim | 500 |\n| Fat | 350 |\n\n"
     "Throughput holds level while boot delays shrink by 30%.\n", "not named in the text"),
    # in its own clause, a metric word after the figure names the change's quantity
    ("## Warmup\n\n| Image | Throughput (tok/s) |\n|---|---|\n| Slim | 500 |\n| Fat | 350 |\n\n"
     "The fat image loses 30% of its throughput.\n", "Slim"),
    # a bound is no computed change ("up to 50% slower"), even when a pair gives it
    ("## Speed\n\n| Build | Speed |\n|---|---|\n| Small | 9.0 tok/s |\n| Tiny | 6.0 tok/s |\n\n"
     "A debugger left attached can slow decode speed by up to 50%.\n", "not named in the text"),
    # the sentence states its own levels: its change is of those
    ("## Memory\n\n| Model | HBM |\n|---|---|\n| Small | 10.0 GB |\n| Large | 12.5 GB |\n\n"
     "On the large model the resident memory rises 25%: 8.0 → 10.0 GB.\n", "not named in the text"),
])
def test_a_change_that_sums_up_the_next_table_compares_with_its_reference_run(text: str, baseline: str) -> None:
    found = [c.baseline for c in claims_in(text) if c.metric == "relative_change"]
    assert found == [baseline], found


def test_a_change_of_two_percent_levels_names_its_reference_column() -> None:
    table = ("| Model | Accuracy (few tools) | Accuracy (many tools) | Drop |\n| --- | --- | --- | --- |\n"
             "| Small-7B | 90% | 45% | -50% |\n| Large-70B | 80% | 0% | -100% |\n")
    assert [(q, v, b) for q, v, _, b in _changes(table)] == [("-50%", -50.0, "Accuracy (few tools)"),
                                                            ("-100%", -100.0, "Accuracy (few tools)")]
    # a percent of another change column is no level to pair with
    other = ("| Model | Accept rate | Gain A | Gain B |\n| --- | --- | --- | --- |\n| Small-7B | 40.0% | 20.0% | 24.0% |\n")
    assert all(b == "not named in the text" for *_, b in _changes(other)), _changes(other)


def test_each_change_of_a_summing_sentence_takes_the_cells_of_its_own_quantity() -> None:
    text = ("## Shared pool\n\n| Setup | Throughput | Mean TTFT |\n|---|---:|---:|\n| Shared | 15.0 req/s | 5.0 s |\n"
            "| Split | 10.0 req/s | 8.0 s |\n\nThroughput rises by 50%, mean TTFT falls by 37.5%, on the same trace.\n")
    assert [(q, b) for q, _, _, b in _changes(text)] == [("50%", "Split"), ("37.5%", "Split")]


@pytest.mark.parametrize("text,quote,qualifier", [
    # a hard-wrapped line that ends with the hedge: the hedge still qualifies the figure on the next line
    ("* [Board port](https://example.org/port): on the small board it runs about\n  7.5 token/s.\n",
     "about\n  7.5 token/s", "approx"),
    ("The port decodes at up to\n12 tokens/s on the board.\n", "up to\n12 tokens/s", "up_to"),
    # a blank line between them: no hedge
    ("It is about\n\n12 tokens/s on the board.\n", "12 tokens/s", "exact"),
])
def test_a_hedge_at_the_end_of_the_line_before_qualifies_the_figure(text: str, quote: str, qualifier: str) -> None:
    assert [(c.quote, c.qualifier) for c in claims_in(text)] == [(quote, qualifier)]
