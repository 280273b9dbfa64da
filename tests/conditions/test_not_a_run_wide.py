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
    for body in ("Taking the rental cost of one H100 GPU as $2 an hour, the new kernel reaches 41.2 tokens/s.",
                 "When several GPUs are used, memory is the peak usage on a single GPU. "
                 "The new kernel reaches 41.2 tokens/s.",
                 "The scheduler overlaps compute and network within a single device and reaches 41.2 tokens/s.",
                 # other shapes of the class: a lease price, a footprint per device, a rate for each card
                 "At a lease price for one accelerator of $1.10 an hour, the new kernel reaches 41.2 tokens/s.",
                 "We report the footprint per GPU; the new kernel reaches 41.2 tokens/s.",
                 "The hourly rate for each card is what we budget; the new kernel reaches 41.2 tokens/s."):
        c = _post(body)
        unrecoverable(c, "parallelism")
        unrecoverable(c, "gpu_count")
    # a run on one device stays one
    for body in ("The new kernel reaches 41.2 tokens/s on one H100.",
                 "Measured on a single GPU (an RTX 4090), the new kernel reaches 41.2 tokens/s.",
                 "Priced per hour, the new kernel reaches 41.2 tokens/s on one H100."):
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


def test_a_sibling_experiments_labelled_setup_is_not_the_next_ones():
    text = ("# Kernel notes\n\nIntro.\n\n## Bench results\n\n### v1.1\n\n- Model: Qwen3-8B\n- GPU: RTX 4090\n"
            "- We test after enough warm up\n\n| Prompt | 1K |\n| --- | --- |\n| Prefill tok/s | 33.3 |\n\n"
            "### v1.2\n\n#### Settings\n\n- GPU: L40S\n- CPU: Xeon 8480\n\n#### Results\n\n"
            "| Prompt | 1K |\n| --- | --- |\n| Prefill tok/s | 44.4 |\n")
    rec = extract_text(text, "t.md")
    c = claim(rec, 44.4)
    assert stated(c, "hardware").value == "L40S"
    unrecoverable(c, "warmup")   # v1.1's warm-up and model are no settings of v1.2's run
    unrecoverable(c, "model")
    c = claim(rec, 33.3)
    assert stated(c, "hardware").value == "RTX 4090"
    assert stated(c, "warmup")
    # a setup section by its heading still covers the results after it
    text = ("# Kernel notes\n\nIntro.\n\n## Setup\n\n- GPU: RTX 4090\n- We test after enough warm up\n\n"
            "## Results\n\n### v1.2\n\n#### Settings\n\n- CPU: Xeon 8480\n\n#### Numbers\n\n"
            "| Prompt | 1K |\n| --- | --- |\n| Prefill tok/s | 44.4 |\n")
    c = claim(extract_text(text, "t.md"), 44.4)
    assert stated(c, "hardware").value == "RTX 4090"
    assert stated(c, "warmup")


def test_a_number_inside_a_row_label_is_no_value_of_its_column():
    # a table laid out sideways: the first column's header names the lengths of the columns to its right, its
    # cells are row labels ("Engine (8 experts) ..."), whose numbers count other things
    text = ("# Kernel notes\n\nIntro.\n\n## Results\n\n| Prompt length | 1K | 2K |\n| --- | --- | --- |\n"
            "| Engine (8 experts) prefill tok/s | 185.9 | 255.2 |\n")
    c = claim(extract_text(text, "t.md"), 255.2)
    assert c.conditions["input_length"].value != 8
    # a bare number under a length column is the length
    text = ("# Kernel notes\n\nIntro.\n\n## Results\n\n| Prompt length | Prefill tok/s |\n| --- | --- |\n"
            "| 2048 | 255.2 |\n| ~4K | 301.5 |\n")
    assert stated(claim(extract_text(text, "t.md"), 255.2), "input_length").value == 2048
    assert stated(claim(extract_text(text, "t.md"), 301.5), "input_length").value == 4000


def test_the_size_of_each_node_is_no_count_of_the_run():
    c = _post("The service reaches 41.2 tokens/s per user; each H800 node contains 8 GPUs.")
    unrecoverable(c, "gpu_count")
    c = _post("The service reaches 41.2 tokens/s per user on a cluster with 8 GPUs per server.")
    unrecoverable(c, "gpu_count")
    # a run on one node counts its GPUs
    c = _post("The service reaches 41.2 tokens/s per user on one node of 8 H800 GPUs.")
    assert stated(c, "gpu_count").value == 8


def test_a_labelled_setup_without_results_of_its_own_still_covers():
    text = ("# Kernel notes\n\nIntro.\n\n## Before you start\n\n- Hardware: RTX 4090\n- Software: driver 550\n\n"
            "## Running it\n\n### Settings\n\n- Model: Qwen3-8B\n- Dataset: ShareGPT\n\n### Numbers\n\n"
            "| Prompt | 1K |\n| --- | --- |\n| Prefill tok/s | 44.4 |\n")
    c = claim(extract_text(text, "t.md"), 44.4)
    assert stated(c, "hardware").value == "RTX 4090"
    assert stated(c, "model").value == "Qwen3-8B"


def test_a_name_the_tables_write_both_short_and_full_is_two_models():
    text = ("# Models\n\nWe release Llama-3.1-8B-Instruct alongside the base model.\n\n## Results\n\n"
            "| Model | MMLU |\n| --- | --- |\n| Llama-3.1-8B | 66.1 |\n| Llama-3.1-8B-Instruct | 69.4 |\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 66.1), "model").value == "Llama-3.1-8B"
    assert stated(claim(rec, 69.4), "model").value == "Llama-3.1-8B-Instruct"
    # a short name in prose is still the fuller one a broader rung writes out
    text = ("# Serving notes\n\nIntro.\n\n## Setup\n\nWe serve Llama-3.1-8B-Instruct on one H100.\n\n## Results\n\n"
            "With Llama-3.1-8B the server reaches 41.2 tokens/s.\n")
    assert stated(claim(extract_text(text, "t.md"), 41.2), "model").value == "Llama-3.1-8B-Instruct"


def test_a_ratio_column_comparing_two_names_gives_the_first_side():
    text = ("# Quantized kernels\n\nIntro.\n\n## Results\n\nWe quantize to FP8 and INT4 and compare with BF16.\n\n"
            "| GPU | Speedup (FP8 vs BF16) | Speedup (INT4 vs BF16) |\n| --- | --- | --- |\n"
            "| L40S | 1.43x | 1.61x |\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 1.43), "precision").value == "FP8"
    assert stated(claim(rec, 1.61), "precision").value == "INT4"
    # a header naming only the baseline ("over BF16") names nothing of the result
    text = ("# Quantized kernels\n\nIntro.\n\n## Results\n\nWe quantize to FP8 and INT4.\n\n"
            "| GPU | Speed-up over BF16 |\n| --- | --- |\n| L40S | 1.43x |\n")
    assert stated(claim(extract_text(text, "t.md"), 1.43), "precision").value != "BF16"


def test_a_column_of_an_unnamed_system_among_named_ones_takes_no_model_from_the_section():
    text = ("# Detectors\n\nIntro.\n\n## Results\n\nOur detector is distilled from Mistral-7B.\n\n"
            "| Task accuracy | Llama-3.1-8B | TinyDet-base | Qwen3-8B |\n| --- | --- | --- | --- |\n"
            "| Code | 61.2% | 58.8% | 57.1% |\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 61.2), "model").value == "Llama-3.1-8B"
    unrecoverable(claim(rec, 58.8), "model")
    # one named column beside the claim's is no set of systems: the section's model stays
    text = ("# Detectors\n\nIntro.\n\n## Results\n\nAll runs use Qwen3-8B.\n\n"
            "| Source | Qwen3-8B latency (ms) | Speedup |\n| --- | --- | --- |\n| Code | 41.2 | 1.43x |\n")
    assert stated(claim(extract_text(text, "t.md"), 1.43), "model").value == "Qwen3-8B"


def test_features_lists_and_we_support_are_capabilities():
    c = _post("Featuring:\n1. Low latency\n2. int8/int4 quantization\n3. Speculative decoding\n\n"
              "The new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "precision")
    unrecoverable(c, "speculative_decoding")
    c = _post("The toolkit supports calibration to INT8, FP8 and FP4. The new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "precision")
    c = _post("The scheduler overlaps the demands inside a single device and reaches 41.2 tokens/s.")
    unrecoverable(c, "parallelism")
    # a run's own precision beside them stays
    c = _post("We support calibration for INT8 and FP8. In FP8 the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "precision").value == "FP8"


def test_a_line_documenting_an_option_states_no_setting():
    c = _post("Options:\n\n- `--warmup-runs`: Sets how many warm-up requests run before timing.\n"
              "- `--source`: Used only for synthetic data.\n\nThe new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "warmup")
    unrecoverable(c, "dataset")
    # an option given its value is a setting
    c = _post("Settings:\n\n- `--max-concurrency`: 64\n\nThe new kernel reaches 41.2 tokens/s.")
    assert stated(c, "batch_or_concurrency").value == 64


def test_a_name_the_text_excludes_is_no_setting():
    # a dataset that could not be used, a precision still to come: the other names of the list stay
    # (the prompts are the workload: a set named as where a score was kept would be the score's, not the speed run's)
    c = _post("Our prompts come from HumanEval. Note that MT-Bench could not be used, since the harness takes single "
              "turns only. The draft model lifts decoding to 41.2 tokens/s.")
    assert stated(c, "dataset").value == "HumanEval"
    c = _post("The kernels ship in BF16 and INT8 (an INT2 variant is coming soon) and reach 41.2 tokens/s on an L40S.")
    assert stated(c, "precision").value == "BF16, INT8"
    c = _post("FP4 is not supported yet; the kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "precision")
    # a name that was used stays
    c = _post("MT-Bench could be used as it is; the draft model lifts decoding to 41.2 tokens/s.")
    assert stated(c, "dataset").value == "MT-Bench"


def test_a_contents_list_names_sections_not_settings():
    for intro in ("In this repository, you can find:\n\n* How to run the model.\n"
                  "* Details about the quantized releases, including AWQ and FP8.\n",
                  "This guide covers:\n- serving with AWQ weights\n- serving with FP8 weights\n",
                  "Table of contents\n- [AWQ weights](awq.md)\n- [FP8 weights](fp8.md)\n"):
        text = f"# Nimbus\n\n{intro}\n## Scores\n\nNimbus-9B scores 41.2 points on GSM8K.\n"
        c = claim(extract_text(text, "t.md"), 41.2)
        unrecoverable(c, "precision")
        assert stated(c, "dataset").value == "GSM8K"
    # a list of the run's settings, or a precision said in the prose, stays
    text = ("# Nimbus\n\n## Setup\n\nThe run used:\n- AWQ weights\n- one L40S\n\n## Scores\n\n"
            "Nimbus-9B scores 41.2 points on GSM8K.\n")
    assert stated(claim(extract_text(text, "t.md"), 41.2), "precision").value == "AWQ"
