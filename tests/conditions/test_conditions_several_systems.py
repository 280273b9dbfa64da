"""Several systems or models in one claim (rules/scopes.yaml `several_systems`): a bound or range that sums up
runs over several systems lists them all; a figure of one run among several stays ambiguous; a claim whose own
sentence names one of them takes its own."""
from __future__ import annotations

from extractor.api import get_extractor

EXTRACTOR = get_extractor()   # the one extractor of this test process


def _claim(text: str, quote: str):
    record = EXTRACTOR.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return next(c for c in record.claims if quote in c.quote or any(quote in m.quote for m in c.mentions))


BOUND_OVER_TWO = """# Serving two chat models

## Results

We ran Qwen2-7B on one L40S and Gemma-2-27B on four L40S. Our engine serves up to 3.1x more requests per
second than the reference server.
"""


def test_a_bound_over_runs_on_two_models_lists_both():
    model = _claim(BOUND_OVER_TWO, "3.1x").conditions["model"]
    assert model.status == "stated"
    assert model.value == "Qwen2-7B; Gemma-2-27B"
    assert "named together" in model.note


RANGE_OVER_THREE = """# Attention kernels on three accelerators

## Results

Across the MI250, MI300X and MI325X boards the new kernel lowers decode latency by 1.4x-2.2x.
"""


def test_a_range_over_three_devices_lists_them_in_text_order():
    hardware = _claim(RANGE_OVER_THREE, "1.4x-2.2x").conditions["hardware"]
    assert hardware.status == "stated"
    assert hardware.value.split("; ") == ["MI250", "MI300X", "MI325X"]


ONE_RUN = """# Serving two chat models

## Results

We ran Qwen2-7B on one L40S and Gemma-2-27B on four L40S. The engine served 2,410 tokens per second.
"""


def test_an_exact_figure_among_runs_on_two_models_stays_ambiguous():
    model = _claim(ONE_RUN, "2,410 tokens per second").conditions["model"]
    assert model.status == "unrecoverable"
    assert "Gemma-2-27B" in model.why and "Qwen2-7B" in model.why


OWN_SENTENCE = """# Serving two chat models

## Results

We ran Qwen2-7B and Gemma-2-27B on L40S boards. On Gemma-2-27B the engine is up to 2.6x faster than the
reference server.
"""


def test_a_claim_whose_sentence_names_one_of_them_takes_its_own():
    model = _claim(OWN_SENTENCE, "2.6x").conditions["model"]
    assert (model.status, model.value, model.scope) == ("stated", "Gemma-2-27B", "sentence")


SECTION_IN_PASSING = """# A faster decode kernel

## Kernel fusion

Both Llama-2-13B and Mistral-7B spend a tenth of decode time in these projections.

Fusing the rotary step into the cache write gives a 1.3x-1.6x speedup over the unfused kernel.
"""


def test_a_section_naming_two_models_in_passing_lists_nothing_for_a_result_that_is_no_headline():
    claim = _claim(SECTION_IN_PASSING, "1.3x-1.6x")
    assert not claim.headline
    assert claim.conditions["model"].status == "unrecoverable"


SLASHED = """# Attention kernels on three accelerators

## Results

Decode gets 2.1-3.9x faster with the new backend across MI250X/MI300X/MI325X.
"""


def test_devices_joined_by_slashes_are_each_named():
    hardware = _claim(SLASHED, "2.1-3.9x").conditions["hardware"]
    assert hardware.value.split("; ") == ["MI250X", "MI300X", "MI325X"]


FAMILY_GLOSS = """# Our engine on the new architecture

We tuned our kernels for the Blackwell architecture (B200/GB200) over several months.

## Results

On Blackwell the engine delivers up to 3x higher throughput than on the previous generation.
"""


def test_devices_glossing_a_family_name_are_not_the_device_measured():
    assert _claim(FAMILY_GLOSS, "up to 3x").conditions["hardware"].status == "unrecoverable"
