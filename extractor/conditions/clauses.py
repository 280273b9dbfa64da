"""Clause-level scope: in a sentence that states several results, each result takes its own clause's
conditions ("3.6x for A on X, and 2.1x for B on Y"). The `sentence` rung of the scope ladder asks it."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from extractor.conditions.located import Located
from extractor.conditions.rules import ScopeRules
from extractor.ingest.segment import Passage

COORDINATED_REACH = 24
_LABEL_GAP = re.compile(r"[\s*_(:=]*")   # between a label and its figure: blanks, markup, "(", ":" or "="   # a coordinated break parts clauses when another result starts this close after it

Clause = tuple[int, int, int]   # [start, end) and the group of coordinated clauses it belongs to
NO_GROUP = -1   # an item of a series of results that states no result: it belongs to no result's clause
_SERIES_COMMA = re.compile(r",\s+")


def _item_group(group: int, item: bool, lo: int, hi: int, figures: list[tuple[int, int]], measured: bool) -> int:
    """The group of a clause: an item of a comma series without a result of its own belongs to none, unless
    it says how the results were measured (`measured`)."""
    return NO_GROUP if item and not measured and not any(lo <= s[0] < hi for s in figures) else group


def clause_at(clauses: list[Clause], starts: list[int], pos: int) -> int:
    """The index of the clause holding `pos` (the last clause when none does). The clauses follow each other
    without overlapping (`starts`: theirs): the one holding `pos` is the last starting at or before it, when
    it ends after it."""
    i = bisect_right(starts, pos) - 1
    return i if i >= 0 and pos < clauses[i][1] else len(clauses) - 1


def labelled_figure(view: str, figures: list[tuple[int, int]], starts: list[int], end: int) -> tuple[int, int] | None:
    """The figure a mention ending at `end` labels: the first figure after it (`figures` in text order, `starts`
    theirs) with nothing but blanks, markup, "(", ":" or "=" between; a later figure has that one between."""
    k = bisect_left(starts, end)
    return figures[k] if k < len(figures) and _LABEL_GAP.fullmatch(view, end, figures[k][0]) else None


class ClauseScope:
    """Parts a sentence into clauses (`clause_breaks`, `coordinated_break` of rules/scopes.yaml) and keeps
    the mentions of a claim's own clause: `own_clause(...)`."""

    def __init__(self, scopes: ScopeRules):
        self.clause_breaks = re.compile(scopes.clause_breaks, re.I)
        self.subject_breaks = re.compile(scopes.subject_breaks, re.I)
        self.coordinated_break = re.compile(scopes.coordinated_break, re.I)
        self.measured_item = re.compile(scopes.measured_item, re.I)
        self.coordinated_verb, self.verb_reach = re.compile(scopes.coordinated_verb_break), scopes.coordinated_verb_reach

    def clauses(self, view: str, p: Passage, figures: list[tuple[int, int]]) -> list[Clause]:
        """The clauses of passage `p`: they part at `clause_breaks` (which also start a new group), and
        at a `coordinated_break` right before another result ("... and 2.1x ...")."""
        cuts = [(m.start(), m.end(), True) for m in self.clause_breaks.finditer(view, p.start, p.end)]
        coordinated = [(m.start(), m.end(), False) for m in self.coordinated_break.finditer(view, p.start, p.end)
                       if any(m.end() <= s[0] < m.end() + COORDINATED_REACH for s in figures)]
        coordinated += [(m.start(), m.end(), False) for m in self.coordinated_verb.finditer(view, p.start, p.end)
                        if any(m.end() <= s[0] < m.end() + self.verb_reach for s in figures)
                        and any(s[1] <= m.start() for s in figures)]
        cuts += coordinated
        if figures and any(view.startswith(",", lo) for lo, _, _ in coordinated):
            # a series of results parted by commas ("7x faster A, 1.5x faster B, support for C"): every
            # comma after the first result parts its items, and an item without a result is nobody's
            first = min(s[0] for s in figures)
            taken = {lo for lo, _, _ in cuts}
            cuts += [(m.start(), m.end(), None) for m in _SERIES_COMMA.finditer(view, first, p.end)
                     if m.start() not in taken]
        cuts.sort(key=lambda c: c[:2])
        clauses, group, at, item = [], 0, p.start, False
        for lo, hi, strong in cuts:
            if lo < at:
                continue
            clauses.append((at, lo, _item_group(group, item, at, lo, figures, self._measured(view, at, lo))))
            group += bool(strong)
            at, item = hi, strong is None
        clauses.append((at, p.end, _item_group(group, item, at, p.end, figures, self._measured(view, at, p.end))))
        return clauses

    def _measured(self, view: str, lo: int, hi: int) -> bool:
        return self.measured_item.match(view, lo, hi) is not None

    def _own_subject(self, located: list[Located], own: tuple[int, int], p: Passage, view: str) -> list[Located]:
        """A sentence of one result whose clauses name different models ("Model A on one GPU with INT4, and 6x
        faster model B over the old card"): a clause about another model than the result's own is not its; and
        `_own_settings`."""
        clauses = [(lo, hi) for lo, hi, _ in self.clauses(view, p, [])]
        if len(clauses) < 2:
            return located

        def clause_of(pos: int) -> int:
            return next((i for i, (lo, hi) in enumerate(clauses) if lo <= pos < hi), len(clauses) - 1)

        mine = clause_of(own[0])
        models = {}
        for x in located:
            if x.name == "model" and x.usable:
                models.setdefault(clause_of(x.m.span[0]), set()).add(x.m.canonical or str(x.m.value))
        other = {i for i, names in models.items() if mine in models and i != mine and names.isdisjoint(models[mine])}
        located = [x for x in located if clause_of(x.m.span[0]) not in other]
        return self._own_settings(located, own, p, view)

    def _own_settings(self, located: list[Located], own: tuple[int, int], p: Passage, view: str) -> list[Located]:
        """In a sentence of one result parted by `subject_breaks`: a setting of another part, where the result's
        own part names another value of that condition, is not the result's."""
        cuts = [m.end() for m in self.subject_breaks.finditer(view, p.start, p.end)]
        if not cuts:
            return located

        def part_of(pos: int) -> int:
            return sum(1 for c in cuts if c <= pos)

        mine = part_of(own[0])
        named: dict[tuple[str, int], set[str]] = {}
        for x in located:
            if x.usable:
                named.setdefault((x.name, part_of(x.m.span[0])), set()).add(x.m.canonical or str(x.m.value))

        def theirs(x: Located) -> bool:
            i, ours = part_of(x.m.span[0]), named.get((x.name, mine))
            return i != mine and ours is not None and named.get((x.name, i), set()).isdisjoint(ours)

        return [x for x in located if not theirs(x)]

    def own_clause(self, located: list[Located], claim_span: tuple[int, int], figures: list[tuple[int, int]],
                   p: Passage, view: str, memo: dict[tuple, list[Clause]] | None = None) -> list[Located]:
        """The mentions of `located` (in sentence `p`) that are the claim's: each result takes its own
        clause's conditions; a phrase at the end of coordinated results covers them all ("1.8x higher
        throughput and 3x lower ITL on model A"). A condition absent from the claim's clauses is taken
        only from clauses that state no result (`figures`: the claims' figures in `p`, in order). A sentence of
        one result keeps all of `located`. `memo`: the document's clauses by sentence (the same for each of
        its figures: `figures` are the claims' figures of `p`)."""
        own = tuple(claim_span)
        if not located:
            return located
        if not any(s != own for s in figures):
            return self._own_subject(located, own, p, view)
        key = (view, p.start, p.end)   # (the text's hash is computed once and kept by the string)
        clauses = memo.get(key) if memo is not None else None
        if clauses is None:
            clauses = self.clauses(view, p, figures)
            if memo is not None:
                memo[key] = clauses
        clause_starts = [c[0] for c in clauses]
        figure_starts = [s[0] for s in figures]

        def clause_of(pos: int) -> int:
            return clause_at(clauses, clause_starts, pos)

        def label_of(end: int) -> tuple[int, int] | None:
            return labelled_figure(view, figures, figure_starts, end)

        with_result = {clause_of(s[0]) for s in figures}
        mine = clause_of(own[0])
        my_group = clauses[mine][2]
        in_group = [i for i, c in enumerate(clauses) if c[2] == my_group]
        # what coordinated results share: the phrase before the first one and the phrase after the last
        head_end = min(s[0] for s in figures if clause_of(s[0]) == in_group[0]) if in_group[0] in with_result \
            else clauses[in_group[0]][1]
        shared = {in_group[-1]}
        groups_with_result = {clauses[i][2] for i in with_result}
        free = {i for i, c in enumerate(clauses) if c[2] not in groups_with_result and c[2] != NO_GROUP}
        by_name: dict[str, list[tuple[int, Located]]] = {}
        sentence_head = min(s[0] for s in figures)   # the setting before the sentence's first result
        for x in located:
            i = clause_of(x.m.span[0])
            labelled = label_of(x.m.span[1])
            if labelled is not None and labelled[0] == sentence_head and ":" in view[x.m.span[1]:labelled[0]]:
                labelled = None   # "At 16 users: 29 tok/s, p50 TTFT 180 ms": a lead label is the sentence's
            if labelled is not None:
                # the label right before a figure ("tuned for peak throughput (+41%) and for snappier replies (+9%)")
                # is that figure's, not a setting shared by the results after it
                by_name.setdefault(x.name, []).append((clause_of(labelled[0]), x))
                continue
            if x.m.span[0] < sentence_head and i not in free:
                i = -1 if in_group[0] == clause_of(sentence_head) else -2
            elif i == in_group[0] and x.m.span[0] < head_end:
                i = -1
            by_name.setdefault(x.name, []).append((i, x))
        out = []
        for found in by_name.values():
            own_tier = {mine, -1} if mine == in_group[0] else {mine}
            for allowed in (own_tier, {mine, -1} | shared, free | {-2}):
                taken = [x for i, x in found if i in allowed]
                if taken:
                    out += taken
                    break
        return sorted(out, key=lambda x: x.m.span)
