"""Where-notes (`rules/where_notes.yaml`): for a condition the post does not state, where it could be
found (a recipe link, a container image, the benchmark command, the figure...) and why it is
unrecoverable; `why` is chosen by a structured reason (`Reason`), never read back from its wording."""
from __future__ import annotations

import re
from bisect import bisect_left

from extractor.conditions.context import DocContext
from extractor.conditions.figures import Figure
from extractor.conditions.mentions import Mention, blank_free_runs
from extractor.conditions.rules import Reason
from extractor.conditions.where_rules import WhereRules
from extractor.ingest import Document
from extractor.records import Claim, Condition



class WhereNotes:
    """What a document offers as places to look, and the unrecoverable conditions that point there."""

    def __init__(self, where: WhereRules):
        self.where = where
        self.offer_rx = {name: o.patterns() for name, o in where.offers.items()}
        self.offer_holds = {name: re.compile(re.escape(o.text_holds))
                            for name, o in where.offers.items() if o.text_holds}

    # -- per document --------------------------------------------------------------
    def offers(self, d: Document, found: list[Mention]) -> dict[str, str]:
        """The places to look the document offers: a recipe or issue link, a container image, a command."""
        offers: dict[str, str] = {}
        for name in ("recipe", "issue"):
            rx = self.offer_rx.get(name, {})
            best, best_score = None, 0
            for link in d.links:
                target, text = link.target, d.view[link.start:link.end]
                if not target or target.startswith("#"):
                    continue
                score = 2 * bool(rx.get("link_target") and rx["link_target"].search(target)) + \
                    bool(rx.get("link_text") and rx["link_text"].search(text))
                if name == "issue" and not (rx.get("link_target") and rx["link_target"].search(target)
                                            and score == 3):
                    continue
                if score > best_score or (score == best_score and best and len(target) > len(best)):
                    best, best_score = target, score
            if best and best_score >= 2:
                offers[name] = best
        if "image" in self.offer_rx and "text" in self.offer_rx["image"]:
            m = self.offer_text("image", d.view)
            if m:
                offers["image"] = m.group()
        commands = [m for m in found if m.kind == "command_line"]
        if commands:
            first = commands[0].quote.strip().splitlines()[0]
            offers["command"] = first if len(first) <= 90 else first[:87] + "..."
        return offers

    def offer_text(self, name: str, view: str) -> re.Match[str] | None:
        """The first match of an offer's `text` pattern in the view."""
        rx, holds = self.offer_rx[name]["text"], self.offer_holds.get(name)
        if holds is None:
            return rx.search(view)
        return next((m for a, e in blank_free_runs(view, holds) if (m := rx.search(view, a, e))), None)

    def reading(self, ctx: DocContext, offers: dict[str, str], figures: list[Figure]) -> DocumentWhere:
        """The where-notes of one document, which offers `offers` and shows `figures`."""
        return DocumentWhere(self, ctx, offers, figures)

    def external(self, source: str) -> Condition:
        """A condition of a result the post reports from another source: look there."""
        return Condition(status="unrecoverable", where=self.where.external_where.format(source=source),
                         why=self.where.why["external"].format(source=source))


class DocumentWhere:
    """One document's where-notes: what it offers as places to look, the figure near each claim, and each
    note made once (many claims share one)."""

    def __init__(self, notes: WhereNotes, ctx: DocContext, offers: dict[str, str], figures: list[Figure]):
        self.rules, self.ctx, self.offers, self.figures = notes.where, ctx, offers, figures
        self._figure_after: dict[int, str | None] = {}
        self._figure_index: tuple[list[int], list[int]] | None = None   # figure positions sorted, their indexes
        # each distinct unrecoverable condition made once: a frozen value that many claims hold (the pool in
        # _internals/sharing.py then finds it by identity, without building its key)
        self._notes: dict[tuple[str, str, str, str, str | None], Condition] = {}
        self._by_words: dict[tuple[str, str], Condition] = {}   # (where, why) -> the one condition (two keys may
        # give the same words: a note that does not name the figure)

    def unrecoverable(self, claim: Claim, name: str, reason: Reason, values: str = "", engine: str = "") -> Condition:
        """Condition `name` of `claim`, unrecoverable for `reason`, with the note of where to look."""
        fig = self.figure_near(claim)
        key = (name, reason, values, engine, fig)
        cond = self._notes.get(key)
        if cond is None:
            words = self._where_why(*key)
            cond = self._by_words.get(words)
            if cond is None:
                cond = self._by_words[words] = Condition(status="unrecoverable", where=words[0], why=words[1])
            self._notes[key] = cond
        return cond

    def sweep_note(self, claim: Claim, name: str) -> str:
        """The note of a condition stated as a swept range: the chart holds the exact point."""
        fig = self.figure_near(claim)
        label = name.replace("_", " ")
        return (self.rules.sweep_note.format(condition=label, figure=fig) if fig
                else self.rules.sweep_note_no_figure.format(condition=label))

    def figure_near(self, claim: Claim) -> str | None:
        """The figure a claim is read from: the next figure in its section, else the nearest one."""
        pos = claim.span[0]
        if pos not in self._figure_after:
            d = self.ctx.d
            sec = self.ctx.section_of(pos)
            end = d.sections[sec].body_end if sec is not None else len(d.text)
            if self._figure_index is None:   # figures by position, once: each claim bisects, not scans
                order = sorted(range(len(self.figures)), key=lambda i: self.figures[i].at)
                self._figure_index = ([self.figures[i].at for i in order], order)
            ats, order = self._figure_index
            after = [self.figures[i].label for i in sorted(order[bisect_left(ats, pos):bisect_left(ats, end)])]
            # (a label "Figure N" names a numbered figure; the labels are made by figures.py `document_figures`)
            self._figure_after[pos] = (after[-1] if len(after) > 1 and "Figure" in after[-1] else after[0]) \
                if after else None
        return self._figure_after[pos]

    def _where_why(self, name: str, reason: Reason, values: str, engine: str, fig: str | None) -> tuple[str, str]:
        """The where-note (the first whose needs the document offers) and the why of an unstated condition."""
        offers = dict(self.offers)
        if fig:
            offers["figure"] = fig
        if engine:
            offers["engine"] = engine
        where = next(n.where.format(**offers) for n in self.rules.notes[name] if all(k in offers for k in n.needs))
        why = self.rules.why[reason].format(values=values, engine=engine, figure=fig or "a chart")
        return where, why
