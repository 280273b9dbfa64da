"""Conditions of every claim in posts that run several workloads, models or systems: each result takes its own
run's settings (its table row, its model's layout), never another run's. Small posts written for these tests."""
from __future__ import annotations

from extractor.api import extract_text


def claim(record, value, metric=None):
    found = [c for c in record.claims if abs(c.value - value) < 1e-6 and (metric is None or c.metric == metric)]
    assert found, f"no claim {value} {metric or ''} in {[(c.metric, c.value) for c in record.claims]}"
    return found[0]


def test_abbreviated_length_columns_give_each_rows_lengths():
    text = ("# Results\n\nWe served Llama-3-8B on one H100.\n\n"
            "| Case | Prompt tok | Gen tok | TTFT | Decode tok/s |\n|---|---:|---:|---:|---:|\n"
            "| short | 120 | 16 | 0.10 s | 95 |\n| long | 4,000 | 256 | 0.90 s | 88 |\n")
    record = extract_text(text, "t.md")
    short, long_ = claim(record, 95), claim(record, 0.9)
    assert (short.conditions["input_length"].value, short.conditions["output_length"].value) == (120, 16)
    assert (long_.conditions["input_length"].value, long_.conditions["output_length"].value) == (4000, 256)
    assert long_.conditions["input_length"].scope == "table_row"


def test_a_rate_column_of_generated_tokens_is_no_output_length():
    # "Gen tok/s" is a throughput column, not the generated length
    text = ("# Results\n\nWe served Llama-3-8B on one H100.\n\n"
            "| Case | Prompt tok/s | Gen tok/s |\n|---|---:|---:|\n| short | 1,200 | 95 |\n| long | 3,400 | 88 |\n")
    c = claim(extract_text(text, "t.md"), 88)
    assert c.conditions["output_length"].status == "unrecoverable"
    assert c.conditions["input_length"].status == "unrecoverable"


PAIRED_HARDWARE = """# A KV-cache study

## Performance

The served models are `Mixtral-8x7B` (2xH100) and `Llama-3.3-70B-Instruct` (4xH100).

### Latency

<em>Figure 8: Latency overhead for Llama-3.3-70B-Instruct. The new cache adds 10% to 60% latency.</em>

With Llama-70B, the FP8 build runs nearly 2x faster than BF16.
"""


def test_a_claim_about_one_model_takes_the_hardware_the_post_pairs_with_it():
    record = extract_text(PAIRED_HARDWARE, "t.md")
    for c in (claim(record, 10), claim(record, 2)):
        hw = c.conditions["hardware"]
        assert (hw.status, hw.value) == ("stated", "4x H100")
        assert PAIRED_HARDWARE[hw.span[0]:hw.span[1]] == "4xH100"


PAIRED_LAYOUT = """# Two models

## Results

Layouts were TP=1 for Mistral-7B and TP=8 for Mixtral-8x22B on H100 boards.

On Mixtral-8x22B the engine serves 3,150 output tokens per second.

On Mistral-7B it reaches 5,900 output tokens per second.
"""


def test_a_layout_written_before_its_model_is_that_models():
    record = extract_text(PAIRED_LAYOUT, "t.md")
    big, small = claim(record, 3150), claim(record, 5900)
    assert (big.conditions["parallelism"].status, big.conditions["parallelism"].value) == ("stated", "TP=8")
    assert (small.conditions["parallelism"].status, small.conditions["parallelism"].value) == ("stated", "TP=1")


UNPAIRED = """# Two models

## Results

Both Mistral-7B and Mixtral-8x22B were run, with L40S and H100 boards.

The engine serves 3,150 output tokens per second on Mixtral-8x22B.
"""


def test_settings_listed_apart_from_the_models_pair_with_none():
    # the devices follow the list of models, not each model: which one ran Mixtral is not said
    hw = claim(extract_text(UNPAIRED, "t.md"), 3150).conditions["hardware"]
    assert hw.status == "unrecoverable"
    assert "L40S" in hw.why and "H100" in hw.why


ONE_MODEL_PAIRED_AGAINST_ANOTHER = """# Two models

## Results

We served Qwen3-8B (1x L40S) and Qwen3-32B (4x L40S).

Across the runs, the new cache cut latency by 20%.
"""


def test_a_claim_that_names_no_model_keeps_both_paired_settings_ambiguous():
    # one device at two counts is two values: neither the first count nor the single-device layout of
    # "1x L40S" is stated for a claim over both runs
    c = claim(extract_text(ONE_MODEL_PAIRED_AGAINST_ANOTHER, "t.md"), -20)
    for name in ("hardware", "parallelism", "gpu_count"):
        assert c.conditions[name].status == "unrecoverable", name
    assert "1x L40S" in c.conditions["hardware"].why and "4x L40S" in c.conditions["hardware"].why


def test_one_device_at_one_count_written_twice_is_one_value():
    text = ("# Results\n\n## Setup\n\nAll runs use 8x H100 GPUs; the 8 H100 GPUs share one NVLink domain.\n\n"
            "## Numbers\n\nThe engine reached 12,400 output tokens per second.\n")
    hw = claim(extract_text(text, "t.md"), 12400).conditions["hardware"]
    assert (hw.status, hw.value) == ("stated", "8x H100")


def test_a_model_version_written_without_its_letter_is_the_models():
    text = "# Results\n\nWe ran Kimi-2.5 NVFP4 on 12 GB200 GPUs. Throughput rose by 3.1x over the baseline.\n"
    model = claim(extract_text(text, "t.md"), 3.1).conditions["model"]
    assert (model.status, model.value) == ("stated", "Kimi-2.5")
    # a number after the family name that is no version names no model
    other = "# Results\n\nKimi 2 is slower. Throughput rose by 3.1x over the baseline with vLLM.\n"
    assert claim(extract_text(other, "t.md"), 3.1).conditions["model"].status == "unrecoverable"


FIGURES_OF_TWO_METRICS = """# Offloading

## Benefits

Our first test times one prefill request on its own.

<p align="center">
<img src="f1.png"><br>
<b>Figure 1</b>: TTFT of one request alone (Llama-3.1-8B-Instruct, NVIDIA H100).
</p>

Reading values from the cache cuts TTFT by 2x-20x, longer prompts gaining most.

<p align="center">
<img src="f2.png"><br>
<b>Figure 2</b>: Throughput under many parallel requests (Llama-3.1-70B-Instruct, NVIDIA H200).
</p>
"""


def test_of_two_near_figures_the_one_that_shows_the_claims_metric_gives_its_setup():
    # the captions under <img> in an HTML paragraph are captions; the throughput figure holds no TTFT result
    c = claim(extract_text(FIGURES_OF_TWO_METRICS, "t.md"), 2)
    assert (c.conditions["model"].value, c.conditions["model"].scope) == ("Llama-3.1-8B-Instruct", "figure_caption")
    assert c.conditions["hardware"].value == "NVIDIA H100"


def test_two_near_figures_of_the_claims_metric_state_only_what_both_state():
    text = FIGURES_OF_TWO_METRICS.replace("Throughput under many parallel requests", "Batched TTFT")
    c = claim(extract_text(text, "t.md"), 2)
    assert c.conditions["model"].status == "unrecoverable"


TWO_MODELS_TWO_SYSTEMS = """# Two models

## Setup

We served Mistral-7B on one NVIDIA L40S GPU and Mixtral-8x22B on 8 NVIDIA L40S GPUs with tensor parallelism.

## Results

Our engine reaches up to 5 times the throughput of vLLM.

On Mixtral-8x22B the engine serves 2,100 tokens per second.
"""


def test_a_claim_over_both_models_takes_neither_models_own_count_or_layout():
    c = claim(extract_text(TWO_MODELS_TWO_SYSTEMS, "t.md"), 5)
    assert c.conditions["hardware"].value == "1x NVIDIA L40S; 8x NVIDIA L40S"   # a bound over both runs lists both
    assert c.conditions["gpu_count"].status == "unrecoverable"   # the 8 GPUs are Mixtral's alone
    layout = c.conditions["parallelism"]
    assert layout.status == "unrecoverable" and "one NVIDIA L40S" in layout.why   # not "single GPU, TP8"


def test_a_claim_about_one_model_takes_its_own_count_and_layout():
    c = claim(extract_text(TWO_MODELS_TWO_SYSTEMS, "t.md"), 2100)
    assert (c.conditions["hardware"].value, c.conditions["gpu_count"].value) == ("8x NVIDIA L40S", 8)
    assert c.conditions["parallelism"].value == "TP8"


VERSUS_CAPTIONS = """# Model-B release

## Memory

With the new attention, the model stores about 8.7x less KV cache per sequence than before.

<p align="center">
<img src="kv.svg"><br>
<em>KV cache held per layer: Qwen2.5 versus Qwen3.</em>
</p>

## Speed

<p align="center">
<img src="s.svg"><br>
<em>Requests per second compared between vLLM v0.4.2 and v0.5.0, serving Llama 8B on 1xH100.</em>
</p>

The new release serves 2x more requests per second than the old one.
"""


def test_the_sides_of_a_comparison_in_a_caption_are_not_the_claims_setting():
    record = extract_text(VERSUS_CAPTIONS, "t.md")
    # "A versus B": which side the claim was measured on the caption does not say (not the first one)
    assert claim(record, 8.7).conditions["model"].status == "unrecoverable"
    # "between v0.4.2 and v0.5.0": neither version; what both sides share (model, device) still holds
    c = claim(record, 2)
    assert c.conditions["engine_version"].status == "unrecoverable"
    assert (c.conditions["model"].value, c.conditions["hardware"].value) == ("Llama 8B", "1x H100")


def test_a_claims_own_sentence_keeps_the_first_side_of_its_comparison():
    text = "# Results\n\n## Speed\n\nOn the H200 versus the H100, the engine is 1.9x faster for Llama-3-8B.\n"
    hw = claim(extract_text(text, "t.md"), 1.9).conditions["hardware"]
    assert (hw.status, hw.scope) == ("stated", "sentence") and "H200" in hw.value


def test_in_prose_the_name_before_versus_is_the_presented_system():
    text = ("# Results\n\n## Kernels\n\nOur LoRA kernels were tuned for Qwen 14B in vLLM 0.9.2 vs vLLM 0.8.5rc1.\n\n"
            "The tuned kernels lower TTFT by 40%.\n")
    engine = claim(extract_text(text, "t.md"), -40).conditions["engine_version"]
    assert (engine.status, engine.value) == ("stated", "vLLM 0.9.2")


BOLD_TABLE_TITLE = """# New GPU results

With one GPU the engine serves 11,819 tokens/s for Llama2-13B. Against the H100, the new card is up to 1.9x faster.

**Peak FP8 throughput, H200**

| Model | Batch size | ISL | OSL | Output tok/s per GPU |
|:--|--:|--:|--:|--:|
| Llama2-13B | 1024 | 128 | 128 | 11,819 |
| Llama2-13B | 128 | 128 | 2048 | 4,750 |

<sub>Preliminary figures | H200, H100 FP8.</sub>
"""


def test_a_bold_line_above_a_table_is_its_title_and_names_its_system():
    # (the name after "than H100." at the end of the paragraph above is no baseline: a paragraph ends there)
    c = claim(extract_text(BOLD_TABLE_TITLE, "t.md"), 4750)
    hw = c.conditions["hardware"]
    assert (hw.status, hw.value, hw.scope) == ("stated", "H200", "table_caption")
    assert c.conditions["precision"].value == "FP8"


def test_a_name_right_after_than_across_a_line_break_is_still_the_baseline():
    text = "# R\n\nOn Llama-3-8B our engine is 2.1x faster than\nthe H100 build of the reference server on an H200.\n"
    hw = claim(extract_text(text, "t.md"), 2.1).conditions["hardware"]
    assert hw.status == "stated" and "H200" in hw.value and "H100" not in hw.value   # ("an H200": one device)


GROUPED_ROWS = """# Two GPUs

| Model | Batch size | Throughput (out tok/s) |
| :-- | :-- | --: |
| **L40S**
| Llama-3-8B | 64 | **4,210** |
| **A10G** |
| Llama-3-8B | 64 | 1,380 |
| **4 nodes** |
| Llama-3-8B | 32 | 15,500 |
"""


def test_a_one_cell_label_row_names_the_system_of_the_rows_below_it():
    record = extract_text(GROUPED_ROWS, "t.md")
    assert claim(record, 4210).conditions["hardware"].value == "L40S"
    assert claim(record, 1380).conditions["hardware"].value == "A10G"
    # a one-cell row that opens with a number is a value, not a label: it names no device for the rows below
    assert claim(record, 15500).conditions["hardware"].status == "unrecoverable"


def test_a_device_with_its_memory_joined_by_an_x_is_the_device():
    text = ("# Results\n\n## Setup\n\nBoth engines run on NVIDIA L4, A100 and A6000.\n\n## Numbers\n\n"
            "For Llama-2 70B on 4 A100x80GB, our engine gives up to 2x the reference's throughput.\n")
    hw = claim(extract_text(text, "t.md"), 2).conditions["hardware"]
    # (the count before a device written with its memory counts devices; the "x" before the memory is no count)
    assert (hw.status, hw.scope, hw.value) == ("stated", "sentence", "4x A100-80GB")


ONE_DEVICE_THEN_FOUR = """# Runner v2

## Results

To push the runner, we paired a tiny model (`Qwen3-0.6B`) with a big GPU (`1×GB200`). Throughput rose
56%.

Speculative decoding gained too: **6.3% lower TPOT** with `GLM-4.7-FP8` on `4×GB200`.
"""


def test_a_single_device_layout_of_another_run_is_not_given_to_a_claim_on_four_devices():
    record = extract_text(ONE_DEVICE_THEN_FOUR, "t.md")
    four = claim(record, -6.3)
    assert four.conditions["hardware"].value == "4x GB200"
    assert four.conditions["parallelism"].status == "unrecoverable"
    one = claim(record, 56)
    assert (one.conditions["hardware"].value, one.conditions["parallelism"].value) == ("1x GB200", "single GPU")


def test_a_gpus_column_cell_gives_its_count_not_the_digits_of_the_device_name():
    text = "# Cost\n\n| GPUs | Model-A | Model-B |\n|---|:-:|:-:|\n| 64x A100-80G | 1.25 hours | 4 hours |\n"
    c = claim(extract_text(text, "t.md"), 4)
    assert (c.conditions["gpu_count"].value, c.conditions["hardware"].value) == (64, "64x A100")


_TOPICS = ("# Cache formats\n\n## Time to first token\n\n"
           "On Orca-13B (Figure 3), which has headroom on 2xL40S, the two formats tie at every rate. "
           "On Llama-3.1-70B (Figure 4), running on 8xL40S with little room left, the old format hits 19 s "
           "in bursts. The new format keeps below 4.5 s, 4x better.\n")


def test_a_sentence_opening_with_a_model_starts_that_models_stretch_of_the_paragraph():
    # (written for this test) the 4x figure comes after "On Llama-3.1-70B ..., running on 8xL40S": not the
    # other model's 2xL40S
    found = claim(extract_text(_TOPICS, "t.md"), 4)
    assert found.conditions["hardware"].value == "8x L40S"
    assert found.conditions["model"].value == "Llama-3.1-70B"



def test_the_first_models_figure_keeps_its_own_stretch():
    # (written for this test) a figure in the first model's stretch is not read from the later one
    text = _TOPICS.replace("the two formats tie at every rate.", "the new format cuts TTFT by 12%.")
    found = claim(extract_text(text, "t.md"), -12)
    assert found.conditions["hardware"].value != "8x L40S"
