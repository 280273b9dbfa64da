"""The shape of a diff report: what changed in a claim, a document and a whole comparison (pydantic models
the renderers read), and the field and kind names they use."""
from __future__ import annotations

from typing import Any, Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field

from extractor.records import Claim
from extractor.review.views import ConditionChange, ContextGroup, Excerpt

CLAIM_FIELDS: tuple[str, ...] = (
    "metric", "value", "value_max", "unit", "qualifier", "tokens", "per", "baseline", "direction", "headline",
    "quote",
)
CONDITION_FIELDS: tuple[str, ...] = ("status", "value", "where")
DOC_FIELDS: tuple[str, ...] = ("title", "date", "date_source", "authorship", "caveats", "provenance")
CLAIM_KINDS: tuple[str, ...] = ("added", "removed", "changed")
KINDS: tuple[str, ...] = CLAIM_KINDS + ("document", "set_aside")
SET_ASIDE_KINDS: tuple[str, ...] = ("added", "removed", "changed")


class DiffModel(BaseModel):
    model_config = ConfigDict(extra="forbid")


class FieldChange(DiffModel):
    """One field of a claim (or document) whose value differs between the sides."""

    field: str
    old: Any = None
    new: Any = None


class SetAsideChange(DiffModel):
    """One set-aside figure that differs: `added` (set aside now, not before), `removed` (set aside before,
    not now) or `changed` (another reason or rule). `moved`: `from_claim` when the added figure was a claim
    of the old run, `to_claim` when the removed one is a claim of the new run."""

    kind: Literal["added", "removed", "changed"]
    quote: str
    span: tuple[int, int]
    old_reason: str | None = None
    new_reason: str | None = None
    old_rule: str | None = None
    new_rule: str | None = None
    moved: Literal["from_claim", "to_claim"] | None = None



class ClaimDiff(DiffModel):
    """An added, removed or changed claim; `old_index`/`new_index` are ranks in document order."""

    kind: Literal["added", "removed", "changed"]
    match: Literal["key", "fuzzy", "mention"] | None = None   # mention: one side's claim is a mention of the other's
    score: float | None = None
    old_index: int | None = None
    new_index: int | None = None
    old: Claim | None = None
    new: Claim | None = None
    fields: list[FieldChange] = Field(default_factory=list)
    old_context: Excerpt | None = None
    new_context: Excerpt | None = None
    group: str | None = None
    conditions: list[ConditionChange] = Field(default_factory=list)

    @property
    def claim(self) -> Claim:
        """The claim as it is now (the old one for a removed claim)."""
        c = self.new if self.new is not None else self.old
        assert c is not None
        return c


class DocDiff(DiffModel):
    """Differences in one document (present on one side or both)."""

    doc: str
    path: str | None = None
    status: Literal["added", "removed", "common"]
    old_sha256: str | None = None
    new_sha256: str | None = None
    hash_changed: bool = False
    renamed_from: str | None = None
    old_rules_version: str | None = None
    new_rules_version: str | None = None
    fields: list[FieldChange] = Field(default_factory=list)
    claims: list[ClaimDiff] = Field(default_factory=list)
    set_aside: list[SetAsideChange] = Field(default_factory=list, description="set-aside figures that differ")
    unchanged_claims: int = 0
    counts: dict[str, int] = Field(default_factory=dict)
    groups: list[ContextGroup] = Field(default_factory=list)
    context_note: str | None = None
    audit: str | None = None

    @property
    def differs(self) -> bool:
        return self.status != "common" or bool(self.fields) or bool(self.claims) or bool(self.set_aside)


class DiffSummary(DiffModel):
    """Counts per kind (documents, claims), per metric and kind, and per changed field; `line` says it in one line."""

    documents: dict[str, int]
    claims: dict[str, int]
    fields: dict[str, int]
    by_metric: dict[str, dict[str, int]] = Field(default_factory=dict)
    set_aside: dict[str, int] = Field(default_factory=dict, description="set-aside figures added, removed, "
                                      "changed; moved from or to the claims")
    line: str = ""


class DiffReport(DiffModel):
    """The whole comparison; `documents` lists documents with differences, a changed hash or a new path."""

    old_label: str = "old"
    new_label: str = "new"
    summary: DiffSummary
    documents: list[DocDiff] = Field(default_factory=list)
    errors: list[str] = Field(default_factory=list)

    def kinds_present(self) -> set[str]:
        """The kinds of difference in this report (subset of KINDS)."""
        kinds = {k for k in CLAIM_KINDS if self.summary.claims.get(k)}
        d = self.summary.documents
        if d.get("added") or d.get("removed") or d.get("fields_changed"):
            kinds.add("document")
        if any(self.summary.set_aside.get(k) for k in ("added", "removed", "changed")):
            kinds.add("set_aside")
        return kinds

    def has_differences(self, kinds: Iterable[str] | None = None) -> bool:
        """True when any difference (of the given kinds, when given) is present."""
        present = self.kinds_present()
        return bool(present if kinds is None else present & set(kinds))
