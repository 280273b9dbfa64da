"""Questions about character spans `[start, end)` held in sorted lists: the one place for them.

Two kinds of list, two kinds of answer:
- disjoint spans (no two overlap), sorted: the answers are exact (`overlaps_disjoint`, `point_inside`);
- spans that may overlap, sorted by start: `overlaps_near` and `inside_near` look only at the `window`
  spans that start last before the asked span ends (or starts), a bound that costs O(log n) and is
  exact whenever no longer span reaches past that many later starts. Making them exact would change
  which spans count on such inputs, so the window is kept where it was used.
And one about a span's own text: `markup_free`, the part of a span a quote may hold (no Markdown markers,
no HTML entities).
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

Span = tuple[int, int]


def overlaps_disjoint(spans: list[Span], start: int, end: int) -> bool:
    """Whether [start, end) overlaps one of `spans` (sorted, no two overlapping): only the span starting
    last before `start` and those starting inside [start, end) can."""
    i = bisect_left(spans, (start, -1))
    if i and spans[i - 1][1] > start:
        return True
    while i < len(spans) and spans[i][0] < end:
        if start < spans[i][1]:
            return True
        i += 1
    return False


def point_inside(pos: int, spans: list[Span], starts: list[int]) -> bool:
    """Whether `pos` lies in one of `spans` (sorted, disjoint; `starts` their starts)."""
    i = bisect_right(starts, pos) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def overlaps_near(spans: list[Span], start: int, end: int, window: int = 8) -> bool:
    """Whether [start, end) overlaps one of the `window` spans that start last before `end`."""
    i = bisect_right(spans, (end, end))
    return any(s < end and start < e for s, e in spans[max(0, i - window):i])


def inside_near(spans: list[Span], start: int, end: int, window: int = 4) -> bool:
    """Whether [start, end) lies inside one of the `window` spans that start last at or before `start`."""
    i = bisect_right(spans, (start, 1 << 62))
    return any(s <= start and end <= e for s, e in spans[max(0, i - window):i])


# Markdown emphasis and code markers (`**`, `_`, `~~`, backticks) and HTML entities (`&nbsp;`, `&#8201;`):
# markup that a quote must not start or end with. A `*` run with space on both sides is a product ("4 * 8"),
# an `_` between letters or digits is part of a name ("max_tokens"), an entity between digits part of the
# number ("1&#44;200"); none of them is markup.
_ENTITY = r"&(?:[A-Za-z][A-Za-z0-9]{1,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});"
_MARKUP = re.compile(rf"(?<!\s)\*+|\*+(?!\s)|~~+|`+|(?<![A-Za-z0-9])_+|_+(?![A-Za-z0-9])"
                     rf"|(?<![0-9]){_ENTITY}|{_ENTITY}(?![0-9])")


def markup_free(text: str, start: int, end: int) -> Span:
    """The part of `text[start:end]` a quote may hold: without Markdown markers or HTML entities at its
    edges, and when such markup sits inside (`up to **1.9x`, `0.42&nbsp;s`), the markup-free piece that
    holds the number (its first digit; else the first piece), so `text[span] == quote` still holds."""
    marks = [m.span() for m in _MARKUP.finditer(text, start, end)]
    if not marks:
        return start, end
    pieces, pos = [], start
    for a, b in marks + [(end, end)]:
        if text[pos:a].strip():
            pieces.append((pos, a))
        pos = b
    if not pieces:
        return start, end
    digit = next((i for i in range(start, end) if text[i].isdigit()), None)
    a, b = next((p for p in pieces if digit is not None and p[0] <= digit < p[1]), pieces[0])
    while text[a].isspace():
        a += 1
    while text[b - 1].isspace():
        b -= 1
    return a, b


def markup_free_pieces(text: str, start: int, end: int) -> list[Span]:
    """The markup-free pieces of `text[start:end]` that hold a digit, blanks trimmed: the ends of a range written
    with markup between them ("**1.4x** to **1.8x**" -> "1.4x", "1.8x"); one piece when no markup sits inside."""
    pos, out = start, []
    for a, b in [m.span() for m in _MARKUP.finditer(text, start, end)] + [(end, end)]:
        piece = text[pos:a]
        if any(ch.isdigit() for ch in piece):
            lo, hi = pos + len(piece) - len(piece.lstrip()), a - (len(piece) - len(piece.rstrip()))
            out.append((lo, hi))
        pos = b
    return out


def with_markup_before(text: str, start: int) -> int:
    """Where a markup-free quote starting at `start` began as written: back over the markers and entities
    (and blanks) `markup_free` left out before it ("&lt; 1 s" for "1 s"), so rules that read the figure
    as written (a bound "< 1 s" is a target) still see them."""
    pos = start
    while True:
        back = pos
        while back > 0 and text[back - 1] in " \t":
            back -= 1
        m = next((m for m in _MARKUP.finditer(text, max(0, back - 40), back) if m.end() == back), None)
        if m is None:
            return pos
        pos = m.start()
