"""The source of one code block as a program reads it: its lines without the fence, the quote marks or list
indentation around them, and prompts ("$ ", ">>> "), each line keeping the document offset it starts at, so
what a parser finds in the source has an exact span in the document."""
from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(r"^\s*(?:```|~~~)")
_QUOTE = re.compile(r"^[ \t]*(?:>[ \t]?)+")
_PROMPT = re.compile(r"^(?:\$|>>>|\.\.\.)(?:[ \t]|$)")


@dataclass(slots=True)
class Source:
    """A code block's lines (`lines[i]` starts at document offset `starts[i]`) and its language as marked."""

    lines: list[str]
    starts: list[int]
    lang: str

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def offset(self, line: int, col: int) -> int:
        """The document offset of character `col` of line `line` (0-based both)."""
        return self.starts[line] + col

    def byte_offset(self, lineno: int, col_bytes: int) -> int:
        """The document offset of an `ast` position (1-based line, column in UTF-8 bytes)."""
        line = self.lines[lineno - 1]
        return self.starts[lineno - 1] + len(line.encode("utf-8")[:col_bytes].decode("utf-8", "ignore"))


def block_source(view: str, start: int, end: int, lang: str | None) -> Source | None:
    """The source of the code block at [start, end) of the view: between its fences (the first fence line
    after the opening one closes it), with the quote marks and the indentation all its lines share removed.
    None when it holds no line."""
    raw: list[tuple[int, str]] = []
    pos = start
    for line in view[start:end].split("\n"):
        raw.append((pos, line))
        pos += len(line) + 1
    if raw and _FENCE.match(_QUOTE.sub("", raw[0][1])):
        raw = raw[1:]
        for i, (_, line) in enumerate(raw):
            if _FENCE.match(_QUOTE.sub("", line)):
                raw = raw[:i]
                break
    quoted = [len(q.group()) if (q := _QUOTE.match(line)) else 0 for _, line in raw]
    cut_quote = min(quoted) if quoted and all(quoted) else 0
    body = [(p + cut_quote, line[cut_quote:]) for (p, line) in raw]
    indents = [len(line) - len(line.lstrip(" \t")) for _, line in body if line.strip()]
    if not indents:
        return None
    cut = min(indents)
    lines, starts = [], []
    for p, line in body:
        line = line[cut:] if line.strip() else ""
        p += cut if line else 0
        if m := _PROMPT.match(line):
            p, line = p + m.end(), line[m.end():]
        lines.append(line)
        starts.append(p)
    return Source(lines, starts, (lang or "").strip("{} ").lower())
