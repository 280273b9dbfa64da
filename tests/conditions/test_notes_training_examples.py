"""Three guessed kinds found by the sample check of the wide corpus (docs/conditions-sample-check.md): a quoted note
under a table given to the tables after it, the data a model was trained on read as the prompts of a benchmark,
and the size of one example request read as the batch and length of the run. Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

_TWO_TABLES = """# Smaller and faster

An introduction.

## Speed and accuracy

The decoding speed of two models:

| Model | Speed (tokens/s) |
| ---- | ---- |
| Foo-6B | 31.5 |
| Bar-6B | 44.6 |

{note}

We also checked the accuracy after quantization.

| Quantization | Accuracy (MMLU) |
| ---- | ---- |
| BF16 | 45.47 |
| INT4 | 43.13 |
"""


def test_a_quoted_note_under_a_table_is_that_tables_footnote():
    r = extract_text(_TWO_TABLES.format(note="> Measured with batch size = 1 on an A100-SXM-80G."), "t.md")
    speed = claim(r, 31.5)
    assert stated(speed, "batch_or_concurrency").value == 1
    assert "A100" in stated(speed, "hardware").value
    # the table after it, in the same section, was not measured under that note
    accuracy = claim(r, 45.47)
    unrecoverable(accuracy, "batch_or_concurrency")
    unrecoverable(accuracy, "hardware")
    assert stated(accuracy, "precision").value == "BF16"


def test_a_marked_footnote_covers_only_its_own_table_too():
    r = extract_text(_TWO_TABLES.format(note="Note: batch size = 1 on an A100-SXM-80G."), "t.md")
    assert stated(claim(r, 44.6), "batch_or_concurrency").value == 1
    unrecoverable(claim(r, 43.13), "batch_or_concurrency")


def test_a_paragraph_under_a_table_still_sets_up_what_follows():
    # no quote, no footnote mark: an ordinary paragraph of the section, read for the claims after it
    r = extract_text(_TWO_TABLES.format(note="All runs below and above use batch size = 1 on an A100-SXM-80G."), "t.md")
    assert stated(claim(r, 45.47), "batch_or_concurrency").value == 1


def _post(body: str, value: float = 41.2) -> object:
    text = f"# Leaner decoding\n\nAn introduction.\n\n## Results\n\n{body}\n"
    return claim(extract_text(text, "t.md"), value)


def test_training_data_is_no_benchmark_dataset():
    c = _post("5K ShareGPT samples, 5 epochs, measured on MT-Bench: the drafter reaches 41.2 tokens/s.")
    assert stated(c, "dataset").value == "MT-Bench"
    # fine-tuned on a set and scored on that set's test split: the set's name stays
    c = _post("Sparse models fine-tuned on GSM8K reach 41.2% accuracy.")
    assert stated(c, "dataset").value == "GSM8K"
    c = _post("Training data: ShareGPT. The drafter reaches 41.2 tokens/s.")
    unrecoverable(c, "dataset")
    # the prompts of the benchmark stay
    assert stated(_post("On ShareGPT prompts the new kernel reaches 41.2 tokens/s."), "dataset").value == "ShareGPT"


def test_the_size_of_one_example_request_is_no_load():
    c = _post("One request of 128K tokens takes a KV cache of 8 GB. The kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "batch_or_concurrency")
    unrecoverable(c, "input_length")
    c = _post("Each sequence of 32K tokens occupies 2 GB. The kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "input_length")
    # a run's own load stays
    c = _post("With a single request of 8K tokens, the kernel reaches 41.2 tokens/s.")
    assert stated(c, "batch_or_concurrency").value == 1


_NEWS = """# FastKit

A toolkit.

## Latest News

- {first} [An introduction to speculative decoding for lower latency](https://example.com/a)
- {second} Introducing NVFP4 for accurate low-precision inference on B200

Older news:

- {third} FastKit's 8-bit quantization makes diffusion nearly 2x faster
- {fourth} Faster inference with FastKit's quantization
"""


def test_each_dated_news_item_announces_its_own_result():
    for dates in (("[2025/09/17]", "[2025/06/24]", "[2024/03/07]", "[2024/02/01]"),
                  ("**2025.09.17**:", "**2025.06.24**:", "**2024.03.07**:", "**2024.02.01**:"),
                  ("Sep 17, 2025 -", "Jun 24, 2025 -", "Mar 7, 2024 -", "Feb 1, 2024 -")):
        c = claim(extract_text(_NEWS.format(first=dates[0], second=dates[1], third=dates[2], fourth=dates[3]),
                               "t.md"), 2.0)
        unrecoverable(c, "hardware")
        unrecoverable(c, "speculative_decoding")
        assert stated(c, "precision").value == "8-bit"   # its own item's


def test_undated_items_of_a_set_up_list_still_set_up_the_result():
    r = extract_text("# FastKit\n\nA toolkit.\n\n## Results\n\nOur set-up:\n\n- 2 x B200 GPUs\n- FP8 weights\n\n"
                     "Older runs:\n\n- the new kernel reaches 41.2 tokens/s\n", "t.md")
    assert stated(claim(r, 41.2), "hardware").value == "2x B200"


def test_a_product_named_in_several_words_and_defined_is_no_run():
    c = _post("**NVIDIA Model Kit** (referred to as **ModelKit**) is a library comprising techniques including "
              "quantization, pruning, speculative decoding and sparsity. The new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "speculative_decoding")
    # a run with the technique stays
    c = _post("With speculative decoding, Model Kit reaches 41.2 tokens/s.")
    assert stated(c, "speculative_decoding").value == "speculative decoding"


def test_a_news_items_model_is_not_the_posts_only_model():
    # "llama.cpp" names an engine, and the one Llama model the post writes out is in a dated news item
    text = ("# FastKit\n\nA toolkit.\n\n## News\n\n* **Apr 9, 2025**: Experimental support for Llama 4 models.\n"
            "* **Apr 2, 2025**: Support for multi-concurrency.\n\n## Speed\n\n"
            "FastKit decodes at 88 tokens/s, against 41.2 tokens/s for a stock CPU runtime on 2x32 cores.\n")
    c = claim(extract_text(text, "t.md"), 41.2)
    unrecoverable(c, "model")


def test_the_size_of_each_node_of_a_fleet_is_no_device_count():
    c = _post("Spread over 36 racks of hosts, where every host has 4 L40S GPUs, the service kept up 41.2 tokens/s.")
    assert stated(c, "hardware").value == "L40S"
    unrecoverable(c, "gpu_count")
    # a machine of the run, counted, stays
    c = _post("Our server contains 8 MI300X GPUs and reaches 41.2 tokens/s.")
    assert stated(c, "hardware").value == "8x MI300X"
    assert stated(c, "gpu_count").value == 8

