"""The sentence that introduces a list (its lead-in paragraph's last sentence, ending with ':') names the system
under test of the list's items; a model or device named in the paragraph's earlier sentences (a past setup, an
example) gives way to it (issue 24, a section's setup reaching the claims after it). Every sentence is written
for this test."""
from __future__ import annotations

import pytest

from extractor.pipeline import Extractor


def _conditions(extractor: Extractor, text: str, kind: str) -> dict[str, str | None]:
    record = extractor.extract(text, doc="t.md", fmt="markdown", path=None, sha256="0")
    return {c.quote: c.conditions[kind].value for c in record.claims}


def test_the_introducing_sentence_names_the_run_of_the_items(extractor: Extractor) -> None:
    text = ("# Where the time goes\n\n"
            "Two years ago we tuned the engine for Falcon 40B on A100 GPUs. Newer parts changed the picture. "
            "Profiling Mistral 7B on 1 H100 GPU now shows:\n\n"
            "- Only 21% of the time is spent on tokenization.\n"
            "- The GPU kernels take just 47% of the time.\n")
    models = _conditions(extractor, text, "model")
    devices = _conditions(extractor, text, "hardware")
    for quote in ("21%", "47%"):
        assert models[quote] == "Mistral 7B"
        assert devices[quote] == "1x H100"


def test_a_lead_in_without_a_name_in_its_last_sentence_keeps_the_whole_paragraph(extractor: Extractor) -> None:
    text = ("# Where the time goes\n\n"
            "We tuned the engine for Falcon 40B on A100 GPUs and for Mistral 7B on H100 GPUs. "
            "The profile shows:\n\n"
            "- Only 21% of the time is spent on tokenization.\n")
    models = _conditions(extractor, text, "model")
    assert models["21%"] is None   # two models, and the introducing sentence does not say which one


def test_advice_in_the_introducing_sentence_is_not_the_measured_precision(extractor: Extractor) -> None:
    text = ("# When not to quantize\n\n"
            "FP8 weights do not always pay off. Stay with BF16 when:\n\n"
            "- Your batches are tiny: the dequantization overhead raises TTFT by ~1.3x on short prompts.\n")
    precision = _conditions(extractor, text, "precision")
    assert precision["~1.3x"] != "BF16"
