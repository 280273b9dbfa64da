"""Guessed kinds found by the sample check of the wide corpus (docs/conditions-sample-check.md): a device class
bound ("an A14 or newer"), one device as the unit of a price or a reading or as the place inside which something
happens, a tool's list of what it supports, a sentence that defines a library, a compute capability read as a
concurrency. Each is no setting of a run; the run's own settings beside them stay. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(body: str, value: float = 41.2) -> object:
    text = f"# Leaner decoding\n\nAn introduction.\n\n## Results\n\n{body}\n"
    return claim(extract_text(text, "t.md"), value)


def test_a_bound_on_the_device_class_is_no_device():
    for body in ("On phones with an A14 or newer, the new kernel reaches 41.2 tokens/s.",
                 "The new kernel reaches 41.2 tokens/s and needs Hopper GPUs or later.",
                 "Laptops with an M2 and above decode at 41.2 tokens/s."):
        c = _post(body)
        unrecoverable(c, "hardware")
        unrecoverable(c, "parallelism")
    # a device the run used, even beside a bound on a library version
    c = _post("On an M2 Max with CUDA-free builds 1.4 or later, the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "hardware").value == "1x M2 Max"


def test_one_device_as_the_unit_of_a_price_or_a_reading_is_no_run_on_one_device():
    for body in ("Assuming the rental cost of one H100 GPU is $2 per hour, the new kernel reaches 41.2 tokens/s.",
                 "When several GPUs are used, memory is the peak usage on a single GPU. "
                 "The new kernel reaches 41.2 tokens/s.",
                 "The scheduler overlaps compute and network within a single device and reaches 41.2 tokens/s."):
        c = _post(body)
        unrecoverable(c, "parallelism")
        unrecoverable(c, "gpu_count")
    # a run on one device stays one
    for body in ("The new kernel reaches 41.2 tokens/s on one H100.",
                 "Measured on a single GPU (an RTX 4090), the new kernel reaches 41.2 tokens/s."):
        assert stated(_post(body), "parallelism").value == "single GPU"


def test_the_items_of_a_supported_list_are_no_settings():
    c = _post("The library supports:\n- FP8 inference on H100\n- tensor parallelism\n\n"
              "The new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "precision")
    unrecoverable(c, "hardware")
    # a list of the run's set-up is one
    c = _post("Our set-up:\n- FP8 weights on H100\n- batch size 8\n\nThe new kernel reaches 41.2 tokens/s.")
    assert stated(c, "precision").value == "FP8 weights"
    assert stated(c, "hardware").value == "H100"


def test_a_sentence_that_defines_a_library_states_no_setting():
    c = _post("FastKern is a compact kernel library that brings together GEMMs (FP8, BF16) for serving. "
              "The new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "precision")
    # the next sentence, about the run, still states its own
    c = _post("FastKern is a compact kernel library for serving. In FP8 on H100 the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "precision").value == "FP8"
    assert stated(c, "hardware").value == "H100"


def test_a_compute_capability_is_no_concurrency():
    c = _post("Tested on Volta (CC 7.0) cards, the new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "batch_or_concurrency")
    c = _post("Tested on Volta (CC 7.0) cards, the new kernel reaches 41.2 tokens/s at concurrency 8.")
    assert stated(c, "batch_or_concurrency").value == 8
