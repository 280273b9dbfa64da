"""Wrong kinds found by the session-7 sample check of writers outside the dev set
(docs/conditions-sample-check.md): settings another figure, run or section states, given to a claim. Each case
is a class of layout many posts share; the claim's own settings beside them stay. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

SCORE_FIGURE = """# Running a large model at home

## Footprint

![Falcon-40B score on the coding leaderboard](img/score.png)

The offloaded build needs only 19GB of VRAM on one desktop card.
"""


def test_a_caption_that_names_only_a_score_is_no_setting_of_a_memory_figure():
    # the figure next to the claim shows a quality score: its model is not the one whose memory is measured
    unrecoverable(claim(extract_text(SCORE_FIGURE, "t.md"), 19), "model")


def test_a_score_caption_still_sets_up_a_score_and_a_speed_caption_a_speed():
    text = SCORE_FIGURE.replace("The offloaded build needs only 19GB of VRAM on one desktop card.",
                                "The offloaded build scores 71.5 on the leaderboard.")
    assert stated(claim(extract_text(text, "t.md"), 71.5), "model").value == "Falcon-40B"
    text = SCORE_FIGURE.replace("score on the coding leaderboard", "decode throughput on one card").replace(
        "needs only 19GB of VRAM on one desktop card", "decodes at 31 tokens/s on one desktop card")
    assert stated(claim(extract_text(text, "t.md"), 31), "model").value == "Falcon-40B"


def test_a_caption_that_names_only_speeds_is_no_setting_of_a_score():
    text = SCORE_FIGURE.replace("score on the coding leaderboard", "decode throughput on one card").replace(
        "needs only 19GB of VRAM on one desktop card", "scores 71.5 on the coding leaderboard")
    unrecoverable(claim(extract_text(text, "t.md"), 71.5), "model")
    # a caption that names no metric at all still fits a score
    text = SCORE_FIGURE.replace(" score on the coding leaderboard", " served from one card").replace(
        "needs only 19GB of VRAM on one desktop card", "scores 71.5 on the coding leaderboard")
    assert stated(claim(extract_text(text, "t.md"), 71.5), "model").value == "Falcon-40B"


SEVERAL_MODELS = """# Draft heads

## Overview

The demo below runs Mistral-7B with two draft heads.

{sentence}
"""


def test_a_figure_said_to_hold_over_several_models_is_no_one_model_s():
    for sentence in ("With one request at a time, the heads give about a 2.2x speed-up across a range of chat models.",
                     "The heads give about a 2.2x speed-up on several popular models.",
                     "Across model sizes, the heads give about a 2.2x speed-up."):
        unrecoverable(claim(extract_text(SEVERAL_MODELS.format(sentence=sentence), "t.md"), 2.2), "model")


def test_a_figure_of_one_model_keeps_the_section_s_model():
    for sentence in ("The heads give about a 2.2x speed-up over plain decoding.",
                     # other models are the baseline's side, not models the figure holds over
                     "The heads give about a 2.2x speed-up, more than other models gain."):
        c = claim(extract_text(SEVERAL_MODELS.format(sentence=sentence), "t.md"), 2.2)
        assert stated(c, "model").value == "Mistral-7B"
    # the sentence's own model stays
    c = claim(extract_text(SEVERAL_MODELS.format(
        sentence="On Mistral-7B the heads give a 2.2x speed-up, as on several other models."), "t.md"), 2.2)
    assert stated(c, "model").value == "Mistral-7B"


NAME_SUFFIX = """# Two checkpoints

## Accuracy

We evaluate {models} on the same node.

| Model | Dataset | Score |
| --- | --- | --- |
| Mistral-7B | GSM8K | 61.3 |
| Llama-3-70B-FP8 | GSM8K | 88.4 |
"""


def test_a_precision_written_in_one_model_s_name_is_not_the_other_model_s():
    text = NAME_SUFFIX.format(models="Llama-3-70B-FP8 and Mistral-7B")
    record = extract_text(text, "t.md")
    unrecoverable(claim(record, 61.3), "precision")
    assert stated(claim(record, 88.4), "precision").value == "FP8"


def test_a_precision_in_the_name_of_the_one_model_named_stays():
    text = NAME_SUFFIX.format(models="Llama-3-70B-FP8").replace("| Mistral-7B | GSM8K | 61.3 |\n", "")
    assert stated(claim(extract_text(text, "t.md"), 88.4), "precision").value == "FP8"


SPEED_NOTE = """# Quantized checkpoints

## Scores and speed

{note}.

Format | MMLU | Decode tok/s
------ | ---- | ------------
bf16 | 66.2 | 41.5
q4 | 64.9 | 97.3
"""


def test_a_note_about_speed_runs_sets_up_the_speeds_not_the_scores():
    record = extract_text(SPEED_NOTE.format(note="Performance benchmarks on a 32GB M2 Pro laptop"), "t.md")
    unrecoverable(claim(record, 64.9), "hardware")
    assert stated(claim(record, 97.3), "hardware").value == "M2 Pro"


def test_a_note_about_every_run_still_sets_up_the_scores():
    record = extract_text(SPEED_NOTE.format(note="All numbers are from a 32GB M2 Pro laptop"), "t.md")
    assert stated(claim(record, 64.9), "hardware").value == "M2 Pro"


def _model_of(text: str, value: float):
    return claim(extract_text(text, "t.md"), value).conditions["model"]


def test_a_second_version_listed_after_a_name_is_a_model_of_its_own():
    # "Model-R1 and V3" names two models of the family: a result of both lists both, not the first alone
    cond = _model_of("# Results\n\nDeepseek-R1 and V3 both serve 2,400 tok/s on one node.\n", 2400)
    assert cond.status == "unrecoverable" or {v.strip() for v in str(cond.value).split(";")} == \
        {"Deepseek-R1", "Deepseek-V3"}
    assert cond.value != "Deepseek-R1"
    # a title naming two versions does not make its first version every result's model
    cond = _model_of("# Qwen2 & 2.5\n\n## Serving\n\nOne node serves 1,900 tok/s.\n", 1900)
    assert cond.value != "Qwen2"


def test_a_count_or_a_figure_after_and_is_no_listed_version():
    assert _model_of("# Results\n\nOn Llama 3 and 4 nodes, it reaches 2,400 tok/s.\n", 2400).value == "Llama 3"
    assert _model_of("# Results\n\nOn DeepSeek-V3 and 1.5x more memory, it reaches 2,400 tok/s.\n",
                     2400).value == "DeepSeek-V3"


CASES = """# Community reports

## Environment configurations we reproduced

Each case below runs Qwen2-7B.

### Case 1

- Configuration: a home-built workstation with 256 GB of DDR4
- Performance: decode 14.2 tokens/s

### Case 2

- Configuration: one H100 80GB card
- Performance: decode 61.7 tokens/s
"""


def test_another_case_s_machine_is_not_the_claim_s():
    record = extract_text(CASES, "t.md")
    unrecoverable(claim(record, 14.2), "hardware")
    assert stated(claim(record, 61.7), "hardware").value.endswith("H100 80GB")
    # what the section above the cases says of all of them stays
    assert stated(claim(record, 14.2), "model").value == "Qwen2-7B"


def test_what_a_compressed_model_keeps_of_the_original_names_the_original_s_precision_as_the_baseline():
    text = ("# Compressed classifier\n\n## Quality\n\nAfter INT4 quantization, the classifier's top-1 accuracy "
            "stays at 96.3% of its original BF16 value.\n")
    assert stated(claim(extract_text(text, "t.md"), 96.3), "precision").value == "INT4"
    # the run's own precision after "original" elsewhere stays ("the original FP16 checkpoint runs at ...")
    text = "# Detector\n\n## Speed\n\nThe original FP16 checkpoint runs at 212 images/s.\n"
    assert stated(claim(extract_text(text, "t.md"), 212), "precision").value == "FP16"


def test_a_named_drafting_method_beats_the_generic_words_of_a_heading():
    text = ("# Speculative decoding on laptops\n\n## Results\n\nWith recurrent drafting the chat model decodes 1.45x "
            "faster than plain autoregressive decoding.\n")
    assert stated(claim(extract_text(text, "t.md"), 1.45), "speculative_decoding").value.lower() == "recurrent drafting"
    text = "# Suffix decoding\n\n## Results\n\n| Concurrency | TPOT (ms) |\n| --- | --- |\n| 8 | 31.5 |\n"
    assert stated(claim(extract_text(text, "t.md"), 31.5), "speculative_decoding").value.lower() == "suffix decoding"
    # "suffix" alone, or a lookup table, is no method
    text = "# Caching\n\n## Results\n\nA suffix tree lookup takes 0.8 ms per request.\n"
    unrecoverable(claim(extract_text(text, "t.md"), 0.8), "speculative_decoding")
