"""The extraction pipeline: ingest -> spaCy doc -> quantities -> claims -> conditions -> record."""
from __future__ import annotations

from pathlib import Path

from extractor import __version__
from extractor.records import DocumentRecord
from extractor.rules_io import default_rules_dir, rules_fingerprint


class Extractor:
    """Holds the loaded rules and the spaCy pipeline; `extract` turns one text into a record."""

    def __init__(self, rules_dir: Path):
        self.rules_dir = rules_dir
        self.rules_version = rules_fingerprint(rules_dir)

    @classmethod
    def from_rules(cls, rules_dir: str | Path | None = None) -> "Extractor":
        return cls(Path(rules_dir) if rules_dir else default_rules_dir())

    def extract(self, text: str, *, doc: str, fmt: str, path: str | None, sha256: str) -> DocumentRecord:
        return DocumentRecord(doc=doc, path=path, sha256=sha256, title=None,
                              extractor_version=__version__, rules_version=self.rules_version)
