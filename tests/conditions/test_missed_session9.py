"""Conditions a post states for a claim that were left unrecoverable (issue 24, session 9, unseen writers): the
sentence right after the claim that says how the test was done; a run called "single-batch"; machines named by their
device; a label row under group headers; a table's lead paragraph without a colon; a section's own command."""
from __future__ import annotations

from tests.claim_checks import claim_in, stated, unrecoverable

DESCRIBED = """# Drafting on laptops

## Results

The drafter cuts the time per token by 1.44x on an M3 Pro laptop and by 1.61x on an M2 Max desktop.
Each test was done with bfloat16 weights, but a 4-bit build is on our list.
"""


def test_a_comparison_carried_out_in_a_precision_states_it_for_the_results_before():
    for value in (1.44, 1.61):
        assert stated(claim_in(DESCRIBED, value), "precision").value == "bfloat16"


def test_other_wordings_of_how_the_test_was_run():
    for opener in ("All tests were conducted in bfloat16.", "This evaluation was performed in bfloat16.",
                   "Both measurements were done in bfloat16."):
        text = DESCRIBED.replace("Each test was done with bfloat16 weights, but a 4-bit build is on our list.", opener)
        assert stated(claim_in(text, 1.44), "precision").value == "bfloat16", opener


def test_only_the_first_clause_of_that_sentence_describes_the_run():
    # the plan in the second clause names a format of no run
    text = DESCRIBED.replace("done with bfloat16 weights, but a 4-bit build is on our list",
                             "done on both machines, and we will try 4-bit weights soon")
    unrecoverable(claim_in(text, 1.44), "precision")


def test_a_sentence_about_another_comparison_is_not_read():
    text = DESCRIBED.replace("Each test was done with bfloat16 weights", "A later test may use bfloat16 weights")
    unrecoverable(claim_in(text, 1.44), "precision")


SINGLE_BATCH = """# Sparse decode

## Results

With single-batch decoding, the sparse kernels give a 1.4x end-to-end speedup on an A6000.
"""


def test_single_batch_decoding_is_a_batch_of_one():
    assert stated(claim_in(SINGLE_BATCH, 1.4), "batch_or_concurrency").value == 1
    for run in ("single batch inference", "single-batch latency runs"):
        text = SINGLE_BATCH.replace("single-batch decoding", run)
        assert stated(claim_in(text, 1.4), "batch_or_concurrency").value == 1, run


def test_a_single_batch_of_many_prompts_is_no_batch_of_one():
    text = SINGLE_BATCH.replace("With single-batch decoding, the sparse kernels give",
                                "Packing 300 prompts into a single batch, the sparse kernels give")
    unrecoverable(claim_in(text, 1.4), "batch_or_concurrency")
    text = SINGLE_BATCH.replace("With single-batch decoding", "With a single batch of 300 prompts")
    assert stated(claim_in(text, 1.4), "batch_or_concurrency").value != 1



def test_a_single_batch_scenario_setting_or_mode_is_no_batch_of_one():
    # it may mean one micro-batch in flight (of many requests), not one request at a time
    for run in ("In the single-batch scenario", "Under a single-batch setting", "In single-batch mode"):
        text = SINGLE_BATCH.replace("With single-batch decoding", run)
        unrecoverable(claim_in(text, 1.4), "batch_or_concurrency")

NODES = """# Cluster serving

## Results

Serving Orca-70B on two L20 nodes reaches 2,700 tokens/s of output throughput.
"""


def test_machines_named_by_their_device_are_a_node_count():
    c = claim_in(NODES, 2700)
    assert stated(c, "gpu_count").value == {"nodes": 2}
    assert stated(c, "hardware").value == "L20"
    for count in ("2 L20 nodes", "two NVIDIA L20 nodes"):
        c = claim_in(NODES.replace("two L20 nodes", count), 2700)
        assert stated(c, "gpu_count").value == {"nodes": 2}, count


def test_a_device_count_is_not_a_node_count():
    # "two L20 GPUs" counts devices (2), not machines; "a two-node" adjective or a word that is no count states none
    c = claim_in(NODES.replace("two L20 nodes", "two L20 GPUs"), 2700)
    assert stated(c, "gpu_count").value == 2
    c = claim_in(NODES.replace("on two L20 nodes", "on L20 nodes"), 2700)
    unrecoverable(c, "gpu_count")


def test_machines_of_another_device_are_not_the_claims():
    # the L20 nodes are the compared system's; the claim runs on the A800 servers
    text = NODES.replace("Serving Orca-70B on two L20 nodes reaches",
                         "Against two L20 nodes, four A800 servers serving Orca-70B reach")
    unrecoverable(claim_in(text, 2700), "gpu_count")


def test_a_count_of_machines_elsewhere_leaves_the_device_count():
    # the title counts machines, the caption counts devices: the count of devices is the claim's
    text = """---
title: "Orca-70B on two L20 nodes"
summary: "Splitting the phases lifts decode throughput by 1.9x."
---

## Results

Splitting the phases lifts decode throughput by 1.9x over one shared pool.

*Figure 1: Orca-70B on 16x L20 spread over both machines, 1k/128 input/output tokens.*
"""
    c = claim_in(text, 1.9)
    assert stated(c, "gpu_count").value == 16


GROUPED = """# Two cards, one server

## Measurements

| | Eagle cards | | Hawk cards | |
|---|---|---|---|---|
| Concurrency | Req/s | Median TTFT | Req/s | Median TTFT |
| 8 | 14.2 | 96 ms | 9.7 | 151 ms |
| 32 | 40.6 | 188 ms | 27.3 | 265 ms |
"""


def test_a_label_row_under_group_headers_labels_its_columns():
    # the groups (cards) head the first row, the labels (the load among them) the second
    assert stated(claim_in(GROUPED, 265), "batch_or_concurrency").value == 32
    assert stated(claim_in(GROUPED, 151), "batch_or_concurrency").value == 8


def test_a_label_row_labels_only_the_columns_its_header_leaves_blank():
    # "Setup" heads the first column: the row below it is not read as that column's label
    text = GROUPED.replace("| | Eagle cards |", "| Setup | Eagle cards |")
    unrecoverable(claim_in(text, 265), "batch_or_concurrency")
    # a header row with no blank cell: its first body row is data, not labels
    text = GROUPED.replace("| | Eagle cards | | Hawk cards | |\n|---|---|---|---|---|\n"
                           "| Concurrency | Req/s | Median TTFT | Req/s | Median TTFT |\n",
                           "| Concurrency | Eagle req/s | Eagle median TTFT | Hawk req/s | Hawk median TTFT |\n"
                           "|---|---|---|---|---|\n")
    assert stated(claim_in(text, 265), "batch_or_concurrency").value == 32


LEAD = """# Chunk sizes

## Measurements

The numbers below were all measured on two A10G cards serving Kestrel-9B, every prompt 4k tokens long.

| Chunk (tokens) | p90 ITL |
|---|---|
| 256 | 38 ms |
| 1024 | 52 ms |
"""


def test_a_paragraph_before_a_table_that_says_how_it_was_run_leads_the_table():
    c = claim_in(LEAD, 52)
    assert stated(c, "model").value == "Kestrel-9B"
    assert stated(c, "hardware").value == "2x A10G"
    other = LEAD.replace("The numbers below were all measured on two A10G cards serving Kestrel-9B",
                         "For this sweep we benchmark using Kestrel-9B on two A10G cards")
    assert stated(claim_in(other, 52), "model").value == "Kestrel-9B"


def test_a_paragraph_before_a_table_that_does_not_say_so_is_no_lead():
    text = LEAD.replace("The numbers below were all measured on two A10G cards serving Kestrel-9B",
                        "Last spring a colleague tried Kestrel-9B on two A10G cards")
    assert stated(claim_in(text, 52), "model").scope == "section"   # the section's, not the table's lead-in
    # a paragraph between the setup and the table: the setup is only the section's (a broader place)
    text = LEAD.replace("long.\n\n|", "long.\n\nSmaller chunks keep decode steps short.\n\n|")
    assert stated(claim_in(text, 52), "model").scope == "section"
    assert stated(claim_in(LEAD, 52), "model").scope == "paragraph"


COMMANDS = """# Serving guide

A first run to check the install:

```bash
vllm bench serve --model org/orca-3b --max-concurrency 4
```

## Large model

```bash
vllm bench serve --model org/orca-70b --max-concurrency 16
```

| Metric | Value |
|---|---|
| Output throughput (tok/s) | 1,712.4 |
"""


def test_the_sections_own_command_wins_over_a_quick_start_above():
    c = claim_in(COMMANDS, 1712.4)
    assert stated(c, "model").value == "org/orca-70b"
    assert stated(c, "batch_or_concurrency").value == 16


def test_a_setting_only_the_quick_start_passes_is_not_the_sections_run():
    # the section's own command leaves the load at its default: the quick start's 4 is another run's
    text = COMMANDS.replace("--model org/orca-70b --max-concurrency 16", "--model org/orca-70b")
    c = claim_in(text, 1712.4)
    assert stated(c, "model").value == "org/orca-70b"
    unrecoverable(c, "batch_or_concurrency")


def test_a_section_without_a_command_of_its_own_reads_the_one_above():
    text = COMMANDS.replace("```bash\nvllm bench serve --model org/orca-70b --max-concurrency 16\n```\n\n", "")
    c = claim_in(text, 1712.4)
    assert stated(c, "model").value == "org/orca-3b"
    assert stated(c, "batch_or_concurrency").value == 4
