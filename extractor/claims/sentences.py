"""Claims stated in prose: sentences, captions, headings, front-matter headline fields and the output lines
written as a sentence; the sentence-claim reader beside the table reader (tables.py).

Each text unit that may hold a number is read by the quantity finder first; only the units where it saw a
quantity that can be a claim go through the spaCy pass (analysis.py), and each of their quantities with a
unit class (or a bare number a metric cue makes a score) becomes a claim when a metric is chosen for it.
"""
from __future__ import annotations

import re

from extractor import limits
from extractor.claims.analysis import TextAnalyser
from extractor.claims.classify import Cue, unit_class
from extractor.claims.compared import (SERIES_CLASSES, ClaimsByClass, QuantitySpans, compared_unit,
                                       parallel_metric, parenthesized_time, series_metric)
from extractor.claims.cues import NEAR, CueSet, near
from extractor.claims.headlines import front_matter_units
from extractor.claims.prose_ratios import RatioForms, WrittenForm
from extractor.claims.rules import ClaimRules
from extractor.claims.script_output import ScriptOutputReader
from extractor.claims.set_aside import ProseFigures
from extractor.errors import TooManyClaims
from extractor.ingest import Document
from extractor.ingest.segment import Passage, units
from extractor.contracts import CREATED, StageContract
from extractor.records import Claim, ClaimContext, QuantityRecord

# a section number opening a heading ("## 7 Accuracy Evaluation", "### 1.2 Accuracy", "2.3. Throughput"): no figure
_SECTION_NUMBER = re.compile(r"[ \t#]*\d{1,2}(?:\.\d{1,2})*\.?[ \t]+(?=[A-Z*_])")

SPEC_METRICS = ("memory", "bandwidth", "compute")   # what a datasheet compares ("2x the memory of the older card")
Rejected = dict[int, tuple[str, str]]   # start offset of a figure -> (set-aside reason, rule)



# the end of a sentence before the next one ("... PyTorch. Furthermore"): a stop, then space
PREVIOUS_REACH = 600   # characters before a sentence searched for the one before it
_SENTENCE_END = re.compile(r"(?<=[.!?])[\s*_]+(?=\S)")


def previous_sentence(d: Document, u: Passage) -> str:
    """The sentence before passage `u` in its paragraph or list item; empty when `u` opens it."""
    if u.block < 0 or u.kind not in ("paragraph", "list_item", "quote"):
        return ""
    # a bounded window back from the sentence: a long paragraph is not rescanned for each of its claims
    before = d.view[max(d.blocks[u.block].start, u.start - PREVIOUS_REACH):u.start].rstrip()
    if not before:
        return ""
    starts = [m.end() for m in _SENTENCE_END.finditer(before, 0, len(before) - 1)]
    return before[starts[-1] if starts else 0:]


METHOD_REACH = 4000   # characters before a sentence read for a method sentence ("with and without X")


def method_scope(d: Document, u: Passage) -> str:
    """The text before passage `u` in its section and the section above it (the method sentence of a study
    and the results of its sub-sections), at most `METHOD_REACH` characters."""
    if u.section is None or not 0 <= u.section < len(d.sections):
        return ""
    section = d.sections[u.section]
    if section.parent is not None and 0 <= section.parent < len(d.sections):
        section = d.sections[section.parent]
    return d.view[max(section.start, u.start - METHOD_REACH):u.start]


class SentenceReader:
    """Reads the claims of the prose units of a document (its per-document state: the `ProseFigures` and
    rejections handed to `claims`)."""

    contract = StageContract("sentences", "creates the claims of prose, captions, headings, front-matter "
                             "headline fields and sentence-like output lines", assigns=CREATED, creates=True)

    def __init__(self, analyser: TextAnalyser, rules: ClaimRules, script_output: ScriptOutputReader):
        self.x = analyser
        self.rules = rules
        self.script_output = script_output
        self.abbreviations = frozenset(a.lower() for a in rules.abbreviations)
        self.bare_assignment = re.compile(rules.bare_assignment_before)
        self.bare_fraction = re.compile(rules.bare_fraction_after)
        self.bare_denominator = re.compile(rules.bare_fraction_before)
        self.measured_memory_sections = re.compile(rules.measured_memory_sections)
        self.ratio_forms = RatioForms(rules)
        self.metrics = list(rules.metric_cues)

    def pieces(self, d: Document, seen: ProseFigures) -> list[tuple[Passage, str]]:
        """The text units that may hold a number, each with its text; `seen` gains the prose units read."""
        # a block without a digit or number word has no sentence with one: it is not split
        prose = units(d, self.abbreviations, cells=False, block_filter=self.x.may_hold_number)
        fm = front_matter_units(d, self.rules)
        pieces: list[tuple[Passage, str]] = [(u, d.view[u.start:u.end]) for u in prose]
        pieces += [(u, d.text[u.start:u.end]) for u in fm]
        pieces += [(u, d.text[u.start:u.end]) for u in self.script_output.sentences(d)]
        seen.units.extend((u.start, u.end) for u in prose)
        seen.units.extend((u.start, u.end) for u in fm)
        return [(u, t) for u, t in pieces if self.x.may_hold_number(t)]

    def claims(self, d: Document, cap: int | None, rejected: Rejected,
               seen: ProseFigures) -> list[tuple[Claim, Passage]]:
        """Claims stated in prose. Past `cap` candidate claims (the quantities of the pieces that may hold one)
        raises TooManyClaims, as soon as the count passes it: before the costly steps. `rejected` gains, by
        start offset, the (set-aside reason, rule) of each figure a claim rule turned down; `seen` the
        quantities found in prose, the numbers its exclusions skipped there, and the prose units read (the
        set-aside pass reads the rest)."""
        # spaCy runs only where the quantity finder saw something that can be a claim
        kept: list[tuple[Passage, str]] = []
        found: list[list[QuantityRecord]] = []
        candidates = 0
        for u, t in self.pieces(d, seen):
            qs = self.x.quantity_finder.find(t, u.start, seen.skipped)
            seen.quantities.extend(qs)
            if self.x.may_claim(t, qs) or any(self.ratio_forms.device_ratio(q, d.view) for q in qs):
                kept.append((u, t))
                found.append(qs)
                candidates += len(qs)
                if cap is not None and candidates > cap:
                    raise TooManyClaims(d.name, f"over the limit of {cap} candidate claims per document "
                                                f"(quantities in prose that may state a result; "
                                                f"raise it with --max-claims N or ${limits.MAX_CLAIMS_ENV}, "
                                                f"0 = no limit)")
        analysed = self.x.analyse([t for _, t in kept], [u.start for u, _ in kept], found)
        out: list[tuple[Claim, Passage]] = []
        for (u, t), (qs, cues) in zip(kept, analysed):
            out.extend((claim, u) for claim in self._unit_claims(d, u, t, qs, cues, rejected))
        return out

    def _unit_claims(self, d: Document, u: Passage, t: str, qs: list[QuantityRecord], cues: list[Cue],
                     rejected: Rejected) -> list[Claim]:
        """The claims of one analysed unit; `rejected` gains the figures a claim rule turned down."""
        cues = CueSet(cues)    # indexed once: each figure's look-ups read the cues near it
        builder = self.x.builder
        context = ClaimContext(section=d.section_path(u.section), block=u.kind)
        taken: list[tuple[QuantityRecord, str, str]] = []    # (quantity, unit class, metric), in text order
        pending: list[tuple[QuantityRecord, str]] = []       # times no rule took or turned down
        elided: list[tuple[QuantityRecord, str]] = []        # figures a rule turned down without a reason
        forms: dict[int, WrittenForm] = {}                   # by start offset: percents and ratios read by form
        spans = QuantitySpans(qs)                            # listed once: each bare number's look-back bisects
        for q in qs:
            cls = unit_class(q.unit) or (None if self._bare_setting(t, u.start, q, cues, u.kind == "heading")
                                         else builder.bare_class(q, cues))
            if cls is None and (same := compared_unit(q, spans, cues)):
                cls = same[0]
                q = q.model_copy(update={"unit": same[1]})     # "2,038 tok/s versus 1,742"
            if cls is None and self.ratio_forms.device_ratio(q, d.view):
                cls = "ratio"
                q = q.model_copy(update={"unit": "x"})         # "up to 3.9x L40S": a speed-up, not a count
            if cls is None:
                continue
            metric = builder.metric_for(q, cls, cues, q.span[0], q.span[1])
            if metric in ("speedup", "relative_change") and cls == "percent" and self.ratio_forms.of_ideal(q, d.view):
                metric = "other"   # "running at under 5% of peak": an efficiency, whatever word is near
            if metric is None:
                why = builder.metrics.rejection(q, cls, cues, *q.span, d.view)
                if cls == "memory" and (why is None or why[1] == "claims.device_spec") \
                        and self._measured_memory_section(context.section):
                    metric = "memory"      # "- 768GB of host RAM plus at least 12GB VRAM" under "Memory usage"
                elif why is None and (form := self._written_form(d, t, u, q, cls, cues, taken, context)):
                    forms[q.span[0]] = form     # a percent or ratio read from how it is written (prose_ratios)
                    metric = form.metric
                else:
                    if why:
                        rejected[q.span[0]] = why
                    elif cls in SERIES_CLASSES and not builder.metrics.not_result(q, cls, cues, *q.span):
                        pending.append((q, cls))
                    else:
                        elided.append((q, cls))    # turned down with no reason: a clause with its verb left out?
                    continue
            taken.append((q, cls, metric))
        # a time in parentheses after the words it measures is read from the text alone: once, not each pass
        parenthesized = {id(q) for q, cls in pending if parenthesized_time(q, cls, t, u.start)}
        while pending or elided:       # "0.85s vs 0.26s", "7.4 ms for ~300 tokens, 12.9 ms for ~1500 tokens": one series
            claimed = ClaimsByClass([(p, pm) for p, _, pm in taken])
            found = [(q, cls, m) for q, cls in pending
                     if (m := series_metric(q, cls, claimed, t, u.start)
                         or ("latency" if id(q) in parenthesized else None))]
            found += [(q, cls, m) for q, cls in elided if (m := parallel_metric(q, cls, claimed, t, u.start))]
            if not found:
                break
            taken = sorted(taken + found, key=lambda x: x[0].span)
            pending = [(q, cls) for q, cls in pending if all(q is not f for f, _, _ in found)]
            elided = [(q, cls) for q, cls in elided if all(q is not f for f, _, _ in found)]
        out: list[Claim] = []
        sweeps = None     # the sentence's load sweeps: read once, for the first figure that may need them
        for q, cls, metric in taken:
            claim = builder.claim(q, metric, cls, cues, t, u.start, u.start, context, written=d.text)
            if (form := forms.get(q.span[0])) is not None:
                if form.follows is not None and out:
                    form = form._replace(follows=out[-1])   # the item before, as built (its own form applied)
                claim = self.ratio_forms.apply(claim, form)
            elif cls == "ratio" and claim.baseline is None and (base := self.ratio_forms.named_baseline(q, d.view)):
                claim = claim.model_copy(update={"baseline": base})   # "up to 3.9x L40S", "2.7x that of the old kernel"
            if claim.metric in ("speedup", "relative_change") and claim.baseline is None and claim.value_max is None:
                sweeps = sweeps or builder.baselines.sweeps(t)
                if base := builder.baselines.from_sweep(sweeps, t, q.span[0] - u.start):
                    claim = claim.model_copy(update={"baseline": base})   # "Across batch sizes of 2 to 32, ... 9x"
            if claim.metric in ("speedup", "relative_change") and claim.baseline is None \
                    and (base := builder.baselines.from_previous(previous_sentence(d, u), t)):
                claim = claim.model_copy(update={"baseline": base})   # "We compared X with Y. ... 1.2-7.1x"
            if claim.metric in ("speedup", "relative_change") and claim.baseline is None \
                    and (base := builder.baselines.from_method(method_scope(d, u), t)):
                claim = claim.model_copy(update={"baseline": base})   # "... with and without X." ... "a 1.3x speed-up"
            out.append(claim)
        return builder.baselines.shared_by_coordination(out, t, u.start)

    def _written_form(self, d: Document, t: str, u: Passage, q: QuantityRecord, cls: str, cues: list[Cue],
                      taken: list[tuple[QuantityRecord, str, str]], context: ClaimContext) -> WrittenForm | None:
        """The form of a percent or ratio no cue took and no rule turned down (see `prose_ratios`), read
        against the claim taken last in the unit."""
        builder = self.x.builder
        if cls not in ("percent", "ratio") or builder.metrics.turned_down(q, cls, cues, *q.span):
            return None
        previous = previous_cls = None
        if taken:
            pq, previous_cls, pm = taken[-1]
            previous = builder.claim(pq, pm, previous_cls, cues, t, u.start, u.start, context, written=d.text)
        return self.ratio_forms.form(q, cls, d.view, previous, previous_cls, self._spec(cues, q))

    def _spec(self, cues: list[Cue], q: QuantityRecord) -> bool:
        """A memory, bandwidth or compute word is the nearest metric word of the figure's clause."""
        cue = self.x.builder.clauses.metric_cue(cues, q.span[0], q.span[1], self.metrics, NEAR)
        return cue is not None and cue.label[7:] in SPEC_METRICS

    def _measured_memory_section(self, section: list[str]) -> bool:
        """Whether the innermost section's title says its sizes were measured ("Memory consumption")."""
        return bool(section) and bool(self.measured_memory_sections.search(section[-1]))

    def _bare_setting(self, text: str, base: int, q: QuantityRecord, cues, heading: bool = False) -> bool:
        """A bare number that is the value of a named setting ("`k=3`", "top_k=4": unless the name is a cue of
        its own, "AL=3.1") or a count out of another number ("18/18 tasks", "scored 10/10"): no result."""
        start, end = q.span[0] - base, q.span[1] - base
        if heading and (m := _SECTION_NUMBER.match(text)) and start < m.end():
            return True                   # "### 1.2 Accuracy", "3.1. Results": a section's number
        if self.bare_fraction.match(text, end) or self.bare_denominator.search(text, max(0, start - 8), start):
            return True
        m = self.bare_assignment.search(text, max(0, start - 40), start)
        if m is None:
            return False
        a, b = m.start("name") + base, m.end("name") + base
        return not any(c.start <= a and b <= c.end and c.label.startswith(("length:", "metric:", "ratio_name",
                                                                          "rate_unit")) for c in near(cues, a, b))
