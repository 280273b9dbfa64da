"""Writing the audit page of many posts at once (`report --audit-pages`, `diff/rerun --audit-pages`).

A post's page is `<doc stem>.audit.html` in the audit folder (review/links.py's convention, which the diff
report links to). It is drawn from the stored record and the post's file as it is now; a post whose file
is gone or changed since its record was made is skipped and named (its spans would point elsewhere).
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Iterable

from extractor.records import DocumentRecord


def write_audit_page(record: DocumentRecord, folder: Path, base: Path | None = None) -> Path | None:
    """Write the audit page of `record` into `folder`; None when its post cannot be read as it was."""
    from extractor.api import detect_format
    from extractor.audit import render_audit_html
    from extractor.ingest import ingest
    from extractor.ingest.reading import decode
    from extractor.review.links import audit_page_name

    source = Path(record.path or record.doc)
    if not source.is_absolute() and base is not None and not source.exists():
        source = base / source
    try:
        data = source.read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != record.sha256:
        return None
    text = decode(data, str(source))
    fmt = detect_format(source.name, text)
    view = ingest(text, source.name, fmt).view if fmt == "html" else None
    page = folder / audit_page_name(record.doc)
    page.write_text(render_audit_html(record, text, view, markdown=fmt == "markdown"), encoding="utf-8")
    return page


def write_audit_pages(records: Iterable[DocumentRecord], folder: Path, base: Path | None = None
                      ) -> tuple[dict[str, Path], list[str]]:
    """Write the page of every record into `folder` (created); (doc -> page, docs skipped)."""
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    skipped: list[str] = []
    for record in records:
        page = write_audit_page(record, folder, base)
        if page is None:
            skipped.append(record.doc)
        else:
            written[record.doc] = page
    return written, skipped
