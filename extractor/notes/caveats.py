"""Caveats and provenance notes for a record: what a reader must know before trusting a figure.

    reader = CaveatReader.from_rules(rules_dir)      # cached per rules folder
    notes = reader.read(document, claims)            # PostNotes: caveats, provenance, authorship

Rules (rules/caveats.yaml, rules/authorship.yaml): stream/chunk intervals that distort
per-token latency, rounded or chart-read headlines, sweep/Pareto best points, no named
scenario, which tokens a headline counts, authorship, reproducibility signals. Every
note raised by text carries its quote and span into the original text.
"""
from __future__ import annotations

import bisect
import re
from pathlib import Path

from pydantic import BaseModel, Field

from extractor.claims.headlines import FigureIndex
from extractor.contracts import StageContract
from extractor.notes.authorship import AuthorshipReader
from extractor.notes.rules import AuthorshipRules, CaveatRules, CueFinder, union
from extractor.ingest.model import Document
from extractor.records import Claim, Note
from extractor.rules_io import default_rules_dir, load_yaml, rule_cache
from extractor.rule_files import AUTHORSHIP, CAVEATS

CAVEATS_FILE = CAVEATS.name
AUTHORSHIP_FILE = AUTHORSHIP.name


def approx_text(value: float) -> str:
    """A value written the way a rounded headline is: ~25K, ~1.2M, ~800."""
    for div, suffix in ((1e6, "M"), (1e3, "K")):
        if abs(value) >= div:
            return f"~{value / div:.3g}{suffix}"
    return f"~{value:g}"


class PostNotes(BaseModel):
    """What the notes stage reads from a post: the parts of its `DocumentRecord` they fill."""

    caveats: list[Note] = Field(default_factory=list)
    provenance: list[Note] = Field(default_factory=list)
    authorship: str | None = None


class CaveatReader:
    """Compiled caveat and authorship rules; `read` returns a post's notes."""

    contract = StageContract("notes", "reads the post's caveats, provenance notes and authorship",
                             requires=("headline", "metric", "value", "value_max", "unit", "qualifier", "tokens", "quote",
                                       "span", "mentions", "conditions"))

    def __init__(self, rules: CaveatRules, authorship: AuthorshipRules):
        self.r = rules
        m = rules.margin
        self.stream = _finder(rules.stream_interval, m)
        self.rounded = union(rules.rounded_headline.patterns)
        self.sweep = union(rules.sweep_best.patterns)
        self.scenario_cues = CueFinder(rules.scenario.patterns, rules.scenario.cues, margin=m)
        rp = rules.reproducibility
        self.digest = _finder(rp.image_digest, m)
        self.version = _finder(rp.pinned_version, m)
        self.recipe_exclude = re.compile(rp.recipe.link_exclude) if rp.recipe.link_exclude else None
        self.version_exclude = re.compile(rp.pinned_version.exclude_before, re.I) if rp.pinned_version.exclude_before else None
        self.recipe_target = re.compile(rp.recipe.link_target)
        self.recipe_text = re.compile(rp.recipe.link_text)
        self.starters = union(rp.command.starters)
        self.prompt = re.compile(rp.command.prompt)
        self.authors = AuthorshipReader(authorship)

    @classmethod
    def from_rules(cls, rules_dir: str | Path | None = None) -> "CaveatReader":
        return _reader(str(Path(rules_dir) if rules_dir else default_rules_dir()))

    # -- entry point -------------------------------------------------------------------
    def read(self, d: Document, claims: list[Claim]) -> PostNotes:
        """The caveats, provenance notes and authorship of the post `d` with these claims."""
        heads = [c for c in claims if c.headline]
        lower = d.view.lower()
        caveats: list[Note] = []
        provenance: list[Note] = []
        sweep = self._sweep_best(d, heads)
        caveats += self._rounded(d, claims, heads, chart=bool(sweep))
        caveats += sweep
        caveats += self._stream(d, lower)
        caveats += self._scenario(d, heads or claims, lower)
        # the tokens a headline counts may be said where the body states the same figure again
        head_figures = FigureIndex(heads)   # by bisection: not a scan of the headlines per claim
        restated = [c for c in claims if not c.headline and head_figures.states(c)]
        tok_prov, tok_cav = self._tokens(heads + restated)
        provenance += tok_prov
        caveats += tok_cav
        authorship, author_notes = self.authors.read(d, lower)
        provenance += author_notes
        provenance += self._reproducibility(d, lower)
        return PostNotes(caveats=caveats, provenance=provenance, authorship=authorship)

    # -- caveats -----------------------------------------------------------------------
    def _stream(self, d: Document, lower: str) -> list[Note]:
        m = self.stream.search(d.view, lower)
        if not m:
            return []
        rule = self.r.stream_interval
        return [_note(d, rule.kind, rule.message, m.start(), m.end())]

    def _rounded(self, d: Document, claims: list[Claim], heads: list[Claim], chart: bool) -> list[Note]:
        rule = self.r.rounded_headline
        out: list[Note] = []
        done: set[tuple[str, float]] = set()
        alike: dict[tuple, list[Claim]] = {}   # claims by figure, indexed once (not a scan per headline)
        for c in claims:
            alike.setdefault((c.unit, c.metric, c.value, c.value_max), []).append(c)
        searched: set[tuple] = set()   # figures whose claims hold no rounding cue: searching again finds none
        for h in heads:
            key = (h.unit, h.value)
            figure = (h.unit, h.metric, h.value, h.value_max)
            if key in done or figure in searched:
                continue
            searched.add(figure)
            same = alike.get(figure, [])
            for c in [h] + [c for c in same if c is not h]:
                # the rounded form may be any mention of the figure ("~25K" in the title, "25,000" in a table)
                said = [(m.quote, m.span) for m in c.mentions] or [(c.quote, c.span)]
                rounded = next(((q, sp) for q, sp in said if self.rounded.search(q)), None)
                if rounded or c.qualifier in rule.qualifiers:
                    quote, span = rounded or (c.quote, c.span)
                    done.add(key)
                    tmpl = rule.chart_message if chart else rule.message
                    msg = tmpl.format(quote=quote, approx=approx_text(c.value))
                    out.append(Note(kind=rule.kind, message=msg, quote=quote, span=span))
                    break
        return out

    def _sweep_best(self, d: Document, heads: list[Claim]) -> list[Note]:
        rule = self.r.sweep_best
        starts = [b.start for b in d.blocks]
        seen: set[tuple[int, int]] = set()
        out: list[Note] = []
        searched: dict[int, re.Match | None] = {}
        for h in heads:
            cond = h.conditions.get("batch_or_concurrency")
            if cond is not None and cond.sweep and cond.span and cond.quote:
                span = tuple(cond.span)
                if span not in seen:
                    seen.add(span)  # type: ignore[arg-type]
                    out.append(_note(d, rule.kind, rule.message, span[0], span[1]))
                continue
            i = bisect.bisect_right(starts, h.span[0]) - 1
            if i < 0 or d.blocks[i].end < h.span[0]:
                continue
            for j in range(max(0, i - rule.window), min(len(d.blocks), i + rule.window + 1)):
                b = d.blocks[j]
                if b.kind in ("code", "heading"):
                    continue
                if j not in searched:   # each block is searched once, however many headlines sit near it
                    searched[j] = self.sweep.search(d.view, b.start, b.end)
                m = searched[j]
                if m:
                    if (m.start(), m.end()) not in seen:
                        seen.add((m.start(), m.end()))
                        out.append(_note(d, rule.kind, rule.message, m.start(), m.end()))
                    break
        return out

    def _scenario(self, d: Document, claims: list[Claim], lower: str) -> list[Note]:
        if not claims:
            return []
        rule = self.r.scenario
        conds = [c.conditions.get("scenario") for c in claims]
        known = [c for c in conds if c is not None]
        if known:
            missing = any(c.status == "unrecoverable" for c in known)
        else:
            missing = self.scenario_cues.search(d.view, lower) is None
        return [Note(kind=rule.kind, message=rule.message)] if missing else []

    def _tokens(self, heads: list[Claim]) -> tuple[list[Note], list[Note]]:
        rule = self.r.tokens
        prov: list[Note] = []
        cav: list[Note] = []
        seen: set[str] = set()
        stated: dict[tuple[str, float], str] = {}
        for h in heads:
            if h.tokens and h.tokens != "unspecified":
                stated.setdefault((h.unit, h.value), h.tokens)
        for h in heads:
            if h.metric not in rule.metrics:
                continue
            tok = h.tokens if h.tokens and h.tokens != "unspecified" else stated.get((h.unit, h.value), "unspecified")
            if tok in seen:
                continue
            seen.add(tok)
            quote, span = _lead_mention(h)
            if tok in rule.messages:
                prov.append(Note(kind=rule.kind, message=rule.messages[tok].format(quote=quote),  # type: ignore[index]
                                 quote=quote, span=span))
            else:
                cav.append(Note(kind=rule.kind, message=rule.unspecified.format(quote=quote),
                                quote=quote, span=span))
        return prov, cav

    # -- reproducibility ---------------------------------------------------------------
    def _reproducibility(self, d: Document, lower: str) -> list[Note]:
        rp = self.r.reproducibility
        out: list[Note] = []
        in_text = rp.image_digest.in_text
        src = d.text if in_text else d.view
        for m in self.digest.finditer(src, None if in_text else lower):
            out.append(_note(d, rp.image_digest.kind, rp.image_digest.message, m.start(), m.end()))
            if len(out) >= rp.image_digest.max_notes:
                break
        out += self._versions(d, lower)
        out += self._recipes(d)
        out += self._commands(d)
        return out

    def _versions(self, d: Document, lower: str) -> list[Note]:
        rule = self.r.reproducibility.pinned_version
        src = d.text if rule.in_text else d.view
        seen: set[str] = set()
        out: list[Note] = []
        for m in self.version.finditer(src, None if rule.in_text else lower):
            q = m.group(0)
            if q in seen:
                continue
            if self.version_exclude and self.version_exclude.search(src, max(0, m.start() - 12), m.start()):
                continue
            seen.add(q)
            out.append(_note(d, rule.kind, rule.message, m.start(), m.end()))
            if len(out) >= rule.max_notes:
                break
        return out

    def _recipes(self, d: Document) -> list[Note]:
        rule = self.r.reproducibility.recipe
        seen: set[str] = set()
        out: list[Note] = []
        for link in d.links:
            text = d.text[link.start:link.end]
            if self.recipe_exclude and self.recipe_exclude.search(link.target):
                continue
            if link.target in seen or not (self.recipe_target.search(link.target) or self.recipe_text.search(text)):
                continue
            seen.add(link.target)
            msg = rule.message.format(quote=text, target=link.target)
            out.append(Note(kind=rule.kind, message=msg, quote=text, span=(link.start, link.end)))
            if len(out) >= rule.max_notes:
                break
        return out

    def _commands(self, d: Document) -> list[Note]:
        rule = self.r.reproducibility.command
        out: list[Note] = []
        for b in d.blocks:
            if b.kind != "code":
                continue
            line = self._one_command(d, b.start, b.end)
            if line is None:
                continue
            s, e = line
            out.append(_note(d, rule.kind, rule.message, s, e))
            if len(out) >= rule.max_notes:
                break
        return out

    def _one_command(self, d: Document, start: int, end: int) -> tuple[int, int] | None:
        """Span of the single logical command line of a code block, if it is a benchmark/launch command."""
        logical: list[tuple[int, int]] = []
        pos = start
        cont = False
        for raw in d.text[start:end].split("\n"):
            s, e = pos, pos + len(raw)
            pos = e + 1
            stripped = raw.strip()
            if not stripped or stripped.startswith(("```", "~~~")):
                cont = False
                continue
            if cont:
                cont = stripped.endswith("\\")
                continue
            if stripped.startswith("#") and not self.prompt.match(raw):
                continue
            p = self.prompt.match(raw)
            lead = p.end() if p else len(raw) - len(raw.lstrip())
            logical.append((s + lead, s + len(raw.rstrip())))
            cont = stripped.endswith("\\")
            if len(logical) > 1:
                return None
        if len(logical) != 1:
            return None
        s, e = logical[0]
        return (s, e) if self.starters.match(d.text, s, e) else None


@rule_cache()
def _reader(rules_dir: str) -> CaveatReader:
    root = Path(rules_dir)
    return CaveatReader(load_yaml(root / CAVEATS_FILE, CaveatRules),
                        load_yaml(root / AUTHORSHIP_FILE, AuthorshipRules))


def _finder(rule, margin: int) -> CueFinder:
    return CueFinder(rule.patterns, rule.cues, case=rule.case, margin=margin)


def _lead_mention(c: Claim) -> tuple[str, tuple[int, int]]:
    """(quote, span) of where the post leads with a claim: its first mention in a headline position."""
    m = next((m for m in c.mentions if m.headline), None)
    return (m.quote, m.span) if m else (c.quote, c.span)


def _note(d: Document, kind: str, message: str, start: int, end: int) -> Note:
    quote = d.text[start:end]
    return Note(kind=kind, message=message.format(quote=quote), quote=quote, span=(start, end))
