"""Public API: read a document, extract its record.

    from extractor.api import extract_path, extract_text
    record = extract_path("post.md")          # DocumentRecord
    record = extract_text(text, doc="post.md")

Reading decodes the bytes (UTF-8, else a detected encoding), enforces the size
limit, and stamps the content hash; spans in the record index the decoded text.
Limits (see extractor/limits.py): `max_bytes` (default $BENCHCLAIMS_MAX_BYTES, else
20 MiB), `timeout` seconds per document (default $BENCHCLAIMS_TIMEOUT, else 60) and the
candidate claims of one document (default $BENCHCLAIMS_MAX_CLAIMS, else 10,000).
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
import os
from pathlib import Path
from typing import BinaryIO

from extractor import __version__, ingest, limits
from extractor.errors import DocumentFailure, DocumentTooLarge
from extractor.ingest.reading import decode, universal_newlines, read_file, read_stream  # noqa: F401 - decode is re-exported
from extractor.records import DocumentRecord

EXTRACTOR_VERSION = __version__
try:
    MAX_BYTES = limits.max_bytes()
except ValueError:  # a malformed $BENCHCLAIMS_MAX_BYTES is reported when a document is read
    MAX_BYTES = limits.DEFAULT_MAX_BYTES
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


def read_document(path: str | Path, max_bytes: int | None = None) -> tuple[str, str]:
    """The decoded text of a file and the sha256 of its bytes (the read is bounded by `max_bytes`)."""
    data = read_file(path, limits.max_bytes(max_bytes))
    return decode(data, str(path)), hashlib.sha256(data).hexdigest()


@lru_cache(maxsize=4)
def get_extractor(rules_dir: str | None = None):
    """The extractor for a rules folder (default: the installed rules), built once per process (its
    regular expressions from the cross-process cache, `extractor/regex_cache.py`, its validated rules and what
    pint says of units from `extractor/derived_cache.py`)."""
    from extractor import derived_cache, regex_cache

    with regex_cache.active(), derived_cache.active():
        from extractor.pipeline import Extractor

        ext = Extractor.from_rules(rules_dir)
        ext.conditions.finder.prepare()   # built on the first text otherwise: outside the cache
        ingest.prepare()                  # the format readers, imported on the first document otherwise
        return ext


def rules_version(rules_dir: str | None = None) -> str:
    """Fingerprint of the rules folder in use."""
    return get_extractor(rules_dir).rules_version


def extract_text(text: str, doc: str = "-", *, fmt: str | None = None, path: str | None = None,
                 sha256: str | None = None, rules_dir: str | None = None,
                 max_bytes: int | None = None, timeout: float | None = None,
                 max_claims: int | None = None) -> DocumentRecord:
    """Extract the record of a document given as text (DocumentTooLarge, TooManyClaims, DocumentTimeout name
    `doc`); `max_claims`: the cap on candidate claims (default $BENCHCLAIMS_MAX_CLAIMS, else 10,000; 0: none)."""
    limit = limits.max_bytes(max_bytes)
    if len(text) * 4 > limit:  # cheap bound first; encode only when it could be over
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise DocumentTooLarge(doc, f"{size} bytes is over the {limit}-byte limit")
    extractor = get_extractor(rules_dir)  # built outside the budget: start-up is not the document's
    with limits.time_budget(limits.timeout(timeout), doc):
        sha = sha256 or hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        text = universal_newlines(text)
        return extractor.extract(text, doc=doc, fmt=fmt or detect_format(doc, text), path=path, sha256=sha,
                                 max_claims=max_claims)


def _extract_read(read, doc: str, name: str, *, fmt: str | None, path: str | None, rules_dir: str | None,
                  timeout: float | None, max_claims: int | None = None) -> DocumentRecord:
    """Read (by calling `read`) and extract under one time budget: a slow read counts against it."""
    extractor = get_extractor(rules_dir)
    with limits.time_budget(limits.timeout(timeout), doc):
        data = read()
        text = decode(data, doc)
        return extractor.extract(text, doc=name, fmt=fmt or detect_format(name, text), path=path,
                                 sha256=hashlib.sha256(data).hexdigest(), max_claims=max_claims)


def extract_path(path: str | Path, *, rules_dir: str | None = None, max_bytes: int | None = None,
                 timeout: float | None = None, fmt: str | None = None,
                 max_claims: int | None = None) -> DocumentRecord:
    """Read and extract one file; raises a DocumentFailure subclass when it cannot be read.

    The read is bounded by the size limit and runs under the time budget; `fmt` overrides the suffix;
    `max_claims` caps the candidate claims (as in `extract_text`)."""
    p = Path(path)
    limit = limits.max_bytes(max_bytes)
    shown, name = _shown(str(p)), _shown(p.name)   # a name that is not UTF-8: its bytes as \xNN in records
    try:
        return _extract_read(lambda: read_file(p, limit, shown), shown, name, fmt=fmt, path=shown,
                             rules_dir=rules_dir, timeout=timeout, max_claims=max_claims)
    except DocumentFailure as err:  # name the file by its path, as given
        if err.doc == name and shown != name:
            raise type(err)(shown, err.reason) from None
        raise


def _shown(path: str) -> str:
    """A file name as printable text: bytes that are not UTF-8 (surrogate escapes) as \\xNN."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def extract_stream(stream: BinaryIO, doc: str = "-", *, fmt: str | None = None, rules_dir: str | None = None,
                   max_bytes: int | None = None, timeout: float | None = None,
                   max_claims: int | None = None) -> DocumentRecord:
    """Read a binary stream (stdin) and extract it: the read is bounded and under the time budget."""
    limit = limits.max_bytes(max_bytes)
    return _extract_read(lambda: read_stream(stream, doc, limit), doc, doc, fmt=fmt, path=None,
                         rules_dir=rules_dir, timeout=timeout, max_claims=max_claims)
