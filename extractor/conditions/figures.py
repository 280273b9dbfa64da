"""The figures of a document and how a note names each ("Figure 2", the figure "alt text", the figure x.png)."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from typing import NamedTuple

from extractor.ingest import Document

_FIGURE = re.compile(r"\b(?:figure|fig\.)\s*(\d+)", re.I)
_NEAR = 400   # characters: a caption this close after an image is its caption; a numbered caption this close to
              # a figure already found is that figure's


class Figure(NamedTuple):
    """A figure of the document: where it is and how a note names it ("Figure 2")."""

    at: int
    label: str


def document_figures(d: Document) -> list[Figure]:
    """Each figure: "Figure N" from its alt text or caption, else its alt text or file name; then each
    numbered caption with no image near it. Lookups bisect sorted offsets, so many images cost no more
    than one pass each."""
    figs: list[Figure] = []
    order = sorted(range(len(d.blocks)), key=lambda i: d.blocks[i].start)   # HTML captions may come late
    block_starts = [d.blocks[i].start for i in order]
    for img in d.images:
        label = None
        if img.alt:
            alt = d.text[img.alt.start:img.alt.end]
            m = _FIGURE.search(alt)
            label = f"Figure {m.group(1)}" if m else (f'the figure "{alt[:60]}"' if alt.strip() else None)
        if label is None:
            near = order[bisect_left(block_starts, img.end):bisect_left(block_starts, img.end + _NEAR)]
            first = min((i for i in near if d.blocks[i].kind == "caption"), default=None)
            nxt = d.blocks[first] if first is not None else None
            m = _FIGURE.search(d.view[nxt.start:nxt.end]) if nxt else None
            label = f"Figure {m.group(1)}" if m else f"the figure {img.src.rsplit('/', 1)[-1]}"
        figs.append(Figure(img.start, label))
    ats = sorted(f.at for f in figs)
    for b in d.blocks:
        if b.kind == "caption":
            m = _FIGURE.match(d.view[b.start:b.end].strip())
            if m:
                k = bisect_right(ats, b.start - _NEAR)   # the first figure after b.start - 400
                if not (k < len(ats) and ats[k] < b.start + _NEAR):
                    figs.append(Figure(b.start, f"Figure {m.group(1)}"))
                    insort(ats, b.start)
    figs.sort()
    return figs
