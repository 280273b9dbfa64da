"""How a claim and a value read in every view of a diff (text and HTML)."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable

from extractor.records import Claim

if TYPE_CHECKING:
    from extractor.review.diff import DocDiff

MARK = {"added": "+", "removed": "-", "changed": "~"}


def fmt_value(value: Any) -> str:
    """A value as JSON would write it (whole floats without `.0`)."""
    if value is None:
        return "null"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def shown_value(value: Any) -> str:
    """A field's value for a person: `(none)` when there is none (not JSON's `null`), else as JSON writes it."""
    return "(none)" if value is None else fmt_value(value)


def clip_line(text: str | None, width: int = 90) -> str:
    """One line of at most `width` characters (blank runs collapsed, … where cut)."""
    text = " ".join((text or "").split())
    return text if len(text) <= width else text[: width - 1] + "…"


def claim_label(c: Claim) -> str:
    """`metric value[-max] unit [qualifier]` for one claim."""
    val = fmt_value(c.value) + (f"-{fmt_value(c.value_max)}" if c.value_max is not None else "")
    qual = "" if c.qualifier == "exact" else f" ({c.qualifier})"
    return f"{c.metric} {val} {c.unit}{qual}"


BLOCK_NAMES = {"front_matter": "front matter", "list_item": "list item", "caption": "caption",
               "heading": "heading", "quote": "block quote", "table": "table"}


def group_label(kind: str, block: str) -> str:
    """What a context group is called in a view: `table`, `sentence`, or its block (`front matter`...)."""
    if kind == "table":
        return "table"
    return BLOCK_NAMES.get(block, "sentence" if kind == "sentence" else block)


def doc_tags(doc: DocDiff, escape: Callable[[str], str] = str, arrow: str = "->") -> list[str]:
    """What sets a document apart in a diff: added or removed, renamed, its content hash changed."""
    tags = []
    if doc.status != "common":
        tags.append(f"document {doc.status}")
    if doc.renamed_from:
        tags.append(f"was {escape(doc.renamed_from)}")
    if doc.hash_changed:
        tags.append(f"content hash changed {escape((doc.old_sha256 or '')[:12])} {arrow} "
                    f"{escape((doc.new_sha256 or '')[:12])}")
    return tags
