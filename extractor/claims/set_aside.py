"""Every figure decided: the figures with a performance unit that are neither a claim nor a condition are set
aside, each with the reason it is no claim (`rules/set_aside.yaml`).

A figure is a claim unless a reason applies: the rules say why a figure is NOT a claim. `FigureDecider.decide`
takes the figures of a post (one pass of the quantity finder over the whole text, with the numbers its
exclusions skipped), drops those a claim, a claim's mention or a stated condition covers, and gives each other
figure the first reason that applies, in this order:

1. the exclusion that skipped it (`numbers.yaml` `exclude`, each naming its `set_aside` reason: an HTML tag, a
   URL, a version...);
2. the first `set_aside.yaml` rule whose tests all hold (the block it sits in, its code language, its table
   cell, its unit class, the text before or after it on its line, its line);
3. the claim rule that turned it down in prose (`MetricChooser.rejection`: a limit, a setting, a datasheet
   figure).

A figure no reason applies to is left out of `set_aside`: it is a claim the rules missed, and the coverage
check (`eval/coverage.py`) shows it as unexplained.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal, NamedTuple, Sequence, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from extractor.claims.classify import unit_class
from extractor.claims.output_blocks import load_output_rules
from extractor.claims.restated import Restatements
from extractor.claims.rules import load_claim_rules
from extractor.ingest.model import BlockKind, Document
from extractor.quantities.exclusions import _merge, _overlaps
from extractor.quantities.finder import QuantityFinder, Skipped
from extractor.contracts import StageContract
from extractor.records import Claim, QuantityRecord, SetAside, SetAsideReason
from extractor.claims.set_aside_places import WINDOW, SetAsidePlaces, sentence_lead as _sentence_lead
from extractor.regex_starts import search_from_starts, start_finder
from extractor.rules_io import RuleError, compiled, load_yaml, rule_cache
from extractor.spans import with_markup_before
from extractor.rule_files import SET_ASIDE

SET_ASIDE_FILE = SET_ASIDE.name
# the unit classes of a performance figure: time, rates, ratios, shares, sizes, bandwidth, compute, energy, price
FIGURE_CLASSES = frozenset({"time", "token_rate", "request_rate", "token_time", "ratio", "percent", "memory",
                            "bandwidth", "compute", "energy", "cost", "count", "item_rate"})
# a claim of a count of tokens ("token budget: 8,400 tokens" in an example log line) may be demoted too; it is no
# figure of its own (no performance unit), so it is dropped rather than listed
DEMOTED_CLASSES = FIGURE_CLASSES | {"token_count"}
# "capacity": a context size in tokens ("128K context window"), an extra form only (no quantity class)
UnitClass = Literal["time", "token_rate", "request_rate", "token_time", "ratio", "percent", "memory",
                    "bandwidth", "compute", "energy", "cost", "count", "capacity", "item_rate"]
Place = Literal[BlockKind, "front_matter", "header_cell", "label_cell", "body_cell", "hidden", "none"]
_DIGIT = re.compile(r"\d")


class SetAsideRule(BaseModel):
    """One reason a figure is no claim, and where it applies: every test given must hold."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(min_length=1)
    reason: SetAsideReason
    places: list[Place] = Field(default_factory=list, description="the block or table cell the figure sits in")
    langs: list[str] | None = Field(None, description="code-block languages (lower case; '' for none)")
    units: list[UnitClass] = Field(default_factory=list, description="unit classes of the figure")
    quote: str | None = Field(None, description="regex the figure's own text must match whole")
    unit: str | None = Field(None, description="regex searched in the figure's canonical pint unit")
    before: str | None = Field(None, description="regex searched in the line before the figure")
    not_before: str | None = Field(None, description="regex that must not occur in the line before the figure")
    after: str | None = Field(None, description="regex matched right after the figure, to the end of its line")
    line: str | None = Field(None, description="regex searched in the figure's whole line")
    not_line: str | None = Field(None, description="regex that must not occur in the figure's line")
    section: str | None = Field(None, description="regex searched in the title of the figure's section (its "
                                                  "nearest heading)")
    not_section: str | None = Field(None, description="regex that must not occur in the title of the figure's "
                                                      "section (its nearest heading)")
    lead: str | None = Field(None, description="regex searched in the paragraph right before the code block or "
                                               "table the figure sits in (a figure elsewhere fails it)")
    illustrative_lead: bool = Field(False, description="`lead` is program_output.yaml's `illustrative_lead`: the "
                                                       "paragraph presents the block as what a reader will see")
    header: str | None = Field(None, description="regex searched in the column header of the table body cell the "
                                                 "figure sits in (a figure outside a body cell fails it)")
    row: str | None = Field(None, description="regex searched in the row label (first cell) of the row of the table "
                                              "body cell the figure sits in (a figure outside a body cell fails it)")
    demotes: bool = Field(False, description="the reason holds even where a claim rule took the figure: the "
                                             "claim is dropped and the figure set aside (a target, a list price)")
    restates: bool = Field(False, description="a figure it sets aside that writes a claim's figure again in the "
                                              "claim's section is a mention of that claim (claims/restated.py)")
    example: str = Field(min_length=1, description="a sentence of the class, for the docs and the tests")

    _compile = field_validator("quote", "unit", "before", "not_before", "after", "line", "not_line", "section",
                               "not_section", "lead", "header", "row")(lambda cls, v: compiled(v))


class ExtraForm(BaseModel):
    """A form of figure a reader sees that the quantity finder does not read as a quantity ("2 x" before a
    device name, "8192 ×" in a product, "2gb" in a command): the unit written after the number, the class it
    has, and decided by the rules like any other figure where the finder found nothing."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(min_length=1)
    after: str = Field(description="regex of what follows the number")
    cls: UnitClass
    unit: str = Field("", description="the pint unit the figure's record would carry, for `unit` tests")

    _compile = field_validator("after")(lambda cls, v: compiled(v))


class ExtraFigures(BaseModel):
    """The extra figure forms: the number they all begin with, then each form's unit (one scan of the text)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    number: str = Field(description="regex of the number; begin it with \\d so the scan skips fast")
    forms: list[ExtraForm] = Field(default_factory=list)

    _compile = field_validator("number")(lambda cls, v: compiled(v))


class SetAsideRules(BaseModel):
    """The set-aside rules, in the order they are tried, and the extra figure forms."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    rules: list[SetAsideRule]
    extra_figures: ExtraFigures | None = None
    measured_sections: str | None = Field(None, description="regex of a section title that says its figures were "
                                                            "measured: a claim rule's datasheet reason does not "
                                                            "hold there")
    restatement_not: str = Field("(?!)", description="regex of the words before a figure in its sentence that make "
                                                     "an example a supposition, never a restated result")

    _compile = field_validator("measured_sections", "restatement_not")(lambda cls, v: compiled(v))

    @field_validator("rules")
    @classmethod
    def _unique(cls, rules: list[SetAsideRule]) -> list[SetAsideRule]:
        seen: set[str] = set()
        for r in rules:
            if r.name in seen:
                raise ValueError(f"rule name {r.name!r} is used twice")
            seen.add(r.name)
        return rules


@rule_cache()
def load_set_aside_rules(rules_dir: Path) -> SetAsideRules:
    """The validated rules of `set_aside.yaml` in `rules_dir`."""
    return load_yaml(Path(rules_dir) / SET_ASIDE_FILE, SetAsideRules)


class ProseFigures(NamedTuple):
    """What the prose pass already found: its quantities, the numbers its exclusions skipped, and the spans
    of the prose units it read (the figures pass reads only the rest of the text)."""

    quantities: list[QuantityRecord]
    skipped: list[Skipped]
    units: list[tuple[int, int]]
    # the figures of claims a demoting rule took back, as (span, unit class, unit): a printed "Requests/sec: 39.2"
    # whose unit only its label gives is no quantity of the finder, yet it is decided and listed
    demoted: list[tuple[tuple[int, int], str, str]]


class Figure(NamedTuple):
    """A figure with a performance unit: its span, unit class, and the exclusion that skipped it, if any."""

    span: tuple[int, int]
    cls: str
    unit: str
    excluded_by: str | None = None


class _Compiled(NamedTuple):
    rule: SetAsideRule
    places: frozenset[str]
    langs: frozenset[str] | None
    units: frozenset[str]
    quote: re.Pattern | None
    unit: re.Pattern | None
    before: re.Pattern | None
    not_before: re.Pattern | None
    before_starts: re.Pattern | None       # finds, in the folded text, a string every match of `before` begins with
    not_before_starts: re.Pattern | None   # ... of `not_before`
    after: re.Pattern | None
    line: re.Pattern | None
    not_line: re.Pattern | None
    section: re.Pattern | None
    not_section: re.Pattern | None
    lead: re.Pattern | None
    header: re.Pattern | None
    row: re.Pattern | None


def figure_class(q: QuantityRecord) -> str | None:
    """The unit class of a quantity when it is a performance figure ("count" for "8x" before a device name)."""
    cls = unit_class(q.unit)
    if cls in FIGURE_CLASSES:
        return cls
    if cls is None and q.surface_unit.rstrip()[-1:] in ("x", "X", "×"):
        return "count"
    return None


class FigureDecider:
    """Decides the figures of a post that no claim or condition covers (see the module docstring)."""

    contract = StageContract("set_aside", "sets aside, with a reason, each figure no claim, mention or stated "
                                          "condition covers; an example restating a claim's figure becomes its mention",
                             assigns=("mentions",), requires=("span", "mentions", "conditions"))

    def __init__(self, rules_dir: Path, finder: QuantityFinder):
        self.finder = finder
        rules = load_set_aside_rules(rules_dir)
        shown = "(?i)" + load_output_rules(rules_dir).illustrative_lead   # one vocabulary with the output reader
        self.rules = [self._compile(r.model_copy(update={"lead": shown}) if r.illustrative_lead else r)
                      for r in rules.rules]
        # (place, code language, figure class, demoting only) -> the rules whose place, language, unit class and
        # demoting filters let a figure there through, in rule order (filled as figures are met; the languages no
        # rule names share one key, "\0", so the keys stay few)
        self._applicable: dict[tuple[str | None, str | None, str, bool], list[_Compiled]] = {}
        self._langs = frozenset(lang for c in self.rules if c.langs for lang in c.langs)
        self.measured_sections = re.compile(rules.measured_sections) if rules.measured_sections else None
        self.restatements = Restatements(
            frozenset(f"set_aside.{r.name}" for r in rules.rules if r.restates), re.compile(rules.restatement_not),
            frozenset(a.lower() for a in load_claim_rules(rules_dir).abbreviations))
        extra = rules.extra_figures
        self.extra_forms = list(extra.forms) if extra else []
        self.extra = re.compile(f"(?:{extra.number})(?:" + "|".join(f"(?P<f{i}>{f.after})" for i, f in
                                                                    enumerate(extra.forms)) + ")") \
            if extra and extra.forms else None
        self.exclusion_reasons = {e.name: e.set_aside for e in finder.rules.numbers.exclude if e.set_aside}

    @staticmethod
    def _compile(r: SetAsideRule) -> _Compiled:
        rx = lambda p: re.compile(p, re.M) if p else None   # noqa: E731  (^: after any newline)
        return _Compiled(r, frozenset(r.places), None if r.langs is None else frozenset(r.langs),
                         frozenset(r.units), rx(r.quote), rx(r.unit), rx(r.before), rx(r.not_before),
                         start_finder(r.before, re.M), start_finder(r.not_before, re.M), rx(r.after),
                         rx(r.line), rx(r.not_line), rx(r.section), rx(r.not_section), rx(r.lead), rx(r.header),
                         rx(r.row))

    def figures(self, text: str, prose: ProseFigures | None = None) -> list[Figure]:
        """The performance figures of `text` in text order, those an exclusion skipped included. `prose`:
        what the prose pass found in its units; the finder then reads only the text between them."""
        skipped: list[Skipped] = list(prose.skipped) if prose else []
        found = list(prose.quantities) if prose else []
        pos = 0
        for start, end in (_merge(list(prose.units)) if prose else []) + [(len(text), len(text))]:
            if start > pos and _DIGIT.search(text, pos, start):   # most gaps are the blanks between sentences
                found += self.finder.find(text[pos:start], pos, skipped)
            pos = max(pos, end)
        out = [Figure(q.span, cls, q.unit) for q in found
               if (cls := figure_class(q)) and _DIGIT.search(q.quote)]   # "double check": no figure
        for s in skipped:
            cls = unit_class(s.unit)
            if cls in FIGURE_CLASSES and _DIGIT.search(text, *s.span):
                out.append(Figure(s.span, cls, s.unit, s.rule))
        if prose and prose.demoted:
            seen = _merge([f.span for f in out])
            out += [Figure(span, cls, unit) for span, cls, unit in prose.demoted if not _overlaps(seen, *span)]
        if self.extra is not None:
            seen = _merge([f.span for f in out])
            for m in self.extra.finditer(text):
                if not _overlaps(seen, m.start(), m.end()):
                    form = self.extra_forms[int(m.lastgroup[1:])]
                    out.append(Figure((m.start(), m.end()), form.cls, form.unit))
        out.sort()
        return out

    def places(self, d: Document) -> "SetAsidePlaces":
        """Where each offset of `d` sits (block, table cell, code language): built once per post."""
        return SetAsidePlaces(d)

    def demoted(self, d: Document, places: "SetAsidePlaces", claims: list[Claim]) -> dict[int, tuple[str, str]]:
        """The claims a demoting rule sets aside (a target, a list price per hour, markup), by their index in
        `claims`, with (reason, rule)."""
        out = {}
        for i, c in enumerate(claims):
            cls = unit_class(c.unit)
            if cls not in DEMOTED_CLASSES:
                continue
            # the figure as written: a quote leaves out markup before the number ("&lt; 1 s" is quoted "1 s")
            span = (with_markup_before(d.text, c.span[0]), c.span[1])
            decided = self._reason(d.text, Figure(span, cls, c.unit), places, demoting=True)
            if decided is not None:
                out[i] = decided
        return out

    def applies(self, d: Document, places: "SetAsidePlaces", claim: Claim) -> bool:
        """Whether a set-aside rule (demoting or not) gives a reason for the figure of `claim`."""
        cls = unit_class(claim.unit)
        span = (with_markup_before(d.text, claim.span[0]), claim.span[1])
        return cls in FIGURE_CLASSES and self._reason(d.text, Figure(span, cls, claim.unit), places) is not None

    def decide(self, d: Document, places: "SetAsidePlaces", claims: list[Claim],
               rejected: dict[int, tuple[str, str]], prose: ProseFigures | None = None,
               cited: Sequence[tuple[Claim, str]] = ()) -> list[SetAside]:
        """The set-aside figures of a post, in text order. `rejected`: the (reason, rule) the claim stage gave
        the prose figures it turned down (or a demoting rule took from it), by start offset; `cited`: claims the
        text credits to another party, with the rule that credits each (each mention set aside as `cited`)."""
        covered = _covered(claims + [c for c, _ in cited])
        text = d.text
        out = [SetAside(quote=m.quote, span=m.span, reason="cited", rule=rule)
               for c, rule in cited for m in (c.mentions or [c])]
        for f in self.figures(text, prose):
            start, end = f.span
            if _overlaps(covered, start, end):
                continue
            decided = self._reason(text, f, places) or rejected.get(start)
            if decided is not None and decided[0] == "datasheet" and decided[1].startswith("claims.") \
                    and self.measured_sections is not None \
                    and self.measured_sections.search(places.section_title(start)):
                decided = None            # "Memory consumption: at least 14GB VRAM": measured, not a datasheet
            if decided is not None:
                out.append(SetAside(quote=text[start:end], span=f.span, reason=decided[0], rule=decided[1]))
        out.sort(key=lambda s: (s.span[0], s.span[1]))
        return self.restatements.apply(d, claims, out)   # an example that restates a result is its mention

    def _reason(self, text: str, f: Figure, places: "SetAsidePlaces", demoting: bool = False) -> tuple[str, str] | None:
        if f.excluded_by is not None:
            reason = self.exclusion_reasons.get(f.excluded_by)
            return (reason, f"numbers.exclude.{f.excluded_by}") if reason else None
        start, end = f.span
        lo = text.rfind("\n", 0, start) + 1
        hi = text.find("\n", end)
        hi = len(text) if hi < 0 else hi
        at = start
        place, lang = places.at(start)
        if place == "hidden" and (digit := _DIGIT.search(text, start, end)) is not None \
                and places.at(digit.start())[0] != "hidden":
            at = digit.start()   # "**$3.79M/year**" in a cell: the markup before a claim's figure is blanked
            place, lang = places.at(at)
        lead, lead_lo, lead_hi = _sentence_lead(text, lo, start)
        # the post's text folded, where the lead is the post itself (a hard-wrapped sentence is joined afresh)
        folded = places.folded(text) if lead is text else None
        key = (place, lang if lang is None or lang in self._langs else "\0", f.cls, demoting)
        rules = self._applicable.get(key)
        if rules is None:
            rules = self._applicable[key] = [c for c in self.rules if self._may_apply(c, place, lang, f.cls, demoting)]
        for c in rules:
            if c.quote is not None and not c.quote.fullmatch(text, start, end):
                continue
            if c.unit is not None and not c.unit.search(f.unit):
                continue
            if c.before is not None and not search_from_starts(c.before, c.before_starts, lead, folded,
                                                               lead_lo, lead_hi):
                continue
            if c.not_before is not None and search_from_starts(c.not_before, c.not_before_starts, lead, folded,
                                                               lead_lo, lead_hi):
                continue
            if c.after is not None and not c.after.match(text, end, min(hi, end + WINDOW)):
                continue
            if c.line is not None and not places.in_line(c.line, text, lo, hi):
                continue
            if c.not_line is not None and places.in_line(c.not_line, text, lo, hi):
                continue
            if c.section is not None and not c.section.search(places.section_title(start)):
                continue
            if c.not_section is not None and c.not_section.search(places.section_title(start)):
                continue
            if c.lead is not None and not places.lead_has(c.lead, start):
                continue
            if c.header is not None and not c.header.search(places.column_header(at)):
                continue
            if c.row is not None and not c.row.search(places.row_label(at)):
                continue
            return c.rule.reason, f"set_aside.{c.rule.name}"
        return None


    @staticmethod
    def _may_apply(c: _Compiled, place: str | None, lang: str | None, cls: str, demoting: bool) -> bool:
        """Whether rule `c` may set aside a figure of class `cls` at a place of this kind (its filters that do not
        read the text)."""
        return not ((demoting and not c.rule.demotes) or (c.places and place not in c.places)
                    or (c.langs is not None and (lang is None or lang not in c.langs))
                    or (c.units and cls not in c.units))


def _covered(claims: list[Claim]) -> list[tuple[int, int]]:
    """Merged spans of the claims, their mentions and their stated conditions."""
    spans = []
    for c in claims:
        spans.append(c.span)
        spans.extend(m.span for m in c.mentions)
        spans.extend(cond.span for cond in c.conditions.values() if cond.span is not None)
    return _merge([tuple(s) for s in spans])


def reasons() -> tuple[str, ...]:
    """The set-aside reasons, in the records' order."""
    return get_args(SetAsideReason)


__all__ = ["FigureDecider", "Figure", "SetAsidePlaces", "SetAsideRule", "SetAsideRules", "load_set_aside_rules", "reasons",
           "RuleError"]
