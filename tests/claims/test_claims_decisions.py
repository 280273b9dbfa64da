"""Claim decisions by pattern: direction of a change, signed percents, longest cue, non-claims
(datasheet figures, load settings, limits), baselines, metric cues, per-GPU units, series units."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from extractor.records import BASELINE_NOT_NAMED
from claim_checks import claim_in as one, claims_in as claims


@pytest.mark.parametrize("text,value,sign", [
    ("Enabling the new router raised goodput by 14% and cut p50 TTFT by 9% on our cluster.", 14, 1),
    ("Enabling the new router raised goodput by 14% and cut p50 TTFT by 9% on our cluster.", 9, -1),
    ("After the kernel rewrite, decode step time fell by more than 25% across all sizes.", 25, -1),
    ("Per million tokens, the smaller node is about 35% cheaper than the large one.", 35, -1),
    ("Doubling the context length costs 18% of prefill throughput on this card.", 18, -1),
    ("The release notes list +11% output throughput and a 7% lower median ITL.", 11, 1),
    ("The release notes list +11% output throughput and a 7% lower median ITL.", 7, -1),
])
def test_change_direction_follows_the_governing_word(text, value, sign):
    c = one(text, value)
    assert c.metric == "relative_change"
    assert (c.value > 0) == (sign > 0)


def test_signed_percent_is_a_change_even_near_a_memory_word():
    c = one("With the spare memory freed up, we measured +19% throughput at batch 32.", 19)
    assert c.metric == "relative_change" and c.value == 19


def test_longest_token_cue_wins():
    c = one("A single node now moves 31,000 tokens per second of combined input and\noutput traffic.", 31000)
    assert c.tokens == "total"
    c = one("The server sustains 12,500 tok/s, input and output together, at batch 128.", 12500)
    assert c.tokens == "total"


@pytest.mark.parametrize("text,value", [
    ("For context, each MI325X carries 256 GB of HBM3e and offers 6 TB/s of bandwidth.", 256),
    ("For context, each MI325X carries 256 GB of HBM3e and offers 6 TB/s of bandwidth.", 6),
    ("The rental price is $3.40 per GPU-hour on the public cloud.", 3.4),
    ("Clients send traffic at 6 req/s with Poisson arrivals.", 6),
    ("We used a fixed request rate of 12 req/s for every engine.", 12),
    ("A run only counts when p99 TTFT stays under a 3 s SLO.", 3),
    ("The product sets a latency budget of 150 ms per request.", 150),
    ("Our P95 target of 80 ms for ITL was met in all runs.", 80),
    ("We evaluate on MMLU (5-shot) with Qwen 2.5 and report accuracy.", 5),
    ("We evaluate on MMLU (5-shot) with Qwen 2.5 and report accuracy.", 2.5),
])
def test_non_claims(text, value):
    got = [(c.metric, c.value, c.quote) for c in claims(text) if abs(c.value - value) < 1e-9]
    assert not got, got


@pytest.mark.parametrize("text,value,metric", [
    ("During prefill the kernels achieved 5.2 TB/s of HBM bandwidth.", 5.2, "bandwidth"),
    ("Switching to FP4 weights saves 22.5 GB per GPU versus BF16.", 22.5, "memory"),
    ("Cost came out at $0.35 per 1M output tokens on the new node.", 0.35, "cost"),
    ("At peak the cluster handles 95 QPS of chat traffic.", 95, "request_throughput"),
    ("A 256-token reply took 1.4 s end to end on average.", 1.4, "e2e_latency"),
    ("Summaries stayed close to the reference: ROUGE-L was 39.8 on the quantised model.", 39.8, "accuracy"),
])
def test_measured_figures_are_claims(text, value, metric):
    assert one(text, value).metric == metric


def test_baseline_keeps_dotted_versions_and_skips_bare_numbers():
    c = one("Across models the new scheduler is 1.3x to 2.2x faster compared with v0.7.2 on H200.", 1.3)
    assert c.baseline and "v0.7.2" in c.baseline
    c = one("Decode got a 2.1x speedup, from 40 tok/s to 84 tok/s per user.", 2.1)
    assert c.baseline == BASELINE_NOT_NAMED


def test_score_against_a_reference_score_is_not_a_claim():
    cs = claims("On MMLU, the FP4 model scored 81.3% against 81.9% for BF16.")
    assert [c.value for c in cs if c.metric == "accuracy"] == [81.3]
    assert not [c for c in cs if c.value == 81.9]


def test_per_gpu_across_a_line_break():
    c = one("The node served 30,400 tokens/s in total, or about 3,800 tokens/s per\nGPU.", 3800)
    assert c.unit == "token / second / gpu" and c.per == "gpu"
    c = one("The node served 30,400 tokens/s in total, or about 3,800 tokens/s per\nGPU.", 30400)
    assert c.per == "system"


def test_unit_after_instead_of_applies_to_both_numbers():
    c = one("The new image reaches 1,880 instead of 1,610 output TPS on the same node.", 1880)
    assert c.metric == "throughput" and c.unit == "token / second"


def test_spelled_ratio_needs_a_comparison():
    assert one("# Two nodes deliver three times the throughput of one", 3).metric == "speedup"
    assert not [c for c in claims("The harness runs the accuracy suite five times on the same node.") if c.value == 5]


def test_emphasised_ratio_far_from_its_change_word():
    c = one("The benefit narrows at larger batches, because the GPU saturates, but it holds at __2x__ for batch 16.", 2)
    assert c.metric == "speedup"


def test_a_comparison_without_a_named_baseline_says_so_and_a_level_has_none():
    """GOLD: a speed-up or relative change whose text names no baseline says 'not named in the text', never
    null; a named one keeps its words, and a level (throughput, latency) has no baseline at all."""
    text = ("Our kernel is 2.5x faster than FlashAttention-2 on long prompts. Throughput rose by 30% after the "
            "upgrade. The server sustains 1,200 tokens/s on one GPU.\n")
    claims = {c.quote: c for c in extract_text(text, "b.md").claims}
    named = next(c for q, c in claims.items() if "2.5x" in q)
    assert named.baseline and "FlashAttention-2" in named.baseline
    change = next(c for q, c in claims.items() if "30%" in q)
    assert change.metric == "relative_change" and change.baseline == BASELINE_NOT_NAMED
    level = next(c for q, c in claims.items() if "1,200" in q)
    assert level.metric == "throughput" and level.baseline is None
