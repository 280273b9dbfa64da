"""Public API: read a document, extract its record.

    from extractor.api import extract_path, extract_text
    record = extract_path("post.md")          # DocumentRecord
    record = extract_text(text, doc="post.md")

Reading decodes the bytes (UTF-8, else a detected encoding), enforces the size
limit, and stamps the content hash; spans in the record index the decoded text.
Limits (see extractor/limits.py): `max_bytes` (default $BENCHCLAIMS_MAX_BYTES, else
20 MiB) and `timeout` seconds per document (default $BENCHCLAIMS_TIMEOUT, else 60).
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from extractor import __version__, limits
from extractor.errors import DocumentFailure, DocumentTooLarge, UnreadableDocument
from extractor.records import DocumentRecord

EXTRACTOR_VERSION = __version__
try:
    MAX_BYTES = limits.max_bytes()
except ValueError:  # a malformed $BENCHCLAIMS_MAX_BYTES is reported when a document is read
    MAX_BYTES = limits.DEFAULT_MAX_BYTES
WEB_ENCODINGS = ("utf_16", "utf_32", "cp1252", "latin_1", "iso8859_15")
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32-le"), (b"\x00\x00\xfe\xff", "utf-32-be"),
         (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))
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
    for bom, enc in _BOMS:  # UTF-16/32 hold NUL bytes: recognise them by their byte-order mark
        if data.startswith(bom):
            try:
                return data[len(bom):].decode(enc)
            except UnicodeDecodeError:
                raise UnreadableDocument(doc, f"starts with a {enc} byte-order mark but is not {enc}") from None
    if b"\x00" in data[:8192]:
        raise UnreadableDocument(doc, "binary content (NUL bytes)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes  # slow to import; needed only for non-UTF-8 documents

    results = from_bytes(data)
    best = results.best()
    if best is None:
        raise UnreadableDocument(doc, "not UTF-8 and no text encoding could be detected")
    # Among equally clean decodings, prefer the encodings the web actually uses (HTML treats
    # latin-1 as cp1252): charset-normalizer alone picks e.g. cp775 for Western European text.
    calm = {m.encoding: m for m in results if m.chaos <= best.chaos}
    for enc in WEB_ENCODINGS:
        if enc in calm:
            return str(calm[enc])
    return str(best)


def read_document(path: str | Path, max_bytes: int | None = None) -> tuple[str, str]:
    """The decoded text of a file and the sha256 of its bytes."""
    max_bytes = limits.max_bytes(max_bytes)
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
                 sha256: str | None = None, rules_dir: str | None = None,
                 max_bytes: int | None = None, timeout: float | None = None) -> DocumentRecord:
    """Extract the record of a document given as text (DocumentTooLarge, DocumentTimeout name `doc`)."""
    limit = limits.max_bytes(max_bytes)
    if len(text) * 4 > limit:  # cheap bound first; encode only when it could be over
        size = len(text.encode("utf-8", "surrogatepass"))
        if size > limit:
            raise DocumentTooLarge(doc, f"{size} bytes is over the {limit}-byte limit")
    sha = sha256 or hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    extractor = get_extractor(rules_dir)  # built outside the budget: start-up is not the document's
    with limits.time_budget(limits.timeout(timeout), doc):
        return extractor.extract(text, doc=doc, fmt=fmt or detect_format(doc, text), path=path, sha256=sha)


def extract_path(path: str | Path, *, rules_dir: str | None = None, max_bytes: int | None = None,
                 timeout: float | None = None) -> DocumentRecord:
    """Read and extract one file; raises a DocumentFailure subclass when it cannot be read."""
    text, sha = read_document(path, max_bytes)
    p = Path(path)
    try:
        return extract_text(text, p.name, path=str(p), sha256=sha, rules_dir=rules_dir,
                            max_bytes=max(limits.max_bytes(max_bytes), 4 * len(text)),  # bytes checked above
                            timeout=timeout)
    except DocumentFailure as err:  # name the file by its path, as given
        if err.doc == p.name and str(p) != p.name:
            raise type(err)(str(p), err.reason) from None
        raise
