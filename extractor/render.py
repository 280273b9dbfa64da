"""Rendering a document record: canonical JSON, and a short human-readable listing."""
from __future__ import annotations

import json

from extractor.records import DocumentRecord


def record_json(record: DocumentRecord, indent: int | None = 2) -> str:
    """The record as deterministic JSON (field order of the models, no NaN)."""
    return json.dumps(record.model_dump(mode="json"), indent=indent, ensure_ascii=False, allow_nan=False)


def _value(c) -> str:
    v = f"{c.value:g}" if c.value_max is None else f"{c.value:g}–{c.value_max:g}"
    return f"{v} {c.unit}"


def record_text(record: DocumentRecord) -> str:
    """One line per claim, then its stated conditions and the unrecoverable ones."""
    lines = [f"{record.doc}: {record.title or '(untitled)'}", f"{len(record.claims)} claims"]
    for c in record.claims:
        flags = ("H " if c.headline else "  ") + f"{c.metric:18s} {_value(c):32s} {c.qualifier:8s}"
        extra = ", ".join(x for x in (c.tokens and f"tokens={c.tokens}", c.per and f"per={c.per}",
                                      c.baseline and f"vs {c.baseline}") if x)
        lines.append(f"{flags} [{c.span[0]}:{c.span[1]}] {c.quote!r}" + (f"  ({extra})" if extra else ""))
        if len(c.mentions) > 1:
            lines.append(f"      stated {len(c.mentions)} times: " + ", ".join(f"[{m.span[0]}:{m.span[1]}] {m.quote!r}"
                                                                         for m in c.mentions))
        stated = [f"{k}={v.value}" for k, v in c.conditions.items() if v.status == "stated"]
        absent = [k for k, v in c.conditions.items() if v.status == "unrecoverable"]
        if stated:
            lines.append("      stated: " + "; ".join(stated))
        if absent:
            lines.append("      unrecoverable: " + ", ".join(absent))
    return "\n".join(lines)
