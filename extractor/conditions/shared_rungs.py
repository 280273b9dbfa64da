"""Rungs that many claims of one document read alike, built once.

The document-wide rungs (statements of universal scope, the setup sections that cover a claim, the
introduction, the front matter) hold the same mentions for every claim of a stretch of the post, and in a
long post they hold many: a claim that scanned them anew would cost as much as the post is long. A
`SharedRung` is such a list, built once per document (per stretch) and handed to every claim that reads
it; what the ladder and the policy derive from it for a kind of claim (the mentions that fit a claim of
a metric family, the mentions by condition, the fullest form of a name) is kept on it, so each is
derived once per rung, not once per claim. Only what depends on the claim's kind goes into a memo key;
what depends on its place (a mention in the claim's own sentence or passage) is checked first
(`touches`), and such a claim reads the rung as an ordinary list."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any

from extractor.conditions.context import Located


class SharedRung(list):
    """Located mentions many claims read alike; `memo` holds what is derived from them."""

    __slots__ = ("memo", "_blocks", "_starts", "_sentences")

    def __init__(self, located=()):
        super().__init__(located)
        self.memo: dict[Any, Any] = {}
        self._blocks: frozenset[int] | None = None
        self._starts: list[int] | None = None
        self._sentences: tuple[list[int], list[int]] | None = None

    def without(self, blocks: set[int]) -> SharedRung:
        """The mentions not in `blocks` (a claim's own list, the lists of alternatives of the post): this rung
        itself when none is, else the rung without those blocks (kept per set of blocks left out)."""
        if self._blocks is None:
            self._blocks = frozenset(x.block for x in self)
        out = self._blocks.intersection(blocks) if blocks else None
        if not out:
            return self
        rung = self.memo.get(("without", out))
        if rung is None:
            rung = self.memo["without", out] = SharedRung(x for x in self if x.block not in out)
        return rung

    def touches(self, lo: int, hi: int, pos: int) -> bool:
        """Whether a mention starts in [lo, hi) (the claim's passage), or a mention's sentence holds `pos`
        (the claim's figure): what the ladder reads apart for the claim's own sentence and passage."""
        if self._starts is None:
            self._starts = sorted(x.m.span[0] for x in self)
            merged: list[list[int]] = []
            for a, b in sorted(x.sentence for x in self if x.sentence is not None):
                if merged and a <= merged[-1][1]:
                    merged[-1][1] = max(merged[-1][1], b)
                else:
                    merged.append([a, b])
            self._sentences = ([a for a, _ in merged], [b for _, b in merged])
        k = bisect_left(self._starts, lo)
        if k < len(self._starts) and self._starts[k] < hi:
            return True
        starts, ends = self._sentences
        j = bisect_right(starts, pos) - 1
        return j >= 0 and pos < ends[j]
