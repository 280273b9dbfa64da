"""A model's name is recorded as the post writes it, to its end: a family's pattern that stops early makes another
model ("Qwen3-Coder" of "Qwen3-Coder-Next", "Qwen-1" of "Qwen-1.8B", "DeepSeek-V3" of "DeepSeek-V3/R1"), and a
method named with a prefix ("P-EAGLE") is not the method without it. Found by the sample check of the wide corpus
(docs/conditions-sample-check.md). Posts written for these tests."""
from __future__ import annotations

import pytest

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _post(body: str, value: float = 41.2) -> object:
    text = f"# Leaner decoding\n\nAn introduction.\n\n## Results\n\n{body}\n"
    return claim(extract_text(text, "t.md"), value)


@pytest.mark.parametrize("name", [
    "Qwen3-Coder-Next",          # a word the family's pattern does not know
    "Kimi-K2-Instruct-0905",     # a release date after a known suffix
    "Qwen-1.8B",                 # a decimal size
    "Qwen3.8-27B-w8a8-mxfp8",    # a second precision word
    "qwen2.5-coder:7b",          # an Ollama-style tag
    "DeepSeek-V3/R1",            # two versions served as one
    "Llama-4-Maverick-17B-128E-Instruct",
])
def test_a_model_name_is_read_to_its_end(name):
    c = _post(f"Serving {name} on one node, the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "model").value == name


@pytest.mark.parametrize("body, name", [
    # a describing word joined to the name is no part of it
    ("A Gemma-2-9B-based router reaches 41.2 tokens/s.", "Gemma-2-9B"),
    ("Llama-3-8B-style models reach 41.2 tokens/s.", "Llama-3-8B"),
    # a draft model's word names the drafter, not the model measured
    ("Serving gpt-oss-120b-Eagle3 drafts, gpt-oss-120b reaches 41.2 tokens/s.", "gpt-oss-120b"),
    # a name that ends before a colon or a path stays as it is
    ("Llama-3.1-8B-Instruct: the new kernel reaches 41.2 tokens/s.", "Llama-3.1-8B-Instruct"),
    ("With DeepSeek-V3/sglang settings the new kernel reaches 41.2 tokens/s.", "DeepSeek-V3"),
])
def test_what_is_no_part_of_the_name_stays_out(body, name):
    assert stated(_post(body), "model").value == name


def test_a_slash_version_keeps_the_only_fuller_name_rule():
    # "DeepSeek" alone in the claim's place, and the post writes two models more fully: no pick
    text = ("# Notes\n\nWe serve DeepSeek-V3/R1 and DeepSeek-V2 in production.\n\n## Results\n\n"
            "On DeepSeek, the new kernel reaches 41.2 tokens/s.\n")
    c = claim(extract_text(text, "t.md"), 41.2)
    unrecoverable(c, "model")


def test_a_prefixed_method_is_not_the_method_without_it():
    c = _post("With P-EAGLE drafting, the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "speculative_decoding").value == "P-EAGLE"
    c = _post("With EAGLE-3 drafting, the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "speculative_decoding").value == "EAGLE-3"


def test_a_repository_id_is_not_refined_to_a_longer_checkpoint():
    # "Qwen/Qwen-Image-Edit" names one checkpoint; the post's dated "Qwen-Image-Edit-2509" is another
    text = ("# Image models\n\nSupported: Qwen-Image-Edit-2509 and Qwen-Image-Layered.\n\n## Results\n\n"
            "On **Qwen/Qwen-Image-Edit**, the new cache reaches a 2.38x speedup.\n")
    c = claim(extract_text(text, "t.md"), 2.38)
    cond = c.conditions["model"]
    assert cond.value != "Qwen-Image-Edit-2509"
    assert cond.status == "unrecoverable" or cond.value == "Qwen/Qwen-Image-Edit"


def test_a_family_name_is_refined_to_the_posts_only_checkpoint_of_it():
    # (the refinement still works for a name without an org: "DeepSeek" -> the post's one DeepSeek model)
    text = ("# Serving\n\nWe serve DeepSeek-V3 on 8x H200.\n\n## Results\n\n"
            "DeepSeek decodes at 41.2 tokens/s.\n")
    assert stated(claim(extract_text(text, "t.md"), 41.2), "model").value == "DeepSeek-V3"


def test_a_processor_name_with_trademark_marks_is_read_whole():
    # "Intel (R) Xeon (R) Gold 6454S" is one processor, not "Xeon"
    c = _post("On a CPU-only box with an Intel (R) Xeon (R) Gold 6454S, the new kernel reaches 41.2 tokens/s.")
    assert stated(c, "hardware").value.endswith("Xeon (R) Gold 6454S")


def test_the_gpus_of_a_row_are_its_hardware_not_their_host():
    text = ("# Results\n\n| Model | Hardware | Decode |\n| --- | --- | --- |\n"
            "| Foo-7B (FP8) | 8×L20 GPU + Xeon Gold 6454S | 41.2 tokens/s |\n")
    c = claim(extract_text(text, "t.md"), 41.2)
    assert stated(c, "hardware").value == "8x L20"
    assert stated(c, "gpu_count").value == 8
