"""Ingestion: Markdown, HTML and plain text into a structured view with offsets into the original."""
from extractor.ingest.model import Document


def ingest(text: str, name: str, fmt: str) -> Document:
    """Parse `text` as markdown, html or text into a Document whose view keeps the original offsets."""
    from extractor.ingest import html, markdown, text as plain

    parser = {"markdown": markdown.parse, "html": html.parse, "text": plain.parse}[fmt]
    doc = parser(text, name)
    assert len(doc.view) == len(text)
    return doc


__all__ = ["Document", "ingest"]
