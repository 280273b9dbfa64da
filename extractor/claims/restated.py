"""An example that restates one of the post's own results ("Rates are per sender. For example, with two nodes, 70 GB/s
of it stays on a node" under a table that reports 70 GB/s with two nodes) is no example: it is a mention of that
claim (GOLD: one figure stated several times is one claim with several mentions). The set-aside rules that may
restate a result carry `restates: true` (rules/set_aside.yaml); a supposition (`restatement_not`: "suppose", "if",
"would") stays an example."""
from __future__ import annotations

import re
from bisect import bisect_right

from extractor.ingest import Document
from extractor.ingest.segment import split_sentences
from extractor.records import Claim, ClaimContext, ClaimMention, SetAside

# what a written figure keeps when compared: its digits, decimal point and unit letters
_NOISE = re.compile(r"[\s*_~≈,]")


def _written(quote: str) -> str:
    return _NOISE.sub("", quote).lower()


class Restatements:
    """Turns the restating examples of a post into mentions of the claims they restate (see the module docstring)."""

    def __init__(self, restating_rules: frozenset[str], supposition: re.Pattern, abbreviations: frozenset[str]):
        self.restating_rules = restating_rules
        self.supposition = supposition
        self.abbreviations = abbreviations

    def apply(self, d: Document, claims: list[Claim], set_aside: list[SetAside]) -> list[SetAside]:
        """The set-aside figures left once each example of a restating rule that writes a claim's figure again, in
        the claim's own section and in a sentence that supposes nothing, became a mention of that claim (the nearest
        such claim before it, else after it)."""
        if not any(s.rule in self.restating_rules for s in set_aside):
            return set_aside
        index: dict[tuple[int | None, str], list[tuple[int, Claim]]] = {}   # (section, written figure) -> claims
        for c in claims:
            for m in c.mentions or [c]:
                index.setdefault((d.section_at(m.span[0]), _written(m.quote)), []).append((m.span[0], c))
        block_starts = [b.start for b in d.blocks]
        sentences: dict[int, list[tuple[int, int]]] = {}   # per block: its sentence spans, split once
        kept: list[SetAside] = []
        for s in set_aside:
            start = s.span[0]
            same = index.get((d.section_at(start), _written(s.quote)), []) if s.rule in self.restating_rules else []
            if not same or self._supposes(d, block_starts, sentences, start):
                kept.append(s)
                continue
            claim = min(same, key=lambda p: abs(p[0] - start) + (0 if p[0] < start else len(d.text)))[1]
            claim.mentions = sorted(claim.mentions + [ClaimMention(quote=s.quote, span=s.span, context=ClaimContext(
                section=d.section_path(d.section_at(start)), block="paragraph"))], key=lambda m: m.span)
        return kept

    def _supposes(self, d: Document, block_starts: list[int], sentences: dict[int, list[tuple[int, int]]],
                  start: int) -> bool:
        """Whether the sentence of the figure at `start` supposes before it ("For example, imagine a link of ...").
        `sentences`: the sentence spans of each block read so far, by block (split once each: a paragraph of many
        restating examples is not split again for each)."""
        i = bisect_right(block_starts, start) - 1
        if i < 0 or start >= d.blocks[i].end:
            return True   # outside any block: no sentence to read, no restatement
        b = d.blocks[i]
        if i not in sentences:
            sentences[i] = split_sentences(d.view, b.start, b.end, self.abbreviations)
        spans = sentences[i]
        j = bisect_right(spans, (start, float("inf"))) - 1
        sentence = spans[j][0] if j >= 0 and spans[j][0] <= start < spans[j][1] else b.start
        return self.supposition.search(d.text, sentence, start) is not None
