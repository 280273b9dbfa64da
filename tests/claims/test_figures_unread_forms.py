"""Forms of results that writers we have not seen use (issue 23, the wide corpus): each a class many writers
write, read as a claim, or set aside with a reason; negatives beside them.
Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _claims(text: str) -> list[tuple[str, str, float]]:
    return [(c.quote, c.metric, c.value) for c in extract_text(text, "t.md").claims]


def _asides(text: str) -> list[tuple[str, str]]:
    return [(a.quote, a.reason) for a in extract_text(text, "t.md").set_aside]


# ---- a ratio written as LaTeX math
@pytest.mark.parametrize("text,value", [
    ("Our kernel decodes up to $6\\times$ faster on long prompts.\n", 6.0),
    ("Batching gives a $2.5\\times$ speedup over the eager loop.\n", 2.5),
    ("The fused path is 3$\\times$ faster than the reference.\n", 3.0),
    ("Prefill runs 4\\times faster with chunking.\n", 4.0),
])
def test_a_ratio_in_latex_math_is_a_speedup_not_a_price(text: str, value: float) -> None:
    claims = extract_text(text, "t.md").claims
    assert [(c.metric, c.value, c.unit) for c in claims] == [("speedup", value, "x")]


@pytest.mark.parametrize("text", [
    "Each shard costs $6 \\times 10^{3}$ bytes to send.\n",      # a product in math: markup, no claim
    "The sweep cost $6 on spot nodes, and times were stable.\n",  # a price, "times" a word
])
def test_latex_products_and_prices_are_no_latex_ratio(text: str) -> None:
    assert all(c.unit != "x" for c in extract_text(text, "t.md").claims)


# ---- line ends
def test_a_crlf_post_gives_the_claims_of_its_lf_twin_at_the_same_spans() -> None:
    lf = "# Speed\n\nOn one H100 the server reached 2,400 tok/s,\nand TTFT dropped 35%.\n"
    a, b = extract_text(lf, "a.md"), extract_text(lf.replace("\n", "\r\n"), "b.md")
    assert [(c.quote, c.span) for c in b.claims] == [(c.quote, c.span) for c in a.claims]
    assert len(a.claims) == 2
