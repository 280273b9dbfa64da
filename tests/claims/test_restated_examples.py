"""An example that writes one of the post's results again ("For example, with two nodes, 70 GB/s of it stays on
a node" under the table that reports it) is a mention of that claim, not an example set aside (GOLD: one
figure stated several times is one claim). Negatives: the example in another section, a figure the table does not
report, a hypothetical. Tables and sentences written for these tests."""
from __future__ import annotations

from extractor.api import extract_text

TABLE = "# Transfer\n\n| Case | Bandwidth |\n|---|---|\n| one node | 150 GB/s (NVLink) |\n| two nodes | 70 GB/s (RDMA) |\n\n"


def record(text: str):
    r = extract_text(text, "t.md")
    return {c.quote: [text[m.span[0]:m.span[1]] for m in c.mentions] for c in r.claims}, \
        [(s.quote, s.reason) for s in r.set_aside]


def test_an_example_restating_a_result_of_its_section_is_a_mention_of_that_claim():
    note = "Rates are per sender. For example, with two nodes, 70 GB/s of it stays on a node.\n"
    claims, aside = record(TABLE + note)
    assert len(claims["70 GB/s"]) == 2 and aside == []
    assert [len(m) for m in claims["150 GB/s"]] == [8]


def test_an_example_of_another_figure_or_in_another_section_stays_an_example():
    _, aside = record(TABLE + "For example, with four nodes, 35 GB/s would stay on the node.\n")
    assert aside == [("35 GB/s", "example")]
    _, aside = record(TABLE + "## Later\n\nFor example, with two nodes, 70 GB/s of it stays on a node.\n")
    assert aside == [("70 GB/s", "example")]


def test_a_supposed_figure_equal_to_a_result_is_no_restatement():
    claims, aside = record(TABLE + "For example, imagine a link of 70 GB/s between the racks.\n")
    assert aside == [("70 GB/s", "example")] and len(claims["70 GB/s"]) == 1
