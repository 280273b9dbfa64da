"""The gold format: what a person annotated in one document, a subset of the record.

One JSON file per document, named like the document with `.json` appended
(`post.md` -> `post.md.json`), in a gold folder:

    {"doc": "post.md", "complete": true,
     "claims": [{"metric": "throughput", "value": 4812, "value_max": null, "unit": "token/second",
                 "quote": "**4,812 tok/s**", "headline": false,
                 "conditions": {"model": {"status": "stated", "value": "Llama-3.1-70B-Instruct"},
                                "warmup": {"status": "unrecoverable"}}}]}

`quote` is an exact substring of the document that holds the number (best long enough to occur once:
a quote found several times matches a claim at any of its places);
`complete: false` says the gold does not list every claim, so precision is not scored on it.
Other fields (a record's `id`, `tokens`, `where`, notes...) are allowed and not read.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from extractor.records import CONDITIONS


class GoldError(ValueError):
    """A gold file that cannot be used: unreadable, malformed, or not matching its document."""


class GoldCondition(BaseModel):
    """A condition as annotated: stated (with its value) or unrecoverable."""

    model_config = ConfigDict(extra="ignore")

    status: Literal["stated", "unrecoverable"]
    value: Any = None


class GoldClaim(BaseModel):
    """A claim as annotated."""

    model_config = ConfigDict(extra="ignore")

    metric: str
    value: float
    value_max: float | None = None
    unit: str
    quote: str = Field(min_length=1)
    headline: bool = False
    conditions: dict[str, GoldCondition] = Field(default_factory=dict)

    @field_validator("conditions")
    @classmethod
    def _known(cls, v: dict[str, GoldCondition]) -> dict[str, GoldCondition]:
        unknown = sorted(set(v) - set(CONDITIONS))
        if unknown:
            raise ValueError(f"unknown condition(s) {', '.join(unknown)}; known: {', '.join(CONDITIONS)}")
        return v


class GoldDocument(BaseModel):
    """The gold of one document."""

    model_config = ConfigDict(extra="ignore")

    doc: str
    complete: bool = True
    claims: list[GoldClaim] = Field(default_factory=list)


def load_gold(path: Path) -> GoldDocument:
    """One gold file; GoldError names the file and what is wrong."""
    try:
        return GoldDocument.model_validate(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise GoldError(f"{path}: cannot read: {err}") from None
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise GoldError(f"{path}: {where}: {first['msg']}") from None


def gold_files(folder: Path) -> list[Path]:
    """The gold files of a folder (`*.json`), sorted by name."""
    if not folder.is_dir():
        raise GoldError(f"{folder}: not a folder")
    found = sorted(p for p in folder.glob("*.json") if p.is_file())
    if not found:
        raise GoldError(f"{folder}: no gold files (*.json)")
    return found


def locate(text: str, quote: str) -> list[tuple[int, int]]:
    """The spans where a gold quote occurs in its document; GoldError when it is not there."""
    spans, start = [], text.find(quote)
    while start >= 0:
        spans.append((start, start + len(quote)))
        start = text.find(quote, start + 1)
    if not spans:
        raise GoldError(f"quote {quote!r} is not in the document")
    return spans
