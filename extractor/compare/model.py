"""What a comparison reads and what it returns (pydantic: it crosses into the CLI, the store and pages)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from extractor.records import Claim, DocumentRecord, Note

Status = Literal["same", "differs", "unknown"]
Verdict = Literal["comparable", "not comparable", "cannot tell"]


class ClaimRef(BaseModel):
    """A claim with the post it comes from (its caveats, date) and the way the user named it."""

    model_config = ConfigDict(extra="forbid")

    ref: str = Field(description="the claim id, or FILE#N")
    doc: str
    path: str | None = None
    title: str | None = None
    date: str | None = None
    claim: Claim
    caveats: list[Note] = Field(default_factory=list)

    @classmethod
    def of(cls, record: DocumentRecord, index: int, ref: str | None = None, path: str | None = None) -> "ClaimRef":
        """The `index`-th claim of `record`."""
        claim = record.claims[index]
        return cls(ref=ref or claim.id, doc=record.doc, path=path or record.path, title=record.title,
                   date=record.date, claim=claim, caveats=record.caveats)

    @property
    def key(self) -> tuple[str, str]:
        """(post, claim id): unique over a corpus."""
        return (self.path or self.doc, self.claim.id)


class Row(BaseModel):
    """One condition (or claim field) of the two claims side by side."""

    name: str
    role: str = Field(description="required, if_either or shown (rules/compare.yaml)")
    status: Status
    a: str | None = None
    b: str | None = None
    blocks: bool = Field(False, description="this row decides the verdict (not comparable / cannot tell)")
    note: str | None = Field(None, description="for an unknown row: where each side could say it")


class Side(BaseModel):
    """One claim as the comparison shows it."""

    ref: str
    id: str
    doc: str
    metric: str
    figure: str = Field(description="value and unit as the record gives them")
    value: float
    value_max: float | None = None
    unit: str
    quote: str
    caveats: list[str] = Field(default_factory=list)


class Comparison(BaseModel):
    """Two claims compared: rows, values in one unit, caveats and the verdict."""

    a: Side
    b: Side
    unit: str | None = Field(None, description="the unit both values are shown in (A's), when commensurable")
    a_value: float | None = None
    b_value: float | None = Field(None, description="B's value converted to `unit`")
    b_value_max: float | None = None
    conversion: str | None = Field(None, description="how B's value was converted, when it was")
    ratio: float | None = Field(None, description="A / B in the common unit")
    rows: list[Row]
    verdict: Verdict
    reasons: list[str] = Field(default_factory=list, description="the rows that decide the verdict")
    unstated: list[str] = Field(default_factory=list, description="if_either conditions neither side states")

    @property
    def verdict_line(self) -> str:
        if self.verdict == "comparable":
            extra = f" (neither states: {', '.join(self.unstated)})" if self.unstated else ""
            return f"comparable{extra}"
        return f"{self.verdict}: {', '.join(self.reasons)}"
