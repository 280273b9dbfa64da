"""The figure-caption rung: captions of the figures near a claim that describe the measurement they show."""
from __future__ import annotations

import re

from extractor.conditions.context import DocContext
from extractor.conditions.located import Located
from extractor.conditions.places import DocumentPlaces, near_captions
from extractor.conditions.ties import ClaimSite

_NUMBER = re.compile(r"\d+")
_FIGURE_LABEL = re.compile(r"\W*(?:figure|fig\.)\s*(\d+)", re.I)


class FigureCaptions:
    """Reads the captions near a claim that fit its metric; of several numbered figures, only what all state.
    Per document (`reading`): the figures each block refers to are read once."""

    def __init__(self, figure_reference: re.Pattern[str], summed_up: frozenset[str] = frozenset()):
        self.figure_reference = figure_reference
        self.summed_up = summed_up   # qualifiers of a figure that sums up runs (scopes.yaml `several_systems`)

    def reading(self, ctx: DocContext, places: DocumentPlaces) -> DocumentFigureCaptions:
        return DocumentFigureCaptions(self.figure_reference, ctx, places, self.summed_up)


class DocumentFigureCaptions:
    """The figure-caption rung of one document."""

    def __init__(self, figure_reference: re.Pattern[str], ctx: DocContext, places: DocumentPlaces,
                 summed_up: frozenset[str] = frozenset()):
        self.figure_reference, self.ctx, self.places, self.summed_up = figure_reference, ctx, places, summed_up
        self._figures_named: dict[int, set[str]] = {}   # block -> the figures it refers to

    def __call__(self, site: ClaimSite) -> list[Located]:
        """Captions of the figures near the claim in its section (or in the untitled introduction) that
        fit the claim's metric: they describe the measurement the figures show."""
        p, ctx = site.passage, site.ctx
        if p.table is None and p.block >= 0 and site.d.blocks[p.block].kind == "caption":
            return []   # a result written in a figure's caption: the other figures' captions are not its own
        family, scores = site.family, site.claim.metric == "accuracy"
        at = p.block if p.block >= 0 else ctx.table_block.get(p.table, -1) if p.table is not None else -1
        near = near_captions(ctx, p.section, at)
        if p.block >= 0 and p.table is None and len(self.figures_named(p.block)) > 1:
            # a paragraph about several figures does not say which one shows this result, unless the claim's own
            # sentence names one ("... 3-8x over X (Fig. 6)"); a bound or range its sentence gives over several
            # ("across Figures 3 and 4, up to 9x") sums up their runs: their captions are its setup
            own = self._figures_in_sentence(site)
            if not own or len(own) > 1 and site.claim.qualifier not in self.summed_up:
                return []
            shown = {i for i, label in self._numbered(site, near).items() if label in own}
            return [x for x in ctx.captions.get(p.section, []) if x.block in shown
                    and self.places.caption_fits(x.block, family, scores)] if shown else []
        found = [x for x in ctx.captions.get(p.section, []) if x.block != p.block and x.block in near
                 and self.places.caption_fits(x.block, family, scores)]
        return self._common_to_figures(site, near, found)

    def _common_to_figures(self, site: ClaimSite, near: set[int], found: list[Located]) -> list[Located]:
        """Near captions of two or more numbered figures ("Figure 4. ... TP2, 2-GPU curve", "Figure 5. ... 4-GPU curve"):
        unless the claim's paragraph names one of them ("as Figure 2 shows"), the text does not say which
        figure holds the claim, so only what all of them state is its setting."""
        numbered = self._numbered(site, near)
        # a figure whose caption names another metric than the claim's ("... throughput" for a TTFT) holds no
        # candidate for it: the choice is among the figures that fit
        figures = {label for i, label in numbered.items()
                   if self.places.caption_fits(i, site.family, site.claim.metric == "accuracy")}
        if len(figures) < 2:
            return found
        p = site.passage
        named = self.figures_named(p.block) & figures if p.block >= 0 and p.table is None else set()
        if len(named) == 1:
            return [x for x in found if numbered.get(x.block) in (None, *named)]
        stated_by: dict[tuple[str, str], set[str]] = {}
        for x in found:
            if x.block in numbered:
                stated_by.setdefault((x.name, repr(x.m.canonical or x.m.value)), set()).add(numbered[x.block])
        return [x for x in found if x.block not in numbered
                or stated_by[(x.name, repr(x.m.canonical or x.m.value))] == figures]

    def _numbered(self, site: ClaimSite, near: set[int]) -> dict[int, str]:
        """The caption blocks near the claim that belong to a numbered figure, with its number."""
        d, ctx = site.d, site.ctx
        numbered: dict[int, str] = {}
        for run in ctx.caption_runs.get(site.passage.section, []):
            if near.isdisjoint(run):
                continue
            label = None   # a caption that opens with "Figure N" starts figure N; the notes after it are its own
            for i in run:
                m = _FIGURE_LABEL.match(d.view, d.blocks[i].start, d.blocks[i].end)
                label = m.group(1) if m else label
                if label is not None:
                    numbered[i] = label
        return numbered

    def _figures_in_sentence(self, site: ClaimSite) -> set[str]:
        """The numbers of the figures the claim's own sentence (its passage) refers to."""
        view, p = site.d.view, site.passage
        return {n for m in self.figure_reference.finditer(view, p.start, p.end) for n in _NUMBER.findall(m[0])}

    def figures_named(self, block: int) -> set[str]:
        """The numbers of the figures a block refers to ("Figures 1 and 2" -> {"1", "2"}); read once per block
        (a long paragraph of many results is not read again for each)."""
        if block not in self._figures_named:
            b, view = self.ctx.d.blocks[block], self.ctx.d.view
            self._figures_named[block] = {n for m in self.figure_reference.finditer(view, b.start, b.end)
                                          for n in _NUMBER.findall(m[0])}
        return self._figures_named[block]
