"""A sentence about an experiment shown before ("The sweep above isolates ... at concurrency 1.") names that
experiment's load, not the load of the results that follow it (rules/conditions.yaml `earlier_experiment`).
Sentences written for this test."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import find_mentions

_LOADS = ("batch_or_concurrency", "input_length", "output_length")


def _loads(text: str) -> list[str]:
    return [m.quote for m in find_mentions(text) if m.kind in _LOADS]


@pytest.mark.parametrize("text", [
    "The sweep above isolates the kernel cost at concurrency 1.",
    "The previous benchmark used 2K input tokens at batch size 4.",
    "These earlier runs were all measured at concurrency 1.",
    "In the previous section we ran every model at batch size 1.",
    "Our first experiment sent prompts of 512 tokens at concurrency 2.",
])
def test_the_load_of_an_experiment_shown_before_is_no_setting(text: str) -> None:
    assert _loads(text) == []


@pytest.mark.parametrize("text,quote", [
    # the same load used again, or a sentence that does not open on the earlier experiment
    ("As in the sweep above, we run at concurrency 8.", "concurrency 8"),
    ("The sweep above used the same concurrency 8 as these runs.", "concurrency 8"),
    ("We run the sweep at concurrency 8, unlike the numbers above.", "concurrency 8"),
    ("The new benchmark sends 150 requests at concurrency 8.", "concurrency 8"),
    ("Above 64 users, we run at concurrency 8 again.", "concurrency 8"),
])
def test_a_load_beside_a_reference_to_an_earlier_experiment_stays(text: str, quote: str) -> None:
    assert quote in _loads(text)


def test_only_the_sentence_about_the_earlier_experiment_loses_its_load() -> None:
    text = ("The sweep above isolates the kernel cost at concurrency 1. To measure serving under load, we run "
            "150 requests at concurrency 8.")
    assert _loads(text) == ["concurrency 8"]
