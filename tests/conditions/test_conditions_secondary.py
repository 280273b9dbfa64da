"""The secondary conditions (precision, parallelism, dataset) read as writers state them, on sentences
written for these tests: a layout stated in parts, the weight precision rather than a detail of the run,
the prompt source rather than the accuracy check. Each class has its negative cases."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text
from extractor.conditions.mentions import find_mentions


# -- a layout stated in parts, restated in another order ------------------------------------------
RESTATED_LAYOUT = """---
title: "Fleet 3 reaches 9,412 tok/s per GPU"
---

## Summary

Fleet 3 reaches 9,412 tok/s per GPU, with the decode pool on TEP4 and the prefill pool on DEP2.

## Results

Here the prefill pool ran DEP2 and the decode pool TEP4, and the cluster held 9,412 tok/s per GPU.
"""


def test_a_layout_restated_with_its_parts_in_another_order_is_one_layout():
    c = claim(extract_text(RESTATED_LAYOUT, "t.md"), 9412)
    assert len(c.mentions) >= 2
    layout = stated(c, "parallelism")
    assert {p.strip() for p in layout.value.split(",")} == {"TEP4", "DEP2"}


def test_a_layout_restated_with_other_parts_stays_ambiguous():
    text = RESTATED_LAYOUT.replace("ran DEP2 and the decode pool TEP4", "ran DEP2 and the decode pool TEP8")
    c = claim(extract_text(text, "t.md"), 9412)
    if len(c.mentions) >= 2:    # merged: the two layouts differ, so neither is picked
        layout = unrecoverable(c, "parallelism")
        assert "TEP4" in layout.why and "TEP8" in layout.why


# -- the post's accuracy check is not a serving workload anywhere in the post --------------------------
def test_a_set_the_post_checks_accuracy_on_is_no_workload_where_it_is_named_again():
    text = ("# Quality\n\nBefore timing anything we checked accuracy on GSM8K for every configuration.\n\n"
            "# Results\n\nEach recipe also has a variant that replays GSM8K three times on the same nodes. "
            "The main run serves 12,345 tokens/s on 8x H100.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 12345), "dataset")


def test_a_few_shot_prompt_mentioned_elsewhere_stays_a_workload():
    text = ("# Background\n\nShared prompt parts include few-shot examples and the search history of ReAct "
            "agents.\n\n# Results\n\nWe replay ReAct agent traces. The engine serves 2,345 tokens/s on one "
            "L40S.\n")
    assert stated(claim(extract_text(text, "t.md"), 2345), "dataset").value == "ReAct"


# -- a layout written as configuration: one canonical layout whatever the spelling -----------------
@pytest.mark.parametrize("text,quote,canonical", [
    ("The server was started with --tensor-parallel-size 4 on the node.", "--tensor-parallel-size 4", "TP4"),
    ("We launch it with -tp 8 and default flags.", "-tp 8", "TP8"),
    ("Config: tp=2, max batch 64.", "tp=2", "TP2"),
    ("the legend reads Tensor Parallelism=2 for the larger model", "Tensor Parallelism=2", "TP2"),
    ("with tensor-parallelism=4 for the dense model", "tensor-parallelism=4", "TP4"),
    ("The decode pool used TP8EP4 on the rack.", "TP8EP4", "TP8 EP4"),
    ("Decode runs DEP16 while prefill runs TEP8.", "DEP16", "DEP16"),
    ("the router used --dp-size 4 across the node", "--dp-size 4", "DP4"),
])
def test_a_layout_written_as_configuration_has_its_canonical_layout(text, quote, canonical):
    found = [m for m in find_mentions(text) if m.kind == "parallelism"]
    assert found and found[0].quote == quote and found[0].canonical == canonical


def test_a_scheme_without_degree_has_no_canonical_layout():
    found = [m for m in find_mentions("The replicas are served with expert parallelism.") if m.kind == "parallelism"]
    assert found and found[0].canonical is None
    assert not [m for m in find_mentions("Mean TPOT was 12 ms.") if m.kind == "parallelism"]


def test_one_layout_written_two_ways_is_stated_once():
    text = ("# Parallelism setup\n\nAttention runs with Tensor Parallelism 8 (TP8); the experts use Expert "
            "Parallelism 4, so the whole model is TP8EP4.\n\n# Results\n\nThe node reaches 412 tokens/s per "
            "user.\n")
    layout = stated(claim(extract_text(text, "t.md"), 412), "parallelism")
    assert layout.value == "TP8EP4"


def test_layouts_that_only_share_digits_stay_two_parts():
    text = ("# Parallelism setup\n\nAttention runs TP1 and the experts TP16.\n\n# Results\n\nThe node reaches "
            "413 tokens/s per user.\n")
    layout = stated(claim(extract_text(text, "t.md"), 413), "parallelism")
    assert {p.strip() for p in layout.value.split(",")} == {"TP1", "TP16"}


# -- precision: the weight/activation precision, not the arithmetic detail of a kernel ---------------
@pytest.mark.parametrize("text", [
    "The router GEMM reads BF16 inputs and weights and writes FP32 outputs.",
    "Its tensor cores do accumulation in FP32 while both operands stay BF16.",
    "Partial sums use FP32 accumulation, and the weights are BF16.",
])
def test_the_precision_a_kernel_accumulates_or_writes_in_is_not_the_runs(text):
    assert [m.quote for m in find_mentions(text) if m.kind == "precision"] == ["BF16"]


@pytest.mark.parametrize("text,quote", [
    ("The baseline runs the model in FP32 on the host CPU.", "FP32"),
    ("Results are written out as FP8 tensors for the next layer.", "FP8"),
])
def test_a_precision_near_output_words_that_is_not_a_kernel_detail_stays(text, quote):
    assert [m.quote for m in find_mentions(text) if m.kind == "precision"] == [quote]


# -- a generic precision written out as its specific format ---------------------------------------
def test_a_generic_precision_takes_the_one_format_a_broader_scope_names():
    text = ("# Summary\n\nThe dense model (NVFP4 weights, TP2) now runs on the new rack. Thanks to FP4 "
            "quantization it serves 7,123 tokens/s per GPU.\n")
    precision = stated(claim(extract_text(text, "t.md"), 7123), "precision")
    assert precision.value == "NVFP4 weights" and text[precision.span[0]:precision.span[1]] == "NVFP4 weights"


def test_a_generic_precision_stays_as_written_when_two_formats_are_named():
    text = ("# Summary\n\nBoth the NVFP4 and the MXFP4 checkpoints run on the rack. Thanks to FP4 "
            "quantization it serves 7,124 tokens/s per GPU.\n")
    assert stated(claim(extract_text(text, "t.md"), 7124), "precision").value == "FP4"


def test_a_kv_cache_precision_is_not_made_a_weight_format():
    text = ("# Summary\n\nThe MXFP8 checkpoint runs on the rack. With an FP8 KV cache it serves 7,125 "
            "tokens/s per GPU.\n")
    assert stated(claim(extract_text(text, "t.md"), 7125), "precision").value == "FP8 KV cache"


# -- one figure measured under two layouts is two results ------------------------------------------
def test_one_figure_under_two_layouts_stays_two_claims():
    text = ("# Summary\n\nWith TP2 the fleet reaches 7,777 tok/s per GPU.\n\n# Expert parallel\n\nSwitching "
            "the same two GPUs to EP2, the fleet again reaches 7,777 tok/s per GPU.\n")
    found = [c for c in extract_text(text, "t.md").claims if c.value == 7777]
    assert sorted(stated(c, "parallelism").value for c in found) == ["EP2", "TP2"]


# -- tensor parallelism over a stated number of devices is that degree ----------------------------------
@pytest.mark.parametrize("text,value", [
    ("* **Setup:** 4x L40S GPUs with tensor parallelism", "TP4"),
    ("The 70B model runs on 8 NVIDIA H100 GPUs using tensor parallelism.", "TP8"),
    ("We shard the model with tensor parallelism across 2 GPUs.", "TP2"),
])
def test_tensor_parallelism_over_n_devices_is_tp_n(text, value):
    found = [m for m in find_mentions(text) if m.kind == "parallelism"]
    assert [(m.value, m.canonical) for m in found] == [(value, value)]


@pytest.mark.parametrize("text", [
    "The job spans 2 nodes with tensor parallelism inside each node.",
    "Tensor parallelism splits every layer across the GPUs of a node.",
    "If we used tensor parallelism on 8 GPUs, the single KV head would be copied eight times.",
])
def test_tensor_parallelism_without_a_device_count_has_no_degree(text):
    assert not [m for m in find_mentions(text) if m.kind == "parallelism" and m.canonical]


def test_a_part_read_from_words_is_given_as_read():
    # ("8 L4 GPUs with tensor parallelism" is read as TP8; a setup of one L4 for one model and 8 for another
    # gives no layout at all: its device counts disagree, see test_hardware_counts)
    text = ("# Setup\n\nThe model runs on 8 L4 GPUs with tensor parallelism and PP2.\n\n# Results\n\n"
            "The engine reaches 3,456 tokens/s overall.\n")
    layout = stated(claim(extract_text(text, "t.md"), 3456), "parallelism")
    assert layout.value == "TP8, PP2"


# -- precision named with its scaling granularity; a dataset in its other spellings --------------------------
@pytest.mark.parametrize("text,quote", [
    ("PTPC-FP8 keeps the accuracy of the BF16 model.", "PTPC-FP8"),
    ("We quantise with per-channel INT8 weights.", "per-channel INT8 weights"),
    ("Block-wise FP8 is the default for this checkpoint.", "Block-wise FP8"),
])
def test_a_precision_keeps_its_scaling_granularity(text, quote):
    assert [m.quote for m in find_mentions(text) if m.kind == "precision"][0] == quote


@pytest.mark.parametrize("text,quote", [
    ("Point the variable at the `open_orca` folder of the dataset.", "open_orca"),
    ("Prompts come from the Open-Orca collection.", "Open-Orca"),
])
def test_a_dataset_in_its_other_spellings(text, quote):
    assert [m.quote for m in find_mentions(text) if m.kind == "dataset"] == [quote]


def test_a_word_like_a_dataset_name_is_not_one():
    assert not [m for m in find_mentions("The open orchestra played after the talk.") if m.kind == "dataset"]


# -- a key to a chart's labels is not the setting of a result --------------------------------------------
@pytest.mark.parametrize("text", [
    "Figure 4: latency frontier. The dot r3_tp2 stands for three replicas at TP2 each.",
    "The label `P=2xTP-4|D=1xEP-8` denotes two TP4 prefill instances and one EP8 decode instance.",
])
def test_a_key_to_chart_labels_states_no_layout(text):
    assert not [m for m in find_mentions(text) if m.kind == "parallelism"]


def test_a_layout_explained_in_words_is_still_a_layout():
    found = [m.quote for m in find_mentions("We run TP8EP2, which means attention runs TP8.") if m.kind == "parallelism"]
    assert found[0] == "TP8EP2"


def test_a_result_under_a_chart_key_takes_no_layout_from_it():
    text = ("# Results\n\n<p><em>Figure 7: Pareto curve on 8 GPUs. p1tp4_d2ep8 means one TP4 prefill "
            "instance plus two EP8 decode instances.</em></p>\n\nDisaggregation is up to 1.9x faster here.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1.9), "parallelism")


# -- a combined layout with a scheme that has no degree -----------------------------------------------------
@pytest.mark.parametrize("text,quote,canonical", [
    ("Each prefill pool runs TP1 DP4 EP on four GPUs.", "TP1 DP4 EP", "TP1 DP4 EP"),
    ("The decode side runs DP8 + EP on the rack.", "DP8 + EP", "DP8 EP"),
    ("Settings: TP=8, EP=8 for the whole run.", "TP=8, EP=8", "TP8 EP8"),
])
def test_a_combined_layout_keeps_a_scheme_without_degree(text, quote, canonical):
    found = [m for m in find_mentions(text) if m.kind == "parallelism"]
    assert [(m.quote, m.canonical) for m in found] == [(quote, canonical)]


def test_a_spaced_total_after_a_combined_layout_is_not_a_degree():
    text = "| Decode | 1 instance (TP1 DP8 EP = 8 GPUs) |"
    found = [m for m in find_mentions(text) if m.kind == "parallelism"]
    assert [(m.quote, m.canonical) for m in found] == [("TP1 DP8 EP", "TP1 DP8 EP")]


def test_a_serving_workload_named_with_an_accuracy_check_stays_the_workload_elsewhere():
    text = ("# Quality\n\nAccuracy stays within noise on ShareGPT prompts.\n\n# Results\n\nWe replay ShareGPT "
            "prompts. On one L4 the engine serves 4,321 tokens/s.\n")
    assert stated(claim(extract_text(text, "t.md"), 4321), "dataset").value.startswith("ShareGPT")
