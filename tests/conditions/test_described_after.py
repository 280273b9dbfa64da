"""A sentence right after the claim's that says how that result was measured ("These figures come from
serving ...", "The test used ...") states all of its conditions, not only the load and lengths a paragraph
may give after a result (scopes.yaml `described_after`). A sentence that gives a result of its own, or one further
on, does not. An option's name written in prose ("tensor-parallel-size=4", "tensor_parallel_size=8") is a layout."""
from __future__ import annotations

from tests.claim_checks import claim_in, stated, unrecoverable

AFTER = """# Routing that knows the cache

## Results

Reading the cache state in the router lifted decode rate by **2.6x**, and prompt wait fell **1.8x**. Those figures
were collected while serving Orca-34B on L40S GPUs, started with `tensor-parallel-size=4` and `max-model-len=32768`.
"""


def test_a_described_after_sentence_states_the_results_setup():
    for value in (2.6, 1.8):
        c = claim_in(AFTER, value)
        assert stated(c, "model").value == "Orca-34B"
        assert stated(c, "hardware").value == "L40S"
        assert stated(c, "parallelism").value == "tensor-parallel-size=4"


def test_a_sentence_of_another_result_after_the_claim_states_nothing():
    text = AFTER.replace("Those figures\nwere collected while serving Orca-34B",
                         "The run\nmeasured 410 tok/s while serving Orca-34B")
    c = claim_in(text, 2.6)
    unrecoverable(c, "model")
    unrecoverable(c, "parallelism")


def test_a_sentence_further_on_is_not_read():
    text = AFTER.replace("Those figures\nwere collected", "The router ships next month. Those figures\nwere collected")
    c = claim_in(text, 2.6)
    unrecoverable(c, "model")


def test_other_sentences_after_the_claim_keep_only_workload_settings():
    text = AFTER.replace("Those figures\nwere collected while serving", "Next we\nwill also try serving")
    c = claim_in(text, 2.6)
    unrecoverable(c, "model")
    unrecoverable(c, "parallelism")


def test_an_option_name_in_prose_is_a_layout():
    text = """# Setup

## Results

The engine served 1,910 tokens per second on Orca-8B, launched with tensor_parallel_size=2.
"""
    assert stated(claim_in(text, 1910), "parallelism").canonical == "TP2"


def test_a_degree_of_zero_numbers_a_rank_not_a_layout():
    text = """# Serving

## Results

Only the first rank of each replica (TP=0, PP=0) answers. The engine served 1,910 tokens per second on Orca-8B.
"""
    unrecoverable(claim_in(text, 1910), "parallelism")
    kept = text.replace("(TP=0, PP=0)", "(TP=2, PP=1)")
    assert stated(claim_in(kept, 1910), "parallelism").canonical == "TP2 PP1"
