"""Canonical names: gazetteer matches and the fuzzy fallback; unknown stays None."""
from __future__ import annotations

import pytest

from extractor.conditions.mentions import canonical


@pytest.mark.parametrize("kind,surface,expected", [
    ("hardware", "8xH200", "NVIDIA H200"),
    ("hardware", "H200 SXM", "NVIDIA H200"),
    ("hardware", "NVIDIA H200", "NVIDIA H200"),
    ("engine", "TRT-LLM", "TensorRT-LLM"),
    ("engine", "sglang", "SGLang"),
    ("engine", "SGLangg", "SGLang"),
    ("model", "Llama-3.1-8B-Instruct", "Llama 3.1 8B"),
    ("dataset", "ShareGPT", "ShareGPT"),
])
def test_known_names(kind: str, surface: str, expected: str) -> None:
    assert canonical(kind, surface) == expected


@pytest.mark.parametrize("kind,surface", [
    ("engine", "FooServe"),
    ("hardware", "Z9000"),
    ("model", "zzz"),
    ("dataset", ""),
    ("nonsense-kind", "vLLM"),
])
def test_unknown_is_none(kind: str, surface: str) -> None:
    assert canonical(kind, surface) is None
