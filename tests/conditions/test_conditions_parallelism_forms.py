"""Parallelism written in the forms many writers use (issue 24): a degree as "N-way" before the scheme, in digits
or words. Sentences written for these tests, with negatives."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text


def _parallelism(sentence: str):
    return claim(extract_text(f"# Results\n\n{sentence} It reaches 4,200 tok/s per GPU.\n", "t.md"), 4200)


def test_n_way_tensor_parallelism_in_words_or_digits_is_its_degree():
    assert stated(_parallelism("The 70B model runs on two H100 GPUs with two-way tensor parallelism."),
                  "parallelism").value == "TP2"
    assert stated(_parallelism("We run 8-way TP on one H200 node."), "parallelism").value == "TP8"


def test_n_way_expert_pipeline_and_data_parallelism():
    assert stated(_parallelism("The MoE layers use 4-way expert parallelism."), "parallelism").value == "EP4"
    assert stated(_parallelism("Two nodes are joined by 2-way pipeline parallelism."), "parallelism").value == "PP2"
    assert stated(_parallelism("Replicas are added with eight-way data parallelism."), "parallelism").value == "DP8"


def test_n_way_of_something_else_is_no_layout():
    assert unrecoverable(_parallelism("Traffic is split two-way between the regions."), "parallelism")
    assert unrecoverable(_parallelism("A 4-way comparison of the engines follows."), "parallelism")
