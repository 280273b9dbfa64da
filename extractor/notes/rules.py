"""Pydantic models for rules/caveats.yaml and rules/authorship.yaml (regexes checked at load)."""
from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field

Category = Literal["hardware-vendor", "engine-project", "cloud-provider", "independent", "mixed"]


def _check_regex(pattern: str) -> str:
    try:
        re.compile(pattern)
    except re.error as err:
        raise ValueError(f"bad regex {pattern!r}: {err}") from None
    return pattern


Regex = Annotated[str, AfterValidator(_check_regex)]


class RuleModel(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


def union(patterns: list[str], flags: int = re.I) -> re.Pattern[str]:
    """One compiled alternation of several patterns (a single pass over the text)."""
    return re.compile("|".join(f"(?:{p})" for p in patterns), flags)


class CueFinder:
    """Full patterns run only near cue hits found in the lowercased text (cheap literal scans).

    `finditer(text, lower)` yields matches of the patterns in `text`; `lower` is
    `text.lower()` computed once per document. Without cues, or when lowercasing
    changed the length (offsets would shift), the patterns scan the whole text.
    """

    def __init__(self, patterns: list[str], cues: list[str], *, case: bool = False, margin: int = 200):
        self.rx = union(patterns, 0 if case else re.I)
        self.cues = [re.compile(c) for c in cues]
        self.margin = margin

    def windows(self, n: int, lower: str) -> list[tuple[int, int]]:
        spans = sorted((max(0, m.start() - self.margin), min(n, m.end() + self.margin))
                       for c in self.cues for m in c.finditer(lower))
        merged: list[tuple[int, int]] = []
        for s, e in spans:
            if merged and s <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], e))
            else:
                merged.append((s, e))
        return merged

    def finditer(self, text: str, lower: str | None = None):
        if not self.cues or lower is None or len(lower) != len(text):
            yield from self.rx.finditer(text)
            return
        for s, e in self.windows(len(text), lower):
            yield from self.rx.finditer(text, s, e)

    def search(self, text: str, lower: str | None = None) -> re.Match[str] | None:
        return next(self.finditer(text, lower), None)


# -- caveats.yaml -----------------------------------------------------------------
class TextCaveat(RuleModel):
    kind: str
    patterns: list[Regex] = Field(min_length=1)
    cues: list[Regex] = Field(default_factory=list)
    case: bool = False
    message: str


class RoundedRule(TextCaveat):
    qualifiers: list[str] = Field(default_factory=list)
    chart_message: str


class SweepRule(TextCaveat):
    window: int = Field(default=1, ge=0, le=5)


class ScenarioRule(RuleModel):
    kind: str
    cues: list[Regex] = Field(default_factory=list)
    patterns: list[Regex] = Field(min_length=1)
    message: str


class TokensRule(RuleModel):
    kind: str
    metrics: list[str]
    messages: dict[Literal["total", "output", "input"], str]
    unspecified: str


class ReproText(TextCaveat):
    in_text: bool = False
    exclude_before: Regex | None = None
    max_notes: int = Field(default=3, ge=1)


class ReproRecipe(RuleModel):
    kind: str
    link_target: Regex
    link_text: Regex
    link_exclude: Regex | None = None
    message: str
    max_notes: int = Field(default=2, ge=1)


class ReproCommand(RuleModel):
    kind: str
    starters: list[Regex] = Field(min_length=1)
    prompt: Regex
    message: str
    max_notes: int = Field(default=2, ge=1)


class Reproducibility(RuleModel):
    image_digest: ReproText
    pinned_version: ReproText
    recipe: ReproRecipe
    command: ReproCommand


class CaveatRules(RuleModel):
    version: int = 1
    margin: int = Field(default=200, ge=20)
    stream_interval: TextCaveat
    rounded_headline: RoundedRule
    sweep_best: SweepRule
    scenario: ScenarioRule
    tokens: TokensRule
    reproducibility: Reproducibility


# -- authorship.yaml --------------------------------------------------------------
_LEADING = re.compile(r"^(?:\\b)?([A-Za-z0-9]+)")


def leading_word(pattern: str) -> str:
    """The literal word an organisation pattern starts with (its lookup key)."""
    m = _LEADING.match(pattern)
    return m.group(1) if m else ""


def _check_org_pattern(pattern: str) -> str:
    _check_regex(pattern)
    m = _LEADING.match(pattern)
    if not m or (len(pattern) > m.end() and pattern[m.end()] in "*?{+"):
        raise ValueError(f"org pattern {pattern!r} must start with a literal word (optionally after \\b)")
    return pattern


class Org(RuleModel):
    name: str
    category: Literal["hardware-vendor", "engine-project", "cloud-provider", "independent"]
    patterns: list[Annotated[str, AfterValidator(_check_org_pattern)]] = Field(min_length=1)
    domains: list[str] = Field(default_factory=list)
    case: bool = False


class MixedRule(RuleModel):
    min_people: int = Field(default=2, ge=1)
    min_share: float = Field(default=0.34, gt=0, le=1)
    independent_with_credited_team: bool = True


class AuthorMessages(RuleModel):
    author: str
    author_unknown_org: str
    domain: str
    affiliation: str
    credited: str
    subject: str
    verdict: dict[Category, str]


class AuthorshipRules(RuleModel):
    version: int = 1
    orgs: list[Org] = Field(min_length=1)
    author_keys: list[str]
    domain_keys: list[str]
    byline_window: int = Field(default=1500, ge=0)
    bylines: list[Regex]
    self_identification_cues: list[Regex] = Field(default_factory=list)
    self_identification: list[Regex]
    org_like: Regex
    credit_sections: Regex
    affiliation: Regex
    credited_team: Regex
    credited_window: int = Field(default=40, ge=1)
    mixed: MixedRule = Field(default_factory=MixedRule)
    subject_window: int = Field(default=600, ge=0)
    messages: AuthorMessages
