"""One claim, many mentions: a figure the post states again (title, TL;DR, results, caption,
conclusion) for the same setup becomes one claim whose `mentions` list every place it is stated.

Runs after the conditions of each mention were resolved from its own surroundings:

- Mentions merge when they have the same metric, value, value_max, unit and per, the same tokens
  counted (or one of them does not say: "18K tok/s" in a title, "18,000 total tokens/s" in the body), a
  compatible baseline, and no two of them state different values for a condition of `restatement_must_agree`
  (scopes.yaml: model, hardware, lengths...). Mentions in one sentence, paragraph, list or table are
  parallel statements, never restatements; a common round figure (2x, 60%) is one claim only with
  its restatements in the lead and in its own section, not with another section of the body. A mention that would fit two groups that cannot merge (a
  title "2x" when the body reports 2x on H100 and 2x on MI300X) stays a claim of its own: which one it
  restates is not said. A figure stated more than `MAX_RESTATED` times in one post (a generated list of
  results) is no one result restated: each mention stays a claim of its own (grouping compares every
  mention of a figure with every group of it, so this also bounds that cost).
- The primary mention is the most specific one: outside the lead (title, summary, TL;DR, introduction)
  first, then a table cell, a paragraph, a list item, a caption, a heading, the front matter; then the
  one with the most stated conditions; then text order. The claim keeps its quote, span and context.
- Each condition is resolved once over all mentions: the stated value of the most specific scope of any
  mention wins (a fuller form of the same name from another mention refines it, and so does a point of a
  swept load that another mention at a scope as specific gives: "24 QPS" under the lead's figure, "QPS 8, 24,
  64" under the body's); mentions stating different values make it unrecoverable (ambiguous, both values in
  `why`), never one picked.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Callable

from extractor.conditions.machine_counts import machines_only
from extractor.conditions.refine import versioned
from extractor.conditions.restatements import distinctive
from extractor.conditions.rules import Reason, ScopeRules
from extractor.conditions._internals.sharing import frozen
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import CONDITIONS, Claim, ClaimMention, Condition

# Conditions whose `canonical` is a gazetteer name, the same for every spelling ("Qwen/Qwen3-32B", "Qwen3-32B");
# other canonicals are a family (an engine without its version, "warmup"), not a value
GAZETTEER_NAMES = frozenset({"model", "hardware", "precision", "dataset"})
UNSAID_TOKENS = (None, "unspecified")   # "18K tok/s" in a title does not say which tokens: no conflict
TITLE_KINDS = frozenset({"front_matter", "heading"})   # the places of a title or summary line
# How specific a mention's place is, most specific first (the block kind of its unit).
BLOCK_RANK = {"cell": 0, "paragraph": 1, "list_item": 2, "quote": 3, "caption": 4, "heading": 5,
              "front_matter": 6}
_NON_NAME = re.compile(r"[^a-z0-9.]+")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
# an unrecoverable condition to keep when no mention states it: the most telling reason first
_REASON_ORDER = {"external": 0, "ambiguous": 1, "no_version": 2, "partial": 2}
MAX_RESTATED = 64   # real posts state one figure at most 7 times (dev set and corpus)

Ambiguous = Callable[[Claim, str, str], Condition]   # (claim, condition, "v1, v2") -> unrecoverable


@dataclass(slots=True)
class Said:
    """One mention: the claim read at that place (with the conditions of its surroundings)."""

    claim: Claim
    unit: Passage
    reasons: dict[str, Reason]   # why each unrecoverable condition of the claim is so
    unclear: dict[str, str]      # the scope that states several values of each ambiguous condition
    lead: bool          # in a headline position (title, summary, TL;DR, introduction)
    list_run: int       # the list its list item belongs to, else -1
    stated: int = -1    # its stated `restatement_must_agree` values, as an index of `Agreement.signature`


def _norm(s: object) -> str:
    return _NON_NAME.sub(" ", str(s).lower()).strip()


def _extends(full: str, base: str) -> bool:
    """`full` is `base` written out more fully ("qwen3.5 397b a17b" of "qwen3.5")."""
    return full == base or (full.startswith(base) and not full[len(base)].isalnum())


def _numbers(value: object) -> tuple[float, float] | None:
    """(low, high) of a number, a swept range {"min", "max"}, or the first number of a text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value), float(value)
    if isinstance(value, dict):
        nums = [float(v) for k, v in value.items() if k in ("min", "max", "value", "rate", "total", "gpus")
                and isinstance(v, (int, float)) and not isinstance(v, bool)]
        return (min(nums), max(nums)) if nums else None
    if isinstance(value, str) and (m := _NUMBER.search(value)):
        n = float(m.group().replace(",", ""))
        return n, n
    return None


def _close(a: float, b: float) -> bool:
    # "1K" is 1000 or 1024 depending on the writer
    return math.isclose(a, b, rel_tol=0.025 if max(abs(a), abs(b)) >= 1000 else 1e-9)


def agree(a: Condition, b: Condition, name: str = "", composite: bool = False,
          variants: frozenset[str] = frozenset()) -> bool:
    """Whether two stated conditions `name` can describe one measurement: the same name (or one a fuller
    form of the other: "GB200", "GB200 NVL72"; for a model, not one that adds a variant word of `variants`:
    "Nova-7B-Chat" is not "Nova-7B" written out), the same number, a point inside a swept range; for a
    condition stated in parts (`composite`: a layout "DEP8, DEP2"), the same parts in any order."""
    if machines_only(a.value) or machines_only(b.value):
        # a count of machines alone ("two H200 nodes") says nothing against a count of devices ("16x H200")
        nodes = [v.get("nodes") for v in (a.value, b.value) if isinstance(v, dict) and "nodes" in v]
        return len(nodes) < 2 or nodes[0] == nodes[1]
    na, nb = _numbers(a.value), _numbers(b.value)
    if isinstance(a.value, (int, float, dict)) or isinstance(b.value, (int, float, dict)):
        if na is None or nb is None:
            return _norm(a.value) == _norm(b.value)
        if na[0] == na[1] and nb[0] == nb[1]:
            return _close(na[0], nb[0])
        if na[0] == na[1]:
            return nb[0] <= na[0] <= nb[1]
        if nb[0] == nb[1]:
            return na[0] <= nb[0] <= na[1]
        return _close(na[0], nb[0]) and _close(na[1], nb[1])
    if name == "model" and (versioned(a.canonical, b.canonical) or versioned(b.canonical, a.canonical)):
        return True   # one model, once without its version ("Llama-70B", "Llama2-70B")
    pairs = [(a.value, b.value), (a.quote, b.quote)]
    if composite and (len(_parts(a.value)) > 1 or len(_parts(b.value)) > 1):
        del pairs[1]   # a value in parts is quoted by its first part alone: "A, NF4" and "A, FP4" differ
    if name in GAZETTEER_NAMES:
        pairs.insert(0, (a.canonical, b.canonical))
    if name == "model" and variants and a.value and b.value:
        x, y = _norm(a.value), _norm(b.value)
        if (_extends(x, y) or _extends(y, x)) and _adds_variant(x, y, variants):
            return False   # (checked on the names as written: a canonical name may leave the variant out)
    for x, y in pairs:
        if x and y:
            x, y = _norm(x), _norm(y)
            if _extends(x, y) or _extends(y, x):
                return True
    return composite and _parts(a.value) == _parts(b.value)


_WORDS = re.compile(r"[^\W_]+")


def _adds_variant(x: str, y: str, variants: frozenset[str]) -> bool:
    """Whether the longer of two normalised names, one extending the other, adds a variant word first."""
    full, base = (x, y) if len(x) >= len(y) else (y, x)
    added = _WORDS.findall(full[len(base):])
    return bool(added) and added[0] in variants


class Agreement:
    """`agree` over one document's mentions, decided once per pair of distinct values: a long post states
    the same figure under the same conditions many times, and grouping compares its mentions pairwise."""

    def __init__(self, must_agree: tuple[str, ...], composite: frozenset[str], variants: frozenset[str] = frozenset()):
        self.must_agree, self.composite, self.variants = must_agree, composite, variants
        self.signatures: dict[tuple, int] = {}
        self.examples: list[tuple[Condition | None, ...]] = []   # one claim's stated values per signature
        self.pairs: dict[tuple[int, int], bool] = {}
        self.values: dict[tuple, bool] = {}

    def signature(self, claim: Claim) -> int:
        """The index of the claim's stated `must_agree` values (claims that state the same ones share it)."""
        stated = tuple(c if (c := claim.conditions.get(name)) is not None and c.status == "stated" else None
                       for name in self.must_agree)
        key = tuple(None if c is None else _value_key(c) for c in stated)
        if key not in self.signatures:
            self.signatures[key] = len(self.examples)
            self.examples.append(stated)
        return self.signatures[key]

    def stated_agree(self, i: int, j: int) -> bool:
        """Whether no condition of `must_agree` is stated with different values by signatures `i` and `j`."""
        if (i, j) not in self.pairs:
            self.pairs[i, j] = all(ca is None or cb is None or self(ca, cb, name) for name, ca, cb
                                   in zip(self.must_agree, self.examples[i], self.examples[j]))
        return self.pairs[i, j]

    def __call__(self, a: Condition, b: Condition, name: str) -> bool:
        """`agree(a, b, name, composite)`: it reads only their values, quotes and canonical names."""
        key = (name, _value_key(a), _value_key(b))
        if key not in self.values:
            self.values[key] = agree(a, b, name, name in self.composite, self.variants)
        return self.values[key]


def _value_key(c: Condition) -> tuple:
    return frozen(c.value), c.quote, c.canonical


def _shown(c: Condition, composite: bool) -> str:
    """A stated value as a why-note lists it: as written; a value in parts with its parts ("DEP2 + TEP8")."""
    if composite and c.note and isinstance(c.value, str) and "," in c.value:
        return " + ".join(p.strip() for p in c.value.split(","))
    return str(c.quote if isinstance(c.value, str) else c.value)


def _parts(value: object) -> frozenset[str]:
    """The normalised parts of a condition stated in parts ("DEP8, DEP2" -> {"dep8", "dep2"})."""
    return frozenset(p for p in (_norm(x) for x in str(value).split(",")) if p)


class MentionMerger:
    """Merges the mentions of one figure into one claim (see the module docstring)."""

    def __init__(self, scopes: ScopeRules, sweep_note_no_figure: str = ""):
        self.must_agree = tuple(scopes.restatement_must_agree)
        self.refinable = frozenset(scopes.refinable)
        self.composite = frozenset(scopes.composite)
        self.variants = frozenset(w.casefold() for w in scopes.model_variant_words)
        self.rank = scopes.scope_rank()
        self.shared_rank = self.rank.get("document", len(self.rank))   # scopes every claim of a post shares
        # the note of a swept condition when no figure lies near the mention: another mention of the
        # figure may lie by the chart that holds the exact point
        self.no_figure = {sweep_note_no_figure.format(condition=name.replace("_", " ")) for name in CONDITIONS} \
            if sweep_note_no_figure else set()

    def merge(self, d: Document, placed: list[tuple[Claim, Passage]], reasons: list[dict[str, Reason]],
              unclear: list[dict[str, str]], leads: set[int], ambiguous: Ambiguous
              ) -> tuple[list[Claim], list[dict[str, Reason]]]:
        """The claims of a document with restatements merged, in text order of their primary mention, and
        the reason of each unrecoverable condition of each. `reasons[i]`, `unclear[i]`: those of
        `placed[i]` and the scope of each of its ambiguous conditions; `leads`: ids of the claims in a
        headline position; `ambiguous` makes the unrecoverable condition for mentions that disagree."""
        runs = _list_runs(d)
        agreement = Agreement(self.must_agree, self.composite, self.variants)
        said = [Said(c, u, r, a, id(c) in leads, runs.get(u.block, -1), agreement.signature(c))
                for (c, u), r, a in zip(placed, reasons, unclear)]
        buckets: dict[tuple, list[Said]] = {}
        for s in said:
            c = s.claim
            buckets.setdefault((c.metric, c.value, c.value_max, c.unit, c.per), []).append(s)
        out: list[tuple[Claim, dict[str, Reason]]] = []
        for members in buckets.values():
            for group in self._groups(members, agreement) if len(members) <= MAX_RESTATED else [[s] for s in members]:
                out.append(self._claim(group, ambiguous, agreement))
        out.sort(key=lambda cr: (cr[0].span[0], cr[0].span[1], cr[0].metric))
        return [c for c, _ in out], [r for _, r in out]

    # -- grouping ------------------------------------------------------------------------
    def _groups(self, members: list[Said], agreement: Agreement) -> list[list[Said]]:
        """Groups of mutually compatible mentions, each led by its most specific mention."""
        if len(members) == 1:
            return [members]
        groups: list[list[Said]] = []
        # a common round figure (2x, 60%) given in two sections of the body may be two results that share it:
        # it is one claim only with its restatements in the lead and in its own section (a caption, a summary)
        round_figure = not distinctive(members[0].claim.value, members[0].claim.value_max)
        for s in sorted(members, key=_specificity):
            fits = [g for g in groups if all(self.compatible(s, o, agreement) for o in g)
                    and not (round_figure and not s.lead and _other_section(s, g))]
            if len(fits) == 1:
                fits[0].append(s)
            else:   # none, or several that are different setups: which one it restates is not said
                groups.append([s])
        return groups

    @staticmethod
    def compatible(a: Said, b: Said, agreement: Agreement) -> bool:
        """Whether two mentions of the same figure can be one claim."""
        ua, ub = a.unit, b.unit
        if ua.block >= 0 and ua.block == ub.block:
            return False            # one sentence or paragraph: parallel statements
        if ua.table is not None and ua.table == ub.table:
            return False            # two cells: two measurements
        if a.list_run >= 0 and a.list_run == b.list_run:
            return False            # items of one list: parallel statements
        ta, tb = a.claim.tokens, b.claim.tokens
        if ta != tb and ta not in UNSAID_TOKENS and tb not in UNSAID_TOKENS:
            return False            # output tokens and total tokens are two measurements
        ba, bb = a.claim.baseline, b.claim.baseline
        if ba and bb and not (_extends(_norm(ba), _norm(bb)) or _extends(_norm(bb), _norm(ba))):
            return False
        return agreement.stated_agree(a.stated, b.stated)   # no condition stated with two values

    # -- one claim -----------------------------------------------------------------------
    def _claim(self, group: list[Said], ambiguous: Ambiguous, agreement: Agreement
               ) -> tuple[Claim, dict[str, Reason]]:
        primary = group[0].claim
        in_order = sorted(group, key=lambda s: s.claim.span)
        mentions = [ClaimMention(quote=s.claim.quote, span=s.claim.span, context=s.claim.context, headline=s.lead)
                    for s in in_order]
        # the other ends of ranges written with markup between them, as the claim reader gave them
        ends = [m.model_copy(update={"headline": s.lead}) for s in in_order for m in s.claim.mentions
                if m.span != s.claim.span]
        if ends:
            mentions = sorted(mentions + ends, key=lambda m: m.span)
        if len(group) == 1:
            primary.mentions = mentions
            return primary, group[0].reasons
        conditions: dict[str, Condition] = {}
        reasons: dict[str, Reason] = {}
        for name in CONDITIONS:
            if name in primary.conditions:
                conditions[name], reason = self._condition(name, group, ambiguous, agreement)
                if reason is not None:
                    reasons[name] = reason
        # what a comparison is against may be said at one mention only ("+17%" in a table, "compared with
        # v0.8.5, ... 17% more" in the text); the mentions' baselines agree (see `compatible`)
        baseline = primary.baseline or next((s.claim.baseline for s in group if s.claim.baseline), None)
        tokens = next((s.claim.tokens for s in group if s.claim.tokens not in UNSAID_TOKENS), primary.tokens)
        return primary.model_copy(update={"mentions": mentions, "conditions": conditions, "baseline": baseline,
                                          "tokens": tokens,
                                          "headline": any(s.claim.headline or s.lead for s in group)}), reasons

    def _condition(self, name: str, group: list[Said], ambiguous: Ambiguous, agreement: Agreement
                   ) -> tuple[Condition, Reason | None]:
        primary = group[0].claim
        stated = [(self.rank.get(c.scope or "", len(self.rank)), i, c) for i, s in enumerate(group)
                  if (c := s.claim.conditions.get(name)) is not None and c.status == "stated"]
        # a mention that states several values at least as close to it as any stated one: the post does
        # not make clear which one this figure was measured with. A title or summary line strings several
        # results together ("7x faster X, 1.5x faster Y, Z support"; "34,250 tokens/s in the Offline
        # scenario and 29,870 in the Server scenario"): its several names do not outweigh a stated one
        unclear = [(self.rank.get(s.unclear[name], len(self.rank)) + (len(self.rank) + 1) * (s.unit.kind in TITLE_KINDS),
                    i) for i, s in enumerate(group) if s.reasons.get(name) == "ambiguous" and name in s.unclear]
        if unclear and (not stated or min(unclear)[0] <= min(stated)[0]):
            said = group[min(unclear)[1]]
            return said.claim.conditions[name], "ambiguous"
        if not stated:
            said = min((s for s in group if name in s.claim.conditions),
                       key=lambda s: _REASON_ORDER.get(s.reasons.get(name, ""), 9))   # the primary first among equals
            return said.claim.conditions[name], said.reasons.get(name)
        stated.sort(key=lambda t: (t[0], t[1]))
        distinct: list[Condition] = []
        for _, _, c in stated:
            if not any(agreement(c, o, name) for o in distinct):
                distinct.append(c)
        if len(distinct) > 1:
            values = ", ".join(sorted({_shown(c, name in self.composite) for c in distinct}))
            return ambiguous(primary, name, values), "ambiguous"
        _, i, best = stated[0]
        if name in self.refinable:
            # the same name written out more fully at another mention, in its own surroundings (not in
            # the introduction or front matter that every claim of the post shares)
            base = _norm(best.quote)
            fuller = [(-len(_norm(c.quote)), r, j, c) for r, j, c in stated if _extends(_norm(c.quote), base)
                      and (r < self.shared_rank or j in (0, i))]
            _, _, i, best = min(fuller, key=lambda t: t[:3])
        if best.count is None and (counted := [(r, j, c) for r, j, c in stated if c.count]):
            _, i, best = counted[0]   # "8x H200" at another mention says how many
        if best.sweep and (points := [(r, j, c) for r, j, c in stated if r <= stated[0][0] and not c.sweep
                                      and (n := _numbers(c.value)) is not None and n[0] == n[1]]):
            _, i, best = points[0]   # the point of the sweep another mention gives this figure at ("32 QPS")
        elif best.sweep and best.note in self.no_figure:
            i, best = next(((j, c) for _, j, c in stated if c.span == best.span and c.note not in self.no_figure),
                           (i, best))
        if i == 0:
            return best, None
        where = group[i].claim
        note = f"stated where the post gives this figure again ({where.quote!r}, {_place(group[i])})"
        return best.model_copy(update={"scope": "restatement", "note": "; ".join(x for x in (best.note, note) if x)}), None


def _other_section(s: Said, group: list[Said]) -> bool:
    """Whether a mention of the body is in another section than one of the group's body mentions."""
    return any(not o.lead and o.claim.context.section != s.claim.context.section for o in group)


def _specificity(s: Said) -> tuple:
    stated = sum(c.status == "stated" for c in s.claim.conditions.values())
    return (s.lead, BLOCK_RANK.get(s.unit.kind, 3), -stated, s.claim.span)


def _place(s: Said) -> str:
    ctx = s.claim.context
    where = ctx.block.replace("_", " ")
    return f"{where} in {ctx.section[-1]!r}" if ctx.section else where


def _list_runs(d: Document) -> dict[int, int]:
    """Block index of each list item -> the index of the first item of its run of list items."""
    runs: dict[int, int] = {}
    start = -1
    for i, b in enumerate(d.blocks):
        if b.kind == "list_item":
            start = i if start < 0 else start
            runs[i] = start
        else:
            start = -1
    return runs
