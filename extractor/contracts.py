"""What each stage of the pipeline does to a claim: the fields it sets and the fields it reads.

A claim is filled by several stages (the readers create it, the headline marker flags it, the conditions stage
ties its conditions and merges its restatements, the record gives it an id). Each stage declares its part the way
spaCy factories declare `assigns=` and `requires=`; `tests/pipeline/test_stage_contracts.py` runs the stages and fails when
one sets a field it does not declare, and `docs/architecture.md` lists the contracts (scripts/refresh_docs.py).

    StageContract("headlines", "marks the claims in the lead", assigns=("headline",), requires=("span",))
"""
from __future__ import annotations

from dataclasses import dataclass

from extractor.records import Claim

CLAIM_FIELDS = tuple(Claim.model_fields)


@dataclass(frozen=True)
class StageContract:
    """A stage's name, what it does in one line, the claim fields it sets and the claim fields it reads."""

    stage: str
    does: str
    assigns: tuple[str, ...] = ()
    requires: tuple[str, ...] = ()
    creates: bool = False          # the stage makes the claims (every field it assigns is set at creation)

    def __post_init__(self) -> None:
        unknown = sorted(set(self.assigns + self.requires) - set(CLAIM_FIELDS))
        if unknown:
            raise ValueError(f"stage {self.stage!r} names fields a claim does not have: {', '.join(unknown)}")

    def row(self) -> str:
        """The contract as a row of the Markdown table in docs/architecture.md."""
        def names(fields: tuple[str, ...]) -> str:
            return ", ".join(f"`{f}`" for f in fields) or "-"
        return f"| {self.stage} | {self.does} | {names(self.assigns)} | {names(self.requires)} |"


# the fields a reader sets when it creates a claim (`ClaimBuilder.claim`)
CREATED = ("metric", "value", "value_max", "unit", "qualifier", "tokens", "per", "baseline", "direction",
           "statistic", "quote", "span", "context")
