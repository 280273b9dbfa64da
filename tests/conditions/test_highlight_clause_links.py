"""A highlight written as one clause without a separator ("Up to 6x higher throughput for Grouped Latent Attention
(GLA)") is linked to the section whose heading names its feature, like a labelled highlight ("Smarter routing: ...");
the section's setup then states its conditions. A long sentence in the list is no label and links to nothing."""
from __future__ import annotations

from tests.claim_checks import claim_in, stated, unrecoverable

POST = """# Release 2.1

Release 2.1 is out. What changed:

- Up to 6x higher throughput for Grouped Latent Attention (GLA) kernels
- Support for longer contexts in Orca models

### Grouped Latent Attention (GLA) Throughput Optimizations

We rewrote the decode kernels for grouped latent attention; against the last release they serve between 2x and
6x more tokens per second. Each test used Orca-70B weights in BF16 on Z300 accelerators (tensor-parallelism=8)
with ShareGPT prompts.

### Longer contexts

Orca models now accept 256K tokens.
"""


def test_a_one_clause_highlight_reads_the_section_of_its_feature():
    c = claim_in(POST, 6)
    assert c.headline
    assert stated(c, "dataset").value == "ShareGPT"
    assert stated(c, "parallelism").value == "tensor-parallelism=8"


def test_a_long_sentence_in_the_list_links_to_no_section():
    text = POST.replace("- Up to 6x higher throughput for Grouped Latent Attention (GLA) kernels",
                        "- With this release our team is proud to report up to 6x higher throughput for Grouped "
                        "Latent Attention (GLA) kernels")
    c = claim_in(text, 6)
    unrecoverable(c, "parallelism")


OTHER_SHAPE = """# What is new in 0.9

- Speculative decoding with tree drafts now runs 2.5x faster on long prompts
- A new metrics endpoint

## Speculative decoding with tree drafts

Tree drafts keep several candidate branches alive; we timed them with Orca-8B on one L4, feeding chat prompts
from LMSYS-Chat-1M.

## Metrics

The endpoint exports queue depth.
"""


def test_a_clause_highlight_of_another_shape_links_to_its_section():
    c = claim_in(OTHER_SHAPE, 2.5)
    assert stated(c, "dataset").value == "LMSYS-Chat-1M"


def test_a_clause_highlight_that_names_no_sections_feature_links_to_none():
    text = OTHER_SHAPE.replace("## Speculative decoding with tree drafts", "## Draft trees explained")
    c = claim_in(text, 2.5)
    unrecoverable(c, "dataset")
