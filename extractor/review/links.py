"""Links from a diff report to each post's visual audit page (`benchclaims audit FILE --format html`).

Convention: the audit page of a post is `<doc stem>.audit.html` (`post.md` -> `post.audit.html`) in the
audit folder: the one given (`--audit-dir`), else the folder the report is written to. A page is linked
only when it exists when the report is written. The page shows one extraction, meant to be the new side's:
a claim present there links to `<page>#claim=N` (N: its index in the new record's claims, which are in
text order; the audit page opens that claim's record); a removed claim links to the page itself.
"""
from __future__ import annotations

import os
from pathlib import Path

from extractor.review.diff import DiffReport

SUFFIX = ".audit.html"


def audit_page_name(doc: str) -> str:
    """The file name of a post's audit page: its name without the last suffix, plus `.audit.html`."""
    return Path(doc).stem + SUFFIX


def claim_fragment(new_index: int | None) -> str:
    """The URL fragment that opens a claim on its audit page ('' for a claim not on the new side)."""
    return "" if new_index is None else f"#claim={new_index}"


def link_audit_pages(report: DiffReport, audit_dir: Path, report_dir: Path) -> int:
    """Set `DocDiff.audit` (href relative to the report's folder) where the page exists; returns how many."""
    linked = 0
    for doc in report.documents:
        page = audit_dir / audit_page_name(doc.doc)
        if page.is_file():
            doc.audit = Path(os.path.relpath(page.resolve(), report_dir.resolve())).as_posix()
            linked += 1
    return linked
