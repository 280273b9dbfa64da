"""Mentions that name a precision or a device count without being a run's setting (issue 24, guessed kinds):
quantisation methods named as a family of techniques or defined, and one device named as too small for the
model. Every sentence is written for this test, with positives beside each negative."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import Mention, find_mentions


def _of(text: str, kind: str) -> list[Mention]:
    return [m for m in find_mentions(text) if m.kind == kind]


@pytest.mark.parametrize("text", [
    "The server also ships GPTQ/AWQ compression techniques for smaller footprints.",
    "Our work covered paged attention and FP8 and INT4 quantization schemes.",
    "AWQ is an activation-aware weight quantization method.",
])
def test_quantisation_methods_named_as_a_family_are_no_run_precision(text: str) -> None:
    assert _of(text, "precision") == []


@pytest.mark.parametrize("text,quote", [
    ("We used GPTQ as the quantization technique for every run.", "GPTQ"),
    ("All numbers use the AWQ checkpoint on one L4.", "AWQ"),
])
def test_a_method_the_run_used_stays(text: str, quote: str) -> None:
    assert [m.quote for m in _of(text, "precision")] == [quote]


@pytest.mark.parametrize("text", [
    "We shard the checkpoint because a single device is not enough to hold it.",
    "At 180B parameters the model is too large for a single GPU.",
    "The weights do not fit on one accelerator.",
])
def test_one_device_named_as_too_small_is_no_single_device_run(text: str) -> None:
    assert _of(text, "parallelism") == [] and _of(text, "gpu_count") == []


def test_a_run_on_one_device_stays() -> None:
    found = _of("The small model fits on a single GPU, and we run it there.", "parallelism")
    assert [m.value for m in found] == ["single GPU"]


@pytest.mark.parametrize("text,kind", [
    ("You can also pick any other dataset from the Hub via `--dataset_name my_prompts`.", "dataset"),
    ("You could use your own model instead, such as Mistral-7B-v0.1.", "model"),
])
def test_what_the_reader_may_choose_instead_is_no_setting(text: str, kind: str) -> None:
    assert _of(text, kind) == []


def test_what_the_reader_reproduces_stays() -> None:
    found = _of("You can reproduce these numbers with Mistral-7B-v0.1 on one L4.", "model")
    assert [m.quote for m in found] == ["Mistral-7B-v0.1"]


@pytest.mark.parametrize("text,version", [
    ("- vLLM: 0.12.0rc2.dev7+g1a2b3c4d5 (built from main)", "0.12.0rc2.dev7+g1a2b3c4d5"),
    ("We pinned vllm==0.10.1.dev5 for every run.", "0.10.1.dev5"),
    ("All runs used SGLang 0.4.6.post1.", "0.4.6.post1"),
])
def test_a_development_build_keeps_all_its_version_parts(text: str, version: str) -> None:
    assert [m.version for m in _of(text, "engine")] == [version]


@pytest.mark.parametrize("text", ["It needs vLLM v0.7.3+ to run.", "Use vLLM 0.8.5 or later."])
def test_a_minimum_version_is_still_no_run_s_version(text: str) -> None:
    assert [m.version for m in _of(text, "engine")] == [None]
