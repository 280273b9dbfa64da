"""A Markdown post shown rendered on the audit page, with every marked span kept at its offsets.

markdown-it-py parses the post into blocks (headings, paragraphs, lists, tables, code, quotes); each block
knows its source lines, so each is drawn as its HTML element around the post's own characters of those lines,
cut into the page's marked segments. Nothing is re-worded: inline markers (`**`, backticks, link targets)
stay, dimmed, so a span's offsets still point into the text as written.

    html = render_markdown(text, render_range)   # render_range(start, end) -> the marked HTML of text[start:end]
"""
from __future__ import annotations

import html
import re
from typing import Callable

from markdown_it import MarkdownIt

RenderRange = Callable[[int, int], str]
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n.*?\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_LIST_MARKER = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?")
_HEADING_MARKER = re.compile(r"[ \t]{0,3}#{1,6}[ \t]*")
_QUOTE_MARKER = re.compile(r"[ \t]{0,3}>[ \t]?")
_FENCE = re.compile(r"[ \t]{0,3}(?:`{3,}|~{3,})")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", text):
        starts.append(m.end())
    starts.append(len(text))
    return starts


def _cells(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The cells of one table line `text[start:end]`: (start, end) between the pipes, outer pipes dropped."""
    line = text[start:end]
    bars = [i for i, ch in enumerate(line) if ch == "|" and (i == 0 or line[i - 1] != "\\")]
    if not line.strip().startswith("|"):
        bars = [-1] + bars
    if not line.rstrip().endswith("|"):
        bars = bars + [len(line.rstrip())]
    return [(start + a + 1, start + b) for a, b in zip(bars, bars[1:])]


def render_markdown(text: str, render_range: RenderRange) -> str:
    """The post as HTML blocks around its marked segments (see the module docstring)."""
    fm = _FRONT_MATTER.match(text)
    parsed = text if fm is None else "\n" * fm.group(0).count("\n") + text[fm.end():]
    tokens = MarkdownIt("commonmark").enable("table").parse(parsed)
    starts = _line_starts(text)
    out: list[str] = []
    if fm is not None:
        out.append(f'<pre class="front-matter">{render_range(0, fm.end())}</pre>')
    drawn = ("heading_open", "paragraph_open", "table_open")   # blocks drawn whole from their source lines
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.map is None:
            i += 1
            continue
        a, b = starts[tok.map[0]], starts[min(tok.map[1], len(starts) - 1)]
        if tok.type == "heading_open":
            m = _HEADING_MARKER.match(text, a)
            cut = m.end() if m else a
            out.append(f"<{tok.tag}>{_marker(text, a, cut)}{render_range(cut, b)}</{tok.tag}>")
        elif tok.type == "paragraph_open":
            out.append(f"<p>{_lines(text, a, b, render_range)}</p>")
        elif tok.type in ("fence", "code_block"):
            out.append(f'<pre class="code">{render_range(a, b)}</pre>')
        elif tok.type == "table_open":
            out.append(_table(text, starts, tok.map, render_range))
        elif tok.type == "hr":
            out.append(f'<hr><span class="md">{html.escape(text[a:b].strip())}</span>')
        elif tok.type == "html_block":
            out.append(f'<pre class="html">{render_range(a, b)}</pre>')
        i = _after(tokens, i) if tok.type in drawn else i + 1
    return "\n".join(out)


def _after(tokens: list, i: int) -> int:
    """The index after the `_close` token that ends the block opened at `i`."""
    level = tokens[i].level
    close = tokens[i].type.replace("_open", "_close")
    for j in range(i + 1, len(tokens)):
        if tokens[j].type == close and tokens[j].level == level:
            return j + 1
    return len(tokens)


def _marker(text: str, a: int, b: int) -> str:
    return f'<span class="md">{html.escape(text[a:b])}</span>' if b > a else ""


def _lines(text: str, a: int, b: int, render_range: RenderRange) -> str:
    """A paragraph's lines (in a list or a quote: their markers dimmed)."""
    parts = []
    pos = a
    for line in text[a:b].splitlines(keepends=True):
        end = pos + len(line)
        m = _QUOTE_MARKER.match(text, pos, end) or None
        cut = m.end() if m else pos
        m2 = _LIST_MARKER.match(text, cut, end)
        cut = m2.end() if m2 else cut
        parts.append(f"{_marker(text, pos, cut)}{render_range(cut, end)}")
        pos = end
    return "".join(parts)


def _table(text: str, starts: list[int], span: list[int], render_range: RenderRange) -> str:
    rows = []
    for n in range(span[0], span[1]):
        a, b = starts[n], starts[n + 1] if n + 1 < len(starts) else len(text)
        line = text[a:b].rstrip("\n")
        if not line.strip() or re.fullmatch(r"[\s|:\-]+", line):
            continue
        cell = "th" if not rows else "td"
        cells = "".join(f"<{cell}>{render_range(s, e)}</{cell}>" for s, e in _cells(text, a, a + len(line)))
        rows.append(f"<tr>{cells}</tr>")
    return '<table class="post-table">' + "".join(rows) + "</table>"
