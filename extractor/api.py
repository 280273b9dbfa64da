"""Public API: read a document, extract its record.

    from extractor.api import extract_path, extract_text
    record = extract_path("post.md")          # DocumentRecord
    record = extract_text(text, doc="post.md")

Reading decodes the bytes (UTF-8, else a detected encoding), enforces the size
limit, and stamps the content hash; spans in the record index the decoded text.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from charset_normalizer import from_bytes

from extractor import __version__
from extractor.errors import DocumentTooLarge, UnreadableDocument
from extractor.records import DocumentRecord

EXTRACTOR_VERSION = __version__
MAX_BYTES = 20 * 1024 * 1024
FORMATS = {".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".html": "html",
           ".htm": "html", ".txt": "text", ".text": "text", ".rst": "text"}


def detect_format(name: str, text: str = "") -> str:
    """markdown, html or text: by file suffix, else by a look at the content."""
    fmt = FORMATS.get(Path(name).suffix.lower())
    if fmt:
        return fmt
    head = text[:2000].lstrip().lower()
    if head.startswith(("<!doctype html", "<html")) or "<body" in head:
        return "html"
    return "markdown"


def decode(data: bytes, doc: str) -> str:
    """UTF-8 (BOM stripped) when valid, else the encoding charset-normalizer detects, else an error."""
    if b"\x00" in data[:8192]:
        raise UnreadableDocument(doc, "binary content (NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    best = from_bytes(data).best()
    if best is None:
        raise UnreadableDocument(doc, "not UTF-8 and no text encoding could be detected")
    return str(best)


def read_document(path: str | Path, max_bytes: int = MAX_BYTES) -> tuple[str, str]:
    """The decoded text of a file and the sha256 of its bytes."""
    p = Path(path)
    size = p.stat().st_size
    if size > max_bytes:
        raise DocumentTooLarge(str(p), f"{size} bytes is over the {max_bytes}-byte limit")
    data = p.read_bytes()
    return decode(data, str(p)), hashlib.sha256(data).hexdigest()


@lru_cache(maxsize=4)
def get_extractor(rules_dir: str | None = None):
    """The extractor for a rules folder (default: the installed rules), built once per process."""
    from extractor.pipeline import Extractor

    return Extractor.from_rules(rules_dir)


def rules_version(rules_dir: str | None = None) -> str:
    """Fingerprint of the rules folder in use."""
    return get_extractor(rules_dir).rules_version


def extract_text(text: str, doc: str = "-", *, fmt: str | None = None, path: str | None = None,
                 sha256: str | None = None, rules_dir: str | None = None) -> DocumentRecord:
    """Extract the record of a document given as text."""
    sha = sha256 or hashlib.sha256(text.encode("utf-8")).hexdigest()
    return get_extractor(rules_dir).extract(text, doc=doc, fmt=fmt or detect_format(doc, text),
                                            path=path, sha256=sha)


def extract_path(path: str | Path, *, rules_dir: str | None = None,
                 max_bytes: int = MAX_BYTES) -> DocumentRecord:
    """Read and extract one file; raises a DocumentFailure subclass when it cannot be read."""
    text, sha = read_document(path, max_bytes)
    p = Path(path)
    return extract_text(text, p.name, path=str(p), sha256=sha, rules_dir=rules_dir)
