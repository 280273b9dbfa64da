"""Setup given in a tutorial's prose (issue 24): a first-person statement of what the whole post uses ("In this
blog, we'll be running ...", "In our implementation, we will use one MI210 GPU") covers every result of the
post; a statement about one step or one model, or about what could be used, does not. Posts written for
these tests."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(setup: str) -> str:
    return f"""# Leaner inference on one accelerator

## Implementation

{setup}

## Results

The quantized model reaches 41.2 tokens/s.
"""


def test_a_statement_of_what_the_post_uses_covers_its_results():
    c = claim(extract_text(_post("In our experiments, we use one MI210 GPU for every test."), "t.md"), 41.2)
    assert stated(c, "hardware").value == "1x MI210"
    assert stated(c, "parallelism").value == "single GPU"
    c = claim(extract_text(_post("In this tutorial, we'll be running Llama-3.1-8B-Instruct."), "t.md"), 41.2)
    assert stated(c, "model").value == "Llama-3.1-8B-Instruct"


def test_a_statement_about_one_step_or_a_possibility_does_not():
    for text in ("For the calibration step, we will use an MI210 GPU.",
                 "In this blog, readers could use an MI210 GPU as well.",
                 "We will use an MI210 GPU to convert the weights."):
        unrecoverable(claim(extract_text(_post(text), "t.md"), 41.2), "hardware")


FENCE = "```"
BENCH = ("python3 -m sglang.bench_serving --dataset-name random --random-input 512 --random-output 256 "
         "--max-concurrency 4")


def _appendix(heading: str, lead: str = "") -> str:
    return f"""# A faster CPU backend

## Results

The new backend serves 812 tokens/s.

{heading}

### Running the benchmark

{lead}

{FENCE}bash
{BENCH}
{FENCE}
"""


def test_a_benchmark_run_in_the_back_matter_sets_up_the_results():
    c = claim(extract_text(_appendix("## Appendix"), "t.md"), 812)
    assert stated(c, "batch_or_concurrency").value == 4
    assert stated(c, "input_length").value == 512
    assert stated(c, "output_length").value == 256


def test_a_later_section_or_an_example_in_the_back_matter_does_not():
    unrecoverable(claim(extract_text(_appendix("## Another experiment"), "t.md"), 812), "batch_or_concurrency")
    text = _appendix("## Appendix", "For example, a benchmark can be started like this:")
    unrecoverable(claim(extract_text(text, "t.md"), 812), "batch_or_concurrency")


def _stack(lines: str) -> str:
    return f"""# Disaggregated serving on one node

## Results

The connector serves 2,410 tokens/s.

## Setup

{lines}
"""


def test_one_build_written_twice_and_another_library_s_commit_leave_the_version_stated():
    text = _stack("- vLLM: 0.12.0rc2.dev7+g1a2b3c4d5 (git sha: 1a2b3c4d5)\n"
                  "- Transfer library: commit 9f8e7d6c5\n\n"
                  "The image was built using MORI commit 7a6b5c4d3 and vLLM commit 1a2b3c4d5.")
    assert stated(claim(extract_text(text, "t.md"), 2410), "engine_version").value == "vLLM 0.12.0rc2.dev7+g1a2b3c4d5"


def test_two_builds_of_the_engine_stay_ambiguous():
    text = _stack("- vLLM: 0.12.0rc2.dev7+g1a2b3c4d5\n\nSome runs used vLLM commit 5e4d3c2b1 instead.")
    unrecoverable(claim(extract_text(text, "t.md"), 2410), "engine_version")


def test_a_commit_in_parentheses_after_the_hardware_is_the_engine_s():
    text = _stack("We benchmarked the connector using vLLM on 8x MI300X GPUs (commit `5e4d3c2b1a0f`).")
    assert stated(claim(extract_text(text, "t.md"), 2410), "engine_version").value == "vLLM commit 5e4d3c2b1a0f"


def _bench(command: str) -> str:
    return f"""# Load testing the endpoint

## Benchmark

We ran the load test below against the server.

{FENCE}bash
{command}
{FENCE}

The endpoint sustains 3,150 output tokens/s.
"""


def test_guidellm_and_llmperf_commands_state_the_run():
    c = claim(extract_text(_bench('guidellm benchmark --target http://localhost:8000 --rate-type sweep '
                                  '--data "prompt_tokens=512,output_tokens=128"'), "t.md"), 3150)
    assert stated(c, "input_length").value == 512 and stated(c, "output_length").value == 128
    c = claim(extract_text(_bench("python token_benchmark_ray.py --model acme-labs/tiny-chat-8b "
                                  "--mean-input-tokens 550 --mean-output-tokens 150 --num-concurrent-requests 16"),
                           "t.md"), 3150)
    assert stated(c, "input_length").value == 550 and stated(c, "output_length").value == 150
    assert stated(c, "batch_or_concurrency").value == 16


def test_a_guidellm_dataset_by_name_states_no_lengths():
    c = claim(extract_text(_bench("guidellm benchmark --target http://localhost:8000 --data openai/gsm8k"), "t.md"),
              3150)
    unrecoverable(c, "input_length")
    unrecoverable(c, "output_length")
