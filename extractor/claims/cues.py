"""Cues: the phrases marked in a sentence (`rules/claims.yaml`) and the clause-aware look-ups the claim
decisions make on them: which cue is nearest, which governs a number, whether a clause break lies between.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import TypeVar

T = TypeVar("T")

CHANGE_NEAR = 20  # "a 4 GB improvement", "saves 37.5 GB": the change word sits right by its quantity
NEAR = 60        # characters: how far a cue may sit from its quantity and still qualify it
TOKEN_CUE_NEAR = 40
BARE_NEAR = 12
# characters: "right before / after" a number, room for a blank and Markdown emphasis ("by **83%**")
ADJACENT = 4


@dataclass(frozen=True, slots=True)
class Cue:
    """A cue phrase found in the text: its role label and absolute span."""

    label: str
    start: int
    end: int


SMALL = 24      # cues: a sentence with no more is scanned whole, an index would cost more than it saves


class CueSet(Sequence[Cue]):
    """The cues of one sentence, indexed by offset once, so that a look-up around a figure reads only the cues
    it may accept (`near`) instead of every cue of the sentence: a sentence of N figures and N cues costs N
    look-ups of a few cues each, not N x N. It iterates, indexes and counts as the list it was built from; a
    view (`outside`, `dropping`) shares the index and leaves some cues out, without copying the rest."""

    __slots__ = ("_cues", "_order", "_starts", "_reach", "_drop", "_kept", "_labelled", "_once")

    def __init__(self, cues: Iterable[Cue] = ()):
        self._cues: tuple[Cue, ...] = tuple(cues)
        self._order = sorted(range(len(self._cues)), key=lambda i: self._cues[i].start)
        self._starts = [self._cues[i].start for i in self._order]
        # the furthest end of the cues up to each one in start order: those before the first reaching `lo` end
        # before it (a long cue widens only the windows it reaches)
        self._reach = list(accumulate((self._cues[i].end for i in self._order), max))
        self._drop: tuple[Callable[[Cue], bool], ...] = ()
        self._kept: Sequence[Cue] | None = self._cues
        self._labelled: dict[str, list[Cue]] = {}
        self._once: dict[object, object] = {}

    def dropping(self, drop: Callable[[Cue], bool]) -> "CueSet":
        """A view of these cues less those `drop` is true of."""
        view = object.__new__(CueSet)
        view._cues, view._order, view._starts, view._reach = self._cues, self._order, self._starts, self._reach
        view._drop, view._kept, view._labelled, view._once = self._drop + (drop,), None, {}, {}
        return view

    def _keeps(self, c: Cue) -> bool:
        return not any(drop(c) for drop in self._drop)

    @property
    def kept(self) -> Sequence[Cue]:
        """The cues of this set (a view's left out), in the sentence's order."""
        if self._kept is None:
            self._kept = [c for c in self._cues if self._keeps(c)]
        return self._kept

    def __iter__(self) -> Iterator[Cue]:
        return iter(self.kept)

    def __len__(self) -> int:
        return len(self.kept)

    def __getitem__(self, i):
        return self.kept[i]

    def near(self, lo: int, hi: int) -> Sequence[Cue]:
        """Every cue that touches [lo, hi] (starts at or before `hi`, ends at or after `lo`), in the sentence's
        order; a few others with them when the sentence holds few cues (the caller tests each cue it reads)."""
        if len(self._cues) <= SMALL:
            return self.kept
        a, b = bisect_left(self._reach, lo), bisect_right(self._starts, hi)
        picked = sorted(self._order[a:b])
        return [c for i in picked if (c := self._cues[i]).end >= lo and (not self._drop or self._keeps(c))]

    def labelled(self, label: str) -> list[Cue]:
        """The cues of one label, in the sentence's order (listed once per set)."""
        found = self._labelled.get(label)
        if found is None:
            found = self._labelled[label] = [c for c in self.kept if c.label == label]
        return found


    def once(self, key: object, compute: Callable[[], T]) -> T:
        """What `compute` gives of this set, computed once per `key` (a reading of the whole sentence that every
        figure of it would make alike); the key holds every input of `compute` besides the cues, by value."""
        if key not in self._once:
            self._once[key] = compute()
        return self._once[key]  # type: ignore[return-value]


def once(cues: Iterable[Cue], key: object, compute: Callable[[], T]) -> T:
    """`compute()`, kept on a `CueSet` per `key` (see `CueSet.once`); computed afresh for a plain list."""
    return cues.once(key, compute) if isinstance(cues, CueSet) else compute()


def near(cues: Iterable[Cue], lo: int, hi: int) -> Iterable[Cue]:
    """The cues of `cues` that touch [lo, hi], in their order (see `CueSet.near`); a plain list is read whole."""
    return cues.near(lo, hi) if isinstance(cues, CueSet) else cues


def labelled(cues: Iterable[Cue], label: str) -> Iterable[Cue]:
    """The cues of `cues` with label `label`, in their order (a superset for a plain list: the caller tests)."""
    return cues.labelled(label) if isinstance(cues, CueSet) else cues


def dropping(cues: Iterable[Cue], drop: Callable[[Cue], bool]) -> Sequence[Cue]:
    """`cues` less those `drop` is true of: a view of a `CueSet` (no copy), a new list of a plain list."""
    return cues.dropping(drop) if isinstance(cues, CueSet) else [c for c in cues if not drop(c)]


def outside(cues: Iterable[Cue], start: int, end: int) -> Sequence[Cue]:
    """`cues` less those inside the quantity's own span [start, end) (its unit or qualifier text)."""
    return dropping(cues, lambda c: c.start >= start and c.end <= end)


def gap(cue: Cue, start: int, end: int) -> int:
    """Characters between a cue and a span (0 when they touch or overlap)."""
    return max(0, cue.start - end, start - cue.end)


def nearest(cues: list[Cue], start: int, end: int, prefix: str, limit: int) -> Cue | None:
    """The closest cue whose label starts with `prefix`, within `limit` characters."""
    best, best_gap = None, limit + 1
    for c in near(cues, start - limit, end + limit):
        if c.label.startswith(prefix):
            g = gap(c, start, end)
            if g < best_gap or (g == best_gap and best is not None and c.start > best.start):
                best, best_gap = c, g
    return best


def inside(cue: Cue, start: int, end: int) -> bool:
    """The cue lies within the quantity's own span (its unit or qualifier text)."""
    return cue.start >= start and cue.end <= end


class ClauseCues:
    """Clause-aware look-ups of cues around a quantity at [start, end): what lies after, before or between,
    the change word that governs it, and the cue readings (limit, measure, setting, level share, from-to)."""

    @staticmethod
    def between(cues: list[Cue], a: int, b: int, labels: tuple[str, ...], skip_label_colon: bool = True) -> bool:
        """A cue with one of `labels` lies in [a, b) (a break right after `a`, as in "Speedup: 3x", does not
        count)."""
        for c in near(cues, a, b):
            if c.label in labels and a <= c.start and c.end <= b:
                if skip_label_colon and c.start - a <= 1 and c.label == "break":
                    continue
                return True
        return False

    @staticmethod
    def without_label_break(cues: list[Cue], start: int) -> list[Cue]:
        """`cues` less a clause break right before the number at `start`: a label's colon ends no clause
        ("Average per switch: ~2.6s")."""
        return dropping(cues, lambda c: c.label == "break" and 0 <= start - c.end <= ADJACENT)

    def same_clause(self, cues: list[Cue], a: int, b: int) -> bool:
        """No clause break (, ; : —) between positions a and b."""
        return not self.between(cues, a, b, ("break",))

    def after(self, cues, start, end, prefixes: tuple[str, ...], limit: int = 25) -> Cue | None:
        """The first cue right after the quantity ("22% lower", "3x faster", "6% E2E speedup"): no clause
        break, join or stop word between."""
        best = None
        for c in near(cues, end, end + limit):
            if c.label == "change:neutral_before":
                continue              # "within" governs only the number after it
            if c.label.startswith(prefixes) and c.start >= end and c.start - end <= limit \
                    and not self.between(cues, end, c.start, ("break", "join", "stop"), False):
                if best is None or c.start < best.start or (c.start == best.start and c.end > best.end):
                    best = c
        return best

    def before(self, cues, start, end, prefixes: tuple[str, ...], limit: int = NEAR) -> Cue | None:
        """The nearest cue before the quantity in the same clause."""
        best = None
        for c in near(cues, start - limit, start):
            if c.label.startswith(prefixes) and c.end <= start and start - c.end <= limit \
                    and self.same_clause(cues, c.end, start):
                if best is None or c.end > best.end or (c.end == best.end and c.start < best.start):
                    best = c
        return best

    def governing_change(self, cues: list[Cue], start: int, end: int) -> Cue | None:
        """The change word that governs a number: right after it, else the nearest before it in its clause.
        Words inside the quantity ("more than 30%") and cues of another clause do not govern."""
        own = outside(cues, start, end)
        cue = self.after(own, start, end, ("change:",))
        if cue:
            return cue
        cue = self.after(own, start, end, ("change:",), NEAR)
        if cue and self.only_metric_words(own, end, cue.start):
            return cue                    # "12% per-token latency improvement": the metric named in between
        adj = [c for c in near(own, start - ADJACENT, start)
               if c.label.startswith("change_adj:") and c.end <= start and start - c.end <= ADJACENT]
        if adj:
            return Cue(adj[-1].label.replace("change_adj:", "change:"), adj[-1].start, adj[-1].end)
        return self.before(own, start, end, ("change:",))

    @staticmethod
    def only_metric_words(cues: list[Cue], a: int, b: int) -> bool:
        """Every character of [a, b) that is not a blank or a hyphen lies in a metric or tokens cue."""
        covered = set()
        for c in near(cues, a, b):
            if c.label.startswith(("metric:", "tokens:")) and a <= c.start and c.end <= b:
                covered.update(range(c.start, c.end))
        return b - a - len(covered) <= 3

    def any_change(self, cues, start, end, header_cues=(), limit: int = NEAR) -> Cue | None:
        return (self.governing_change(cues, start, end) or self.amount_of_change(cues, start, end) or nearest(cues, start, end, "change:", limit)
                or nearest(list(header_cues), 0, 0, "change:", 10**9))

    def limited(self, cues, start, end) -> bool:
        """A limit, target or SLO figure: a limit word before it in its clause, or right after it."""
        own = outside(cues, start, end)
        lim = self.before(own, start, end, ("limit",), 40)
        if lim and self.between(own, lim.end, start, ("measure",)):
            lim = None                    # "at the same SLA, X achieved 1.42 queries/s": measured under the limit
        return bool(lim or self.after(own, start, end, ("limit",), 14))

    def measured(self, cues, start, end, labels=("measure",)) -> bool:
        own = outside(cues, start, end)
        return bool(self.before(own, start, end, labels, NEAR * 2) or self.after(own, start, end, labels, 40))

    @staticmethod
    def setting(cues, start, end) -> bool:
        """Introduced as a setting: "at 4 req/s", "for a 50% hit rate", "a request rate of 8"."""
        for c in near(cues, start - ADJACENT, start):
            if c.label == "setting" and c.end <= start and start - c.end <= ADJACENT:
                # "of" in "instead of" is part of a longer phrase, not a setting word
                if not any(d.start < c.start and d.end >= c.end and d.label != "stop" for d in near(cues, c.end, c.end)):
                    return True
        return False

    @staticmethod
    def baseline_value(cues: list[Cue], start: int, end: int, cls: str) -> bool:
        """A share or score that is the reference of a comparison ("scored 95.1% against 95.4%", "92% → 95%").
        Baseline rates and times ("instead of 1,742 tok/s") stay claims: they are measured results, and a
        number that is no claim would be read as a load condition."""
        if cls not in ("percent", "score"):
            return False
        for c in near(cues, start - 3, end + 3):
            if c.label.startswith("baseline_value:") and c.label != "baseline_value:after" and c.end <= start \
                    and start - c.end <= 3:
                return True
            if c.label == "baseline_value:after" and c.start >= end and c.start - end <= 3:
                return True
        return False

    def amount_of_change(self, cues: list[Cue], start: int, end: int) -> Cue | None:
        """The change word of "<change word> ... by N": the number right after "by", the change word anywhere
        before it in its clause."""
        if not any(c.label == "by" and 0 <= start - c.end <= ADJACENT for c in near(cues, start - ADJACENT, start)):
            return None
        return self.before(outside(cues, start, end), start, end, ("change:",), 10**6)

    def absolute_change(self, cues: list[Cue], start: int, end: int, blank=lambda a, b: True) -> Cue | None:
        """The change word of a number that is the amount of a change, not a level: right after it ("1200 ms
        faster", "a 15 ms difference", "3 s slower"), right before it ("saves 37.5 GB", "cuts 200 ms"), or
        "by N" after a change word in its clause ("TTFT reduced by 500 ms")."""
        own = outside(cues, start, end)
        if any(c.label == "baseline" and 0 <= start - c.end <= ADJACENT for c in near(own, start - ADJACENT, start)):
            return None                   # "from 142 s down to 64 s": the two levels of a change
        cue = self.after(own, start, end, ("change:",), ADJACENT + 1)
        if cue is not None and cue.label != "change:neutral_before" and blank(end, cue.start):
            return cue
        # ("costs $0.42" is a level: of the adjacent-only words, only "adds" / "gains" make a change here)
        adj = [c for c in near(own, start - ADJACENT, start)
               if c.label.startswith(("change:", "change_adj:up")) and c.label != "change:neutral_before"
               and c.end <= start and start - c.end <= ADJACENT and blank(c.end, start)]
        if adj:
            return Cue(adj[-1].label.replace("change_adj:", "change:"), adj[-1].start, adj[-1].end)
        return self.amount_of_change(cues, start, end)

    @staticmethod
    def level_share(cues: list[Cue], start: int, end: int) -> bool:
        """A percentage between a level word and a share word: "to 61% of", "at 72% of"."""
        return any(c.label in ("level_intro", "level_measured") and 0 <= start - c.end <= ADJACENT
                   for c in near(cues, start - ADJACENT, start)) \
            and any(c.label == "share_of" and 0 <= c.start - end <= ADJACENT for c in near(cues, end, end + ADJACENT)) \
            and not any(c.label in ("change:neutral", "change:neutral_before") and inside(c, start, end)
                        for c in near(cues, start, end))   # "is within 2% of": a difference

    def level_after_change(self, cues: list[Cue], start: int, end: int) -> bool:
        """The number is the level a change reached: "to" right before it ("drops to 46%", "down to 3%"), a
        change word earlier in its clause, and no "by" (an amount) nor "from" (a from-to pair) between."""
        to = [c for c in near(cues, start - ADJACENT, start) if c.label == "level_reached" and 0 <= start - c.end <= ADJACENT]
        if not to:
            return False
        change = self.before(outside(cues, start, end), to[0].start, to[0].start,
                             ("change:up", "change:down"), NEAR)
        if not change or self.between(cues, change.end, start, ("by", "baseline"), False):
            return False
        # "the gain starts at 5.5%, and increases to 15%": what changes is itself a change (a word saying
        # better or worse by itself earlier in the sentence), the number an amount
        return not any(c.end <= change.start for label in ("valence:better", "valence:worse")
                       for c in labelled(cues, label) if c.label == label)

    def level_pair(self, cues: list[Cue], start: int, end: int) -> bool:
        """The number is one of two levels "from A ... to B" in its clause: right after "from" with "to" after
        it, or shortly after "to" (a word such as "just" between) with "from" earlier."""
        def in_clause(a: int, b: int) -> bool:
            return not self.between(cues, a, b, ("break",), False)
        if any(c.label == "pair_from" and 0 <= start - c.end <= ADJACENT for c in near(cues, start - ADJACENT, start)):
            return any(c.label == "level_reached" and 0 <= c.start - end <= 40 and in_clause(end, c.start)
                       for c in near(cues, end, end + 40))
        to = [c for c in near(cues, start - 10, start)
              if c.label == "level_reached" and 0 <= start - c.end <= 10 and in_clause(c.end, start)]
        return bool(to) and any(c.label == "pair_from" and c.end <= to[-1].start and to[-1].start - c.end <= 60
                                and in_clause(c.end, to[-1].start) for c in near(cues, to[-1].start - 60, to[-1].start))

    @staticmethod
    def from_to(cues: list[Cue], start: int, end: int) -> bool:
        """The number is one end of "from A to B": "from" right before it and "to" right after, or "to"
        right before it with "from" earlier in its clause."""
        def right_before(label: str, limit: int = ADJACENT) -> list[Cue]:
            return [c for c in near(cues, start - limit, start) if c.label == label and 0 <= start - c.end <= limit]
        after_to = any(c.label == "level_intro" and 0 <= c.start - end <= ADJACENT for c in near(cues, end, end + ADJACENT))
        if right_before("baseline") and after_to:
            return True
        return bool(right_before("level_intro")) and any(
            c.label == "baseline" and c.end <= start and start - c.end <= 40 for c in near(cues, start - 40, start))

    def metric_cue(self, cues, start, end, allowed, limit) -> Cue | None:
        """The nearest allowed metric cue; one across a clause break or join ("... and ITL") counts only when
        none is in the number's own clause; of equally near cues the longer wins."""
        best, best_key = None, None
        for c in near(cues, start - limit, end + limit):
            if c.label.startswith("metric:") and c.label[7:] in allowed:
                g = gap(c, start, end)
                if g > limit:
                    continue
                a, b = (c.end, start) if c.end <= start else (end, c.start)
                # a break right after a cue before the number is a label's colon ("TTFT: 2 s"); right after
                # the number it ends the number's clause ("TTFT = 2s, TPOT = 200ms")
                crossed = a < b and self.between(cues, a, b, ("break", "join"), c.end <= start)
                key = (crossed, g, -(c.end - c.start), -c.start)
                if best_key is None or key < best_key:
                    best, best_key = c, key
        return best

    def clause_cue(self, cues, start, end, prefix: str, limit: int) -> Cue | None:
        """The nearest cue with `prefix` not across a clause break or join from the quantity."""
        best, best_gap = None, limit + 1
        for c in near(cues, start - limit, end + limit):
            if not c.label.startswith(prefix):
                continue
            g = gap(c, start, end)
            a, b = (c.end, start) if c.end <= start else (end, c.start)
            if g < best_gap and not (a < b and self.between(cues, a, b, ("break", "join"))):
                best, best_gap = c, g
        return best
