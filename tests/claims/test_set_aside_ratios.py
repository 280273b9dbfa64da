"""Percents and ratios in prose that are no claim (issue 23): each is set aside with its reason, and the
negative sentences beside them stay claims (or are not taken by these rules). Sentences written for these
tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _record(text: str):
    return extract_text(text, "t.md")


def _aside(text: str, quote: str):
    found = [a for a in _record(text).set_aside if a.quote == quote]
    return found[0] if found else None


@pytest.mark.parametrize("text,quote,reason", [
    # markup a reader never sees: a figure inside an HTML comment
    ("Intro.\n\n<!--\nAn older caption: the cache now needs 40% less memory.\n-->\n\nThe end.\n", "40%", "markup"),
    # growth of a project's adoption, not of a system's performance
    ("Monthly downloads climbed from 3,000 to 12,000 (4x) in one year.\n", "4x", "adoption"),
    ("GitHub stars went from 1,200 to 3,000 (2.5x) since the launch.\n", "2.5x", "adoption"),
    ("About 30% of production deployments now run quantized models.\n", "About 30%", "adoption"),
    ("The meetup survey had a 60% response rate this year.\n", "60%", "adoption"),
    # a service promise
    ("The managed tier comes with 99.9% uptime for every region.\n", "99.9%", "target"),
    # settings written as shares
    ("The needle is placed at 25%, 50% and 75% depth of the prompt.\n", "50%", "setting"),
    ("The needle is placed at 25%, 50% and 75% depth of the prompt.\n", "25%", "setting"),
    ("The cached prefix (75% of input) is loaded before the timed run.\n", "75%", "setting"),
    ("In our traffic about 40% of queries are follow-ups to an earlier turn.\n", "about 40%", "setting"),
    ("The ceiling run used a synthetic 100% acceptance for every draft token.\n", "100%", "setting"),
    ("When usage reaches 95%, the scheduler starts to preempt requests.\n", "95%", "target"),
    ("For example, four tenants each using 20% of a GPU can share one card.\n", "20%", "example"),
    # device and replica counts
    ("To serve it you need 4x or even 8x large GPUs in a rack.\n", "4x", "setting"),
    ("To serve it you need 4x or even 8x large GPUs in a rack.\n", "8x", "setting"),
    ("- **CPU**: 2x Intel(R) Xeon(R) Gold 6430 on the host\n", "2x", "setting"),
    ("The cluster has 8 x 200 Gbps NICs per node for the pulls.\n", "8 x", "setting"),
    ("The pipeline keeps Encoder on GPU 0 and runs 3× Decoder + 2× Vocoder on GPUs 1 and 2.\n", "3×", "setting"),
    ("| Setup | Shape |\n|---|---|\n| Prefill | 4 × 8,192 tokens |\n", "4 ×", "setting"),
    ("The old setup used 8 x 62.5 GiB isolated pools per host.\n", "8 x", "setting"),
    # factors of a design
    ("The scratch buffer is sized to 2 × max_batch tokens before the first step.\n", "2 ×", "design_arithmetic"),
    ("We set the chunk to 8192 tokens, i.e. 2× ISL, on the prefill side.\n", "2×", "design_arithmetic"),
    ("Traffic is proportional to 2 × TP size rather than the vocabulary.\n", "2 ×", "design_arithmetic"),
    # a datasheet comparison
    ("On paper the HBM bandwidth of the new board is 1.6x that of its predecessor.\n", "1.6x", "datasheet"),
    ("The new part expands memory capacity nearly 2X to 192 GB per card.\n", "nearly 2X", "datasheet"),
    # a share of a model's dimension, a factor a design needs
    ("Heads are 64 wide, 50% of the standard head size in this family.\n", "50%", "model_size"),
    ("Holding both checkpoints in memory needs 2x the GPU memory of one.\n", "2x", "design_arithmetic"),
    # a finding credited to other work
    ("An earlier paper, which suggested that only 10% of the attention heads matter, inspired us.\n", "10%",
     "cited"),
])
def test_a_share_or_ratio_that_is_no_claim_is_set_aside(text: str, quote: str, reason: str) -> None:
    a = _aside(text, quote)
    assert a is not None, ([(x.quote, x.reason, x.rule) for x in _record(text).set_aside],
                           [c.quote for c in _record(text).claims])
    assert a.reason == reason, a
    assert text[a.span[0]:a.span[1]] == a.quote


@pytest.mark.parametrize("text,quote", [
    # a visible figure beside a comment is read as usual
    ("<!-- draft -->\nThe new kernel is 40% faster than the old one.\n", "40%"),
    # a ratio after an adoption word in another sentence stays a claim
    ("Downloads doubled this year. The new scheduler is 2.5x faster than the old one.\n", "2.5x"),
    # a share of the time measured, not a position
    ("The decode step spends 30% of its time in attention on this model.\n", "30%"),
    # a result introduced by "for example" is no example
    ("For example, on the long trace the cache reaches a 64% hit rate after warm-up.\n", "64%"),
    # a device count with a comparison is a speed-up
    ("On 8x H100 the new build is 3x faster than the release.\n", "3x"),
])
def test_a_claim_beside_those_forms_stays_a_claim(text: str, quote: str) -> None:
    record = _record(text)
    assert quote in [c.quote for c in record.claims], ([c.quote for c in record.claims],
                                                       [(a.quote, a.rule) for a in record.set_aside])
    assert quote not in [a.quote for a in record.set_aside]
