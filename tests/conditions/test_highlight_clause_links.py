"""A highlight written as one clause without a separator ("Up to 6x higher throughput for Grouped Latent Attention
(GLA)") is linked to the section whose heading names its feature, like a labelled highlight ("Smarter routing: ...");
the section's setup then states its conditions. A long sentence in the list is no label and links to nothing."""
from __future__ import annotations

from tests.claim_checks import claim_in, stated, unrecoverable

POST = """# Release 2.1

We are happy to ship release 2.1. The main updates:

- Up to 6x higher throughput for Grouped Latent Attention (GLA) kernels
- Support for longer contexts in Orca models

### Grouped Latent Attention (GLA) Throughput Optimizations

We rewrote the decode kernels for grouped latent attention. **Benchmarks show 2x to 6x higher throughput than the
previous release.** The benchmark measures the peak output throughput of Orca-70B in BF16 on Z300 accelerators
(tensor-parallelism=8) on ShareGPT prompts.

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
