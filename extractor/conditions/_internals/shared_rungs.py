"""Rungs that many claims of one document read alike, built once.

The document-wide rungs (statements of universal scope, the setup sections that cover a claim, the
introduction, the front matter) hold the same mentions for every claim of a stretch of the post, and in a
long post they hold many: a claim that scanned them anew would cost as much as the post is long. A
`SharedRung` is such a list, built once per document (per stretch) and handed to every claim that reads
it; what the ladder and the policy derive from it for a kind of claim (the mentions that fit a claim of
a metric family, the mentions by condition, the fullest form of a name) is kept on it (`derive`), so each
is derived once per rung, not once per claim. Only what depends on the claim's kind goes into a memo key;
what depends on its place (a mention in the claim's own sentence or passage) is checked first
(`touches`), and such a claim reads the rung as an ordinary list.

A rung that extends another (the setup sections before a claim are those before an earlier claim plus
the ones between them) is `joined` from its parts: what is derived from it is derived from its parts'
(the first part's result extended by the others'), so a long post's growing rung costs what it adds."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate, chain
from typing import Any, Callable, Iterable, Iterator

from extractor.conditions.located import Located

Leaf = Callable[["SharedRung"], Any]
Join = Callable[[Any, "list[SharedRung]"], Any]


class SharedRung:
    """Located mentions many claims read alike, in order; `memo` holds what is derived from them. A rung is
    built from its mentions (`items`) or joined from `parts` (their concatenation, not copied: a long post
    holds many rungs that extend one another)."""

    __slots__ = ("memo", "parts", "items", "size", "_places")

    def __init__(self, located: Iterable[Located] = (), parts: tuple[SharedRung, ...] | None = None,
                 full: Iterable[Located] | None = None):
        self.memo: dict[Any, Any] = {}
        self.parts = parts
        self.items = list(located) if parts is None else None
        self.size = len(self.items) if parts is None else sum(p.size for p in parts)
        # where its mentions start (of `full`, when given: the mentions it was cut from), where their sentences
        # are, and the stretch of text all of these span; made when first asked
        self._places: Any = sorted(x.m.span[0] for x in full) if full is not None else None

    @classmethod
    def joined(cls, parts: list[SharedRung]) -> SharedRung:
        """The concatenation of `parts` (the first may itself be long: the others extend it)."""
        return cls(parts=tuple(parts))

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[Located]:
        return chain.from_iterable(leaf.items for leaf in self.leaves())

    def first(self) -> Located:
        return next(iter(self))

    def leaves(self) -> list[SharedRung]:
        """The rungs built from mentions that it is made of, in order."""
        out, todo = [], [self]
        while todo:
            rung = todo.pop()
            if rung.parts is None:
                out.append(rung)
            else:
                todo.extend(reversed(rung.parts))
        return out

    def derive(self, key: Any, leaf: Leaf, join: Join) -> Any:
        """`memo[key]`, made once: `leaf(rung)` of a rung built from its mentions, `join(first part's, other
        parts)` of a joined one. The first parts are walked without recursion (a long post chains many)."""
        memo = self.memo
        if key in memo:
            return memo[key]
        spine, rung = [], self
        while key not in rung.memo and rung.parts is not None:
            spine.append(rung)
            rung = rung.parts[0]
        if key not in rung.memo:
            rung.memo[key] = leaf(rung)
        for rung in reversed(spine):
            rung.memo[key] = join(rung.parts[0].memo[key], list(rung.parts[1:]))
        return memo[key]

    # -- what the claim's place touches ---------------------------------------------
    def touches(self, lo: int, hi: int, pos: int) -> bool:
        """Whether a mention starts in [lo, hi) (the claim's passage), or a mention's sentence holds `pos`
        (the claim's figure): what the ladder reads apart for the claim's own sentence and passage."""
        a, b = (min(lo, pos), max(hi, pos + 1)) if lo < hi else (pos, pos + 1)
        return self._any_leaf(a, b, lambda leaf: leaf._touches(lo, hi, pos))

    def starts_in(self, lo: int, hi: int) -> bool:
        """Whether a mention of those it was cut from (`full`) starts in [lo, hi)."""
        return self._any_leaf(lo, hi, lambda leaf: _any_in(leaf._leaf_places()[3], lo, hi))

    def _any_leaf(self, lo: int, hi: int, test: Callable[[SharedRung], bool]) -> bool:
        """Whether `test` holds for a leaf whose stretch of text meets [lo, hi) (found by bisection)."""
        if self.parts is None:
            a, b = self._leaf_places()[4]
            return a < hi and lo < b and test(self)
        starts, reach, leaves = self._stretches()
        k = bisect_left(starts, hi) - 1
        while k >= 0 and reach[k] > lo:   # reach[k]: the furthest end of the stretches that start up to k
            if leaves[k]._leaf_places()[4][1] > lo and test(leaves[k]):
                return True
            k -= 1
        return False

    def _stretches(self) -> tuple[list[int], list[int], list[SharedRung]]:
        """The stretches of text of a joined rung's leaves (`_stretches`), as `derive` keeps them on it and on the
        joined rungs of its first parts, but not on the leaf rung at the bottom: a leaf's list of leaves is
        itself, a reference cycle (its memo would hold it)."""
        spine, rung = [], self
        while "stretches" not in rung.memo and rung.parts is not None:
            spine.append(rung)
            rung = rung.parts[0]
        value = rung.memo["stretches"] if rung.parts is not None else _stretches(rung)
        for rung in reversed(spine):
            value = rung.memo["stretches"] = _stretches_join(value, list(rung.parts[1:]))
        return value

    def _touches(self, lo: int, hi: int, pos: int) -> bool:
        starts, sentence_starts, sentence_reach, _, _ = self._leaf_places()
        if _any_in(starts, lo, hi):
            return True
        j = bisect_right(sentence_starts, pos) - 1
        return j >= 0 and pos < sentence_reach[j]

    def _leaf_places(self) -> tuple[list[int], list[int], list[int], list[int], tuple[int, int]]:
        if not isinstance(self._places, tuple):
            starts = sorted(x.m.span[0] for x in self.items)
            full = self._places if self._places is not None else starts
            sentences = sorted(x.sentence for x in self.items if x.sentence is not None)
            ends = [e for _, e in sentences]
            lo = min(full[:1] + starts[:1] + [a for a, _ in sentences[:1]], default=0)
            hi = max([p + 1 for p in full[-1:] + starts[-1:]] + ends, default=0)
            self._places = (starts, [a for a, _ in sentences], list(accumulate(ends, max)), full, (lo, hi))
        return self._places

    def grouped(self, key: str, usable: bool) -> dict[str, SharedRung]:
        """Its mentions by the condition they state (only the usable ones when `usable`), each a rung."""
        if key in self.memo:   # (most calls: no reader made)
            return self.memo[key]
        grouping = _Grouping(key, usable)
        return self.derive(key, grouping.leaf, grouping.join)


# The readers that `derive` is handed are methods of small objects, not nested functions: a nested `join` that
# derives the other parts with itself refers to itself, a reference cycle that reference counting never frees, so
# everything it holds (the claim's site, its mentions) waited for the garbage collector, and every claim made some.


class _Grouping:
    """`SharedRung.grouped`'s readers: its mentions by condition (`leaf`), and of a joined rung (`join`)."""

    __slots__ = ("key", "usable")

    def __init__(self, key: str, usable: bool):
        self.key, self.usable = key, usable

    def leaf(self, rung: SharedRung) -> dict[str, SharedRung]:
        out: dict[str, list[Located]] = {}
        usable = self.usable
        for x in rung:
            if x.usable or not usable:
                out.setdefault(x.name, []).append(x)
        return {name: SharedRung(cands) for name, cands in out.items()}

    def join(self, first: dict[str, SharedRung], rest: list[SharedRung]) -> dict[str, SharedRung]:
        groups = [first, *(r.derive(self.key, self.leaf, self.join) for r in rest)]
        out: dict[str, SharedRung] = {}
        for g in groups:
            for name in g:
                if name not in out:
                    parts = [h[name] for h in groups if name in h]
                    out[name] = parts[0] if len(parts) == 1 else SharedRung.joined(parts)
        return out


def _any_in(sorted_starts: list[int], lo: int, hi: int) -> bool:
    k = bisect_left(sorted_starts, lo)
    return k < len(sorted_starts) and sorted_starts[k] < hi


def _stretches(rung: SharedRung) -> tuple[list[int], list[int], list[SharedRung]]:
    """The stretches of text of a rung's leaves, by start: starts, the furthest end so far, the leaves."""
    spans = sorted(((leaf._leaf_places()[4], leaf) for leaf in rung.leaves() if leaf.items), key=_by_stretch)
    ends = [s[0][1] for s in spans]
    return [s[0][0] for s in spans], list(accumulate(ends, max)), [leaf for _, leaf in spans]


def _by_stretch(span: tuple[tuple[int, int], SharedRung]) -> tuple[int, int]:
    return span[0]


def _stretches_join(first: Any, rest: list[SharedRung]) -> tuple[list[int], list[int], list[SharedRung]]:
    starts, reach, leaves = first
    spans = sorted(((leaf._leaf_places()[4], leaf) for r in rest for leaf in r.leaves() if leaf.items), key=_by_stretch)
    if spans and starts and spans[0][0][0] < starts[-1]:   # (not after the first part's: sorted anew)
        spans = sorted([(leaf._leaf_places()[4], leaf) for leaf in leaves] + spans, key=_by_stretch)
        starts, reach, leaves = [], [], []
    ends = [s[0][1] for s in spans]
    return (starts + [s[0][0] for s in spans], reach + list(accumulate(ends, max, initial=reach[-1] if reach else 0))[1:],
            leaves + [leaf for _, leaf in spans])


def filtered(rung: SharedRung, key: Any, keep: Callable[[SharedRung], list[Located]]) -> SharedRung:
    """`rung.derive(key)` of a sub-list of its mentions, `keep(rung)`, that is decided mention by mention:
    of a joined rung, the join of its parts' sub-lists."""
    if key in rung.memo:
        return rung.memo[key]
    sub = _Filtered(key, keep)
    return rung.derive(key, sub.leaf, sub.join)


class _Filtered:
    """`filtered`'s readers."""

    __slots__ = ("key", "keep")

    def __init__(self, key: Any, keep: Callable[[SharedRung], list[Located]]):
        self.key, self.keep = key, keep

    def leaf(self, r: SharedRung) -> SharedRung:
        return SharedRung(self.keep(r))

    def join(self, first: SharedRung, rest: list[SharedRung]) -> SharedRung:
        return SharedRung.joined([first, *(r.derive(self.key, self.leaf, self.join) for r in rest)])


def summary(rung: SharedRung, key: Any, leaf: Callable[[list[Located]], Any], merge: Callable[[Any, Any], Any]) -> Any:
    """`rung.derive(key)` of a value `leaf(mentions)` that two parts' values give by `merge(first, then)`."""
    if key in rung.memo:
        return rung.memo[key]
    summed = _Summary(key, leaf, merge)
    return rung.derive(key, summed.leaf, summed.join)


class _Summary:
    """`summary`'s readers."""

    __slots__ = ("key", "of_list", "merge")

    def __init__(self, key: Any, of_list: Callable[[list[Located]], Any], merge: Callable[[Any, Any], Any]):
        self.key, self.of_list, self.merge = key, of_list, merge

    def leaf(self, r: SharedRung) -> Any:
        return self.of_list(list(r))

    def join(self, first: Any, rest: list[SharedRung]) -> Any:
        for r in rest:
            first = self.merge(first, r.derive(self.key, self.leaf, self.join))
        return first


def folded(rung: SharedRung, key: Any, fold: Callable[[Any, list[Located]], Any], start: Callable[[], Any],
           copy: Callable[[Any], Any]) -> Any:
    """`rung.derive(key)` of a value built mention by mention in order, `fold(state, mentions)` from
    `start()`: of a joined rung, its first part's value (a copy) folded on with the others' mentions."""
    return rung.derive(key, lambda r: fold(start(), list(r)),
                       lambda first, rest: fold(copy(first), [x for r in rest for x in r]))
