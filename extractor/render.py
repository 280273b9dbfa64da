"""Rendering a document record: canonical JSON, and a short human-readable listing."""
from __future__ import annotations

import json
from typing import Any, Iterator

from extractor.records import BASELINE_NOT_NAMED, DocumentRecord


def record_json(record: DocumentRecord, indent: int | None = 2) -> str:
    """The record as deterministic JSON (field order of the models, no NaN)."""
    return "".join(record_json_chunks(record, indent))


def record_json_chunks(record: DocumentRecord, indent: int | None = 2) -> Iterator[str]:
    """`record_json` in pieces, one claim at a time: a results table of 8,000 rows has 48,000 claims,
    whose dumped dictionaries and text would be held at once (~1.5 GB) if dumped as one. The pieces
    are the text `json.dumps` writes for the whole record, to the byte: the same separators and
    indentation, each claim dumped alone and indented to its depth."""
    newline = "" if indent is None else "\n"
    item_sep = ", " if indent is None else ","
    head = record.model_dump(mode="json", exclude={"claims"})
    yield "{"
    for i, name in enumerate(DocumentRecord.model_fields):
        yield f"{item_sep if i else ''}{newline}{_pad(indent, 1)}{_dumps(name, None)}: "
        if name != "claims":
            yield _dumps(head[name], indent, 1)
        elif not record.claims:
            yield "[]"
        else:
            yield "["
            for k, claim in enumerate(record.claims):
                yield f"{item_sep if k else ''}{newline}{_pad(indent, 2)}"
                yield _dumps(claim.model_dump(mode="json"), indent, 2)
            yield f"{newline}{_pad(indent, 1)}]"
    yield f"{newline}}}"


def _pad(indent: int | None, level: int) -> str:
    return " " * (indent or 0) * level


def _dumps(value: Any, indent: int | None, level: int = 0) -> str:
    """`value` as JSON, its lines indented as at depth `level` of an enclosing document."""
    text = json.dumps(value, indent=indent, ensure_ascii=False, allow_nan=False)
    return text.replace("\n", "\n" + _pad(indent, level)) if indent is not None and level else text


def _value(c) -> str:
    v = f"{c.value:g}" if c.value_max is None else f"{c.value:g}–{c.value_max:g}"
    return f"{v} {c.unit}"


def record_text(record: DocumentRecord) -> str:
    """One line per claim, then its stated conditions and the unrecoverable ones."""
    lines = [f"{record.doc}: {record.title or '(untitled)'}", f"{len(record.claims)} claims"]
    for c in record.claims:
        flags = ("H " if c.headline else "  ") + f"{c.metric:18s} {_value(c):32s} {c.qualifier:8s}"
        extra = ", ".join(x for x in (c.tokens and f"tokens={c.tokens}", c.per and f"per={c.per}",
                                      c.baseline and (f"vs {c.baseline}" if c.baseline != BASELINE_NOT_NAMED
                                                                     else "baseline not named")) if x)
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
