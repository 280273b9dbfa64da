"""Conditions that belong to another arm, another part or the claim itself (issue 24, session 9): the level before a
change the sentence turns on, a plugin project's release tag, one module's split, and the claim's own measure
restated as a setting. Posts written for these tests."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _record(text: str):
    return extract_text(text, doc="t.md")


# ---- B: the level before a change is the run without the technique --------------------------------------------

def test_the_first_level_of_an_arrow_pair_has_no_drafting_method():
    r = _record("# Drafting\n\nWith MTP drafting the draft-aware build went 30.1 → 44.6 tok/s in our chat test.\n")
    unrecoverable(claim(r, 30.1), "speculative_decoding")
    assert stated(claim(r, 44.6), "speculative_decoding").value == "MTP"


def test_the_first_level_of_a_written_arrow_has_no_cache_setting():
    r = _record("# Cache\n\nWe switched on prefix caching and measured TTFT of 910 ms -> 260 ms on the chat trace.\n")
    before, after = claim(r, 910), claim(r, 260)
    unrecoverable(before, "prefix_caching")
    assert "prefix caching" in stated(after, "prefix_caching").value.casefold()


def test_a_range_written_from_to_is_no_before_and_after():
    text = ("# Drafting\n\nUsing EAGLE-3 speculative decoding, the gains range from **1.3x** to **1.9x** over plain "
            "decoding on one H100.\n")
    r = _record(text)
    assert {c.value for c in r.claims} >= {1.3} or {(c.value, c.value_max) for c in r.claims} >= {(1.3, 1.9)}
    for c in r.claims:
        assert "EAGLE" in stated(c, "speculative_decoding").value


def test_a_figure_without_a_pair_keeps_its_sentence_method():
    r = _record("# Drafting\n\nWith EAGLE-3 enabled, single-user decode reached 57.9 tok/s on one H100.\n")
    assert stated(claim(r, 57.9), "speculative_decoding").value == "EAGLE-3"


# ---- C: a plugin project's image tag is its own release, not the engine's -------------------------------------

@pytest.mark.parametrize("image,expected", [
    ("acme/vllm-npu:v0.7.1rc2", "vllm-npu v0.7.1rc2"),
    ("vllm-npu:v0.7.1rc2", "vllm-npu v0.7.1rc2"),
    ("vllm/vllm-openai:v0.9.1", "vLLM v0.9.1"),
    ("registry.example/team/vllm-rocm:v0.6.3", "vLLM v0.6.3"),
])
def test_an_image_tag_is_the_release_of_the_project_it_names(image, expected):
    text = f"# Release notes\n\nAll numbers below come from the `{image}` image.\n\n| model | throughput |\n" \
           "|---|---|\n| Acme-7B | 512 tok/s |\n"
    assert stated(claim(_record(text), 512), "engine_version").value == expected


# ---- C: one module's split is not the run's layout ----------------------------------------------------------------

MODULE_SPLITS = """# Sharding a few more weights

Kestrel-34B is served with TP8 on one H20 box; on top of that we tried extra splits of single parts of it.

- Putting an o_proj TP 2 split in place trimmed 1.3 GB per card.
- An LM head TP=2 split lowered the step time by 6 ms.
- With the FFN EP 4 variant, one decode step took 27 ms.
"""


def test_a_degree_written_after_a_module_is_not_the_layout():
    r = _record(MODULE_SPLITS)
    for value in (-1.3, -6, 27):
        assert stated(claim(r, value), "parallelism").value == "TP8", value


def test_a_module_degree_in_a_table_cell_or_a_key_is_not_the_layout_either():
    # other shapes of the same class: a cell of a sweep table, and a config key written with "="
    text = ("# Partial splits\n\nAll rows run PP2 on two hosts.\n\n| extra split | prefill |\n|---|---|\n"
            "| MLP TP=4 | 5,300 tok/s |\n| embedding layer DP 2 | 4,850 tok/s |\n")
    r = _record(text)
    for value in (5300, 4850):
        assert stated(claim(r, value), "parallelism").value == "PP2", value


def test_a_layout_alone_in_a_row_stays():
    text = "# Layouts\n\n| layout | throughput |\n|---|---|\n| TP = 4 | 900 tok/s |\n| TP = 8 | 1500 tok/s |\n"
    assert stated(claim(_record(text), 1500), "parallelism").value == "TP = 8"


def test_a_layout_of_two_modules_joined_is_not_cut():
    text = ("# Split serving\n\nThe run pairs attention `DP2 TP4` plus FFN `EP8` on one node and reaches "
            "2100 tok/s.\n")
    value = str(stated(claim(_record(text), 2100), "parallelism").value)
    assert "EP8" in value


# ---- D: the claim's own measure is not its condition -------------------------------------------------------------

def test_a_hit_rate_claim_does_not_take_its_own_measure():
    r = _record("# Cache\n\nOn the chat trace, the prefix cache hit rate was 62%, and TTFT dropped to 80 ms.\n")
    unrecoverable(claim(r, 62), "prefix_caching")
    assert stated(claim(r, 80), "prefix_caching").value == "prefix cache hit rate was 62%"


def test_a_hit_rate_restated_elsewhere_is_not_the_claims_setting():
    text = ("# Shared cache\n\n![Chart: a 91% cache hit rate on every node count](chart.png)\n\n"
            "Every node count we tried kept the pool's hits at **91%** or more, and TTFT stays at 0.4 s.\n")
    unrecoverable(claim(_record(text), 91), "prefix_caching")


def test_another_runs_hit_rate_is_not_given_to_a_figure():
    text = ("# Cache tests\n\n| workload | config |\n|---|---|\n| long prompts | 64k in (85% cache hit) |\n\n"
            "Note: for the short prompts the prefix cache hit rate is 0%; TTFT of those runs is 310 ms.\n")
    r = _record(text)
    assert claim(r, 310)
    for c in r.claims:
        if c.conditions["prefix_caching"].status == "stated":
            assert "85%" not in str(c.conditions["prefix_caching"].value)


def test_a_bare_hit_rate_word_is_no_setting():
    text = ("# Quantized cache\n\nA smaller cache format leaves room for more blocks and a better cache hit rate; "
            "the model answers at 95 tok/s on one L40S.\n")
    unrecoverable(claim(_record(text), 95), "prefix_caching")


def test_a_run_without_cache_hits_does_not_say_whether_the_cache_was_on():
    # (a workload that reuses no prefix may run with the feature on or off)
    text = ("# Setup\n\nRandom prompts mean no prefix-cache hits occur in any run.\n\n"
            "## Results\n\nThe server sustained 3,400 tok/s at concurrency 64.\n")
    unrecoverable(claim(_record(text), 3400), "prefix_caching")


# ---- A: a remark's example model, a heading named for the metric --------------------------------------------------

REMARK_THEN_KERNEL = """# Matrix kernels

With the old CPU path, a big model like Qwen3-235B managed just 85 tokens/s of prefill on a desktop.

Our tiled BF16 kernel reaches 21 TFLOPS on one socket, about 3x the old kernel.
"""


def test_a_remarks_example_model_is_not_the_next_paragraphs_model():
    r = _record(REMARK_THEN_KERNEL)
    assert stated(claim(r, 85), "model").value == "Qwen3-235B"   # its own sentence's figure keeps it
    unrecoverable(claim(r, 21), "model")
    unrecoverable(claim(r, 3), "model")


def test_models_like_in_a_sentence_without_a_figure_is_left_to_the_other_rules():
    text = ("# Serving\n\nChat models like Qwen3-235B answer one token at a time.\n\n"
            "## Results\n\nThe server decodes 2,400 tok/s on one node.\n")
    # (no figure of its own in that sentence: not marked as a remark's example here)
    assert stated(claim(_record(text), 2400), "model").value == "Qwen3-235B"


@pytest.mark.parametrize("heading", ["#### 3. Peak throughput", "## Max throughput", "### Min latency",
                                     "**Maximum throughput**", "2) Minimum latency", "> _Peak throughput_"])
def test_a_heading_that_is_the_metric_alone_is_no_scenario(heading):
    text = (f"# Storage cluster\n\n{heading}\n\nForty storage nodes served a mixed read test. "
            "Combined reads peaked at about 5.1 TiB/s.\n")
    unrecoverable(claim(_record(text), 5.1), "scenario")


def test_a_label_naming_the_scenario_with_its_setting_stays():
    text = "# Serving\n\n**Peak Throughput BS64:** the server decodes 9,100 tok/s on 8x H200.\n"
    assert stated(claim(_record(text), 9100), "scenario").value == "Peak Throughput"


# ---- B: a cache-off arm's column -------------------------------------------------------------------------------

@pytest.mark.parametrize("header", ["Recompute TTFT (ms)", "Recalculation TTFT (ms)", "No cache TTFT (ms)"])
def test_a_column_of_the_arm_that_computes_again_has_no_cache_setting(header):
    text = ("# Cache offload\n\nAll runs below use prefix caching with the shared pool.\n\n"
            f"| prompt | {header} | Cached TTFT (ms) |\n|---|---|---|\n| 32K | 9100 | 2400 |\n")
    r = _record(text)
    unrecoverable(claim(r, 9100), "prefix_caching")
    assert stated(claim(r, 2400), "prefix_caching").value == "prefix caching"


# ---- C: a layout as written, a precision of one operation ---------------------------------------------------------

def test_a_degree_per_node_times_nodes_is_the_layout_as_written():
    text = ("# All-to-all\n\n| Type | Layout | Bandwidth |\n|---|---|---|\n| Intranode | EP 8 | 150 GB/s |\n"
            "| Internode | EP 8 x 2 | 45 GB/s |\n| Internode | EP16 | 44 GB/s |\n")
    r = _record(text)
    assert stated(claim(r, 45), "parallelism").value == "EP 8 x 2"
    assert stated(claim(r, 150), "parallelism").value == "EP 8"
    assert stated(claim(r, 44), "parallelism").value == "EP16"


OPERATION_FORMATS = """# All-to-all kernels

Each call moves 4K tokens, with BF16 dispatch and FP8 combine; our numbers:

| Type | Dispatch bandwidth | Combine bandwidth |
|---|---|---|
| Intranode | 150 GB/s | 148 GB/s |

## Serving

The model runs with FP8 weights and BF16 activations and decodes 900 tok/s on one H100.
"""


def test_precisions_written_per_operation_are_neither_figures_precision():
    r = _record(OPERATION_FORMATS)
    unrecoverable(claim(r, 150), "precision")
    unrecoverable(claim(r, 148), "precision")


def test_precisions_of_tensors_are_the_runs_precision():
    value = stated(claim(_record(OPERATION_FORMATS), 900), "precision").value
    assert "FP8" in value and "BF16" in value


def test_a_library_with_support_including_a_format_states_no_precision():
    text = ("# Kernels\n\nThe toolkit ships a collective layer with compressed payload support including INT8.\n\n"
            "## Results\n\nIntranode dispatch reaches 150 GB/s on H800.\n")
    unrecoverable(claim(_record(text), 150), "precision")


def test_a_plugin_image_beside_the_engine_named_bare_keeps_its_own_name():
    text = ("# Acme-7B on NPUs\n\n## Serving\n\nDeploy with vllm serve on the NPU node.\n\n"
            "The results below were obtained with `vllm-npu:v0.7.1rc2` on one node.\n\n"
            "| concurrency | throughput |\n|---|---|\n| 8 | 512 tok/s |\n")
    assert stated(claim(_record(text), 512), "engine_version").value == "vllm-npu v0.7.1rc2"
