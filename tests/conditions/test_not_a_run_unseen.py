"""Guessed kinds found by the session-6 sample check of writers outside the dev set
(docs/conditions-sample-check.md): a list of examples left open ("like INT8, FP8, NVFP4, etc."), the baseline's
precision joined to a word by a hyphen ("over the dense-FP32 baseline"). Each is no setting of the run measured;
the run's own settings beside them stay. Posts written for these tests."""
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
