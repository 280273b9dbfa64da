"""Errors a document can fail with; each names the document and says why."""
from __future__ import annotations


class DocumentFailure(Exception):
    """A document could not be extracted (unreadable, too large, over its time budget, parse error)."""

    kind = "error"

    def __init__(self, doc: str, reason: str):
        self.doc, self.reason = doc, reason
        super().__init__(f"{doc}: {reason}")


class UnreadableDocument(DocumentFailure):
    """Binary content or an encoding that cannot be detected."""

    kind = "unreadable"


class DocumentTooLarge(DocumentFailure):
    """The document is over the configured size limit."""

    kind = "too_large"


class TooManyClaims(DocumentFailure):
    """The document states more candidate claims than the configured limit (limits.max_claims)."""

    kind = "too_many_claims"


class DocumentTimeout(DocumentFailure):
    """Extraction went over the per-document time budget."""

    kind = "timeout"
