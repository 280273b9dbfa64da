"""Missed kinds found by the session-7 sample check of writers outside the dev set (docs/conditions-sample-check.md):
conditions the post states for a claim that the record left unrecoverable. A table row that leaves its leading
cells empty (Markdown has no merged cells) or sits under an HTML cell spanning rows shares those cells with the
row above; a set-up note that writes the label before the number ("prompt tokens 3000 and output tokens 200 per request").
Posts written for these tests; each kind with its negative cases."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

BLANK_LABELS = """# Decode speed

## Results

| Model | GPUs | Tokens/s |
|---|---|---|
| Falcon-7B | 1 | 120.5 |
| | 2 | 201.3 |
| | 4 | 333.7 |
| Falcon-40B | 2 | 41.2 |
| | 4 | 77.9 |
"""


def test_a_row_with_an_empty_leading_cell_repeats_the_label_above():
    record = extract_text(BLANK_LABELS, "t.md")
    for value, model in ((201.3, "Falcon-7B"), (333.7, "Falcon-7B"), (77.9, "Falcon-40B"), (41.2, "Falcon-40B")):
        c = claim(record, value)
        assert stated(c, "model").value == model
    assert stated(claim(record, 333.7), "gpu_count").value == 4


def test_an_empty_cell_between_filled_ones_or_past_a_group_label_repeats_nothing():
    # a blank cell after the row's first filled one may mean "not measured": not the value above
    text = """# Speeds

## Results

| Run | Model | Tokens/s |
|---|---|---|
| a | Falcon-7B | 120.5 |
| b | | 201.3 |
"""
    unrecoverable(claim(extract_text(text, "t.md"), 201.3), "model")
    # a group-label row ends what rows above can give to the rows below it
    text = """# Speeds

## Results

| Model | Batch | Tokens/s |
|---|---|---|
| Falcon-7B | 1 | 120.5 |
| **Second system** | | |
| | 8 | 201.3 |
"""
    unrecoverable(claim(extract_text(text, "t.md"), 201.3), "model")


HTML_SPANS = """<html><body><h1>Speeds</h1><h2>Results</h2>
<table>
<tr><th>Model</th><th>Input Length</th><th>Precision</th><th>Tokens/s</th><th>Note</th></tr>
<tr><td rowspan="3">Mistral-7B</td><td rowspan="2">2048</td><td>BF16</td><td>310.5</td><td></td></tr>
<tr><td>FP8</td><td>402.25</td><td></td></tr>
<tr><td>8192</td><td>BF16</td><td>281.75</td><td></td></tr>
</table>
</body></html>
"""


def test_an_html_cell_spanning_rows_is_the_cell_of_each_row_it_spans():
    record = extract_text(HTML_SPANS, "t.html")
    c = claim(record, 402.25)
    assert stated(c, "model").value == "Mistral-7B"
    assert stated(c, "input_length").value == 2048
    assert stated(c, "precision").value == "FP8"
    c = claim(record, 281.75)
    assert stated(c, "model").value == "Mistral-7B"
    assert stated(c, "input_length").value == 8192


def test_an_empty_html_cell_keeps_its_place_in_the_row():
    from extractor.ingest import ingest
    d = ingest(HTML_SPANS, "t.html", "html")
    for row in d.tables[0].rows:
        starts = [c.start for c in row]
        assert starts == sorted(starts) and starts[0] > 0   # (an empty cell used to sit at offset 0)


SETUP_NOTE = """# Quantized serving

## Throughput

> Workload for every row: prompt tokens 3000 and output tokens 200 per request; the rest is left at defaults.

| Model | FP8 tok/s |
|---|---|
| Falcon-40B | 1,310.5 |
"""


def test_a_setup_note_that_writes_the_label_before_the_number_states_the_lengths():
    c = claim(extract_text(SETUP_NOTE, "t.md"), 1310.5)
    assert stated(c, "input_length").value == 3000
    assert stated(c, "output_length").value == 200
    text = SETUP_NOTE.replace("prompt tokens 3000 and output tokens 200", "input tokens: 4k; generated tokens=256")
    c = claim(extract_text(text, "t.md"), 1310.5)
    assert stated(c, "input_length").value == 4000
    assert stated(c, "output_length").value == 256


def test_a_total_a_limit_or_a_per_token_figure_is_no_length():
    for note in ("Total input tokens: 215000, total output tokens: 9000.",
                 "The server ran with --max-input-tokens 4096 and --max-total-tokens 8192.",
                 "The cache held 3,100 tokens per output token on average.",
                 "Output tokens/s: 900 at the peak."):
        c = claim(extract_text(SETUP_NOTE.replace(
            "Workload for every row: prompt tokens 3000 and output tokens 200 per request; the rest is left at defaults.",
            note),
            "t.md"), 1310.5)
        unrecoverable(c, "input_length")
        unrecoverable(c, "output_length")


def _results(body: str):
    return extract_text(f"# Serving\n\nAn introduction.\n\n## Results\n\n{body}\n", "t.md")


def test_huawei_atlas_machines_and_ascend_chips_are_hardware():
    c = claim(_results("We serve the model on one Atlas 800I A2 server and reach 2,100 tokens/s."), 2100)
    assert stated(c, "hardware").canonical == "Huawei Atlas 800I A2"
    unrecoverable(c, "gpu_count")   # one server of 8 or 16 NPUs: the post does not say how many
    c = claim(_results("A 910C cluster of 64 NPUs decodes 9,300 tokens/s."), 9300)
    assert stated(c, "hardware").canonical == "Huawei Ascend 910C"
    assert stated(c, "gpu_count").value == 64
    c = claim(_results("On two Atlas 300I Duo cards the decode rate is 540 tokens/s."), 540)
    assert stated(c, "hardware").canonical == "Huawei Atlas 300I"


def test_a_number_before_a_machine_counts_machines_not_devices():
    for body in ("On 2 Atlas 800T A3 nodes the decode rate is 5,400 tokens/s.",
                 "With 1x Atlas 800 A3 (64GB x 16) the decode rate is 5,400 tokens/s.",
                 "With 2x p4d.24xlarge the decode rate is 5,400 tokens/s."):
        c = claim(_results(body), 5400)
        unrecoverable(c, "gpu_count")
        unrecoverable(c, "parallelism")
    c = claim(_results("The 16 NPUs of an Atlas 800 A3 node decode 5,400 tokens/s."), 5400)
    assert stated(c, "gpu_count").value == 16
    # a chip name that is a model size is no device
    c = claim(_results("A 910B parameter model decodes 930 tokens/s on 8 H100 GPUs."), 930)
    assert stated(c, "hardware").canonical == "NVIDIA H100"


def test_a_device_count_with_the_vendor_after_the_name():
    c = claim(_results("Measured on 4 MI250 AMD GPUs, the server decodes 1,900 tokens/s."), 1900)
    assert stated(c, "gpu_count").value == 4
    assert stated(c, "hardware").value == "4x MI250"
    # two devices named, the count of neither: the vendor word does not make a bare number a count
    c = claim(_results("Against 2 H100 nodes, 4 MI250 AMD servers decode 1,900 tokens/s."), 1900)
    unrecoverable(c, "gpu_count")


def test_a_column_of_device_counts_under_other_labels():
    for label in ("GPU Num", "#GPUs", "NPUs", "Cards"):
        text = f"# Speeds\n\n## Results\n\n| Model | {label} | Tokens/s |\n|---|---|---|\n| Falcon-7B | 2 | 201.3 |\n"
        assert stated(claim(extract_text(text, "t.md"), 201.3), "gpu_count").value == 2


LOCAL_CHECKPOINT = """# Serving test

## Benchmark

We ran the benchmark below.

```bash
vllm bench serve \\
    --model {path} \\
    --dataset-name random \\
    --random-input-len 2048 \\
    --random-output-len 256 \\
    --max-concurrency 32
```

The output throughput was 1,234 tokens/s.
"""


def test_a_local_checkpoint_folder_names_the_model_of_the_command():
    for path, model in (("/models/Falcon-40B", "Falcon-40B"), ("/data/ckpt/Qwen2.5-7B-Instruct/", "Qwen2.5-7B-Instruct"),
                        ("./weights/Mistral-7B-v0.3", "Mistral-7B-v0.3")):
        c = claim(extract_text(LOCAL_CHECKPOINT.format(path=path), "t.md"), 1234)
        cond = stated(c, "model")
        assert cond.value == model and cond.quote == model
        assert stated(c, "input_length").value == 2048


def test_a_local_folder_of_no_known_model_names_none():
    for path in ("/models/my-finetune", "/srv/ckpt/v3-final", "./out"):
        c = claim(extract_text(LOCAL_CHECKPOINT.format(path=path), "t.md"), 1234)
        unrecoverable(c, "model")
    # an example command the post says produced nothing states nothing, a local path no more than a name
    text = LOCAL_CHECKPOINT.format(path="/models/Falcon-40B").replace(
        "We ran the benchmark below.", "The command below is only an example; adapt it to your setup.")
    unrecoverable(claim(extract_text(text, "t.md"), 1234), "model")


NOTE_UNDER_TABLE = """# Serving numbers

An intro paragraph.

## Results

| Model | Output tok/s |
|---|---|
| Llama-3.1-70B | 1,510.2 |
| Qwen2.5-72B | 1,620.7 |

{note}
"""


def test_a_setup_note_under_a_table_sets_up_its_rows():
    for note in ("All runs: 8x H100 SXM, batch size 64, input length 1024, output length 256.",
                 "Measured on 8x H100 SXM with batch size 64, input length 1024 and output length 256.",
                 "Setup for the table above: 8x H100 SXM, batch size 64, input length 1024, output length 256."):
        record = extract_text(NOTE_UNDER_TABLE.format(note=note), "t.md")
        for value, model in ((1510.2, "Llama-3.1-70B"), (1620.7, "Qwen2.5-72B")):
            c = claim(record, value)
            assert stated(c, "model").value == model
            assert stated(c, "hardware").value == "8x H100 SXM"
            assert stated(c, "batch_or_concurrency").value == 64
            assert stated(c, "input_length").value == 1024 and stated(c, "gpu_count").value == 8


def test_a_note_about_another_table_sets_up_none_of_this_one():
    # a note that introduces the next table (ends with a colon before it), and a note under the next table
    text = """# Serving numbers

An intro paragraph.

## Results

| Model | Output tok/s |
|---|---|
| Llama-3.1-70B | 1,510.2 |

Measured on 4x A100 with batch size 8, the next table gives:

| Model | Output tok/s |
|---|---|
| Qwen2.5-72B | 1,620.7 |

Note: the second table used input length 2048.
"""
    record = extract_text(text, "t.md")
    c = claim(record, 1510.2)
    for name in ("hardware", "batch_or_concurrency", "input_length", "gpu_count"):
        unrecoverable(c, name)
    c = claim(record, 1620.7)
    assert stated(c, "input_length").value == 2048 and stated(c, "hardware").value == "4x A100"
    # a note that sets up the table below is not a footnote of the table above
    text = NOTE_UNDER_TABLE.format(note="Setup for the table below: 4x A100, batch size 8.\n\n| Model | TTFT |\n|---|---|\n"
                                   "| Llama-3.1-70B | 95 ms |")
    unrecoverable(claim(extract_text(text, "t.md"), 1510.2), "hardware")


def test_an_n_way_concurrency_is_the_load():
    assert stated(claim(_results("Serving got 45% faster at 6-way concurrency."), 45),
                  "batch_or_concurrency").value == 6
    assert stated(claim(_results("With eight-way concurrent requests the server reached 1,200 tokens/s."), 1200),
                  "batch_or_concurrency").value == 8
    c = claim(_results("With 4-way tensor parallelism the server reached 1,200 tokens/s."), 1200)
    unrecoverable(c, "batch_or_concurrency")
    assert stated(c, "parallelism").value == "TP4"


def test_a_qualified_column_label_keeps_its_condition_but_a_limit_does_not():
    table = "# Sweep\n\n## Results\n\n| {a} | {b} | ITL (ms) |\n|---|---|---|\n| 2048 | 512 | 208.5 |\n"
    for a, b in (("Random prompt len", "Random gen len"), ("Avg. input tokens", "Mean output length")):
        c = claim(extract_text(table.format(a=a, b=b), "t.md"), 208.5)
        assert stated(c, "input_length").value == 2048 and stated(c, "output_length").value == 512
    c = claim(extract_text(table.format(a="Max input len", b="Max model len"), "t.md"), 208.5)
    unrecoverable(c, "input_length")



def test_a_baseline_word_ending_the_row_above_is_no_cue_of_the_next_row_s_model():
    text = """# Caching

## Results

| Model | Cache | Time | Notes |
|---|---|---|---|
| Falcon-7B | None | 20.5s | Baseline |
| Falcon-7B | Block cache | 11.25s | Default |
| Mistral-7B | None | 30.5s | Baseline |
| Mistral-7B | Block cache | 14.75s | vs Falcon-7B above |
"""
    record = extract_text(text, "t.md")
    assert stated(claim(record, 11.25), "model").value == "Falcon-7B"
    assert stated(claim(record, 30.5), "model").value == "Mistral-7B"
    # a cue inside the cell still makes its name the baseline's: the row's own model stays the claim's
    assert stated(claim(record, 14.75), "model").value == "Mistral-7B"


def test_a_list_item_that_introduces_a_nested_table_names_its_model():
    text = """# Long prompts

## Results

Time to first token at a fixed length:

- Falcon-40B:

    | Setting | Chunked | Static |
    | --- | --- | --- |
    | Input length 64k | 12.5s | 14.25s |

- Mistral-7B:

    | Setting | Chunked | Static |
    | --- | --- | --- |
    | Input length 64k | 3.5s | 4.75s |
"""
    record = extract_text(text, "t.md")
    assert stated(claim(record, 14.25), "model").value == "Falcon-40B"
    assert stated(claim(record, 3.5), "model").value == "Mistral-7B"
    # an item that says something else (no colon introducing the table) names nothing for it
    record = extract_text(text.replace("- Mistral-7B:", "- Mistral-7B was also tried on other runs."), "t.md")
    unrecoverable(claim(record, 3.5), "model")
