"""Figures that are not a measurement the post reports, and set-aside figures with the reason they deserve (issue 23,
session 9): text a reader never sees (an HTML comment), the memory a job requires of a device, the rate a drive or
link setup adds up to, a how-to's time estimate label. Each class with positive and negative sentences written for
the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def decided(text: str) -> tuple[set[str], dict[str, tuple[str, str]]]:
    r = extract_text(text, doc="t.md")
    assert all(text[a.span[0]:a.span[1]] == a.quote for a in r.set_aside)
    return {c.quote for c in r.claims}, {a.quote: (a.reason, a.rule) for a in r.set_aside}


# ---- an HTML comment: markup, whatever the figure would be if it were shown

@pytest.mark.parametrize("quote", ["1M context", "16 tokens/s", "24GB"])
def test_a_figure_in_an_html_comment_is_markup(quote):
    text = ("# Notes\n\nThe new build is fast.\n\n"
            "<!-- Older note: it ran with a 1M context on 24GB of VRAM and reached 16 tokens/s -->\n\n"
            "On the A100 it reaches 42 tokens/s with a 128K context.\n")
    claims, aside = decided(text)
    assert aside[quote][0] == "markup" and quote not in claims


def test_the_same_figures_outside_the_comment_keep_their_reasons():
    text = ("<!-- draft: 1M context -->\n\n"
            "On the A100 it reaches 42 tokens/s with a 128K context.\n")
    claims, aside = decided(text)
    assert "42 tokens/s" in claims
    assert aside["128K context"][0] == "setting" and aside["1M context"][0] == "markup"


# ---- what a job requires of a device, or the device the writer recommends for it: the job's need

@pytest.mark.parametrize("text,quote", [
    ("Distilling the student needs a node with at least 640 GB across its cards.", "at least 640 GB"),
    ("Fine-tuning the large variant needs two GPUs with 80 GB each.", "80 GB"),
    ("The conversion requires a card with at least 20 GB of VRAM.", "at least 20 GB"),
    ("For the full context you will need a machine with 256 GB RAM.", "256 GB"),
    ("For the merge step, recommended: laptops with 36GB or more.", "36GB or more"),
    ("Quantizing the 70B checkpoint requires a server having over 300 GB of host RAM.", "over 300 GB"),
])
def test_the_memory_of_a_device_a_job_requires_is_the_jobs_need(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("model_size", "set_aside.required_device_memory") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("Cards with over 40GB of memory can load the full checkpoint.", "over 40GB"),   # a device class, no job's need
    ("Our numbers come from a desktop with 32GB RAM.", "32GB"),
    ("The server, a machine with 512 GB of DRAM, needed no swap.", "512 GB"),      # the verb comes after
])
def test_a_device_described_with_its_memory_stays_a_datasheet_figure(text, quote):
    _, aside = decided(text)
    assert aside[quote][0] == "datasheet"


def test_memory_the_run_used_is_not_a_requirement():
    claims, aside = decided("On a node with 80 GB cards, the job used 61 GB of memory at peak.")
    assert "61 GB" in claims and "61 GB" not in aside     # the run's peak: a measurement, not the job's need


# ---- a drive or link setup's rate: the machine's setup, not a measurement

@pytest.mark.parametrize("text,quote", [
    ("Three SATA SSDs in RAID 0 push the array's sequential read rate to about 1.6 GB/s.", "about 1.6 GB/s"),
    ("We mirror the disks as RAID 1, which keeps the write bandwidth at 3 GB/s.", "3 GB/s"),
    ("Four SSDs in one RAID10 array give a sequential read bandwidth of about 20 GB/s.", "about 20 GB/s"),
])
def test_a_rate_a_drive_setup_adds_up_to_is_a_datasheet_figure(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("datasheet", "set_aside.drive_or_link_bandwidth") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("Over the RAID0 array the loader reached a read throughput of 12.5 GB/s.", "12.5 GB/s"),
    ("With the RAID0 volume, our checkpoint loader sustained a read bandwidth of 11 GB/s.", "11 GB/s"),
])
def test_a_rate_the_run_reached_on_the_array_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside


# ---- a how-to's time estimate written as a label

@pytest.mark.parametrize("text,quotes", [
    ("## Shard the corpus\n\n- Run time: roughly 25 minutes on a laptop, more on older disks.\n",
     ["roughly 25 minutes"]),
    ("### Stage B\n\n**Time:** ~90 s to ~6 min, varies with disk speed.\n",
     ["~90 s to ~6 min"]),   # one range (a hedged upper end keeps the range whole)
    ("## Build\n\n- **Estimated time**: about 45 minutes\n", ["about 45 minutes"]),
    ("## Fine-tune\n\nExpected duration: 2-4 hours on one GPU.\n", ["2-4 hours"]),
    ("## Setup\n\nTime required: roughly 10 minutes.\n", ["roughly 10 minutes"]),
])
def test_a_how_tos_time_estimate_label_is_an_example(text, quotes):
    claims, aside = decided(text)
    for quote in quotes:
        assert aside[quote] == ("example", "set_aside.how_to_time_estimate") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("## Results\n\nTime: 14.1 s\n", "14.1 s"),                                   # no hedge, no range: a result
    ("## Results\n\nTotal time: 8.2 seconds\n", "8.2 seconds"),                   # not the label alone
    ("## Results\n\n**Time:** ~40 s, 2x faster than the old loader.\n", "~40 s"),  # compared: a result
    ("## Results\n\nTime: about 6 s (vs 15 s before)\n", "about 6 s"),
])
def test_a_time_label_that_reports_a_run_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside


# ---- a list that gathers other parties' works: each item's figures are the linked work's own

WORKS_LIST = """# Lynx-9B

Lynx-9B answers in under a second on one L4 card: 52 tokens/s in our runs.

## Projects

Open-source projects that speed up Lynx-9B:

* [lynx.rs](https://example.org/lynx-rs): a Rust port for laptops that runs about 9 tokens/s on a recent CPU.
* [LynxTPU](https://example.net/lynx-tpu) - an edge-board build that streams 14 token/s on its NPU.
* Acme's [batcher](https://example.com/batcher) serves the model at up to 3x the stock throughput.
* Our own [fork](https://example.org/our-fork) gets 2.2x from a fused decoder.
"""


@pytest.mark.parametrize("quote", ["about 9 tokens/s", "14 token/s", "up to 3x"])
def test_a_figure_of_a_linked_work_in_a_list_of_others_works_is_cited(quote):
    claims, aside = decided(WORKS_LIST)
    assert aside[quote] == ("cited", "scopes.linked_work_item") and quote not in claims


def test_the_posts_own_figures_beside_a_works_list_stay_claims():
    claims, aside = decided(WORKS_LIST)
    assert {"52 tokens/s", "2.2x"} <= claims               # the post's own run, and "our own fork"


@pytest.mark.parametrize("lead", [
    "Several community ports of Lynx-9B exist; give them a spin:",
    "Lynx-9B is used by these teams:",
])
def test_other_leads_that_name_others_works(lead):
    text = f"# Lynx-9B\n\n## Elsewhere\n\n{lead}\n\n- [edge-lynx](https://example.org/e): runs 11 tokens/s on a phone.\n"
    claims, aside = decided(text)
    assert aside["11 tokens/s"][0] == "cited" and "11 tokens/s" not in claims


@pytest.mark.parametrize("text", [
    # the post's own results, each item opening with the model's link: nothing names other works
    "# Results\n\nWe ran each model on one H100:\n\n- [Tiny-7B](https://example.org/t7): 41 tokens/s\n"
    "- [Tiny-13B](https://example.org/t13): 23 tokens/s\n",
    # a list of links under a plain heading
    "# Lynx\n\n## Downloads\n\n- [Lynx-9B weights](https://example.org/w): the quantized build runs 41 tokens/s.\n",
])
def test_a_linked_list_that_names_no_others_works_keeps_its_claims(text):
    claims, aside = decided(text)
    assert "41 tokens/s" in claims and "41 tokens/s" not in aside


# ---- a section that sets out others' research as the evidence or context of the post's problem

RESEARCH = """# Long prompts

## {title}

Published evaluations find that recall drops 30-45% once prompts pass 64K tokens.

## What we measured

Our chunked reader keeps TTFT at 140 ms for 128K-token prompts.
"""


@pytest.mark.parametrize("title", ["Research context: why recall fades", "What the research says", "Academic studies",
                                   "The research background"])
def test_a_figure_in_a_section_of_others_research_is_cited(title):
    claims, aside = decided(RESEARCH.format(title=title))
    assert aside["30-45%"] == ("cited", "scopes.cited_sections") and "30-45%" not in claims
    assert "140 ms" in claims


@pytest.mark.parametrize("title", ["Our research", "Recent research: the Lynx router", "Research results"])
def test_a_section_of_the_posts_own_research_is_not_cited(title):
    claims, _ = decided(f"# Lynx\n\n## {title}\n\nOn the large catalog the router keeps 91% accuracy.\n")
    assert "91%" in claims


# ---- a figure marked as taken from another work in parentheses

@pytest.mark.parametrize("text,quote", [
    ("Its fused GEMM gets 2.9x over the naive loop (numbers quoted from the Orion write-up).", "2.9x"),
    ("The chart (taken from the Falcon paper) shows a 1.7x speedup for the fused path.", "1.7x"),
    ("Batching 16 requests gives 3.4x more throughput (data reproduced from the Orbit report).", "3.4x"),
])
def test_a_figure_marked_as_taken_from_another_work_is_cited(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("cited", "scopes.citation_cue") and quote not in claims


def test_a_figure_adapted_from_the_posts_own_work_stays_a_claim():
    claims, aside = decided("As Figure 4 (adapted from our earlier kernel) shows, the new kernel reaches a 1.8x speedup.")
    assert "1.8x" in claims and "1.8x" not in aside


# ---- a benchmark named with its version: the version is no score

@pytest.mark.parametrize("text", [
    "Instruction following is judged with AlpacaEval 2.0 plus two in-house suites.",
    "Chat quality is checked on AlpacaEval 2.0.",
])
def test_a_benchmarks_version_is_no_score(text):
    claims, _ = decided(text)
    assert not claims


@pytest.mark.parametrize("text,quote", [
    ("The chat model scores 9.0 on MT-Bench and 71.5 on GPQA.", "9.0"),
    ("On Arena-Hard v0.1 it scores 61.2.", "61.2"),
])
def test_a_score_beside_a_benchmark_name_stays_a_claim(text, quote):
    claims, _ = decided(text)
    assert quote in claims


# ---- a floor of memory in a hardware requirements list: what running the job requires

REQUIREMENTS = """# Serving Lynx-120B at home

## System requirements

Before you start, check the box against this list.

1. Graphics: an L40S 48 GB, or a card with at least 40GB
2. Host memory: >=384 GB
3. Free disk: at least 250 GB on NVMe

## Results

Built this way, the box decodes 21 tokens/s.
"""


@pytest.mark.parametrize("quote", ["at least 40GB", ">=384 GB", "at least 250 GB"])
def test_a_memory_floor_in_a_requirements_list_is_the_jobs_need(quote):
    claims, aside = decided(REQUIREMENTS)
    assert aside[quote] == ("model_size", "set_aside.required_memory_floor") and quote not in claims


def test_a_named_device_in_a_requirements_list_stays_a_datasheet_figure():
    claims, aside = decided(REQUIREMENTS)
    assert aside["48 GB"][0] == "datasheet" and "21 tokens/s" in claims


def test_a_memory_floor_in_a_recommended_setup_paragraph_is_the_jobs_need():
    _, aside = decided("# Lynx\n\n## Recommended setup\n\nPlan for a minimum of 96 GB of host memory and a GPU with "
                       "at least 24GB.\n")
    for quote in ("a minimum of 96 GB", "at least 24GB"):
        assert aside[quote] == ("model_size", "set_aside.required_memory_floor")


def test_a_memory_floor_outside_a_requirements_section_keeps_its_reason():
    _, aside = decided("# Setup\n\n## Test machine\n\n- **RAM**: at least 512GB of DDR5\n")
    assert aside["at least 512GB"][0] == "datasheet"


# ---- what a lower precision does to memory by its bit width: arithmetic of the format

@pytest.mark.parametrize("text", [
    "Keeping the weights as INT8 halves the footprint of each shard.",
    "The new fp16 decoder path halves memory and compute.",
    "Moving the weights to 4-bit quarters the weight storage of every layer.",
    "Sending the dispatched tokens in FP8 halves the communication traffic between ranks.",
])
def test_a_precisions_nominal_halving_is_design_arithmetic(text):
    claims, aside = decided(text)
    quote = next(q for q in aside if q.lower() in ("halves", "quarters"))
    assert aside[quote] == ("design_arithmetic", "set_aside.precision_halves_memory") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("Against the BF16 run, INT8 weights roughly halves p95 TPOT on our long-prompt trace.", "roughly halves"),
    ("In our runs the new allocator halves memory use.", "halves"),     # no precision: a measured saving
])
def test_a_measured_halving_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside


# ---- the level an earlier version reached, as the reference of a comparison

def test_the_level_our_previous_version_achieved_is_a_baseline():
    claims, aside = decided("Peak decode now sits at 2,300 tokens/s, against 1,450 tokens/s reached with our older "
                            "scheduler.")
    assert aside["1,450 tokens/s"] == ("baseline", "set_aside.figure_of_previous") and "2,300 tokens/s" in claims


# ---- a factor of work a design or a load needs: arithmetic of the design, no speed-up

@pytest.mark.parametrize("text,quotes", [
    ("Attention over a 64K-token prompt needs about 8x more compute than over an 8K one.", ["about 8x"]),
    ("Each rung of the ladder would cost 5x, 9x, and 14x additional work over plain decoding.", ["5x", "9x", "14x"]),
    ("Scoring every candidate would need 4x additional computation on each layer.", ["4x"]),
])
def test_a_factor_of_work_a_design_needs_is_design_arithmetic(text, quotes):
    claims, aside = decided(text)
    for quote in quotes:
        assert aside[quote] == ("design_arithmetic", "set_aside.factor_of_work") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("The fused kernel is 3x faster and requires no extra FLOPs.", "3x"),        # a speed-up, not the work's factor
    ("With batching the server needs 2x fewer GPUs for the same load.", "2x"),    # fewer resources: a result
])
def test_a_factor_that_is_a_result_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside


def test_an_item_of_a_works_list_that_says_we_keeps_its_claim_with_the_link():
    r = extract_text(WORKS_LIST, doc="t.md")
    fork = next(c for c in r.claims if c.quote == "2.2x")
    assert fork.cited_from == "https://example.org/our-fork"
    own = next(c for c in r.claims if c.quote == "52 tokens/s")
    assert own.cited_from is None


# ---- a value spoken of in general, with an indefinite article and a modal judgement

@pytest.mark.parametrize("text,quotes", [
    ("For voice agents, a 40 ms TPOT could feel sluggish.", ["40 ms"]),
    ("Draft length decides this: an 85% acceptance rate would mean little with two-token drafts.", ["85%"]),
    ("If a 2 s TTFT would suffice for offline jobs, batch harder.", ["2 s"]),
    ("For chat, a 300 ms TTFT might feel slow to users.", ["300 ms"]),
])
def test_a_value_spoken_of_in_general_is_an_example(text, quotes):
    claims, aside = decided(text)
    for quote in quotes:
        assert aside[quote] == ("example", "set_aside.value_in_general") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("A 2x speedup can be reached with batching alone.", "2x"),                    # "can be reached": reported
    ("We saw a 35% hit rate on the chat trace, which may be typical.", "35%"),     # the run's own figure
])
def test_a_value_the_post_reports_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside
