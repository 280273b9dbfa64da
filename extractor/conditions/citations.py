"""Citations that credit a figure by where it sits rather than by a cue word (see `Places.cited_from`): a source
link in parentheses at the end of its sentence or list item ("... up to 3x faster ([source](https://...))"),
and a section that reviews other work ("Related work", "Prior work", "Related papers")."""
from __future__ import annotations

import re

from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document
from extractor.ingest.segment import Passage


class PlacedCitations:
    """Reads the citation a figure's place gives (rules `source_link`, `cited_sections` of scopes.yaml)."""

    def __init__(self, scopes: ScopeRules):
        self.source_link = re.compile(scopes.source_link)
        self.cited_sections = re.compile(scopes.cited_sections)

    def source(self, d: Document, passage: Passage) -> str | None:
        """The target of a source link in parentheses in the passage, else (in a list item) in its item: the
        figures of the sentence or item are that source's. A link to a code host (the post's own repository
        or benchmark script) is none."""
        spans = [(passage.start, passage.end)]
        if passage.kind == "list_item" and passage.block >= 0:
            b = d.blocks[passage.block]
            spans.append((b.start, b.end))
        for start, end in spans:
            for m in self.source_link.finditer(d.text, start, end):
                return m.group("url") or m.group("url2")
        return None

    def section(self, d: Document, passage: Passage) -> str | None:
        """The title of the section reviewing other work that the passage lies in, else None."""
        return next((t for t in d.section_path(passage.section) if self.cited_sections.search(t)), None)
