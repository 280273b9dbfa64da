"""Attach context to a diff report: each claim's excerpt, groups by sentence or table, condition spans.

    attach_context(report, TextLibrary.for_rules(rules_dir), old_bases=[...], new_bases=[...])

A side's post text is used when its file (the record's path, as given or below one of the side's base
folders) still has the record's content hash; otherwise excerpts come from the stored quote and context,
and `DocDiff.context_note` says so. Claims are grouped under the sentence or table they sit in on their
current side (the new one; the old one for a removed claim); claims of both sides share a group when the
sentence or table reads the same on both. Group ids (`g1`, `g2`...) follow the order of the claims.
"""
from __future__ import annotations

import re
from pathlib import Path

from extractor.records import Claim, Condition
from extractor.review.diff import ClaimDiff, DiffReport, DocDiff
from extractor.review.excerpts import MAX_EXCERPT, DocumentText, TextLibrary, claim_excerpt, clip, record_excerpt
from extractor.review.views import (CellMark, ConditionChange, ConditionSide, ContextGroup, Excerpt, Mark, Place,
                                    TableRow)

_CONDITION_FIELD = re.compile(r"^conditions\.([^.]+)\.")


def attach_context(report: DiffReport, library: TextLibrary, *, old_bases: list[Path] | None = None,
                   new_bases: list[Path] | None = None) -> DiffReport:
    """Fill excerpts, groups, condition changes and context notes in place; returns the report."""
    for doc in report.documents:
        if not doc.claims:
            continue
        old_path = doc.renamed_from or doc.path
        old_text, old_why = library.get(old_path, doc.old_sha256, old_bases or []) if doc.old_sha256 else (None, None)
        new_text, new_why = library.get(doc.path, doc.new_sha256, new_bases or []) if doc.new_sha256 else (None, None)
        DocumentContext(doc, old_text, new_text).attach()
        notes = [f"{side} side: {why}" for side, why, sha in (("old", old_why, doc.old_sha256),
                                                               ("new", new_why, doc.new_sha256)) if sha and why]
        needed = _sides_with_claims(doc)
        notes = [n for n in notes if n.split(" ", 1)[0] in needed]
        if notes:
            doc.context_note = "; ".join(notes) + ": context from the quote and headers stored in the record"
    return report


def _sides_with_claims(doc: DocDiff) -> set[str]:
    sides = set()
    for cd in doc.claims:
        if cd.old is not None:
            sides.add("old")
        if cd.new is not None:
            sides.add("new")
    return sides


class DocumentContext:
    """The grouping of one document's claim changes (both sides' texts at hand, or None)."""

    def __init__(self, doc: DocDiff, old_text: DocumentText | None, new_text: DocumentText | None) -> None:
        self.doc = doc
        self.texts = {"old": old_text, "new": new_text}
        self.groups: dict[tuple, ContextGroup] = {}
        self.pending: dict[str, tuple[DocumentText, Place, list[tuple[tuple[int, int], str, int]]]] = {}

    def attach(self) -> None:
        for k, cd in enumerate(self.doc.claims):
            places: dict[str, Place | None] = {}
            if cd.old is not None:
                cd.old_context, places["old"] = claim_excerpt(self.texts["old"], cd.old)
            if cd.new is not None:
                cd.new_context, places["new"] = claim_excerpt(self.texts["new"], cd.new)
            side = "new" if cd.new is not None else "old"
            self._group(k, cd, side, places.get(side))
            if cd.kind == "changed":
                cd.conditions = self.condition_changes(cd)
        for g in self.groups.values():
            if g.id in self.pending:
                self._mark_sentence(g, *self.pending[g.id])
        self.doc.groups = list(self.groups.values())

    @staticmethod
    def _mark_sentence(g: ContextGroup, text: DocumentText, place: Place,
                       marks: list[tuple[tuple[int, int], str, int]]) -> None:
        """The sentence with every listed claim's quote marked (a long one cut around the marks)."""
        shown, rel = text.display(place.start, place.end, [span for span, _, _ in marks])
        lo, hi = min(s for s, _ in rel), max(e for _, e in rel)
        if len(shown) > 2 * MAX_EXCERPT:
            cut, (a, _b) = clip(shown, (lo, hi), width=max(MAX_EXCERPT, hi - lo + MAX_EXCERPT // 2))
            shift = a - lo
            shown, rel = cut, [(s + shift, e + shift) for s, e in rel]
        g.text = shown
        g.marks = [Mark(start=s, end=e, kind=kind, claim=k) for (s, e), (_, kind, k) in zip(rel, marks)]

    # --- groups -----------------------------------------------------------------------------

    def _group(self, k: int, cd: ClaimDiff, side: str, place: Place | None) -> None:
        text = self.texts[side]
        claim = cd.claim
        excerpt = cd.new_context if side == "new" else cd.old_context
        assert excerpt is not None
        if text is None or place is None:
            self._record_group(k, cd, claim, excerpt, side)
            return
        if place.kind == "cell":
            assert place.table is not None and place.row is not None and place.col is not None
            table = text.doc.tables[place.table]
            key = ("table", tuple(excerpt.section), text.doc.text[table.start:table.end])
            g = self._get(key, lambda gid: ContextGroup(
                id=gid, kind="table", source="document", section=excerpt.section, block="table",
                span=(table.start, table.end), caption=text.caption(place.table),
                columns=text.header_texts(place.table), row_count=len(table.rows)))
            row = next((r for r in g.rows if r.index == place.row), None)
            if row is None:
                row = TableRow(index=place.row, cells=text.row_texts(place.table, place.row))
                g.rows.append(row)
                g.rows.sort(key=lambda r: r.index)
            row.marks.append(CellMark(col=place.col, kind=cd.kind, claim=k))
        else:
            sentence, _ = text.display(place.start, place.end, [])
            key = ("sentence", tuple(excerpt.section), sentence)
            g = self._get(key, lambda gid: ContextGroup(
                id=gid, kind="sentence", source="document", section=excerpt.section, block=excerpt.block,
                span=(place.start, place.end)))
            first = self.pending.setdefault(g.id, (text, place, []))
            shift = first[1].start - place.start       # the same sentence may sit elsewhere on the other side
            first[2].append(((claim.span[0] + shift, claim.span[1] + shift), cd.kind, k))
        g.claims.append(k)
        cd.group = g.id

    def _record_group(self, k: int, cd: ClaimDiff, claim: Claim, excerpt: Excerpt, side: str) -> None:
        """Without the post's text: table cells group by section (one table per section, as far as the
        record tells); any other claim stands alone."""
        if claim.context.block == "table":
            key: tuple = ("record-table", side, tuple(claim.context.section))
            g = self._get(key, lambda gid: ContextGroup(id=gid, kind="table", source="record",
                                                        section=list(claim.context.section), block="table"))
        else:
            g = self._get(("record-claim", side, k), lambda gid: ContextGroup(
                id=gid, kind="claim", source="record", section=list(claim.context.section),
                block=claim.context.block, text=excerpt.text,
                marks=[Mark(start=0, end=len(excerpt.text), kind=cd.kind, claim=k)]))
        g.claims.append(k)
        cd.group = g.id

    def _get(self, key: tuple, make) -> ContextGroup:
        g = self.groups.get(key)
        if g is None:
            g = self.groups[key] = make(f"g{len(self.groups) + 1}")
        return g

    # --- conditions -------------------------------------------------------------------------

    def condition_changes(self, cd: ClaimDiff) -> list[ConditionChange]:
        """Each condition whose status, value or where-note changed, with both sides' quote and excerpt."""
        assert cd.old is not None and cd.new is not None
        names: list[str] = []
        for f in cd.fields:
            m = _CONDITION_FIELD.match(f.field)
            if m and m.group(1) not in names:
                names.append(m.group(1))
        return [ConditionChange(name=n, old=self._condition_side(cd.old.conditions.get(n), "old"),
                                new=self._condition_side(cd.new.conditions.get(n), "new")) for n in names]

    def _condition_side(self, cond: Condition | None, side: str) -> ConditionSide | None:
        if cond is None:
            return None
        context = None
        if cond.span is not None and cond.quote is not None:
            text = self.texts[side]
            if text is not None and text.holds(cond.span, cond.quote):
                context, _ = text.excerpt(cond.span)
            else:
                context = record_excerpt(cond.quote, None, block=cond.scope or "paragraph")
                context.section = []
        return ConditionSide(status=cond.status, value=cond.value, quote=cond.quote, span=cond.span,
                             scope=cond.scope, where=cond.where, context=context)
