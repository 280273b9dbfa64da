"""Ingestion: Markdown, HTML and plain text into a structured view with offsets into the original."""
from extractor.ingest.model import Document


def ingest(text: str, name: str, fmt: str) -> Document:
    """Parse `text` as markdown, html or text into a Document whose view keeps the original offsets."""
    from extractor.ingest import html, markdown, text as plain

    parser = {"markdown": markdown.parse, "html": html.parse, "text": plain.parse}[fmt]
    doc = parser(text, name)
    assert len(doc.view) == len(text)
    return doc


def prepare() -> None:
    """Import the format readers and build the Markdown parser now (they are imported on the first document
    otherwise): the extractor's build calls it inside `regex_cache.active()`, so their regular expressions
    come from the cross-process cache instead of being compiled in every process."""
    from extractor.ingest import block_events, html, markdown, text as plain  # noqa: F401

    block_events.prepare()


__all__ = ["Document", "ingest", "prepare"]
