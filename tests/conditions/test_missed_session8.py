"""Conditions the post states for a claim that used to be left unrecoverable (issue 24, session 8): the options of
a generating CLI and of HTTP load generators in the command that printed the result, a speculative-decoding
method written together with the generic words, and two runs whose precisions differ in one part. Posts and
commands written for these tests."""
from __future__ import annotations

import pytest

from claim_checks import claim, command_settings, stated, unrecoverable
from extractor.api import extract_text

FENCE = "```"


@pytest.mark.parametrize("command,expected", [
    ("litgpt generate acme-labs/tiny-chat-2b --max_new_tokens 128 --precision bf16-true",
     {"model": "acme-labs/tiny-chat-2b", "output_length": "128", "precision": "bf16-true"}),
    ("litgpt generate_tp acme-labs/wide-chat-40b --quantize bnb.nf4 --max_new_tokens 64",
     {"model": "acme-labs/wide-chat-40b", "output_length": "64", "precision": "bnb.nf4"}),
    ("hey -n 2000 -c 12 http://localhost:8080/score", {"batch_or_concurrency": "12"}),
    ("ab -n 500 -c 8 http://127.0.0.1:8000/predict", {"batch_or_concurrency": "8"}),
    ("wrk -t2 --connections 32 -d 15s http://127.0.0.1:8000/", {"batch_or_concurrency": "32"}),
])
def test_generating_and_load_generating_commands_are_read_by_the_table(command, expected):
    assert command_settings(command) == expected


def test_other_options_and_subcommands_state_nothing():
    # a rate per worker and a request total are no concurrency; other subcommands of the CLI measure nothing
    assert command_settings("hey -z 20s -q 40 -n 900 http://localhost:8080/") == {}
    assert command_settings("litgpt download acme-labs/tiny-chat-2b") == {}
    assert command_settings("litgpt finetune acme-labs/tiny-chat-2b --max_new_tokens 99") == {}


GENERATE_POST = f"""# Shrinking a chat model

All runs below used one L4 GPU.

## Four-bit weights

{FENCE}bash
litgpt generate acme-labs/tiny-chat-7b \\
  --quantize bnb.nf4 \\
  --precision bf16-true \\
  --max_new_tokens 300
...
Generated 300 tokens in 5.72 s: 52.40 tokens/sec
Peak memory: 3.70 GB
{FENCE}

## Eight-bit weights

{FENCE}bash
litgpt generate acme-labs/tiny-chat-7b \\
  --quantize bnb.int8 \\
  --precision 16-true \\
  --max_new_tokens 300
...
Generated 300 tokens in 15.11 s: 19.85 tokens/sec
Peak memory: 3.70 GB
{FENCE}
"""


def test_the_generate_command_states_model_length_and_precision_of_its_printed_speed():
    record = extract_text(GENERATE_POST, doc="gen.md")
    fast = claim(record, 52.4)
    assert stated(fast, "model").value == "acme-labs/tiny-chat-7b"
    assert stated(fast, "output_length").value == 300
    assert "NF4" in stated(fast, "precision").value
    slow = claim(record, 19.85)
    assert "INT8" in stated(slow, "precision").value and "NF4" not in stated(slow, "precision").value


def test_one_figure_printed_by_two_runs_of_other_precisions_stays_two_claims():
    # the same memory figure printed by the NF4 run and by the INT8 run: two measurements, not one restated
    record = extract_text(GENERATE_POST, doc="gen.md")
    memory = [c for c in record.claims if abs(c.value - 3.7) < 1e-9]
    assert len(memory) == 2
    assert {("NF4" in c.conditions["precision"].value) for c in memory} == {True, False}


LOAD_POST = f"""# Load-testing a small classifier

## Fixed concurrency

Twelve clients hammer the endpoint for a minute:

{FENCE}bash
hey -c 12 -z 1m -D body.bin http://127.0.0.1:9000/classify
{FENCE}

{FENCE}
Summary:
  Total:        60.0041 secs
  Requests/sec: 388.1022

Latency distribution:
  50% in 0.0306 secs
  90% in 0.0418 secs
{FENCE}

## Fixed rate

The same endpoint at a capped rate:

{FENCE}bash
hey -q 25 -z 1m -D body.bin http://127.0.0.1:9000/classify
{FENCE}

{FENCE}
Summary:
  Requests/sec: 24.9377

Latency distribution:
  50% in 0.0214 secs
{FENCE}
"""


def test_a_load_generators_concurrency_is_the_load_of_its_printed_latencies():
    record = extract_text(LOAD_POST, doc="load.md")
    assert stated(claim(record, 0.0306), "batch_or_concurrency").value == 12


def test_a_rate_run_does_not_take_another_sections_concurrency():
    record = extract_text(LOAD_POST, doc="load.md")
    unrecoverable(claim(record, 0.0214), "batch_or_concurrency")


@pytest.mark.parametrize("sentence,method", [
    ("Our server runs EAGLE-style speculative decoding and reaches a 1.7x decode speedup on one H100.",
     "EAGLE-style speculative decoding"),
    ("With Medusa speculative decoding the chat model decodes at 88 tokens/s on an A100.",
     "Medusa speculative decoding"),
    ("Speculative decoding with EAGLE-3 gives a 2.3x speedup on an H200.", "Speculative decoding with EAGLE-3"),
    ("MTP-based speculative decoding lifts decode throughput by 1.4x on eight H20 GPUs.",
     "MTP-based speculative decoding"),
])
def test_a_method_named_with_the_generic_words_is_one_value(sentence, method):
    c = extract_text(f"# Decoding faster\n\n{sentence}\n", doc="s.md").claims[0]
    assert stated(c, "speculative_decoding").value == method


def test_a_generic_mention_and_another_method_apart_stay_ambiguous():
    # two methods named apart in one sentence: which one the figure was measured with is not said
    text = "# Decoding faster\n\nSpeculative decoding gives a 2.1x speedup on an H200, and Medusa heads help as well.\n"
    c = extract_text(text, doc="s.md").claims[0]
    assert "several values" in unrecoverable(c, "speculative_decoding").why


def test_a_method_with_the_generic_words_in_a_list_of_what_the_post_covers_is_no_figures_method():
    text = ("# Two changes to our chat fleet\n\nThis post covers two changes: speculative decoding with EAGLE-3 and a "
            "larger prefix cache.\n\n## Prefix cache\n\nA larger cache lifts throughput by 1.6x on our replay trace.\n")
    c = claim(extract_text(text, doc="s.md"), 1.6)
    unrecoverable(c, "speculative_decoding")


SEQUENCE_PARALLEL_POST = """# Splitting long videos over GPUs

All runs below use eight L40S GPUs in one server.

| Run | Clip time | Ulysses degree |
|---|---|---|
| one device | 71.0s | 1 |
| two devices | 38.9s | 2 |
| four devices | 21.7s | 4 |
"""


def test_a_ulysses_degree_column_gives_the_rows_sequence_parallel_layout():
    record = extract_text(SEQUENCE_PARALLEL_POST, doc="sp.md")
    assert stated(claim(record, 38.9), "parallelism").value == "SP2"
    assert stated(claim(record, 21.7), "parallelism").value == "SP4"


@pytest.mark.parametrize("sentence,layout", [
    ("With a Ulysses degree of 4 the clip renders in 12.5 s on four H20 GPUs.", "SP4"),
    ("Setting ring_degree=2 cuts the latency to 840 ms on two A100 GPUs.", "SP2"),
    ("At sp=4 the long prompt reaches a TTFT of 2.6 s on four H100 GPUs.", "sp=4"),
])
def test_sequence_parallel_degrees_in_prose(sentence, layout):
    c = extract_text(f"# Long inputs\n\n{sentence}\n", doc="sp.md").claims[0]
    assert stated(c, "parallelism").value == layout
    assert c.conditions["parallelism"].canonical == layout.upper().replace("=", "")   # one spelling: "SP4"


def test_a_scheme_named_without_a_degree_is_no_layout():
    # Ulysses as a topic, and a degree that belongs to no scheme, state no layout
    text = ("# Long inputs\n\nUlysses attention splits the heads across devices; the ring degree matters less. "
            "The clip renders in 12.5 s on one H20 GPU.\n")
    c = extract_text(text, doc="sp.md").claims[0]
    assert stated(c, "parallelism").value == "single GPU"


def _conditions(text: str, name: str) -> list:
    c = [x.conditions[name] for x in extract_text(text, doc="r.md").claims]
    return [x.value if x.status == "stated" else None for x in c]


def test_names_listed_in_order_with_the_figures_respectively_are_each_figures_own():
    text = "# Speed\n\nMeasured on the H100 and the MI300X, the fused kernel is 1.4x and 1.7x quicker, respectively.\n"
    assert _conditions(text, "hardware") == ["H100", "MI300X"]
    text = "# Speed\n\nLlama-3-8B, Qwen2-7B and Mistral-7B decode at 95, 88 and 91 tok/s on one L4, respectively.\n"
    assert _conditions(text, "model") == ["Llama-3-8B", "Qwen2-7B", "Mistral-7B"]


@pytest.mark.parametrize("text", [
    # as many names as figures, but no "respectively": which name is whose is not said
    "# Speed\n\nOn the H100 and the MI300X, our fused kernel reaches speedups of 1.4x and 1.7x.\n",
    # two names for three figures
    "# Speed\n\nOn the H100 and the MI300X, our fused kernel reaches 1.4x, 1.5x and 1.7x, respectively.\n",
    # the names are not one list: other words stand between them
    "# Speed\n\nWe ran the H100 in May and the MI300X in June: the kernel reaches 1.4x and 1.7x, respectively.\n",
    "# Speed\n\nBoth the H100 cluster and the MI300X cluster were tested: the kernel reaches 1.4x and 1.7x, "
    "respectively.\n",
])
def test_names_not_paired_in_order_stay_ambiguous(text):
    assert _conditions(text, "hardware") == [None] * len(extract_text(text, doc="r.md").claims)


@pytest.mark.parametrize("note,input_length,output_length", [
    ("Requests carry prompts (roughly 40 tokens) drawn from our chat logs.", 40, None),
    ("Every run uses short prompts (only 16 tokens) and short generations (just 40 tokens).", 16, 40),
    ("Every run uses an input length (about 300 tokens) close to our chat traffic.", 300, None),
])
def test_a_length_in_parentheses_after_its_label(note, input_length, output_length):
    c = extract_text(f"# Speed\n\nThe model decodes at 180 tokens/s on one A100. {note}\n", doc="p.md").claims[0]
    assert stated(c, "input_length").value == input_length
    if output_length is not None:
        assert stated(c, "output_length").value == output_length


@pytest.mark.parametrize("note", [
    "Prompts are cut to a limit (max 300 tokens).",
    "The prompt (a short poem) is the same for every run.",
    "The input length (see the table below) varies.",
])
def test_no_length_in_other_parentheses(note):
    c = extract_text(f"# Speed\n\nThe model decodes at 180 tokens/s on one A100. {note}\n", doc="p.md").claims[0]
    unrecoverable(c, "input_length")


def test_an_engine_image_named_without_its_registry_gives_the_version_of_the_results_it_introduces():
    # (a plugin project's image: its tag is that project's release, named as the image names it; session 9)
    text = ("# Serving\n\nThe results below were measured with `vllm-gaudi:v0.11.2` on one server.\n\n"
            "| Model | TTFT (ms) |\n|---|---|\n| Llama-3-8B | 120.5 |\n")
    assert stated(claim(extract_text(text, doc="e.md"), 120.5), "engine_version").value == "vllm-gaudi v0.11.2"


@pytest.mark.parametrize("image", ["vllm-gaudi:latest", "vllm-gaudi:nightly"])
def test_an_image_tag_that_is_no_version_states_none(image):
    text = (f"# Serving\n\nThe results below were measured with `{image}` on one server.\n\n"
            "| Model | TTFT (ms) |\n|---|---|\n| Llama-3-8B | 120.5 |\n")
    unrecoverable(claim(extract_text(text, doc="e.md"), 120.5), "engine_version")


BOLD_LABELS_TABLE = """# Quantized chat models

All runs: one RTX 4080, batch size 1.

| | | | |
|:--|:--|:--|:--|
| **Model** | **Input length** | **Output tokens length** | **Decode speedup** |
| Acme-Chat-3B | 96 | 192 | 1.84x |
| Acme-Chat-7B | 96 | 192 | 2.12x |
"""


def test_bold_labels_under_an_empty_header_row_are_the_header():
    from extractor.ingest import ingest

    d = ingest(BOLD_LABELS_TABLE, "b.md", "markdown")
    table = d.tables[0]
    assert [BOLD_LABELS_TABLE[c.start:c.end] for c in table.header][0] == "Model"
    assert len(table.rows) == 2
    record = extract_text(BOLD_LABELS_TABLE, doc="b.md")
    c = claim(record, 2.12)
    assert stated(c, "input_length").value == 96 and stated(c, "output_length").value == 192
    assert c.context.column_header == "Decode speedup"


def test_a_key_value_table_without_a_header_keeps_its_first_row():
    from extractor.ingest import ingest

    text = "# Setup\n\n| | |\n|--|--|\n| GPU | RTX 4080 |\n| **Batch** | 1 |\n| Driver | 555 |\n"
    table = ingest(text, "k.md", "markdown").tables[0]
    assert len(table.rows) == 3 and all(c.end == c.start for c in table.header)


VIDEO_POST = """# Faster video generation

All timings on one RTX 4090.

## Results

### Wan2.1-T2V-1.3B-480P

Our sampler renders a clip in 6.4s, against 151s for the reference sampler.

### Wan-2.2-I2V-A14B-720P

The larger model needs 41s per clip.
"""


def test_a_video_model_named_by_the_heading_above_its_figure():
    record = extract_text(VIDEO_POST, doc="v.md")
    assert stated(claim(record, 6.4), "model").value == "Wan2.1-T2V-1.3B-480P"
    assert stated(claim(record, 41), "model").value == "Wan-2.2-I2V-A14B-720P"


@pytest.mark.parametrize("sentence", [
    "Our wan 2.1 look-alike renders a clip in 6.4s on one RTX 4090.",   # lower case: a word, not the name
    "Wan is fast: a clip renders in 6.4s on one RTX 4090.",   # the family without its version
])
def test_the_family_word_alone_names_no_model(sentence):
    c = extract_text(f"# Video\n\n{sentence}\n", doc="v.md").claims[0]
    unrecoverable(c, "model")


PRINTED_SCENARIO_POST = f"""# A CPU engine on a small instance

## Throughput

{FENCE}bash
acme-bench run models/tiny-encoder.onnx --batch 16
{FENCE}

{FENCE}
Batch Size: 16
Scenario: async
Throughput (items/sec): 412.77
{FENCE}
"""


def test_a_printed_scenario_line_is_the_scenario_of_the_result_printed_with_it():
    c = claim(extract_text(PRINTED_SCENARIO_POST, doc="o.md"), 412.77)
    assert stated(c, "scenario").value == "async"


@pytest.mark.parametrize("line,scenario", [
    ("Scenario: burst", "burst"),
    ("- Scenario: Offline", "Offline"),
    ("scenario = steady-state", "steady-state"),
])
def test_a_labelled_scenario_line_names_the_scenario(line, scenario):
    text = f"# Runs\n\n{line}\n\nThe service answers 412.77 requests/s on one CPU socket.\n"
    c = extract_text(text, doc="o.md").claims[0]
    assert stated(c, "scenario").value == scenario


@pytest.mark.parametrize("line", [
    "Scenario: none", "- Test scenario: TBD", "scenario = N/A", "Scenario: default", "Scenario: unknown",
])
def test_a_placeholder_after_a_scenario_label_names_none(line):
    text = f"# Runs\n\n{line}\n\nThe service answers 412.77 requests/s on one CPU socket.\n"
    unrecoverable(extract_text(text, doc="o.md").claims[0], "scenario")


def test_a_scenario_label_followed_by_a_sentence_names_none():
    text = "# Runs\n\nScenario: we replay a day of logs.\n\nThe service answers 412.77 requests/s on one CPU socket.\n"
    unrecoverable(extract_text(text, doc="o.md").claims[0], "scenario")


def test_scenario_as_a_word_of_prose_is_no_label():
    text = "# Speed\n\nIn this scenario: async clients see 412.77 items/sec on one CPU socket.\n"
    c = extract_text(text, doc="o.md").claims[0]
    unrecoverable(c, "scenario")


REPOSITORY_POST = """# Faster sampling for our picture models

| Checkpoint | Sampler | Seconds per image | Gain |
|---|---|---|---|
| google/Gemma-Sketch | default | 14.6 s | - |
| google/Gemma-Sketch | fast-ode | 6.3 s | 2.32x |
| google/Gemma-Sketch-Inpaint | default | 33.0 s | - |
| google/Gemma-Sketch-Inpaint | fast-ode | 17.4 s | 1.9x |

## Sharding the denoiser over GPUs

| GPUs | Seconds per image |
|---|---|
| 4 | 41.5 s |
"""


def test_a_repository_id_without_digits_names_its_checkpoint():
    record = extract_text(REPOSITORY_POST, doc="r.md")
    assert stated(claim(record, 2.32), "model").value == "google/Gemma-Sketch"
    assert stated(claim(record, 1.9), "model").value == "google/Gemma-Sketch-Inpaint"


def test_a_longer_repository_id_in_a_broader_place_is_another_checkpoint():
    # the section above names both checkpoints: which one the sharded run used is not said
    record = extract_text(REPOSITORY_POST, doc="r.md")
    unrecoverable(claim(record, 41.5), "model")


def test_an_organisation_and_a_family_word_alone_stay_partial():
    text = "# Speed\n\nOur demo runs google/Gemma and reaches 7.9s per image on one L4.\n"
    c = extract_text(text, doc="r.md").claims[0]
    assert unrecoverable(c, "model").value_partial == "google/Gemma"


def test_a_community_quantization_repository_in_the_row_names_the_model():
    text = ("# Laptop benchmarks\n\nAll runs on a 36GB M3 Pro.\n\n"
            "Precision | Generation tok/sec | Repo\n--- | --- | ---\n"
            "q4 | 61.20 | mlx-community/Qwen3-8B-4bit\nq8 | 38.75 | unsloth/Qwen3-8B-8bit\n")
    record = extract_text(text, doc="m.md")
    assert stated(claim(record, 61.2), "model").value == "mlx-community/Qwen3-8B-4bit"
    assert stated(claim(record, 38.75), "model").value == "unsloth/Qwen3-8B-8bit"
