"""The last classes of unexplained figures (issue 23): the notes of a mermaid diagram and a number opening LaTeX
math (read as a dollar amount) are markup, not claims.
Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def _decided(text: str, quote: str) -> tuple[str | None, str | None, bool]:
    record = extract_text(text, "t.md")
    asides = [a for a in record.set_aside if a.quote == quote]
    claimed = any(quote in c.quote for c in record.claims)
    return (asides[0].reason if asides else None, asides[0].rule if asides else None, claimed)


def test_the_notes_of_a_mermaid_diagram_are_markup() -> None:
    text = ("Our router flow:\n\n```mermaid\nsequenceDiagram\n    Client->>Router: request\n"
            "    Note over Client,Router: Latency cut: 37.5%\n```\n")
    assert _decided(text, "37.5%") == ("markup", "set_aside.mermaid_diagram", False)


def test_the_same_note_outside_a_mermaid_block_is_not_taken_by_the_mermaid_rule() -> None:
    for text in ("Output:\n\n```text\nLatency cut: 37.5%\n```\n", "Latency cut: 37.5% on the long prompts.\n"):
        assert _decided(text, "37.5%")[1] != "set_aside.mermaid_diagram"


@pytest.mark.parametrize("text,quote", [
    ("It only needs $32 \\times (256+128) \\times 2 / 1024 \\approx 24$ cycles per token.\n", "$32"),
    ("The FLOPs are roughly $2 (h_q s_q \\cdot d_k)$ per step.\n", "roughly $2"),
])
def test_a_number_opening_latex_math_is_markup_not_a_price(text: str, quote: str) -> None:
    assert _decided(text, quote) == ("markup", "set_aside.latex_math_number", False)


@pytest.mark.parametrize("text,quote", [
    ("Renting it costs $16 (about 3 hours of use) per day.\n", "$16"),
    ("The whole sweep cost us $40 \\ on spot nodes.\n", "$40"),
    ("Decoding gets up to $5\\times$ faster on long inputs.\n", "up to $5"),   # a ratio in math: a figure
])
def test_a_price_or_a_lone_latex_ratio_is_not_taken_as_latex_math(text: str, quote: str) -> None:
    assert _decided(text, quote)[1] != "set_aside.latex_math_number"


@pytest.mark.parametrize("text,quote", [
    ("A cache line holds 2 x L x H values per token; the 2x is for keys and values.\n", "2x"),
    ("The 4x factor accounts for the bytes of an FP32 value in the size formula.\n", "4x"),
])
def test_a_factor_explained_in_a_formula_is_design_arithmetic(text: str, quote: str) -> None:
    assert _decided(text, quote) == ("design_arithmetic", "set_aside.factor_explained", False)


@pytest.mark.parametrize("text,quote", [
    ("The 3x speedup is for batch 1 only; at batch 64 it falls to 1.4x.\n", "3x"),   # a result, then its scope
    ("Fusing the kernels gives 2x, which accounts for most of the gain.\n", "2x"),   # no "the": a result
])
def test_a_result_factor_is_not_an_explained_factor(text: str, quote: str) -> None:
    assert _decided(text, quote)[1] != "set_aside.factor_explained"
