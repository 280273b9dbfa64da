"""One device counted two ways at one rung ("1xL4 = TP1, 4xL4 = best config"): whether a rung counts a device at
two counts one after the other, neither paired with a model (nor with a model's size written between them).

Read by every claim a rung covers: of a `SharedRung` (the setup sections before a claim, which grow along a long
post), a summary per rung and device name, joined from its parts' (policy.py `_stated`)."""
from __future__ import annotations

import re
from typing import NamedTuple

from extractor.conditions._internals.rung_summaries import summed
from extractor.conditions.decisions import name_key
from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention

# a model's size written between two counts of one device ("Model-A 7B on 1xL4 and 34B on 4xL4"): each count is
# that model's, though no binding paired them
_SIZE_BETWEEN = re.compile(r"(?<![\w.])\d+(?:\.\d+)?\s?[BM]\b")


class _Counts(NamedTuple):
    """The counted mentions of one device at a rung, in text order: the first and last, whether two one after
    the other count it differently (`twice`); `ordered` False when parts joined out of text order (then the
    rung is read whole)."""
    first: Mention | None
    last: Mention | None
    twice: bool
    ordered: bool = True


def counted_twice(cands: list[Located], m: Mention, view: str) -> bool:
    """Whether the rung `cands` counts the device of `m` at two counts one after the other, neither paired with a
    model (nor with a model's size written between them)."""
    key = name_key(m)

    def leaf(located: list[Located]) -> _Counts:
        counted = sorted((x.m for x in located if x.m.count and x.for_model is None and name_key(x.m) == key),
                         key=lambda x: x.span)
        twice = any(_differ(a, b, view) for a, b in zip(counted, counted[1:]))
        return _Counts(counted[0], counted[-1], twice) if counted else _Counts(None, None, False)

    def merge(a: _Counts, b: _Counts) -> _Counts:
        if a.first is None:
            return b
        if b.first is None:
            return a
        if not (a.ordered and b.ordered) or b.first.span < a.last.span:
            return _Counts(a.first, b.last, False, ordered=False)
        return _Counts(a.first, b.last, a.twice or b.twice or _differ(a.last, b.first, view))

    got = summed(cands, ("counted_twice", key), leaf, merge)
    return got.twice if got.ordered else leaf(list(cands)).twice


def _differ(a: Mention, b: Mention, view: str) -> bool:
    """Whether `a` and then `b` count the device differently, with no model's size written between them."""
    return a.count != b.count and not _SIZE_BETWEEN.search(view, a.span[1], b.span[0])
