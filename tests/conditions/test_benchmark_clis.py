"""Benchmark CLIs beyond LLM serving (rules/harnesses.yaml): a sparse CPU engine's `*.benchmark` command and
MLX's, read by the flags they share with the serving harnesses (batch, scenario, lengths). The lines such a
command prints in its own block ("Batch Size: 1") keep stating what they print: only the command's own lines are
read as code. Posts written for these tests."""
from __future__ import annotations

import pytest

from claim_checks import claim, command_settings, stated, unrecoverable
from extractor.api import extract_text

FENCE = "```"


@pytest.mark.parametrize("command,expected", [
    ("deepsparse.benchmark models/acme-encoder-sparse.onnx --batch_size 64 --scenario sync",
     {"model": "models/acme-encoder-sparse.onnx", "batch_or_concurrency": "64", "scenario": "sync"}),
    ("deepsparse.benchmark tiny-detector.onnx -b 8 -s async --warmup_time 5",
     {"model": "tiny-detector.onnx", "batch_or_concurrency": "8", "scenario": "async", "warmup": "5"}),
    # the pipeline benchmark's first word is a task, not a model
    ("deepsparse.benchmark_pipeline text_generation zoo:acme/tiny-gen -c config.json -t 30 -s async",
     {"scenario": "async"}),
    ("mlx_lm.benchmark --model acme-labs/tiny-chat-3b -p 1024 -g 256",
     {"model": "acme-labs/tiny-chat-3b", "input_length": "1024", "output_length": "256"}),
])
def test_benchmark_cli_flags_are_read_by_the_table(command, expected):
    assert command_settings(command) == expected


def test_other_commands_of_those_tools_state_nothing():
    assert command_settings("deepsparse.server --batch_size 4 zoo:acme/tiny-bert") == {}
    assert command_settings("mlx_lm.generate --model acme-labs/tiny-chat-3b -p 'hello'") == {}


ENGINE_POST = f"""# A sparse classifier on CPUs

## Throughput

We benchmark the pruned checkpoint on a 16-core instance:

{FENCE}bash
deepsparse.benchmark models/acme-encoder-sparse.onnx --batch_size 64 --scenario async
> Throughput (items/sec): 912.4
{FENCE}

At batch 64 the pruned model reaches 912.4 items/sec.
"""


def test_the_run_command_states_its_batch_and_scenario():
    for value in (912.4,):
        c = claim(extract_text(ENGINE_POST, "t.md"), value)
        assert stated(c, "batch_or_concurrency").value == 64
        assert stated(c, "scenario").value == "async"


def test_a_command_the_post_calls_an_example_states_nothing():
    text = ENGINE_POST.replace("We benchmark the pruned checkpoint on a 16-core instance:",
                               "For example, a command like this one could be used:") \
        .replace("> Throughput (items/sec): 912.4\n", "").replace("At batch 64 the", "The")
    c = claim(extract_text(text, "t.md"), 912.4)
    unrecoverable(c, "scenario")
    unrecoverable(c, "batch_or_concurrency")


PRINTED_POST = f"""# Latency of a tiny classifier

## Synchronous latency

{FENCE}bash
deepsparse.benchmark models/acme-encoder-sparse.onnx --scenario sync
> Batch Size: 1
> Latency Mean (ms/batch): 3.17
{FENCE}
"""


def test_the_lines_a_command_prints_in_its_block_still_state_what_they_print():
    c = claim(extract_text(PRINTED_POST, "t.md"), 3.17)
    assert stated(c, "scenario").value == "sync"
    assert stated(c, "batch_or_concurrency").value == 1
