"""Same-length masking: blank markup while keeping every character at its offset."""
from __future__ import annotations

import re
from html import unescape

# Inline Markdown syntax: each pattern's group "keep" survives, the rest becomes spaces.
_IMAGE = re.compile(r"!\[(?P<keep>[^\]\n]*)\]\([^)\n]*\)")
_LINK = re.compile(r"\[(?P<keep>[^\]\n]*)\]\((?P<target>[^)\s]*)(?:\s+\"[^\"\n]*\")?\)")
_REF_LINK = re.compile(r"\[(?P<keep>[^\]\n]+)\]\[[^\]\n]*\]")
_AUTOLINK = re.compile(r"<(?P<target>https?://[^>\s]+)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*?)?/?>|<!--.*?-->", re.S)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3}|_{1,3})(?=\S)|(?<=\S)(\*{1,3}|_{1,3})(?![\w*])")
_STRIKE = re.compile(r"~~")
_CODE_TICKS = re.compile(r"`+")
_ESCAPE = re.compile(r"\\(?=[\\`*_{}\[\]()#+\-.!|<>~$])")
_LINE_PREFIX = re.compile(r"^(?P<p>[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?)+|[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)",
                          re.M)
_HEADING_TAIL = re.compile(r"[ \t]+#+[ \t]*$", re.M)
# The patterns blanked whole, each with the strings one of which every match holds.
_PLAIN = ((_EMPHASIS, ("*", "_")), (_STRIKE, ("~~",)), (_CODE_TICKS, ("`",)), (_ESCAPE, ("\\",)))


def blank(chars: list[str], start: int, end: int) -> None:
    """Replace chars[start:end] by spaces, keeping newlines."""
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def mask_entities(chars: list[str], text: str, start: int = 0, end: int | None = None) -> None:
    """Write each HTML entity's character at its first offset, spaces after it."""
    for m in _ENTITY.finditer(text, start, len(text) if end is None else end):
        ch = unescape(m.group())
        if len(ch) == 1:
            blank(chars, m.start(), m.end())
            chars[m.start()] = ch


def mask_inline_markdown(chars: list[str], text: str, start: int, end: int) -> list[tuple[int, int, str]]:
    """Blank inline Markdown in text[start:end]; return links found as (start, end, target)."""
    links: list[tuple[int, int, str]] = []
    seg = text[start:end]  # a pattern runs only when the characters every match of it holds are there
    if "](" in seg:
        for m in _IMAGE.finditer(text, start, end):
            blank(chars, m.start(), m.start("keep"))
            blank(chars, m.end("keep"), m.end())
        for m in _LINK.finditer(text, start, end):
            if m.start() > 0 and text[m.start() - 1] == "!":
                continue
            blank(chars, m.start(), m.start("keep"))
            blank(chars, m.end("keep"), m.end())
            links.append((m.start("keep"), m.end("keep"), m.group("target")))
    if "][" in seg:
        for m in _REF_LINK.finditer(text, start, end):
            blank(chars, m.start(), m.start("keep"))
            blank(chars, m.end("keep"), m.end())
    if "<" in seg:
        for m in _AUTOLINK.finditer(text, start, end):
            chars[m.start()] = " "
            chars[m.end() - 1] = " "
            links.append((m.start("target"), m.end("target"), m.group("target")))
        for m in _HTML_TAG.finditer(text, start, end):
            blank(chars, m.start(), m.end())
    for pattern, needs in _PLAIN:
        if any(n in seg for n in needs):
            for m in pattern.finditer(text, start, end):
                blank(chars, m.start(), m.end())
    if "&" in seg:
        mask_entities(chars, text, start, end)
    return links


def mask_line_prefixes(chars: list[str], text: str, start: int, end: int) -> None:
    """Blank heading hashes, quote markers and list bullets at line starts."""
    for m in _LINE_PREFIX.finditer(text, start, end):
        blank(chars, m.start(), m.end())
    for m in _HEADING_TAIL.finditer(text, start, end):
        blank(chars, m.start(), m.end())


def html_tags(text: str, start: int, end: int):
    """Iterate raw HTML tags in a range (used for inline HTML inside Markdown)."""
    return _HTML_TAG.finditer(text, start, end)
