"""The claim stage: the sentence, table and program-output readers over one document, and the figures they found
that are kept out of the claims (a figure inside a name, a figure a demoting rule sets aside).

    stage = ClaimStage(rules_dir, load_claim_rules(rules_dir))
    read = stage.read(d, cap, names=[((0, 12), "model"), ...])   # read.placed: (claim, passage) in text order
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from extractor.claims.adjacent_baselines import fill_adjacent_baselines
from extractor.claims.analysis import TextAnalyser
from extractor.claims.classify import unit_class
from extractor.claims.counting import CountingDefinitions, Definition, load_counting_rules
from extractor.claims.output_blocks import OutputBlocks
from extractor.claims.rules import ClaimRules
from extractor.claims.script_output import ScriptOutputReader
from extractor.claims.sentences import Rejected, SentenceReader
from extractor.claims.set_aside import FigureDecider, ProseFigures, SetAsidePlaces
from extractor.claims.tables import TableReader
from extractor.contracts import StageContract
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import Claim, Note, Span
from extractor.spans import inside_near

NAME_KINDS = {"model", "hardware", "engine", "dataset"}
# why a figure inside a name is set aside: "20B" in a model's name, "80GB" in a device's, "0.5.1" in an engine's, "2.0"
# in a benchmark's ("AlpacaEval 2.0": its version, no score)
NAME_REASONS = {"model": "model_size", "hardware": "datasheet", "engine": "date_or_version", "dataset": "date_or_version"}


class ReadClaims(NamedTuple):
    """What the claim stage read of one document (its per-document state, handed to the later stages)."""

    placed: list[tuple[Claim, Passage]]   # the claims and the passage each was read from, in text order
    rejected: Rejected                    # figures turned down, by start offset: (set-aside reason, rule)
    prose: ProseFigures                   # the quantities the readers found, for the set-aside pass
    places: SetAsidePlaces                # where each offset sits, for the set-aside pass
    counted: dict[Span, tuple[Definition, bool]]   # the claims that took their tokens from a definition


class ClaimStage:
    """The claim readers of a rules folder and the figure decider that keeps figures out of the claims."""

    contract = StageContract("placement", "keeps out of the claims the figures inside a name and those a "
                                          "demoting rule sets aside (and a start level restated before its change); "
                                          "orders the claims; names the baseline of a change that sums up the table "
                                          "next to it", assigns=("baseline",),
                             requires=("span", "unit", "metric", "value", "value_max", "qualifier"))

    def __init__(self, rules_dir: Path, rules: ClaimRules):
        self.analyser = TextAnalyser(rules_dir, rules)
        self.tables = TableReader(self.analyser)
        self.script_output = ScriptOutputReader(self.tables, OutputBlocks.from_rules(rules_dir))
        self.sentences = SentenceReader(self.analyser, rules, self.script_output)
        self.figures = FigureDecider(rules_dir, self.analyser.quantity_finder)
        self.counting = CountingDefinitions(load_counting_rules(rules_dir), frozenset(a.lower() for a in rules.abbreviations))

    def read(self, d: Document, cap: int | None, names: list[tuple[Span, str]]) -> ReadClaims:
        """The claims of `d` in text order; past `cap` candidate claims in prose raises TooManyClaims. `names`:
        the (span, kind) of the names the conditions stage found (a number inside a model, hardware or engine
        name is part of the name, not a claim)."""
        self.analyser.enter_document()
        rejected: Rejected = {}
        prose = ProseFigures([], [], [], [])
        residual: list[tuple[Claim, Passage]] = []
        read = self.sentences.claims(d, cap, rejected, prose) + self.tables.claims(d, prose, residual) \
            + self.script_output.claims(d, prose, residual)
        places = self.figures.places(d)
        # a result cell's or a printed figure that nothing names the metric of is a claim unless a set-aside rule
        # applies
        read += [p for p in residual if not self.figures.applies(d, places, p[0])]
        demoted = self.figures.demoted(d, places, [c for c, _ in read])
        demoted.update(baseline_levels_restated(d, read, demoted))
        named = sorted((span, kind) for span, kind in names if kind in NAME_KINDS)
        spans = [span for span, _ in named]
        placed = []
        for i, p in enumerate(read):
            if i in demoted:
                rejected.setdefault(p[0].span[0], demoted[i])   # "TTFT < 1 s" in an SLO: a target, no result
                prose.demoted.append((p[0].span, unit_class(p[0].unit), p[0].unit))
            elif inside_near(spans, *p[0].span):
                kind = next((k for (a, b), k in named if a <= p[0].span[0] < b), "model")
                rejected.setdefault(p[0].span[0], (NAME_REASONS.get(kind, "model_size"), f"names.{kind}"))
            else:
                placed.append(p)
        placed.sort(key=lambda p: (p[0].span[0], p[0].span[1], p[0].metric))
        # a prose change that sums up the table next to it compares with the run of the table's reference cell
        fill_adjacent_baselines(d, placed, self.analyser.cues)
        # what the post's token rates count, defined once, reaches the claims whose own text does not say it
        counted = self.counting.carry(d, self.counting.find(d), placed)
        return ReadClaims(placed, rejected, prose, places, counted)

    def counted_notes(self, d: Document, read: ReadClaims, claims: list[Claim]) -> list[Note]:
        """After the conditions stage (which credits cited figures): the notes of the definitions of what token
        rates count that reach the final claims; a cited figure takes no kind from a post-level definition."""
        return self.counting.notes(d, read.counted, claims)


# the word right before a level a change reaches ("... from 9.2 s to 3.4 s"), or starts from in a longer form
# ("from **3.5%**, with a cold cache, to 61%"): a level of the change itself, read as the dev gold reads it
_REACHED = re.compile(r"(?i)(?:\bto|\bfrom|→|->)[ \t*_~]*$")
# a level followed by the level it changes to ("(40 → 48 ms)"): a change of its own, read where it is written
_STARTS = re.compile(r"[ \t*_]*(?:→|->|to[ \t*_]+[~≈]?\$?\d)")
# the prose blocks where a restated start level is set aside (a printed result in a code block is the run's own)
_PROSE = frozenset({"paragraph", "list_item", "quote", "caption"})
FROM_LEVEL = "set_aside.from_level"


def baseline_levels_restated(d: Document, read: list[tuple[Claim, Passage]],
                             demoted: dict[int, tuple[str, str]]) -> dict[int, tuple[str, str]]:
    """The prose claims that state again, in the same section, the level a change starts from ("the old planner
    took 9.6 s per plan." then "... brings planning from 9.6 s down to 2.5 s"): the reference's level, set aside as
    the start of the change is (`baseline`); not a level a change reaches ("from 120 ms to 9.6 s"), not a table
    cell or a printed result, not another metric or unit."""
    starts = {(c.metric, c.unit, c.value, p.section) for i, (c, p) in enumerate(read)
              if demoted.get(i, ("", ""))[1] == FROM_LEVEL and c.value_max is None}
    if not starts:
        return {}
    out = {}
    for i, (c, p) in enumerate(read):
        if i in demoted or p.kind not in _PROSE or c.value_max is not None \
                or (c.metric, c.unit, c.value, p.section) not in starts \
                or _REACHED.search(d.text, max(0, c.span[0] - 12), c.span[0]) or _STARTS.match(d.text, c.span[1]):
            continue
        out[i] = ("baseline", FROM_LEVEL + "_restated")
    return out
