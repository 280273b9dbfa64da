"""Mentions that are no setting of the measured run (issue 24, the guessed kinds): what a warm-up does to a
system, a heading that names a result, and the other negative rules, each with the positive case beside it."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import MentionFinder
from extractor.pipeline import Extractor
from extractor.rules_io import default_rules_dir

FINDER = MentionFinder(default_rules_dir())
EXTRACTOR = Extractor.from_rules()


def _kinds(text: str, kind: str) -> list[str]:
    return [m.quote for m in FINDER.find(text) if m.kind == kind]


def _claim(text: str, quote: str):
    record = EXTRACTOR.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return next(c for c in record.claims if quote in c.quote or any(quote in m.quote for m in c.mentions))


@pytest.mark.parametrize("sentence", [
    "Once the warm-up phase ends, the engine switches off its GEMM tuner for good.",
    "Restarts keep the compiled kernels, so the kernel warmup is not paid again.",
    "A summary: it keeps allocators, CUDA graphs and warm-up state when a model is swapped out.",
])
def test_a_warmup_that_prepares_the_system_is_no_setting(sentence):
    assert _kinds(sentence, "warmup") == []


@pytest.mark.parametrize("sentence", [
    "The kernels are warmed up with 20 requests before the clock starts.",
    "Graph capture happens during warm-up, and that time is excluded from the figures.",
    "After warm-up, the compiled kernel reaches 900 tokens per second.",
    "We ran 5 warm-up iterations before the timed loop.",
])
def test_a_warmup_of_the_measurement_is_kept(sentence):
    assert _kinds(sentence, "warmup") != []


RESULT_HEADING = """# Our engine on new accelerators

## Results

On the MI300X the engine serves Llama-3-70B at 1,840 tokens per second.

## Improving throughput for chat workloads

Our fine-tuning runs use a batch size of 6 on the same machine.
"""

SETUP_HEADING = """# Our engine on new accelerators

## Chat workloads

All runs use a batch size of 6.

## Results

On the MI300X the engine serves Llama-3-70B at 1,840 tokens per second.
"""


def test_a_heading_that_names_a_gain_sets_up_no_measurement():
    batch = _claim(RESULT_HEADING, "1,840 tokens per second").conditions["batch_or_concurrency"]
    assert batch.status == "unrecoverable"


def test_a_short_heading_naming_the_workload_still_sets_up_the_results():
    batch = _claim(SETUP_HEADING, "1,840 tokens per second").conditions["batch_or_concurrency"]
    assert (batch.status, batch.value, batch.scope) == ("stated", 6, "setup_section")
