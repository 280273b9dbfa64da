"""Headline conditions read from where posts set up their runs (issue 24, helper condhead), on sentences
written for these tests. Each class has its negative cases: a value the text does not tie to the claim
stays unrecoverable."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

_INTRO = ("# Faster attention on the new cards\n\n"
          "Our reworked kernels deliver **1.3-2.9x higher throughput** than the old ones.\n\n"
          "## How the kernels work\n\nThe kernels split each batch by phase and pick a tile size per phase.\n\n"
          "## Results\n\n")


# -- a universal statement after a paragraph label --------------------------------------------------
def test_a_labelled_methodology_paragraph_covers_the_headline_before_it():
    text = _INTRO + ("**Test methodology**: every measurement here used the `vllm/vllm-openai:v0.8.5` container, "
                     "pulled once. Each run is preceded by 20 warm-up requests that are not timed.\n\n"
                     "The fused path is 2.2x faster than the split one.\n")
    r = extract_text(text, "t.md")
    head = claim(r, 1.3)
    assert "0.8.5" in stated(head, "engine_version").value
    assert stated(head, "warmup").scope == "document"


def test_a_plain_label_and_colon_opens_a_universal_statement_too():
    text = _INTRO + ("Setup: all experiments use Llama-3.1-70B on 8x H100 with the fused kernels turned on.\n\n"
                     "The fused path is 2.2x faster than the split one.\n")
    head = claim(extract_text(text, "t.md"), 1.3)
    assert "Llama-3.1-70B" in stated(head, "model").value
    assert "H100" in stated(head, "hardware").value


def test_the_paragraph_after_an_unlabelled_universal_sentence_is_not_read():
    # no set-up label: the statement covers its own sentence only, not the sentence after it
    text = _INTRO + ("The tile sizes matter. Every measurement here used the `vllm/vllm-openai:v0.8.5` container, "
                     "pulled once. A separate sweep used 20 warm-up requests per point.\n\n"
                     "The fused path is 2.2x faster than the split one.\n")
    head = claim(extract_text(text, "t.md"), 1.3)
    assert "0.8.5" in stated(head, "engine_version").value
    unrecoverable(head, "warmup")


def test_a_label_that_names_no_setup_does_not_spread_over_its_paragraph():
    # "Key finding:" labels a result, not the set-up: only the universal sentence itself counts
    text = _INTRO + ("**Key finding**: all runs were faster with fusion. One run used Mixtral-8x7B on 4x A100 "
                     "with 10 warm-up requests.\n\n"
                     "The fused path is 2.2x faster than the split one.\n")
    head = claim(extract_text(text, "t.md"), 1.3)
    unrecoverable(head, "model")
    unrecoverable(head, "warmup")


def test_a_colon_inside_a_sentence_does_not_make_a_result_universal():
    text = _INTRO + ("We saw one thing clearly: all runs on Mixtral-8x7B were slower than expected.\n\n"
                     "The fused path is 2.2x faster than the split one.\n")
    head = claim(extract_text(text, "t.md"), 1.3)
    unrecoverable(head, "model")


# -- set-up labels of a section's list ----------------------------------------------------------------
_SETUP_LIST = ("# Picking an instance for Qwen2.5\n\n## Benchmark\n\nWe measured a grid of deployments:\n\n"
               "- {first}: 1, 8 and 32 at a time\n- {second}: p5.48xlarge and g6e.12xlarge\n\n"
               "The raw numbers are in the [Qwen2.5 grid: vLLM 0.6.3 runs](https://example.org/sheet) sheet.\n\n"
               "## Conclusions\n\nQwen2.5-14B on g6e.12xlarge served 410 tokens/sec at the lowest cost.\n")


def test_a_section_of_labelled_set_up_items_sets_up_the_results_after_it():
    text = _SETUP_LIST.format(first="Concurrent requests", second="Instance types")
    c = claim(extract_text(text, "t.md"), 410)
    assert "0.6.3" in stated(c, "engine_version").value
    assert stated(c, "engine_version").scope == "setup_section"


def test_one_set_up_label_alone_does_not_make_a_setup_section():
    text = _SETUP_LIST.format(first="Concurrent requests", second="Where we ran")
    unrecoverable(claim(extract_text(text, "t.md"), 410), "engine_version")


def test_printed_result_lines_that_open_with_a_load_are_no_set_up_labels():
    # "Concurrency: 4, throughput: ..." lines are results a tool printed, not the set-up of the section
    text = ("# Tuning the server\n\n## Measuring\n\nWe ran the load tool on a single L4 GPU box.\n\n```\n"
            "Concurrency: 4, throughput: 120 infer/sec, latency 900 usec\n"
            "Concurrency: 8, throughput: 180 infer/sec, latency 1300 usec\n```\n\n"
            "## Summary\n\nWith batching on, the p95 latency held at 2100 usec.\n")
    c = claim(extract_text(text, "t.md"), 2100)
    unrecoverable(c, "hardware")


# -- the devices an introduction names for a range headline ---------------------------------------------
_DEVICES = ("# New attention paths\n\n## Introduction\n\nThe new cards (Instinct MI300X, MI325X and MI355X GPUs) and "
            "models such as Qwen3-32B and Llama-3.1-8B need kernels built for them.\n\n"
            "This post shows how the reworked paths deliver **{figure} higher throughput** than the old ones.\n\n"
            "## Design\n\nEach path picks its own tile size.\n")


def test_a_range_headline_sums_up_the_devices_its_introduction_names():
    head = claim(extract_text(_DEVICES.format(figure="1.4-3.1x"), "t.md"), 1.4)
    assert head.headline
    hw = stated(head, "hardware").value
    assert all(name in hw for name in ("MI300X", "MI325X", "MI355X"))
    unrecoverable(head, "model")   # models an introduction names are not listed: it may name earlier ones


def test_an_exact_headline_is_one_run_of_the_devices_named():
    head = claim(extract_text(_DEVICES.format(figure="2.2x"), "t.md"), 2.2)
    unrecoverable(head, "hardware")


def test_a_range_in_a_later_section_does_not_take_the_devices_its_section_names():
    text = ("# New attention paths\n\n## Introduction\n\nWe rework the attention paths.\n\n"
            "## Kernel notes\n\nThe kernels target MI300X, MI325X and MI355X GPUs.\n\n"
            "On the decode path alone we measured 1.1-1.6x lower latency per step.\n")
    c = claim(extract_text(text, "t.md"), 1.1)
    assert not c.headline
    unrecoverable(c, "hardware")


# -- one figure, restated: the point of a sweep another mention gives ----------------------------------
_RESTATED = ("# Serving Mixtral on the new cards\n\n"
             "**TL;DR:** For Mixtral-8x22B the engine reaches 1.6x higher throughput than the reference server.\n\n"
             '<p align="center">\n<img src="/img/a.png" width="40%"><br>\n'
             "Our engine against the reference server: Mixtral-8x22B on 8 x H200 (FP8, {lead} QPS).\n</p>\n\n"
             "## Results\n\n"
             "For Mixtral-8x22B the engine reaches 1.6x higher throughput than the reference server.\n\n"
             '<p align="center">\n<img src="/img/b.png" width="40%"><br>\n'
             "Our engine against the reference server over a load sweep: Mixtral-8x22B on 8 x H200 (FP8, QPS 8, 24, 64).\n</p>\n")


def test_a_restated_figure_takes_the_point_of_the_sweep_its_lead_gives():
    c = claim(extract_text(_RESTATED.format(lead=24), "t.md"), 1.6)
    assert len(c.mentions) == 2
    assert stated(c, "batch_or_concurrency").value == 24


def test_a_point_outside_the_sweep_is_another_run_and_pins_nothing():
    lead, body = (c for c in extract_text(_RESTATED.format(lead=100), "t.md").claims if c.value == 1.6)
    assert stated(lead, "batch_or_concurrency").value == 100
    assert stated(body, "batch_or_concurrency").sweep   # the body's figure keeps its sweep


# -- a headline ratio over the figures its sentence restates ------------------------------------------
_RATIO = ("---\ntitle: Faster prefill on the new racks\n---\n\n## Overview\n\n"
          "The new release reaches **31.4K prefill tokens/s per GPU** with 4K input and 1K output tokens, and "
          "**12.7K decode tokens/s per GPU** with {decode} input and 1K output tokens.\n\n"
          "## How it works\n\nThe scheduler overlaps transfers with compute.\n\n"
          "## Summary\n\n- Prefill at 31.4K tokens/s per GPU and decode at 12.7K decode tokens/s per GPU put the "
          "release 2.5-4x ahead of the H100 racks.\n")


def test_a_headline_ratio_takes_the_set_up_of_the_figures_its_sentence_restates():
    c = claim(extract_text(_RATIO.format(decode="4K"), "t.md"), 2.5)
    assert c.headline
    assert stated(c, "input_length").value == 4000 and stated(c, "input_length").scope == "restatement"
    assert stated(c, "output_length").value == 1000


def test_figures_of_the_sentence_measured_at_two_lengths_give_the_ratio_none():
    c = claim(extract_text(_RATIO.format(decode="8K"), "t.md"), 2.5)
    unrecoverable(c, "input_length")
    assert stated(c, "output_length").value == 1000   # both runs used 1K outputs


# -- one model written with and without its version at one place -----------------------------------
def test_a_model_named_with_and_without_its_version_at_one_place_is_the_versioned_one():
    text = ("# Llama-13B on the new card\n\n## Throughput\n\nLlama-13B decoding gets a lot faster on the new card. "
            "The Llama2-13B checkpoint keeps its quality.\n\nThe new card served 1,870 tokens/s per user.\n")
    c = claim(extract_text(text, "t.md"), 1870)
    assert stated(c, "model").value == "Llama2-13B"


def test_two_versions_of_one_size_stay_ambiguous():
    text = ("# Two Llamas\n\n## Results\n\nBoth Llama2-13B and Llama-3-13B ran, and Llama-13B was the old name.\n\n"
            "The new card served 1,870 tokens/s per user.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1870), "model")


def test_a_bare_family_name_stays_partial_when_the_post_writes_out_two_models_of_it():
    # "Llama2-13B" is a Llama model written out too (by its canonical name): with "Llama-13B", two fuller names
    text = ("# Llama on the new card\n\nLlama reaches 1,870 tokens/s per user on the new card.\n\n## Models\n\n"
            "We ran the first Llama-13B and the later Llama2-13B.\n")
    assert unrecoverable(claim(extract_text(text, "t.md"), 1870), "model").value_partial == "Llama"


@pytest.mark.parametrize("fuller", ["Llama-13B", "Llama2-13B"])
def test_a_bare_family_name_takes_the_one_model_the_post_writes_out(fuller):
    text = ("# Llama on the new card\n\nLlama reaches 1,870 tokens/s per user on the new card.\n\n## Models\n\n"
            f"We ran {fuller} on it.\n")
    assert stated(claim(extract_text(text, "t.md"), 1870), "model").value == fuller


@pytest.mark.parametrize("sentence", [
    # two lists: the devices moved from and the devices moved to
    "We moved the kernels from the A100 and H100 to the MI300X and MI325X.",
    # one list, but the sentence says only one of them was run
    "The H100, A100 and MI300X all appear in the vendor's marketing, but we only had an MI300X.",
    # one list of devices the work was ported from
    "The kernels were ported from the L40S, A10G and L4 GPUs.",
])
def test_devices_a_sentence_moves_between_or_did_not_run_are_not_the_headline_s(sentence):
    text = (f"# Kernels on new cards\n\n## Introduction\n\n{sentence}\n\n"
            "The reworked paths deliver **1.4-3.1x higher throughput** than the old ones.\n")
    head = claim(extract_text(text, "t.md"), 1.4)
    assert head.headline
    unrecoverable(head, "hardware")


def test_one_list_of_devices_in_a_sentence_of_the_introduction_is_the_headline_s():
    text = ("# Kernels on new cards\n\n## Introduction\n\nThe reworked kernels serve the L40S, the A10G or the L4 "
            "alike.\n\nThe reworked paths deliver **1.4-3.1x higher throughput** than the old ones.\n")
    hw = stated(claim(extract_text(text, "t.md"), 1.4), "hardware").value
    assert all(name in hw for name in ("L40S", "A10G", "L4"))


def test_devices_named_in_two_sentences_of_the_introduction_are_not_listed():
    text = ("# Kernels on new cards\n\n## Introduction\n\nOur earlier post measured the H100 and A100. This post moves "
            "the kernels to the MI300X.\n\nThe reworked paths deliver **1.4-3.1x higher throughput** than the old ones.\n")
    head = claim(extract_text(text, "t.md"), 1.4)
    assert head.headline
    unrecoverable(head, "hardware")


def test_devices_of_earlier_work_named_together_are_not_the_headline_s():
    text = ("# Kernels on new cards\n\n## Introduction\n\nOur earlier post measured the H100 and A100 GPUs.\n\n"
            "The reworked paths deliver **1.4-3.1x higher throughput** than the old ones.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1.4), "hardware")
