"""The scope ladder: the places a claim's conditions may be read from, most specific first.

The rungs, their order and the scope each reports are data (`ladder` in rules/scopes.yaml, the one
description of them); each rung's reader is a function registered under its name (rungs.py, the registry;
readers in rungs_local.py and rungs_document.py) that gathers the mentions of that place for one claim, or
None when the place does not apply to the claim (no table rungs for a sentence). Which rung wins is the
resolution policy's job (policy.py).

Reading a claim's rungs has three pieces: the claim's site (`LadderReading.site`: its place, family, set-up
items; then what its own sentence states, read from the `sentence` rung, which the schema keeps first), the
rungs read in order and the mentions of each that fit the claim (`_kept`, ties.py), and the memos that let many
claims share a rung (`_internals/`: shared rungs and their memo keys)."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from extractor.conditions._internals.rung_memo import RungMemo, claim_kind, kept_key
from extractor.conditions._internals.shared_rungs import SharedRung, filtered
from extractor.conditions.clauses import ClauseScope
from extractor.conditions.context import DocContext
from extractor.conditions.figure_scope import DocumentFigureCaptions, FigureCaptions
from extractor.conditions.located import MEASURED_KINDS, Located
from extractor.conditions.places import DocumentPlaces, Places, labelled_settings
from extractor.conditions.rules import ScopeRules
from extractor.conditions.rungs import SENTENCE, Tiers, rung_readers
from extractor.conditions.ties import (ClaimSite, describes_other_run, other_models_settings, other_modes_settings,
                                       respective_values, ties_fit)
from extractor.ingest.segment import Passage
from extractor.records import Claim

# the rungs of a table cell's own place: its cell, row, column, caption and footnotes (they may name the baseline's
# feature setting: "prefix caching disabled"; the broader rungs' topic is not its)
_TABLE_OWN = frozenset({"sentence", "table_row", "table_column", "table_caption", "footnote"})


class Level(NamedTuple):
    """One rung read for one claim: the scope reported and the mentions found there."""

    scope: str
    located: list[Located]
    via_cell: bool = False   # column headers, read through the claim row's cell


class ScopeLadder:
    """The ladder's rules, read once: the rungs in order with their readers, and what the readers match with.
    `reading(ctx, places)` gives one document's `LadderReading`."""

    def __init__(self, scopes: ScopeRules, places: Places, abbreviations: frozenset[str] = frozenset()):
        self.scopes, self.places = scopes, places
        self.abbreviations = abbreviations   # words a dot does not end a sentence after ("Fig.": claims.yaml)
        self.lead_in_endings = tuple(scopes.lead_in_endings)
        self.lead_in_sentence_kinds = frozenset(scopes.lead_in_sentence_kinds)
        self.footnote_marks = tuple(scopes.footnote_marks)
        self.after_claim = set(scopes.after_claim)
        self.own_sentence_only = frozenset(scopes.own_sentence_only)
        self.clauses = ClauseScope(scopes)
        self.universal_scope = re.compile(scopes.universal_scope, re.I | re.M)
        self.described_after = re.compile(scopes.described_after, re.I)
        self.described_after_end = re.compile(scopes.described_after_end, re.I)
        self.table_setup_lead = re.compile(scopes.table_setup_lead, re.I)
        self.feature_words = frozenset(w.casefold() for w in scopes.back_matter_feature_words)
        self.paragraph_label = re.compile(scopes.paragraph_label)
        self.unit_device = re.compile(scopes.unit_device, re.I)
        self.topic_opener = re.compile(scopes.topic_opener)
        self.panel_label = re.compile(scopes.panel_label)
        self.code_run_sentence = re.compile(scopes.code_run_sentence, re.I)
        self.header_comparison = re.compile(scopes.header_comparison, re.I)
        self.header_versus = re.compile(scopes.versus_gap, re.I)
        self.draft_column = re.compile(scopes.draft_column, re.I)
        self.baseline_column = re.compile(scopes.baseline_column, re.I)
        self.baseline_column_kinds = frozenset(scopes.baseline_column_kinds)
        self.from_level_before = re.compile(scopes.from_level_before, re.I)
        self.from_level_after = re.compile(scopes.from_level_after, re.I)
        self.setting_label = scopes.setup_label(line_start=False)
        self.setup_ending, self.setup_phrase = scopes.setup_heading()
        self.figures = FigureCaptions(re.compile(scopes.figure_reference, re.I),
                                      frozenset(scopes.several_systems.qualifiers))
        self.respectively = re.compile(scopes.respectively, re.I)
        self.respective_joint = re.compile(scopes.respective_joint, re.I)
        self.varied = [(kind, re.compile(rx, re.I)) for kind, rx in scopes.varied_in_sentence.items()]
        readers = rung_readers()
        first, *rest = scopes.ladder   # (the schema keeps the `sentence` rung first: the others ask what it states)
        self.sentence = (first.scope, readers[first.reader], first.via_cell)
        self.rungs = [(rung.scope, readers[rung.reader], rung.via_cell) for rung in rest]

    def reading(self, ctx: DocContext, places: DocumentPlaces) -> LadderReading:
        """The ladder of one document."""
        return LadderReading(self, ctx, places, self.figures.reading(ctx, places))


class LadderReading:
    """One document's ladder: builds each claim's site and reads its rungs (`levels`), with the document's memos
    (`RungMemo`: dropped with this object once the document's claims are resolved)."""

    def __init__(self, ladder: ScopeLadder, ctx: DocContext, places: DocumentPlaces,
                 figures: DocumentFigureCaptions):
        self.ladder, self.ctx, self.places, self.figures = ladder, ctx, places, figures
        self.memo = RungMemo()
        # a list cut to one figure's value (ties.py `respective_values`), kept as long as the document's mentions:
        # the memos key mentions by identity
        self.respective: dict[tuple[int, int], Located] = {}
        self.varied: dict[tuple[int, int], frozenset[str]] = {}   # a sentence's varied loads (`_varied`)
        self.panels: dict[int, list[int]] = {}   # block -> the starts of its panel labels (`_panel`)
        # whether any paragraph of the post describes figure panels (else no mention needs the panel test)
        self.has_panels = len(ladder.panel_label.findall(ctx.d.view)) > 1

    def site(self, claim: Claim, passage: Passage, linked: int | None, baseline_devices: frozenset[str]) -> ClaimSite:
        """The claim's site before its rungs are read: its place, metric family, the labelled set-up items of its
        list and the load kinds its whole sentence states."""
        ctx = self.ctx
        settings: set[int] = set()
        own_loads: set[str] = set()
        if passage.table is None:
            settings = labelled_settings(ctx.d, passage.block, self.ladder.setting_label, ctx.claim_spans,
                                         ctx.alternatives)
            own_loads = {x.name for x in ctx.between(passage.start, passage.end)
                         if x.name in MEASURED_KINDS and x.usable}
        return ClaimSite(ctx, claim, passage, linked, self.ladder.places.family(ctx.d, claim), settings, own_loads,
                         baseline_devices, self.memo)

    def levels(self, site: ClaimSite) -> tuple[list[Level], ClaimSite]:
        """The claim's rungs that apply, most specific first, and its site with what its own sentence states."""
        scope, read, via_cell = self.ladder.sentence
        kept = respective_values(site, [x for x in read(self, site) if ties_fit(site, x, SENTENCE)],
                                 self.ladder.respectively, self.ladder.respective_joint, self.respective)
        site = site.with_own_clause(kept)
        out = [Level(scope, kept, via_cell)]
        p = site.passage
        inside = (p.start, p.end) if p.table is None else (0, 0)
        # the load conditions its own sentence says vary: none of them from a broader place (read once per sentence:
        # a sentence of many figures is not searched once per figure)
        varied = self._varied(p) if p.table is None else frozenset()
        # a figure of one panel of a caption ("(b) ..."): the settings of another panel's description are not its own
        panel = self._panel(p.block, site.claim.span[0]) if p.block >= 0 and self.has_panels else 0
        kind = None   # what the mentions that fit the claim depend on, besides its place (`_kept`); once per claim
        for scope, read, via_cell in self.ladder.rungs:
            located = read(self, site)
            if located is None:
                continue
            for tier in (located if isinstance(located, Tiers) else [located]):
                if isinstance(tier, SharedRung) and not tier.touches(*inside, site.claim.span[0]):
                    # the same for every claim of this kind that the rung does not touch
                    kind = claim_kind(site) if kind is None else kind
                    kept = filtered(tier, kept_key(site, kind, tier, scope), lambda r: self._kept(site, r, scope))
                else:
                    kept = self._kept(site, tier, scope)
                if varied:
                    kept = [x for x in kept if x.name not in varied]
                if self.has_panels:
                    # ... and a figure outside a paragraph of panels takes nothing from it: it describes its own figure
                    kept = [x for x in kept if x.block < 0 or (self._panel(x.block, x.m.span[0]) in (0, panel)
                                                               if x.block == p.block else not self._panels_of(x.block))]
                out.append(Level(scope, kept, via_cell))
        # the run without the technique: a table's baseline column (what its own cells, row and column name stays),
        # or the first level of a before -> after pair in prose (its sentence names the change, not its setting)
        before = p.table is None and self._from_level(site.claim)
        if before or p.table is not None and self._in_baseline_column(p):
            out = [level if level.scope in _TABLE_OWN and not before else level._replace(
                located=[x for x in level.located if x.name not in self.ladder.baseline_column_kinds])
                for level in out]
        return other_modes_settings(other_models_settings(out, site), site), site

    def _in_baseline_column(self, p: Passage) -> bool:
        """Whether the header of the table column of `p` names the run without the technique ("Base TPOT",
        "w/o cache": `baseline_column`)."""
        head = next((c for c in self.ctx.d.tables[p.table].header if c.col == p.col), None)
        return head is not None and self.ladder.baseline_column.search(self.ctx.d.view, head.start, head.end) is not None

    def _from_level(self, claim: Claim) -> bool:
        """Whether the claim is the first figure of a before -> after pair in prose ("from 40 to 55 tok/s",
        "20.1 → 26.4 tok/s"): the level before the change its sentence describes."""
        view, (a, b) = self.ctx.d.view, claim.span
        after = self.ladder.from_level_after.match(view[b:b + 24])
        if after is None:
            return False
        return after.group("arrow") is not None or self.ladder.from_level_before.search(view[max(0, a - 24):a]) is not None

    def _varied(self, p: Passage) -> frozenset[str]:
        """The load conditions sentence `p` says vary (`varied_in_sentence`), once per sentence."""
        key = (p.start, p.end)
        found = self.varied.get(key)
        if found is None:
            found = self.varied[key] = frozenset(k for k, rx in self.ladder.varied
                                                 if rx.search(self.ctx.d.view, p.start, p.end))
        return found

    def _panel(self, block: int, pos: int) -> int:
        """Which panel of its block's figure description offset `pos` lies in (`panel_label`: "(a) ...", "(b) ...";
        1 for the first), 0 before the first label or in a block with no labels; the labels found once per block."""
        starts = self._panels_of(block)
        return bisect_right(starts, pos) if starts else 0

    def _panels_of(self, block: int) -> list[int]:
        """The starts of the panel labels of a block that has two or more (none otherwise), found once per block."""
        starts = self.panels.get(block)
        if starts is None:
            b = self.ctx.d.blocks[block]
            starts = [m.start() for m in self.ladder.panel_label.finditer(self.ctx.d.view, b.start, b.end)]
            starts = self.panels[block] = starts if len(starts) > 1 else []
        return starts

    def _kept(self, site: ClaimSite, tier: list[Located], scope: str) -> list[Located]:
        """The mentions of one rung broader than the sentence that fit the claim. Besides its place (its own
        sentence and passage), what decides is its metric family, whether it is an accuracy figure, and what its
        own sentence states (`ClaimSite.own`): a `SharedRung` that the claim's place does not touch keeps the
        result per those. A phrasing only the sentence reads (`own_sentence_only`: "at C=4") is left out."""
        own_only = self.ladder.own_sentence_only
        kept = [x for x in tier if ties_fit(site, x, scope) and x.m.rule not in own_only]
        # the claim's own sentence is read by the sentence rung alone: what its clause scope or the
        # baseline left out there (another result's clause, "than the H100") is not let in again
        p = site.passage
        return [x for x in kept if not (p.table is None and p.start <= x.m.span[0] < p.end)
                and not describes_other_run(site, x)]
