"""The last classes of unexplained figures (issue 23): the notes of a mermaid diagram are markup, not claims.
Sentences written for these tests."""
from __future__ import annotations

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
