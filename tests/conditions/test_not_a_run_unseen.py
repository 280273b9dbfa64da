"""Guessed kinds found by the session-6 sample check of writers outside the dev set
(docs/conditions-sample-check.md): a list of examples left open ("like INT8, FP8, NVFP4, etc."), the baseline's
precision joined to a word by a hyphen ("over the dense-FP32 baseline"), a subsection's own device missed for its
spelling ("MI-250x", "MI300x") so that the section's other machine was taken. Each is no setting of the run
measured; the run's own settings beside them stay. Posts written for these tests."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(body: str, value: float = 1.8) -> object:
    text = f"# Smaller and faster\n\nAn introduction.\n\n## Results\n\n{body}\n"
    return claim(extract_text(text, "t.md"), value)


@pytest.mark.parametrize("body,kind", [
    ("The toolkit compresses models to lower precisions like INT8, FP8, NVFP4, etc. "
     "The compressed backbone runs 1.8x faster.", "precision"),
    ("It runs on accelerators such as the H100, the MI300X and more. The compressed backbone runs 1.8x faster.",
     "hardware"),
    ("Any checkpoint works, e.g. Llama-3-8B, Qwen2-7B and so on. The compressed backbone runs 1.8x faster.",
     "model"),
])
def test_an_open_list_of_examples_is_no_setting(body, kind):
    unrecoverable(_post(body), kind)


def test_the_run_s_own_setting_beside_an_open_list_stays():
    c = _post("The toolkit handles precisions like INT8, FP8, NVFP4, etc. "
              "We quantize the backbone to FP8, and it runs 1.8x faster.")
    assert stated(c, "precision").value == "FP8"
    # a closed list after "like" is not an open one: the names may be the ones run
    c = _post("We quantize the backbone of models like Llama-3-8B to FP8, and it runs 1.8x faster.")
    assert stated(c, "precision").value == "FP8"
    # "more" that compares is no open list
    c = _post("With formats like FP8, and more than 2 GB saved, the backbone runs 1.8x faster.")
    assert stated(c, "precision").value == "FP8"


HYPHENED_BASELINE = """# Sparse models

We prune the 7B chat model to 60% sparsity with INT8 quantization, and serving it is about 7x faster
than the dense-FP16 baseline.

## Results

The result is a sparse model that runs 6.5x faster than the dense baseline.
"""


def test_a_precision_hyphened_to_the_baseline_s_word_is_the_baseline_s():
    # the baseline's FP16 is neither the precision of its own sentence's figure nor of the section's others
    for value in (7, 6.5):
        assert stated(claim(extract_text(HYPHENED_BASELINE, "t.md"), value), "precision").value == "INT8"
    text = HYPHENED_BASELINE.replace("with INT8 quantization", "with pruning alone")
    unrecoverable(claim(extract_text(text, "t.md"), 6.5), "precision")


def test_a_hyphened_precision_that_follows_no_baseline_cue_stays():
    c = _post("The pruned model runs at 1.8 tokens/s with the dense-FP16 weights.")
    assert stated(c, "precision").value.startswith("FP16")


AMD_SUBSECTION = """# Fast decoding

## Benchmarks

Everything here was measured on an 8xH100 node at batch size 1.

| Model | Tokens/s |
| --- | --- |
| Tiny-7B | 181.2 |

### AMD

The numbers in this part come from half of a MI-250x board.

| Model | Tokens/s |
| --- | --- |
| Tiny-7B | 76.3 |
"""


@pytest.mark.parametrize("spelling,canonical", [("MI-250x", "AMD MI250X"), ("MI300x", "AMD MI300X"),
                                                ("MI-300X", "AMD MI300X")])
def test_an_amd_chip_with_a_hyphen_or_a_lower_case_x_is_named(spelling, canonical):
    c = claim(extract_text(AMD_SUBSECTION.replace("MI-250x", spelling), "t.md"), 76.3)
    hardware = stated(c, "hardware")
    assert hardware.value == spelling and hardware.canonical == canonical
    # the section's 8-GPU machine is not the subsection's
    unrecoverable(c, "gpu_count")
    assert stated(claim(extract_text(AMD_SUBSECTION, "t.md"), 181.2), "gpu_count").value == 8


def test_a_word_that_only_starts_like_an_amd_chip_is_none():
    for text in ("The MI-250xl board", "see MI300xyz", "MIX-300x"):
        c = claim(extract_text(AMD_SUBSECTION.replace("a MI-250x", text), "t.md"), 76.3)
        assert "MI" not in str(c.conditions["hardware"].value)


@pytest.mark.parametrize("sentence,kind,value", [
    ("In our runs, FP8 halves weight memory, whereas BF16 stays at full precision.", "precision", "FP8"),
    ("The old kernel ran in BF16, but the new one reaches 1.8x with FP8.", "precision", "FP8"),
    ("The baseline serves with TP4, while our engine gets 1.8x more throughput with TP8.", "parallelism", "TP8"),
])
def test_another_part_s_other_value_is_that_part_s(sentence, kind, value):
    assert str(stated(_post(sentence, 1.8 if "1.8" in sentence else 0.5), kind).value) == value


def test_a_list_or_a_participle_after_a_comma_is_no_other_part():
    c = _post("On an H100, the drafter gives a 1.8x speedup on GSM8K, HumanEval, and MT-Bench.")
    assert stated(c, "dataset").value.count(",") == 2
    c = _post("We quantize the detector to INT8 while keeping 99% of its FP32 accuracy; it runs 1.8x faster.")
    assert "INT8" in stated(c, "precision").value


PAPERS = """# FastKernel

**FastKernel2: Efficient Attention with Per-thread INT4 Quantization**  
Ana Lopez, Bo Chen, Carl Diaz, Dee Eve  
Paper: https://arxiv.org/abs/0000.00000

## News

On the RTX 5090, FastKernel reaches 560 TOPS, 2.7x faster than the old kernel!
"""


def test_a_paper_title_over_its_authors_is_no_setting():
    c = claim(extract_text(PAPERS, "t.md"), 2.7)
    unrecoverable(c, "precision")
    assert stated(c, "hardware").value == "RTX 5090"


def test_a_line_over_a_list_that_is_no_author_list_keeps_its_settings():
    # devices (names with digits) or two names are no author list
    for second in ("NVIDIA H100, NVIDIA A100, NVIDIA L40S", "Ana Lopez, Bo Chen"):
        text = PAPERS.replace("**FastKernel2: Efficient Attention with Per-thread INT4 Quantization**",
                              "All kernels below run with INT4 weights on these machines") \
            .replace("Ana Lopez, Bo Chen, Carl Diaz, Dee Eve", second)
        assert stated(claim(extract_text(text, "t.md"), 2.7), "precision").value.startswith("INT4")


VARIED = """# A faster encoder

## Results

All runs below use a batch size of 1 and prompts of 256 tokens.

{sentence}
"""


@pytest.mark.parametrize("sentence,kind", [
    ("Larger batch sizes, such as 8, give up to 1.8x.", "batch_or_concurrency"),
    ("At higher concurrency the gain grows to 1.8x.", "batch_or_concurrency"),
    ("As the batch size grows, the new kernel pulls ahead by 1.8x.", "batch_or_concurrency"),
    ("With longer prompts the speedup reaches 1.8x.", "input_length"),
    ("As the context length increases, the new path leads by 1.8x.", "input_length"),
])
def test_a_load_the_sentence_says_varies_is_not_the_set_up_s(sentence, kind):
    unrecoverable(claim(extract_text(VARIED.format(sentence=sentence), "t.md"), 1.8), kind)


def test_the_set_up_s_load_stays_when_the_sentence_varies_another_or_states_its_own():
    c = claim(extract_text(VARIED.format(sentence="With longer prompts the speedup reaches 1.8x."), "t.md"), 1.8)
    assert stated(c, "batch_or_concurrency").value == 1
    c = claim(extract_text(VARIED.format(sentence="The new kernel is 1.8x faster."), "t.md"), 1.8)
    assert stated(c, "batch_or_concurrency").value == 1
    assert stated(c, "input_length").value == 256
    c = claim(extract_text(VARIED.format(sentence="At a larger batch size of 8, the new kernel is 1.8x faster."),
                           "t.md"), 1.8)
    assert stated(c, "batch_or_concurrency").value == 8
