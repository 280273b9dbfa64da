"""An example that restates one of the post's own results ("Note that, for example, under the two-node case 90 GB/s
includes local traffic" under a table that reports 90 GB/s for that case) is no example: it is a mention of that
claim (GOLD: one figure stated several times is one claim with several mentions). The set-aside rules that may
restate a result carry `restates: true` (rules/set_aside.yaml); a hypothetical ("suppose", "if", "would") stays an
example."""
from __future__ import annotations

import re

from extractor.ingest import Document
from extractor.records import Claim, ClaimContext, ClaimMention, SetAside

# a sentence that supposes rather than restates: its figure is no result of the post
_HYPOTHETICAL = re.compile(r"(?i)\b(?:suppose|imagine|assume|if|would|could|hypothetical\w*|say)\b")
# where the figure's sentence starts: after a sentence end ("e.g. 70" is none) or a line break, this close before it
_SENTENCE_END = re.compile(r"(?<!\be\.g)(?<!\beg)(?<!\bi\.e)(?<!\bvs)(?<!\betc)[.!?]\s+(?=[A-Z\[(*_])|\n")
SENTENCE_REACH = 300
# what a written figure keeps when compared: its digits, decimal point and unit letters
_NOISE = re.compile(r"[\s*_~≈,]")


def _written(quote: str) -> str:
    return _NOISE.sub("", quote).lower()


def restated(d: Document, claims: list[Claim], set_aside: list[SetAside],
             restating_rules: frozenset[str]) -> list[SetAside]:
    """The set-aside figures left once each example of `restating_rules` that writes a claim's figure again, in
    the claim's own section and in a sentence that supposes nothing, became a mention of that claim (the nearest
    such claim before it, else after it)."""
    if not restating_rules or not any(s.rule in restating_rules for s in set_aside):
        return set_aside
    kept: list[SetAside] = []
    for s in set_aside:
        claim = _restated_claim(d, claims, s) if s.rule in restating_rules else None
        if claim is None:
            kept.append(s)
            continue
        section = d.section_path(d.section_at(s.span[0]))
        claim.mentions = sorted(claim.mentions + [ClaimMention(quote=s.quote, span=s.span, context=ClaimContext(
            section=section, block="paragraph"))], key=lambda m: m.span)
    return kept


def _restated_claim(d: Document, claims: list[Claim], s: SetAside) -> Claim | None:
    start = s.span[0]
    window = max(0, start - SENTENCE_REACH)
    lo = max((m.end() for m in _SENTENCE_END.finditer(d.text, window, start)), default=window)
    if _HYPOTHETICAL.search(d.text, lo, start):
        return None
    section = d.section_at(start)
    written = _written(s.quote)
    same = [(abs(m.span[0] - start) + (0 if m.span[0] < start else len(d.text)), c) for c in claims
            for m in c.mentions or [c] if _written(m.quote) == written and d.section_at(m.span[0]) == section]
    return min(same, key=lambda p: p[0])[1] if same else None
