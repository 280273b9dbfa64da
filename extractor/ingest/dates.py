"""A post's publication date and where it came from.

    found = document_date(doc, "2025-01-27-title.md")   # DocumentDate(date="2025-01-27", source="file_name")

Sources, first found wins: the front matter (`date`, then the other publication-date fields blog
generators use), the file name (Jekyll's leading `YYYY-MM-DD`, or one after a prefix such as
`blog--2025-01-27-title.md`), the HTML page's `<meta>` (`article:published_time`, `date`), its
first `<time datetime>`, its JSON-LD `datePublished`. Dates are written `YYYY-MM-DD` as the
writer gave them (a time of day and time zone are dropped, never converted). A front-matter `date`
that is no date (month 13, 30 February, free text) gives no date and a problem naming the field:
the post is kept, and nothing later in the chain replaces a date the writer got wrong. The other
fields count only when they hold a date (Jekyll's `published: true` is a draft flag, not a date).
"""
from __future__ import annotations

import json
import re
from datetime import date, datetime
from typing import Any

from pydantic import BaseModel

from extractor.ingest.model import Document
from extractor.records import DateSource

# Front-matter fields that hold the publication date (Jekyll, Hugo, Astro, Eleventy...), in order.
FRONT_MATTER_FIELDS = ("date", "published", "publishDate", "pubDate", "published_at", "datePublished")
_ISO = re.compile(r"\s*(\d{4})-(\d{1,2})-(\d{1,2})(?![\d])")
_SLASHED = re.compile(r"\s*(\d{4})/(\d{1,2})/(\d{1,2})(?![\d])")
# A date standing alone in a file name: at its start or after a separator, followed by one or its end.
_NAME_DATE = re.compile(r"(?:^|[-_.])(\d{4})-(\d{2})-(\d{2})(?=$|[-_.])")
_WRITTEN = ("%b %d, %Y", "%B %d, %Y", "%d %b %Y", "%d %B %Y", "%b %d %Y", "%B %d %Y")
_JSON_LD = re.compile(r"<script\b[^>]*\btype\s*=\s*[\"']?application/ld\+json[^>]*>(.*?)</script\s*>",
                      re.I | re.S)


class DateProblem(BaseModel):
    """A front-matter date field whose value is not a date."""

    field: str
    value: str
    reason: str
    span: tuple[int, int] | None = None


class DocumentDate(BaseModel):
    """The publication date (`YYYY-MM-DD`), where it came from, and a problem when one was found."""

    date: str | None = None
    source: DateSource | None = None
    problem: DateProblem | None = None


class NotADate(ValueError):
    """A value that should be a date but is not one."""


def parse_date(value: Any) -> str:
    """`YYYY-MM-DD` of a date written as ISO (with or without a time), `2025/01/27` or `Jan 27, 2025`."""
    if isinstance(value, datetime):
        return value.date().isoformat()
    if isinstance(value, date):
        return value.isoformat()
    text = str(value).strip()
    m = _ISO.match(text) or _SLASHED.match(text)
    if m:
        try:
            return date(int(m[1]), int(m[2]), int(m[3])).isoformat()
        except ValueError as err:
            raise NotADate(str(err)) from None
    for fmt in _WRITTEN:
        try:
            return datetime.strptime(text.replace("Sept ", "Sep "), fmt).date().isoformat()
        except ValueError:
            continue
    raise NotADate("not a date this reader knows (write it YYYY-MM-DD)")


def date_in_name(name: str) -> str | None:
    """The date a file name carries (`2025-01-27-title.md`), when it is a real date."""
    stem = name.replace("\\", "/").rsplit("/", 1)[-1]
    for m in _NAME_DATE.finditer(stem):
        try:
            return date(int(m[1]), int(m[2]), int(m[3])).isoformat()
        except ValueError:
            continue
    return None


def _field_span(doc: Document, field: str) -> tuple[int, int] | None:
    """The span of a front-matter field's value, for the note that names it."""
    if doc.meta_span is None:
        return None
    start, end = doc.meta_span
    m = re.compile(rf"^[ \t]*{re.escape(field)}[ \t]*:[ \t]*(.*?)[ \t]*$", re.M).search(doc.text, start, end)
    return (m.start(1), m.end(1)) if m and m.end(1) > m.start(1) else None


def _json_ld_date(text: str) -> str | None:
    """The first `datePublished` of the page's JSON-LD blocks (objects, lists, @graph)."""
    for m in _JSON_LD.finditer(text):
        try:
            data = json.loads(m.group(1))
        except ValueError:
            continue
        stack = [data]
        while stack:
            item = stack.pop(0)
            if isinstance(item, dict):
                if isinstance(item.get("datePublished"), str):
                    return item["datePublished"]
                stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
            elif isinstance(item, list):
                stack.extend(item)
    return None


def document_date(doc: Document, name: str) -> DocumentDate:
    """The post's date from the first source that has one (see the module docstring)."""
    if doc.fmt == "markdown" or doc.meta_span is not None:
        for field in FRONT_MATTER_FIELDS:
            value = doc.meta.get(field)
            if value is None or value == "":
                continue
            try:
                return DocumentDate(date=parse_date(value), source="front_matter")
            except NotADate as err:
                if field != "date":
                    continue  # e.g. Jekyll's `published: true` (a draft flag): another field's business
                return DocumentDate(problem=DateProblem(field=field, value=str(value), reason=str(err),
                                                        span=_field_span(doc, field)))
    named = date_in_name(name)
    if named:
        return DocumentDate(date=named, source="file_name")
    if doc.fmt == "html":
        candidates: tuple[tuple[DateSource, Any], ...] = (
            ("html_meta", doc.meta.get("date")), ("html_time", doc.meta.get("time_datetime")),
            ("json_ld", _json_ld_date(doc.text)))
        for source, value in candidates:
            if value:
                try:
                    return DocumentDate(date=parse_date(value), source=source)
                except NotADate:
                    continue  # a page's machine-readable date that is no date: try the next one
    return DocumentDate()
