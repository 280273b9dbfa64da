"""Conditions of every claim of tutorial-style posts (issue 24, helper condtut2), on posts written for these tests:
another result's system and settings kept to that result, a table of contents naming no setting, a configuration
picked for its result named as no load scenario. Each class has its negative and positive cases."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


# -- another sentence's result on another system keeps its settings ---------------------------------------------
def test_a_setting_of_an_earlier_result_on_another_system_is_not_the_claims():
    text = ("# Picking a deployment\n\n## Summary\n\nFor the lowest cost, Qwen2.5 7B with AWQ on one L4 delivers "
            "95 tokens/sec. For the best throughput, Qwen2.5 14B reached 410 tokens/sec on an H100.\n")
    rec = extract_text(text, "t.md")
    assert stated(claim(rec, 95), "precision").value == "AWQ"
    c = claim(rec, 410)
    unrecoverable(c, "precision")
    assert stated(c, "hardware").value.endswith("H100")


def test_a_setting_of_an_earlier_result_on_the_same_system_still_covers_the_claim():
    text = ("# Results\n\n## Summary\n\nWith AWQ weights on one L4, Qwen2.5 7B delivers 95 tokens/sec. On the same "
            "L4, Qwen2.5 7B answers in 40 ms per token.\n")
    c = claim(extract_text(text, "t.md"), 40)
    assert stated(c, "precision").value == "AWQ"


def test_a_setting_in_a_sentence_without_a_result_still_covers_the_claim():
    text = ("# Results\n\n## Summary\n\nAll runs use AWQ weights and the 14B model. On an H100, Qwen2.5 14B reached "
            "410 tokens/sec.\n")
    assert stated(claim(extract_text(text, "t.md"), 410), "precision").value == "AWQ"


# -- a table of contents names headings, not settings ------------------------------------------------------------
def test_a_table_of_contents_entry_states_no_setting():
    text = ("# Serving Llama on one GPU\n\n- [Why FP8?](#why-fp8)\n- [Results](#results)\n\n## Why FP8?\n\nIt halves "
            "the weights' memory.\n\n## Results\n\nOn one L40S, Llama 3.1 8B reaches 1,800 tokens/sec.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 1800), "precision")


def test_a_link_to_another_page_keeps_its_setting():
    text = ("# Serving Llama on one GPU\n\nWe serve the [FP8 checkpoint](https://example.org/fp8) of Llama 3.1 8B.\n"
            "\n## Results\n\nOn one L40S it reaches 1,800 tokens/sec.\n")
    assert stated(claim(extract_text(text, "t.md"), 1800), "precision").value == "FP8"


# -- a configuration picked for its result is no load scenario ------------------------------------------------
def test_the_best_throughput_configuration_is_no_scenario():
    text = ("# Results\n\n## Best throughput\n\nThe best throughput configuration used eight A10G GPUs and reached "
            "520 tokens/sec.\n")
    unrecoverable(claim(extract_text(text, "t.md"), 520), "scenario")


def test_a_throughput_scenario_is_still_a_scenario():
    text = ("# Results\n\n## Offline\n\nIn the max throughput scenario, eight A10G GPUs reached 520 tokens/sec.\n")
    assert "throughput" in str(stated(claim(extract_text(text, "t.md"), 520), "scenario").value).lower()


# -- one image read once and passed whole: a batch of one --------------------------------------------------------
FENCE = "```"


def _classifier(read: str, batch: str = "images=picture") -> str:
    return f"""# Timing an image classifier

## Setup

{FENCE}python
import time
from PIL import Image
from transformers import AutoImageProcessor, AutoModelForImageClassification
processor = AutoImageProcessor.from_pretrained("acme/tiny-classifier")
model = AutoModelForImageClassification.from_pretrained("acme/tiny-classifier").to("cuda")
{read}
inputs = processor({batch}, return_tensors="pt").to("cuda")
{FENCE}

## Timing

{FENCE}python
start = time.perf_counter()
out = model(**inputs)
print((time.perf_counter() - start) * 1000, "ms")
{FENCE}

The classification takes 12.7 ms on our GPU.
"""


def test_one_image_read_and_passed_whole_is_a_batch_of_one():
    c = claim(extract_text(_classifier('picture = Image.open("cat.png")'), "n.md"), 12.7)
    assert stated(c, "batch_or_concurrency").value == 1
    assert stated(c, "dataset").value == "single image"


def test_images_read_in_a_loop_or_repeated_are_no_batch_of_one():
    looped = _classifier('pictures = []\nfor path in ["a.png", "b.png"]:\n    picture = Image.open(path)\n'
                         '    pictures.append(picture)', "images=pictures")
    unrecoverable(claim(extract_text(looped, "n.md"), 12.7), "batch_or_concurrency")
    repeated = _classifier('picture = Image.open("cat.png")', "images=[picture] * 16")
    unrecoverable(claim(extract_text(repeated, "n.md"), 12.7), "batch_or_concurrency")


# -- a script outside the harness table, shown with the output that prints its result ----------------------------
def _script_run(between: str = "Output:", output: str = "Loading model ...\nAverage tokens/sec: 41.57") -> str:
    return f"""# Compiling a small decoder

## Eager mode

We run the generation script without compilation.

{FENCE}bash
cd demo
python gen_bench.py --compile none --prompt "Write a haiku about rivers." --max_new_tokens 128 --num_samples 10
{FENCE}

{between}

{FENCE}text
{output}
{FENCE}

The eager run gives 41.57 tokens/sec on average.
"""


def test_a_scripts_options_state_the_run_whose_printed_result_follows():
    c = claim(extract_text(_script_run(), "s.md"), 41.57)
    assert stated(c, "output_length").value == 128
    assert stated(c, "dataset").value == 'single prompt "Write a haiku about rivers."'


def test_a_script_without_its_printed_result_states_nothing():
    text = _script_run(between="Afterwards the server is restarted.\n\nThen we clean the cache.",
                       output="cache cleared")
    unrecoverable(claim(extract_text(text, "s.md"), 41.57), "output_length")
    no_figure = _script_run(output="Loading model ...\nDone.")
    unrecoverable(claim(extract_text(no_figure, "s.md"), 41.57), "output_length")


# -- a figure the prose gives rounded from a printed result: that run's conditions -------------------------------
def _rounded(prose: str) -> str:
    return f"""# Timing a draft-free decoder

## Autoregressive baseline

{prose}

{FENCE}python
import time
from transformers import AutoModelForCausalLM, AutoTokenizer
tokenizer = AutoTokenizer.from_pretrained("acme/decoder-12b")
model = AutoModelForCausalLM.from_pretrained("acme/decoder-12b").to("cuda")
prompt = "Explain how tides work."
start = time.perf_counter()
ids = model.generate(**tokenizer(prompt, return_tensors="pt").to("cuda"), max_new_tokens=64)
print(f"Time taken is {{time.perf_counter() - start}}s")
{FENCE}

{FENCE}text
Time taken is 4.2719304561614990s
{FENCE}
"""


def test_a_rounded_figure_in_prose_takes_the_printed_runs_conditions():
    c = claim(extract_text(_rounded("Generating 64 tokens this way takes around 4.27s on our GPU."), "r.md"), 4.27)
    assert stated(c, "output_length").value == 64
    assert stated(c, "batch_or_concurrency").value == 1
    assert stated(c, "model").value == "acme/decoder-12b"


def test_a_figure_that_is_no_rounding_of_the_printed_one_takes_nothing():
    c = claim(extract_text(_rounded("An earlier, untuned build took around 5.10s on our GPU."), "r.md"), 5.10)
    unrecoverable(c, "batch_or_concurrency")


# -- a launcher's world size: the count of devices and the layout as written ------------------------------------
def _launched(command: str) -> str:
    return f"""# Serving a large decoder on eight accelerators

## Latency

With our script the 100-token generation takes 2.41 seconds.

## How to reproduce

{FENCE}bash
{command}
{FENCE}
"""


def test_a_launchers_world_size_states_the_count_and_the_layout():
    for command in ("python gaudi_spawn.py --use_deepspeed --world_size 8 run_generation.py "
                    "--model_name_or_path acme/decoder-70b --max_new_tokens 100",
                    "deepspeed --num_gpus 8 run_generation.py --model_name_or_path acme/decoder-70b"):
        c = claim(extract_text(_launched(command), "l.md"), 2.41)
        assert stated(c, "gpu_count").value == 8, command
        assert stated(c, "parallelism").value == "world size 8", command


def test_a_launcher_that_runs_no_benchmark_states_nothing():
    c = claim(extract_text(_launched("python gaudi_spawn.py --world_size 8 convert_weights.py --out ckpt"), "l.md"),
              2.41)
    unrecoverable(c, "parallelism")


# -- a prompt quoted on its own after a lead-in, and its length in the paragraph after it ------------------------
def _quoted_prompt(lead: str, tail: str = "which is 9 tokens long with the model's tokenizer.") -> str:
    return f"""# Latency on one accelerator

## Latency

Every run generates 64 new tokens greedily. {lead}

> "Summarise the history of the printing press"

{tail}

The median latency is 1.84 seconds on one L4.
"""


def test_a_prompt_quoted_after_its_lead_in_is_the_runs_single_prompt_and_length():
    c = claim(extract_text(_quoted_prompt("The input prompt is:", "which consists of 9 tokens with its tokenizer."),
                           "q.md"), 1.84)
    assert stated(c, "dataset").value == 'single prompt "Summarise the history of the printing press"'
    assert stated(c, "input_length").value == 9


def test_an_example_prompt_or_a_quote_without_a_prompt_lead_in_states_nothing():
    example = claim(extract_text(_quoted_prompt("An example prompt is:", "which consists of 9 tokens."), "q.md"), 1.84)
    unrecoverable(example, "dataset")
    unrecoverable(example, "input_length")
    quote = claim(extract_text(_quoted_prompt("As the printer's manual puts it:", "which consists of 9 tokens."),
                               "q.md"), 1.84)
    unrecoverable(quote, "dataset")
    unrecoverable(quote, "input_length")


# -- the run's code names the model exactly where the prose names it loosely --------------------------------------
def _loose(prose_model: str, checkpoint: str = "checkpoints/acme-labs/tiny_llama_7b/model.pth") -> str:
    return f"""# Compiling {prose_model}

## Preparing the weights

Download [acme-labs/tiny_llama_7b](https://example.org/acme-labs/tiny_llama_7b) and convert it.

## {prose_model} in eager mode

{FENCE}bash
python gen_bench.py --compile none --checkpoint_path {checkpoint} --max_new_tokens 200
{FENCE}

Output:

{FENCE}text
Average tokens/sec: 31.27
{FENCE}
"""


def test_the_runs_checkpoint_names_the_model_the_heading_names_loosely():
    c = claim(extract_text(_loose("Llama 7B"), "m.md"), 31.27)
    cond = stated(c, "model")
    assert cond.value == "acme-labs/tiny_llama_7b"
    assert "Llama 7B" in cond.note


def test_a_local_checkpoint_path_names_no_model():
    c = claim(extract_text(_loose("Llama 7B", "/data/ckpt/run3/model.pth"), "m.md"), 31.27)
    assert stated(c, "model").value == "Llama 7B"


# -- a comparison section after the runs it compares: what their commands share ----------------------------------
def _modes(second_tokens: int = 200, runs: int = 2) -> str:
    run = """### {name} mode

{fence}bash
python gen_bench.py --compile {flag} --prompt "Sort a list in Python." --max_new_tokens {tokens}
{fence}

Output:

{fence}text
Average tokens/sec: {speed}
{fence}
"""
    parts = [run.format(name="Eager", flag="none", tokens=200, speed="30.52", fence=FENCE),
             run.format(name="Compiled", flag="default", tokens=second_tokens, speed="71.94", fence=FENCE)][:runs]
    return ("# Compiling a decoder\n\n## Speed of the decoder\n\n" + "\n".join(parts)
            + "\n### Comparing the modes\n\nCompilation makes generation 2.36 times faster than eager mode.\n")


def test_a_comparison_after_the_runs_states_what_their_commands_share():
    c = claim(extract_text(_modes(), "c.md"), 2.36)
    assert stated(c, "output_length").value == 200
    assert stated(c, "dataset").value == 'single prompt "Sort a list in Python."'


def test_what_the_compared_runs_set_differently_or_a_single_earlier_run_states_nothing():
    unrecoverable(claim(extract_text(_modes(second_tokens=120), "c.md"), 2.36), "output_length")
    unrecoverable(claim(extract_text(_modes(runs=1), "c.md"), 2.36), "output_length")


# -- the first N runs used as the warm-up; how the post changed its measuring script -----------------------------
def _patched(change: str) -> str:
    return f"""# Quantised decoding on one GPU

## Background

The stock `bench.py` averages every iteration, which biases the figures. {change}

- Timing 25 runs, averaging the last 20 and treating the first 5 iterations as a warm-up.
- Reporting the standard deviation as well.

## Results

| Model | Tokens/s |
| --- | --- |
| Decoder-7B (INT8) | 118.42 |
"""


def test_the_first_runs_as_a_warm_up_in_the_posts_change_to_its_script_cover_every_result():
    c = claim(extract_text(_patched("We modified the `bench.py` script by:"), "w.md"), 118.42)
    assert "first 5 iterations as a warm-up" in stated(c, "warmup").value


def test_a_warm_up_in_a_list_no_change_to_the_script_introduces_is_not_every_results():
    c = claim(extract_text(_patched("Other tools differ, for example:"), "w.md"), 118.42)
    unrecoverable(c, "warmup")
