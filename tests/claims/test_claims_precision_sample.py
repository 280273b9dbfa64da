"""Claim precision classes from the final random samples (issue 23): a factor of fewer resources is a result of
its own (metric `other`), never a speed-up; a sparsity or pruning level, a how-to step's run time are no results
(set aside); a change the post reports on an estimated quantity stays a claim. Every sentence here is written for the test; each class has its negative cases."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from extractor.records import BASELINE_NOT_NAMED


def record(text: str):
    return extract_text(text, doc="t.md")


def claims_with(text: str, quote: str):
    return [c for c in record(text).claims if c.quote == quote]


def aside(text: str, quote: str):
    found = [a for a in record(text).set_aside if a.quote == quote]
    assert found, f"{quote!r} not set aside: {[(a.quote, a.reason, a.rule) for a in record(text).set_aside]}"
    return found[0]


@pytest.mark.parametrize("text,quote,reason,rule", [
    # a sparsity or pruning level the method applies
    ("The method reaches 45% model-wide sparsity with little loss in quality.", "45%", "setting", "sparsity_level"),
    ("We keep 35-55% activation sparsity across all layers.", "35-55%", "setting", "sparsity_level"),
    ("Decoding is 1.4x faster at 40% and 50% activation sparsity.", "40%", "setting", "sparsity_level"),
    ("Decoding is 1.4x faster at 40% and 50% activation sparsity.", "50%", "setting", "sparsity_level"),
    # the time a how-to's download or conversion step takes
    ("Run the conversion script once. It usually takes 10-15 minutes on a laptop, then the files are saved.",
     "10-15 minutes", "example", "how_to_step_time"),
    ("Download the checkpoints first; this typically takes about 2 hours on a home connection.", "about 2 hours",
     "example", "how_to_step_time"),
])
def test_settings_and_how_to_times_are_set_aside(text, quote, reason, rule):
    a = aside(text, quote)
    assert (a.reason, a.rule) == (reason, f"set_aside.{rule}")
    assert not claims_with(text, quote)


@pytest.mark.parametrize("text,quote,metric", [
    # a factor of fewer resources is a result the post reports, of metric `other`: not a speed-up, not a setting
    ("The sharded build is 1.2x and 1.6x faster while using 4x and 2x fewer GPUs than the reference.", "2x",
     "other"),
    ("The sharded build is 1.2x and 1.6x faster while using 4x and 2x fewer GPUs than the reference.", "4x",
     "other"),
    ("Offloading lets you train the model on up to 12x fewer GPUs.", "up to 12x", "other"),
    ("We serve the same traffic on 2x less GPUs than last year.", "2x", "other"),
    # the speed-ups next to the fewer resources stay claims
    ("The sharded build is 1.2x and 1.6x faster while using 4x and 2x fewer GPUs than the reference.", "1.6x",
     "speedup"),
    # a speed-up and a memory saving are no resource factor
    ("The new kernel is 2x faster than the old one on the same GPUs.", "2x", "speedup"),
    ("The quantized model uses 2x less memory than the FP16 one.", "2x", None),
    # a speed-up obtained with sparsity is a claim, the sparsity a setting
    ("Decoding is 1.5x faster than the dense model with sparsity enabled.", "1.5x", "speedup"),
    # a measured step time of a benchmark run stays a latency
    ("Each decoding step takes 42 ms on one card after the build.", "42 ms", "latency"),
])
def test_results_next_to_these_forms_stay_claims(text, quote, metric):
    found = claims_with(text, quote)
    assert found and metric in (None, found[0].metric), [(c.metric, c.quote) for c in record(text).claims]


def test_a_change_of_an_estimated_quantity_is_a_claim():
    text = "Across 5,000 replayed turns, the router reduces estimated serving cost by **41.3%** against the static one."
    found = claims_with(text, "41.3%")
    assert found and found[0].metric == "relative_change", [(c.metric, c.quote) for c in record(text).claims]


def test_an_estimate_stays_design_arithmetic():
    text = "Our rough estimate suggests the cache would cut cost by 30% at full load."
    assert not claims_with(text, "30%")
    assert aside(text, "30%").rule == "set_aside.calculated_figure"


MEMORY_SAVING_TABLE = ("# Results\n\n| Model | {header} | Decode Speedup |\n|---|---|---|\n"
                       "| Small-3B | 1.96x | 2.19x |\n| Tiny-1B | 1.64x | 1.94x |\n")


@pytest.mark.parametrize("header", ["GPU Memory Saving", "Memory reduction", "VRAM savings",
                                    "Reduction in peak memory"])
def test_a_memory_saving_column_holds_memory_ratios(header):
    found = {(c.quote, c.metric) for c in record(MEMORY_SAVING_TABLE.format(header=header)).claims}
    assert found == {("1.96x", "memory"), ("1.64x", "memory"), ("2.19x", "speedup"), ("1.94x", "speedup")}


@pytest.mark.parametrize("header", ["Latency reduction", "Speedup (memory-bound)", "Throughput gain"])
def test_other_change_columns_stay_speedups(header):
    found = {(c.quote, c.metric) for c in record(MEMORY_SAVING_TABLE.format(header=header)).claims}
    assert ("1.96x", "speedup") in found


@pytest.mark.parametrize("text", [
    "## Hardware\n\n- **GPU**: 1× NVIDIA RTX 5090 (32GB VRAM)\n",
    "We validated the recipe on 1x H100 before the larger runs.\n",
])
def test_a_count_of_one_device_is_a_setting_not_a_baseline(text):
    a = aside(text, "1×" if "1×" in text else "1x")
    assert (a.reason, a.rule) == ("setting", "set_aside.device_count")


def test_a_reference_row_of_one_is_still_a_baseline():
    text = "| Mode | Speed-up |\n|---|---|\n| Eager (reference) | 1.00x |\n| Compiled | 1.62x |\n"
    assert aside(text, "1.00x").reason == "baseline"


def test_a_factor_after_over_is_another_figure_not_the_baseline():
    text = "Our stack lowers the model's latency by 3.9x, while cutting its cost by over 25x.\n"
    speedups = {c.quote: c for c in record(text).claims}
    assert speedups["3.9x"].baseline == speedups["over 25x"].baseline == BASELINE_NOT_NAMED
    # a device count after "than" is still what was compared with
    text = "It is 3x faster than 8x H100.\n"
    assert claims_with(text, "3x")[0].baseline == "8x H100"


def test_what_another_party_reports_is_cited():
    text = "Another group tried this design. They report a slowdown of about 3x on long prompts.\n"
    a = aside(text, "about 3x")
    assert (a.reason, a.rule) == ("cited", "set_aside.third_party_report")
    assert not claims_with(text, "about 3x")
    # what the post's own writers report stays a claim
    assert claims_with("We report a 3x speedup on long prompts.\n", "3x")[0].metric == "speedup"
