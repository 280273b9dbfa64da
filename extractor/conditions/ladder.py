"""The scope ladder: the places a claim's conditions may be read from, most specific first.

The rungs, their order and the scope each reports are data (`ladder` in rules/scopes.yaml, the one
description of them); each rung's reader is a small method here that gathers the mentions of that
place for one claim, or None when the place does not apply to the claim (no table rungs for a
sentence). Which rung wins is the resolution policy's job (policy.py)."""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from bisect import bisect_right
from typing import NamedTuple

from extractor.conditions.clauses import ClauseScope
from extractor.conditions.code.reader import PYTHON_RULE
from extractor.conditions.code.rungs import run_code_before
from extractor.conditions.context import MEASURED_KINDS, DocContext, Located
from extractor.conditions.figure_scope import FigureCaptions
from extractor.conditions.output_setup import nearest_setup
from extractor.conditions.places import (Places, ancestors, covering_setup, footnotes, introducing_sentence,
                                         labelled_settings, lead_in)
from extractor.conditions.rules import LADDER_READERS, ScopeRules
from extractor.conditions.shared_rungs import SharedRung, filtered, summary
from extractor.ingest import Document
from extractor.conditions.ties import ClaimSite, describes_other_run, ties_fit


_SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n")


class Level(NamedTuple):
    """One rung read for one claim: the scope reported and the mentions found there."""

    scope: str
    located: list[Located]
    via_cell: bool = False   # column headers, read through the claim row's cell


class Tiers(list):
    """What a reader returns when its place has nested parts, most specific first (the claim's own section,
    then each section above it): each tier is a rung of its own, so the nearest part that states a
    condition wins over the broader ones."""


Reader = Callable[[ClaimSite], "list[Located] | Tiers | None"]


class ScopeLadder:
    """Reads a claim's rungs in the order of the rules: `levels(site)`."""

    def __init__(self, scopes: ScopeRules, places: Places):
        self.scopes, self.places = scopes, places
        self.lead_in_endings = tuple(scopes.lead_in_endings)
        self.lead_in_sentence_kinds = frozenset(scopes.lead_in_sentence_kinds)
        self.footnote_marks = tuple(scopes.footnote_marks)
        self.after_claim = set(scopes.after_claim)
        self.clauses = ClauseScope(scopes)
        self.universal_scope = re.compile(scopes.universal_scope, re.I | re.M)
        self.paragraph_label = re.compile(scopes.paragraph_label)
        self.header_comparison = re.compile(scopes.header_comparison, re.I)
        self.draft_column = re.compile(scopes.draft_column, re.I)
        self.setting_label = scopes.setup_label(line_start=False)
        self.figures = FigureCaptions(re.compile(scopes.figure_reference, re.I), places)
        readers: dict[str, Reader] = {name: getattr(self, name) for name in LADDER_READERS}
        self.rungs = [(rung.scope, readers[rung.reader], rung.via_cell) for rung in scopes.ladder]

    def levels(self, site: ClaimSite) -> list[Level]:
        """The claim's rungs that apply, most specific first."""
        out = []
        site.family = self.places.family(site.d, site.claim)
        if site.passage.table is None:
            site.settings = labelled_settings(site.d, site.passage.block, self.setting_label, site.ctx.claim_spans,
                                              site.ctx.alternatives)
            site.siblings -= site.settings
        own: dict[str, set[str]] = {}   # the load settings the claim's own sentence states
        if site.passage.table is None:
            site.own_loads = {x.name for x in site.ctx.between(site.passage.start, site.passage.end)
                              if x.name in MEASURED_KINDS and x.usable}
        p = site.passage
        inside = (p.start, p.end) if p.table is None else (0, 0)
        kind = None   # what the mentions that fit the claim depend on, besides its place (`_kept`)
        for scope, read, via_cell in self.rungs:
            located = read(site)
            if located is None:
                continue
            for tier in (located if isinstance(located, Tiers) else [located]):
                if scope != "sentence" and isinstance(tier, SharedRung) \
                        and not tier.touches(*inside, site.claim.span[0]):
                    if kind is None:
                        kind = (tuple(sorted((name, tuple(sorted(values))) for name, values in own.items())),
                                frozenset(site.modes), frozenset(site.devices), frozenset(site.models),
                                site.baseline_devices, frozenset(site.own_loads))
                    # the same for every claim of this kind that the rung does not touch; of the kind, only what
                    # its mentions can be bound to counts (most rungs hold no setting bound to a mode or device)
                    asks = summary(tier, "asks", lambda xs: _asks(site.d, xs), _either)
                    key = (site.family, site.claim.metric == "accuracy", *(k if a else None for k, a in zip(kind, asks)))
                    kept = filtered(tier, ("kept", scope, key), lambda r: self._kept(site, r, scope, own))
                else:
                    kept = self._kept(site, tier, scope, own)
                if scope == "sentence":
                    for x in kept:
                        if x.name in MEASURED_KINDS and x.usable:
                            own.setdefault(x.name, set()).add(repr(x.m.value))
                        elif x.name == "scenario" and x.usable and x.m.canonical:
                            site.modes.add(x.m.canonical)
                        elif x.name in ("hardware", "model") and x.usable:
                            (site.devices if x.name == "hardware" else site.models).add(x.m.canonical or str(x.m.value))
                    kind = None
                out.append(Level(scope, kept, via_cell))
        return out

    @staticmethod
    def _kept(site: ClaimSite, tier: list[Located], scope: str, own: dict[str, set[str]]) -> list[Located]:
        """The mentions of one rung that fit the claim. Besides its place (its own sentence and passage), what
        decides is its metric family, whether it is an accuracy figure, and the load settings of its own
        sentence (`own`): a `SharedRung` that the claim's place does not touch keeps the result per those."""
        kept = [x for x in tier if ties_fit(site, x, scope)]
        if scope == "sentence":
            return kept
        # the claim's own sentence is read by the sentence rung alone: what its clause scope or the
        # baseline left out there (another result's clause, "than the H100") is not let in again
        p = site.passage
        return [x for x in kept if not (p.table is None and p.start <= x.m.span[0] < p.end)
                and not describes_other_run(site, x, own)]

    # -- the readers -------------------------------------------------------------
    def sentence(self, site: ClaimSite) -> list[Located]:
        """The claim's sentence or cell, without the baseline it is compared with; in a sentence of
        several results, the claim's own clause (`ClauseScope`, clauses.py)."""
        p, claim = site.passage, site.claim
        # the view blanks the front matter: a summary's words are read in the text as written
        text = site.d.text if p.kind == "front_matter" else site.d.view
        base_lo = base_hi = -1
        if claim.baseline:
            pos = text.find(claim.baseline, claim.span[1], p.end + 1)
            if pos >= 0:
                base_lo, base_hi = pos, pos + len(claim.baseline)
        located = [x for x in site.ctx.between(p.start, p.end) if x.m.span[1] <= p.end and not x.code
                   and not (base_lo <= x.m.span[0] < base_hi)]
        if p.table is not None:
            return located
        if (label := self.paragraph_label.match(text, p.start, claim.span[0])) is not None:
            # a label line heading the paragraph: the sentence's own value of a condition wins over it
            stated = {x.name for x in located if x.m.span[0] >= label.end()}
            located = [x for x in located if x.m.span[0] >= label.end() or x.name not in stated]
        return self.clauses.own_clause(located, claim.span, site.ctx.claims_in(p.start, p.end), p, text)

    @staticmethod
    def program_output(site: ClaimSite) -> list[Located] | None:
        """For a result printed by a program, the setup lines printed before it in its output block, the
        nearest of each condition ("Loading model X", "Batch size: 16" above the run's own lines)."""
        p = site.passage
        printed = site.ctx.output.get(p.block) if p.kind == "code" and p.table is None else None
        if printed is None:
            return None
        return nearest_setup(printed, p.start)

    def table_row(self, site: ClaimSite) -> list[Located] | None:
        """The other cells of the claim's row, and the row's group label; not the model of a column that holds
        the draft model of speculative decoding ("Draft model": "Llama-3.2-1B")."""
        p = site.passage
        if p.table is None:
            return None
        group = site.ctx.groups.get((p.table, p.row)) if p.row is not None else None
        cells = [x for x in site.ctx.by_table.get(p.table, []) if x.row is not None and x.row >= 0
                 and (x.row == p.row or x.row == group) and x.col != p.col]
        if any(x.name == "model" for x in cells):
            view, header = site.d.view, site.d.tables[p.table].header
            drafts = {h.col for h in header if self.draft_column.search(view, h.start, h.end)}
            cells = [x for x in cells if not (x.name == "model" and x.col in drafts)]
        return cells

    @staticmethod
    def table_column(site: ClaimSite) -> list[Located] | None:
        """The header of the claim's column."""
        p = site.passage
        if p.table is None:
            return None
        return [x for x in site.ctx.by_table.get(p.table, []) if x.row == -1 and x.col == p.col]

    def column_names(self, site: ClaimSite) -> list[Located] | None:
        """The names in the header of the claim's column ("8x H100 (tok/s)", "Llama-3-8B"): what the column's
        cells were measured with; none when the header compares two ("B200 vs H100", "H200/H100")."""
        p = site.passage
        if p.table is None:
            return None
        named = [x for x in site.ctx.by_table.get(p.table, []) if x.row == -1 and x.col == p.col and x.usable]
        head = next((c for c in site.d.tables[p.table].header if c.col == p.col), None)
        if not named or head is None or self.header_comparison.search(site.d.view, head.start, head.end):
            return []
        return named

    @staticmethod
    def table_caption(site: ClaimSite) -> list[Located] | None:
        """The caption of the claim's table."""
        if site.passage.table is None:
            return None
        caption = site.d.tables[site.passage.table].caption
        return site.ctx.between(caption.start, caption.end) if caption else None

    def table_footnotes(self, site: ClaimSite) -> list[Located] | None:
        """Footnotes under the claim's table."""
        if site.passage.table is None:
            return None
        t, ctx = site.passage.table, site.ctx
        if t not in ctx.table_footnotes:   # the same for every cell of the table: found once per table
            end = site.d.tables[t].end
            ctx.table_footnotes[t] = [x for b in sorted(footnotes(site.d, end, ctx.block_starts, self.footnote_marks))
                                      for x in ctx.by_block.get(b, [])]
        return ctx.table_footnotes[t]

    @staticmethod
    def own_caption(site: ClaimSite) -> list[Located] | None:
        """The caption the claim is written in."""
        p = site.passage
        if p.table is not None or p.block < 0 or site.d.blocks[p.block].kind != "caption":
            return None
        return site.ctx.by_block.get(p.block, [])

    def paragraph(self, site: ClaimSite) -> list[Located] | None:
        """A table's lead-in paragraph; or the claim's paragraph (with its lead-in) up to the claim: what
        follows the claim may describe something else ("... fixed at a single 8xGB200 endpoint"), except
        the workload conditions a paragraph often gives after its result ("Concurrency was swept ...")."""
        p, ctx = site.passage, site.ctx
        if p.table is not None:   # the same for every cell of the table: found once per table
            if p.table not in ctx.table_lead_ins:
                blocks = lead_in(site.d, ctx.table_block.get(p.table, -1), self.lead_in_endings)
                ctx.table_lead_ins[p.table] = [x for b in sorted(blocks) for x in ctx.by_block.get(b, [])
                                               if x.table is None]
            return ctx.table_lead_ins[p.table]
        if p.block < 0:
            return None
        blocks = lead_in(site.d, p.block, self.lead_in_endings) | site.settings
        found = [x for b in sorted(blocks) for x in ctx.by_block.get(b, [])
                 if x.m.span[0] < p.start or x.block in site.settings
                 or x.name in self.after_claim and not self._nearer_result(site, x)]
        lead = blocks - {p.block} - site.settings
        intro = introducing_sentence(site.d, next(iter(lead))) if len(lead) == 1 else None
        if intro is None:
            return found
        # the sentence that introduces the list ("... for model X on 1 GPU:") governs its items more closely
        # than the earlier sentences of its paragraph (a past setup, an example): a tier of its own
        lo, hi = intro
        earlier = [x for x in found if x.block in lead and not lo <= x.m.span[0] < hi
                   and x.name in self.lead_in_sentence_kinds]
        if not earlier:
            return found
        return Tiers([[x for x in found if x not in earlier], earlier])


    @staticmethod
    def _nearer_result(site: ClaimSite, x: Located) -> bool:
        """A mention after the claim whose sentence, or the text between, states another result: it
        describes that result ("... 410 tok/s. It also led on latency, with TTFT below 2 s on 8k prompts.")."""
        view, lo = site.d.view, site.claim.span[1]
        end = _SENTENCE_END.search(view, x.m.span[1])
        hi = end.start() if end else len(view)
        own = tuple(site.claim.span)
        return any(tuple(s) != own for s in site.ctx.claims_in(lo, hi))

    def figure_captions(self, site: ClaimSite) -> list[Located]:
        """Captions of the figures near the claim that fit its metric (figure_scope.FigureCaptions)."""
        return self.figures(site)

    @staticmethod
    def section(site: ClaimSite) -> Tiers:
        """The claim's section and the lead text of the sections above it, up to the claim (set-up is
        stated before the results it governs), one tier per section, innermost first: a subsection's own
        set-up ("ISL 4400 / OSL 1200" in its heading) wins over what the sections above state for all of
        their subsections; not the other items of the claim's list, nor the captions of figures (a caption
        describes its own figure; the near ones are read by `figure_captions`)."""
        blocks = site.d.blocks
        return Tiers([x for x in site.ctx.prose_before(s, site.passage.start)
                      if x.block not in site.siblings
                      and (blocks[x.block].kind != "caption" or x.block == site.passage.block)]
                     for s in site.chain)

    @staticmethod
    def section_commands(site: ClaimSite) -> list[Located] | None:
        """A benchmark command shown in the claim's section or above it states what it passes."""
        if site.passage.section is None:
            return None
        return [x for s in site.chain for x in site.ctx.code.get(s, []) if not x.m.rule.startswith(PYTHON_RULE)]

    @staticmethod
    def section_code(site: ClaimSite) -> list[Located] | None:
        """The run's Python code shown before the claim, then the cells it reads names from (code/rungs.py
        `run_code_before`)."""
        found = run_code_before(site)
        return None if found is None else Tiers(found)

    @staticmethod
    def _linked(site: ClaimSite) -> list[int]:
        linked = site.linked
        return ancestors(site.d, linked)[:1] + [i for i, s in enumerate(site.d.sections) if s.parent == linked]

    def linked_section(self, site: ClaimSite) -> list[Located] | None:
        """The section (and its subsections) that a highlight bullet's feature names."""
        if site.linked is None:
            return None
        return [x for s in self._linked(site) for x in site.ctx.prose.get(s, [])]

    def linked_commands(self, site: ClaimSite) -> list[Located] | None:
        """The benchmark commands of that linked section."""
        if site.linked is None:
            return None
        return [x for s in self._linked(site) for x in site.ctx.code.get(s, [])]

    @staticmethod
    def setup_sections(site: ClaimSite) -> list[Located] | None:
        """The setup sections that cover the claim; those before it, when any (a set-up given before the
        results governs them, not a later one)."""
        d, ctx = site.d, site.ctx
        covering = covering_setup(ctx, site.section, site.passage.start)
        if not covering:
            return None
        rung = ctx.rungs.get(covering)
        if rung is None:   # the claims of a stretch of the post share their setup sections: read once
            # a claim further on covers the setup sections of an earlier one and those in between: an extension
            n = next((n for n in range(len(covering) - 1, max(0, len(covering) - 5), -1) if covering[:n] in ctx.rungs), 0)
            rung = ctx.rungs[covering] = SharedRung.joined(
                ([ctx.rungs[covering[:n]]] if n else []) + [_section_rung(ctx, i) for i in covering[n:]])
        return _own_rung(site, rung, lambda: (x for i in covering
                                              for x in ctx.between(d.sections[i].start, d.sections[i].body_end)))

    def universal(self, site: ClaimSite) -> list[Located]:
        """Statements of universal scope anywhere in the post ("All experiments use ...", "Unless noted
        otherwise, ..."): they cover every result of the post, after them as well as before; a statement
        that ends in a colon covers what it introduces (the next block). One about the results above it
        ("The above numbers were collected with ...") covers only the results before it."""
        ctx = site.ctx
        if ctx.universal is None:
            d, view, found = site.d, site.d.view, []
            for m in self.universal_scope.finditer(view):
                end = _SENTENCE_END.search(view, m.end())
                hi = end.start() + 1 if end else len(view)
                b = bisect_right(ctx.block_starts, m.start()) - 1
                if view[m.start():hi].rstrip().endswith(self.lead_in_endings) and 0 <= b < len(d.blocks) - 1:
                    hi = d.blocks[b + 1].end
                reach = m.start() if m.groupdict().get("above") else len(view)
                found += [(x, reach) for x in ctx.between(m.start(), hi)]
            ctx.universal = found
            ctx.universal_reaches = sorted({reach for _, reach in found})
        pos = site.claim.span[0]
        covers = ("universal", bisect_right(ctx.universal_reaches, pos))   # the statements whose reach is past pos
        rung = ctx.rungs.get(covers)
        if rung is None:
            rung = ctx.rungs[covers] = _rung(ctx, [x for x, reach in ctx.universal if pos < reach])
        return _own_rung(site, rung, lambda: (x for x, reach in ctx.universal if pos < reach))

    @staticmethod
    def introduction(site: ClaimSite) -> list[Located] | None:
        """The untitled introduction: it describes what the whole post measured."""
        if site.section is None and site.passage.kind != "front_matter":
            return None
        ctx = site.ctx
        rung = ctx.rungs.get("introduction")
        if rung is None:
            rung = ctx.rungs["introduction"] = _rung(ctx, ctx.prose.get(None, []))
        return _own_rung(site, rung, lambda: ctx.prose.get(None, []))

    @staticmethod
    def front_matter(site: ClaimSite) -> list[Located]:
        """The front matter and the (HTML) title."""
        d, ctx = site.d, site.ctx
        if "front_matter" not in ctx.rungs:
            fm: list[Located] = []
            if d.meta_span:
                fm += ctx.between(*d.meta_span)
            if d.title_span:
                fm += ctx.between(*d.title_span)
            ctx.rungs["front_matter"] = SharedRung(fm)
        return ctx.rungs["front_matter"]


def _rung(ctx: DocContext, located: list[Located]) -> SharedRung:
    """A shared rung of `located`, without the items of the post's lists of alternatives (each describes its
    own experiment, for every claim outside it)."""
    return SharedRung((x for x in located if x.block not in ctx.alternatives), full=located)


def _section_rung(ctx: DocContext, section: int) -> SharedRung:
    """The mentions of one setup section, as a part of the setup rungs that hold it."""
    if ("section", section) not in ctx.rungs:
        sec = ctx.d.sections[section]
        ctx.rungs["section", section] = _rung(ctx, ctx.between(sec.start, sec.body_end))
    return ctx.rungs["section", section]


def _own_rung(site: ClaimSite, rung: SharedRung, located: Callable[[], Iterable[Located]]) -> list[Located]:
    """What the claim reads of a shared rung: the rung itself when no mention it was cut from lies in the
    claim's own block or list (the rung leaves out the post's lists of alternatives, as `site.siblings`
    does); else `located` without the claim's siblings, as a list of its own."""
    blocks = site.d.blocks
    if site.passage.block < 0:   # (a table cell, the front matter: no list of its own; its siblings are the alternatives)
        return rung
    lo = min(blocks[b].start for b in site.own_list)
    hi = max(max(blocks[b].end, blocks[b].start + 1) for b in site.own_list)
    if not rung.starts_in(lo, hi):
        return rung
    return [x for x in located() if x.block not in site.siblings]


def _either(first: tuple[bool, ...], then: tuple[bool, ...]) -> tuple[bool, ...]:
    return tuple(a or b for a, b in zip(first, then))


def _asks(d: Document, located: list[Located]) -> tuple[bool, bool, bool, bool, bool, bool]:
    """Which parts of a claim's kind (`ScopeLadder.levels`) can decide whether these mentions fit it: its own
    sentence's loads (a mention in a sentence), its modes, devices, models (a setting bound to one), the
    devices it is compared with (bound to a device, or a load in a caption), its sentence's load kinds (a
    setting bound to a metric family)."""
    sentence = mode = device = model = family = baseline = False
    for x in located:
        sentence |= x.sentence is not None
        mode |= x.for_mode is not None
        device |= x.for_device is not None
        model |= x.for_model is not None
        family |= x.for_family is not None
        baseline |= x.name in MEASURED_KINDS and x.block >= 0 and d.blocks[x.block].kind == "caption"
    return sentence, mode, device, model, device or baseline, family
