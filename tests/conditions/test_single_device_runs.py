"""Runs on one device (issue 24): a device counted by a word without the word GPU ("a single H100", "one MI300X",
"tests ran on an RTX 4090") is one device and a single-GPU layout; a one-device layout taken from another place
than the claim's hardware, which counts several devices, is no layout of the claim; a layout written both ways
("a single GPU" and "TP1") keeps both. Setup prose of tutorials: "in 16-bit precision", "a batch of one sample".
Posts written for these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(body: str, value: float = 41.2) -> object:
    text = f"# Leaner decoding\n\nAn introduction.\n\n## Results\n\n{body}\n"
    return claim(extract_text(text, "t.md"), value)


def test_a_device_counted_by_a_word_is_one_device():
    for body, name in (("The new kernel reaches 41.2 tokens/s on one MI300X.", "1x MI300X"),
                       ("The new kernel reaches 41.2 tokens/s.\n\nAll tests were conducted on an RTX 4090.",
                        "1x RTX 4090"),
                       ("With a single H100, the new kernel reaches 41.2 tokens/s.", "1x H100")):
        c = _post(body)
        assert stated(c, "hardware").value == name
        assert stated(c, "parallelism").value == "single GPU"
        assert stated(c, "gpu_count").value == 1


def test_a_word_count_of_machines_or_a_class_of_devices_is_no_single_device():
    c = _post("The new kernel reaches 41.2 tokens/s on one H100 node.")
    assert stated(c, "hardware").value == "H100"
    unrecoverable(c, "parallelism")
    c = _post("On phones with an A14 or newer, the new kernel reaches 41.2 tokens/s.")
    unrecoverable(c, "hardware")   # a bound on the class, not the device (`device_class_bound`)
    unrecoverable(c, "parallelism")
    # a cloud instance counted by a word is one machine, not one device
    c = _post("The new kernel reaches 41.2 tokens/s on a g5.12xlarge.")
    assert stated(c, "hardware").value == "g5.12xlarge"
    unrecoverable(c, "parallelism")


def test_a_name_ending_in_x_and_a_number_keeps_its_name():
    # "RTX 4090" is no "H100 x 8": the name is not cut at its X
    assert stated(_post("The new kernel reaches 41.2 tokens/s on 1x RTX 4090."), "hardware").value == "1x RTX 4090"
    assert stated(_post("The new kernel reaches 41.2 tokens/s on H100 x 8."), "hardware").value == "8x H100"


def test_one_device_from_another_place_than_several_devices_is_no_layout():
    c = _post("In our tests on a single GPU, the kernel is fast.\n\nThe new kernel reaches 41.2 tokens/s on 8 H100 GPUs.")
    assert stated(c, "hardware").value == "8x H100"
    unrecoverable(c, "parallelism")
    c = _post("The new kernel reaches 41.2 tokens/s on H100 x 8 and 30 tokens/s on 1x RTX 4090.")
    unrecoverable(c, "parallelism")
    assert stated(_post("The new kernel reaches 41.2 tokens/s on H100 x 8 and 30 tokens/s on 1x RTX 4090.", 30),
                  "parallelism").value == "single GPU"


def test_a_layout_written_both_ways_keeps_both():
    c = _post("On a single GPU the engine reaches 41.2 tok/s.\n\n![chart](a.png)\n\n"
              "<sup>Engine v1.0 | 1xH200 TP1 | BS 256</sup>")
    assert stated(c, "parallelism").value == "single GPU, TP1"
    # another layout beside the degree-1 one: the one-device layout stays alone
    c = _post("On a single GPU the engine reaches 41.2 tok/s.\n\nWe also ran TP8 and TP1 configurations.")
    assert stated(c, "parallelism").value == "single GPU"


def test_a_one_device_too_small_for_the_model_is_no_run():
    c = _post("The new kernel reaches 41.2 tokens/s, and a single H100 is not enough to hold the larger model.")
    unrecoverable(c, "parallelism")


def test_precision_by_its_width_in_bits_and_a_batch_of_one_in_words():
    c = _post("We measured latencies (batch of one sample). Runs were performed in 16-bit precision.\n\n"
              "The new kernel is 1.2x faster than the old one.", 1.2)
    assert stated(c, "precision").value == "16-bit"
    assert stated(c, "batch_or_concurrency").value == 1
    c = _post("With a batch size of one, the new kernel is 1.2x faster than the old one.", 1.2)
    assert stated(c, "batch_or_concurrency").value == 1


def test_bits_of_something_else_or_methods_named_are_no_precision():
    for body in ("The counter is a 64-bit integer. The new kernel is 1.2x faster than the old one.",
                 "Many 8-bit quantization methods exist. The new kernel is 1.2x faster than the old one.",
                 "The batch of one hundred samples is ready. The new kernel is 1.2x faster than the old one."):
        c = _post(body, 1.2)
        unrecoverable(c, "precision")
        unrecoverable(c, "batch_or_concurrency")


def test_devices_named_as_what_the_run_s_device_equals_are_no_devices_of_the_run():
    setup = ("## Setup\n\nIn our experiments we benchmark on an MI210 GPU, equivalent to one of the two dies of an "
             "MI250X GPU (so an MI250X GPU could be thought of as two MI210 GPUs). We look at throughput.\n\n")
    c = claim(extract_text(f"# Leaner decoding\n\nAn introduction.\n\n{setup}## Results\n\n"
                           "INT8 raises throughput by about 25% over FP16.\n", "t.md"), 25)
    assert stated(c, "hardware").value == "1x MI210"
    assert stated(c, "parallelism").value == "single GPU"
    # without the equivalence, two devices named for the run are two values
    setup = "## Setup\n\nIn this post, we will use an MI210 GPU and an MI250X GPU. We measure the throughput.\n\n"
    c = claim(extract_text(f"# Leaner decoding\n\nAn introduction.\n\n{setup}## Results\n\n"
                           "INT8 raises throughput by about 25% over FP16.\n", "t.md"), 25)
    unrecoverable(c, "hardware")


TABLES = """# Decoding speed

An introduction.

## Results

| new tokens | Model A latency (s) |
|------------|---------------------|
| 128        | 2.4                 |
| 512        | 7.9                 |

| Model | Number of devices | Latency (s) |
|-------|-------------------|-------------|
| Big   | 8                 | 3.1         |
| Small | 1                 | 1.7         |

We ran the big model on 8 devices.
"""


def test_columns_of_new_tokens_and_of_devices_label_the_row_s_setting():
    rec = extract_text(TABLES, "t.md")
    assert stated(claim(rec, 7.9), "output_length").value == 512
    assert stated(claim(rec, 1.7), "gpu_count").value == 1
    assert stated(claim(rec, 3.1), "gpu_count").value == 8
