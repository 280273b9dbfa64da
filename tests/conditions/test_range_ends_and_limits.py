"""Issue 24, session 6 (vLLM posts): an "up to X" headline restating the results the body gives as ranges ending at
X, and a limit of what one request may hold that is no run of one request. Sentences written for these tests; each
class has its negative cases."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- "up to X" in the summary, "A-X" in the body ------------------------------------------------------------------
_SUMMARY_THEN_RANGES = (
    "---\ntitle: Draft heads on our cluster\nsummary: \"Speculative decoding gives up to 2.14x more throughput for "
    "Llama-3.1-70B.\"\n---\n\nThis post explains how we trained the draft heads.\n\n## Results\n\n"
    "Throughput of Llama-3.1-70B rises by 1.62x-2.14x on 4x MI300X at 2K/512 input/output tokens (Figure 3).\n")


def test_an_up_to_headline_takes_what_the_range_ending_at_it_states_at_its_own_place():
    c = claim(extract_text(_SUMMARY_THEN_RANGES, "t.md"), 2.14)
    assert c.headline and c.qualifier == "up_to"
    lengths = stated(c, "input_length"), stated(c, "output_length")
    assert [x.value for x in lengths] == [2048, 512] and lengths[0].scope == "restatement"


def test_a_range_of_another_model_lends_nothing():
    text = _SUMMARY_THEN_RANGES.replace("Throughput of Llama-3.1-70B", "Throughput of Qwen3-8B")
    unrecoverable(claim(extract_text(text, "t.md"), 2.14), "input_length")


def test_a_headline_without_a_stated_model_takes_nothing_from_a_range():
    text = _SUMMARY_THEN_RANGES.replace(" for Llama-3.1-70B.", ".")
    unrecoverable(claim(extract_text(text, "t.md"), 2.14), "input_length")


def test_a_range_ending_elsewhere_or_a_figure_not_written_as_a_bound_lends_nothing():
    other_end = _SUMMARY_THEN_RANGES.replace("1.62x-2.14x", "1.62x-2.31x")
    unrecoverable(claim(extract_text(other_end, "t.md"), 2.14), "input_length")
    exact = _SUMMARY_THEN_RANGES.replace("gives up to 2.14x", "gives 2.14x")
    unrecoverable(claim(extract_text(exact, "t.md"), 2.14), "input_length")


def test_a_setting_the_range_took_from_its_section_is_not_lent():
    # (the section's setting may be another run's: the headline reads its own rungs for it)
    text = _SUMMARY_THEN_RANGES.replace(
        "## Results\n\n", "## Results\n\nWe ran these at a concurrency of 16.\n\n")
    c = extract_text(text, "t.md")
    assert stated(claim(c, 1.62), "batch_or_concurrency").scope == "section"
    unrecoverable(claim(c, 2.14), "batch_or_concurrency")


# -- what one request may hold is a limit, not a run of one request ---------------------------------------------
def _batch(sentence: str):
    text = f"# Results\n\nOn 8x H100 the server reaches 1,400 tok/s. {sentence}\n"
    return claim(extract_text(text, "t.md"), 1400).conditions["batch_or_concurrency"]


def test_what_a_model_can_process_in_a_single_request_is_no_batch():
    assert _batch("Its window caps how long a prompt it could accept within one single request.").status \
        == "unrecoverable"
    assert _batch("Longer files were trimmed so each fits into a single request.").status == "unrecoverable"
    assert _batch("The engine may hold up to 128K tokens in a single request.").status == "unrecoverable"


def test_a_run_of_a_single_request_is_still_a_batch_of_one():
    assert _batch("We timed a single request at a time.").value == 1
    assert _batch("Latency was read with a single request in flight.").value == 1


# -- a section the post points to for the set-up of later results ------------------------------------------------
_POINTED = ("# Speech serving\n\nIntro.\n\n## Overview\n\nEvery layer was benchmarked with 320 prompts from LibriSpeech, "
            "3 warmups, on one H100.\n\n| Layer | req/s |\n|---|---|\n| base | 2.1 |\n| graphs | 7.9 |\n\n"
            "## Stage details\n\nThe batching stage fuses requests.\n\n## Results\n\n"
            "Both plots reuse the identical setup from [Overview](#overview).\n\n"
            "Request throughput climbs to 9.4 req/s with every layer on.\n")


def test_a_section_pointed_to_as_the_same_sweep_sets_up_the_results_after_the_pointer():
    c = claim(extract_text(_POINTED, "t.md"), 9.4)
    assert stated(c, "dataset").value == "LibriSpeech" and stated(c, "dataset").scope == "setup_section"
    assert stated(c, "warmup").scope == "setup_section"


def test_a_pointer_of_another_shape_to_the_set_up_section():
    text = _POINTED.replace("Both plots reuse the identical setup from [Overview](#overview).",
                            "See [Overview](#overview) for the exact settings of every bar below.")
    assert stated(claim(extract_text(text, "t.md"), 9.4), "dataset").value == "LibriSpeech"


def test_a_link_for_more_reading_or_to_a_changed_setup_sets_nothing_up():
    for pointer in ("See [Overview](#overview) for detailed measurements.",
                    "These plots reuse the identical setup from [Overview](#overview), but with 8 warmups off."):
        text = _POINTED.replace("Both plots reuse the identical setup from [Overview](#overview).",
                                pointer)
        unrecoverable(claim(extract_text(text, "t.md"), 9.4), "dataset")


def test_a_pointer_after_the_result_or_to_no_heading_sets_nothing_up():
    after = _POINTED.replace("Both plots reuse the identical setup from [Overview](#overview).\n\n"
                             "Request throughput climbs to 9.4 req/s with every layer on.\n",
                             "Request throughput climbs to 9.4 req/s with every layer on.\n\nBoth plots above reuse "
                             "the identical setup from [Overview](#overview).\n")
    unrecoverable(claim(extract_text(after, "t.md"), 9.4), "dataset")
    unrecoverable(claim(extract_text(_POINTED.replace("(#overview)", "(#methods)"), "t.md"), 9.4), "dataset")


# -- a list of loads ends before an item counted by another noun ---------------------------------------------------
def test_a_list_of_concurrencies_stops_before_a_count_of_warmups():
    text = "# Results\n\nRequests ran at concurrency 2/8/24/96, 3 warmups each, and throughput peaked at 11.2 req/s.\n"
    assert stated(claim(extract_text(text, "t.md"), 11.2), "batch_or_concurrency").value["values"] == [2, 8, 24, 96]
    text = "# Results\n\nAt batch sizes 1, 8 and 64 the server reached 11.2 req/s.\n"
    assert stated(claim(extract_text(text, "t.md"), 11.2), "batch_or_concurrency").value["values"] == [1, 8, 64]


# -- speech evaluation sets are datasets -----------------------------------------------------------------------------
def test_speech_sets_are_datasets():
    for name, value in (("Seed-TTS", "Seed-TTS"), ("LibriSpeech", "LibriSpeech")):
        text = f"# Results\n\nOn {name} clips the pipeline reached 11.2 req/s on one H100.\n"
        assert stated(claim(extract_text(text, "t.md"), 11.2), "dataset").value == value
    text = "# Results\n\nWith seed 1234 and TTS voices the pipeline reached 11.2 req/s on one H100.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 11.2), "dataset")


# -- a ratio whose two levels follow it takes their family --------------------------------------------------------
def test_a_ratio_followed_by_the_levels_it_compares_takes_the_setting_bound_to_them():
    # ("measured using X" after the tok/s levels binds X to throughput; the ratio is a throughput ratio)
    text = ("# Results\n\nA single user sees a 2.87x speedup with the drafter, from 121 tok/s to 347 tok/s, "
            "measured using MT-Bench.\n")
    c = claim(extract_text(text, "t.md"), 2.87)
    assert stated(c, "dataset").value == "MT-Bench" and stated(c, "dataset").scope == "sentence"


def test_levels_of_another_kind_give_the_ratio_no_family():
    # a scaling ratio over node counts: no metric family, so the tok/s figure's bound setting stays its own
    text = ("# Results\n\nScaling out gives a 2.87x gain, from 2 nodes to 8 nodes, with 347 tok/s per node "
            "measured using MT-Bench.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 2.87), "dataset")


# -- a device in the figure's own unit ----------------------------------------------------------------------------
def test_a_device_in_the_figures_unit_is_its_device():
    for text in ("# R\n\nLast spring the decode pool sustained 3.4k tok/s/H200; this note moves it to GB200 trays.\n",
                 "# R\n\nOur GB200 rack came later; the old build gave 3.4k tok/s per H200 GPU.\n",
                 "# R\n\nBefore the MI355X port the old build gave 1.1k tok/s/MI300X.\n"):
        c = claim(extract_text(text, "t.md"), 3400 if "3.4k" in text else 1100)
        assert stated(c, "hardware").value in ("H200", "MI300X") and stated(c, "hardware").scope == "sentence"


def test_a_device_elsewhere_in_the_sentence_or_a_gpu_unit_is_no_unit_device():
    text = "# R\n\nWith GB200 and H200 trays in one pool, decode sustained 3.4k tok/s.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 3400), "hardware")
    text = "# R\n\nServing ran at 3.4k tok/s/GPU.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 3400), "hardware")


# -- a model named by its size alone -------------------------------------------------------------------------------
_TWO_SIZES = ("# FP8 accuracy\n\nWe quantized Llama-3.1-8B-Instruct and Llama-3.1-70B-Instruct.\n\n## GSM8K\n\n"
              "**Scores of the 8B model**\n\n| Method | Accuracy |\n|---|---|\n| BF16 | 74.1% |\n| FP8 | 72.9% |\n\n"
              "And our 70B variant keeps up:\n- FP8 reaches **88.4%** accuracy\n")


def test_the_size_alone_names_the_one_model_of_that_size():
    r = extract_text(_TWO_SIZES, "t.md")
    assert stated(claim(r, 72.9), "model").value == "Llama-3.1-8B-Instruct"
    assert stated(claim(r, 88.4), "model").value == "Llama-3.1-70B-Instruct"


def test_a_size_two_models_share_or_an_indefinite_size_names_no_model():
    both = _TWO_SIZES.replace("and Llama-3.1-70B-Instruct", ", Qwen2.5-70B and Llama-3.1-70B-Instruct")
    unrecoverable(claim(extract_text(both, "t.md"), 88.4), "model")
    indefinite = _TWO_SIZES.replace("And our 70B variant keeps up:", "Any 70B variant would do; here:")
    unrecoverable(claim(extract_text(indefinite, "t.md"), 88.4), "model")


_PLAN = "# Plan\n\nWe quantized Llama-3.1-8B-Instruct and Llama-3.1-70B-Instruct.\n\n## Outlook\n\n"


@pytest.mark.parametrize("sentence", [
    "We think a bigger 70B model could pass 15 tokens/s on this box.\n",     # indefinite, past an adjective
    "We think an 8B model could pass 15 tokens/s on this box.\n",           # indefinite
    "Both of the 8B models held 15 tokens/s on this box.\n",                 # plural: several
    "70B model runs held 15 tokens/s on this box.\n",                       # no determiner at the line's start
    "70B models on one box:\n\nThey held 15 tokens/s.\n",                   # a plural label
    "Sizes such as 70B model families held 15 tokens/s on this box.\n",     # no determiner
])
def test_an_indefinite_plural_or_bare_size_names_no_model(sentence: str):
    unrecoverable(claim(extract_text(_PLAN + sentence, "t.md"), 15), "model")


@pytest.mark.parametrize("sentence,model", [
    ("We think the larger 70B model could pass 15 tokens/s on this box.\n", "Llama-3.1-70B-Instruct"),
    ("This 8B checkpoint held 15 tokens/s on this box.\n", "Llama-3.1-8B-Instruct"),
])
def test_a_definite_size_past_an_adjective_names_its_model(sentence: str, model: str):
    c = stated(claim(extract_text(_PLAN + sentence, "t.md"), 15), "model")
    assert c.value == model and c.scope == "sentence" and c.quote.split()[0] in model


# -- a device whose X suffix is written in lower case -----------------------------------------------------------
def test_a_lower_case_x_suffix_names_the_same_device():
    c = claim(extract_text("# R\n\n| Accuracy | Device |\n|---|---|\n| 81.2 | 4x MI325x |\n", "t.md"), 81.2)
    assert stated(c, "hardware").canonical == "AMD MI325X"
    c = claim(extract_text("# R\n\nOn 8x MI355x we reach 1,200 tok/s.\n", "t.md"), 1200)
    assert stated(c, "hardware").value == "8x MI355x" and stated(c, "hardware").canonical == "AMD MI355X"
    unrecoverable(claim(extract_text("# R\n\nOn 8x MI300xl we reach 1,200 tok/s.\n", "t.md"), 1200), "hardware")


def test_a_size_heading_a_label_line_names_its_model():
    """A label drops its article ("**70B model on one box:**"): it heads what follows like a heading."""
    c = stated(claim(extract_text(_PLAN + "**70B model on one box:**\n\nIt held 15 tokens/s.\n", "t.md"), 15), "model")
    assert c.value == "Llama-3.1-70B-Instruct" and c.quote == "70B model"
