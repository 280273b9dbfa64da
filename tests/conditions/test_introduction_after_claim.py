"""A claim of the untitled introduction reads what the introduction states after it, as every claim of the post
does (rungs_document.py `introduction`): only in prose sentences that state no result of their own, and not for a
table's figures. Sentences written for this test."""
from __future__ import annotations

from claim_checks import claim, stated, unrecoverable
from extractor.api import extract_text

_INTRO = ("Last month a cloud provider published its serving numbers. The deployment reached 212 tokens per second "
          "per user on Qwen3-32B.\n\nThe notable part: the engine is open source.\n\n"
          "It ran on the same NVIDIA GB300 silicon as the closed stacks.\n\n## How we did it\n\nKernel fusion.\n")


def test_a_device_the_introduction_names_after_its_claim_is_the_claims() -> None:
    c = claim(extract_text(_INTRO, "t.md"), 212)
    assert stated(c, "hardware").value == "NVIDIA GB300"


def test_a_setting_of_another_result_after_the_claim_is_not_taken() -> None:
    text = _INTRO.replace("It ran on the same NVIDIA GB300 silicon as the closed stacks.",
                          "Its TTFT stayed under 2 seconds on 8,000-token prompts.")
    unrecoverable(claim(extract_text(text, "t.md"), 212), "input_length")


def test_a_list_of_what_the_post_covers_is_not_read_after_the_claim() -> None:
    text = _INTRO.replace("It ran on the same NVIDIA GB300 silicon as the closed stacks.",
                          "In this post you will find:\n\n- tuning notes for NVIDIA GB300\n- a kernel deep dive")
    unrecoverable(claim(extract_text(text, "t.md"), 212), "hardware")


def test_a_table_of_the_introduction_reads_no_introduction_rung() -> None:
    text = ("| model | memory |\n| --- | --- |\n| Qwen3-32B | 21.5GB |\n\nThe models run in FP8 on NVIDIA GB300.\n\n"
            "## Usage\n\nInstall it.\n")
    rec = extract_text(text, "t.md")
    unrecoverable(claim(rec, 21.5), "hardware")
