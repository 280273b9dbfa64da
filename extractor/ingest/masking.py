"""Same-length masking: blank markup while keeping every character at its offset."""
from __future__ import annotations

import re
from html import unescape

# Inline Markdown syntax: each pattern's group "keep" survives, the rest becomes spaces.
_IMAGE = re.compile(r"!\[(?P<keep>[^\]\n]*)\]\([^)\n]*\)")
_LINK = re.compile(r"\[(?P<keep>[^\]\n]*)\]\((?P<target>[^)\s]*)(?:\s+\"[^\"\n]*\")?\)")
_REF_LINK = re.compile(r"\[(?P<keep>[^\]\n]+)\]\[[^\]\n]*\]")
_AUTOLINK = re.compile(r"<(?P<target>https?://[^>\s]+)>")
_HTML_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s+[^<>]*?)?/?>|<!--(?:-?>|.*?--!?>)", re.S)
_COMMENT_END = re.compile(r"--!?>")   # HTML ends a comment at "-->" or "--!>", and an empty one at "<!-->"
_RAW_TEXT_OPEN = re.compile(r"<(script|style)\b", re.I)
_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
# Emphasis runs of 1-3 `*` or `_` that open (no word character or `*` before, something after) or
# close (something before, no word character or `*` after), strikethrough, code ticks and escaping
# backslashes are blanked whole. Their characters differ, so no two of their matches overlap and one
# alternation finds what separate passes would. Each branch opens with its character (the lookbehinds
# come after it) so the scan skips to the next candidate character.
_MARKS = re.compile(r"(?:\*(?<![\w*]\*)\*{0,2}|_(?<![\w*]_)_{0,2})(?=\S)"
                    r"|(?:\*(?<=\S\*)\*{0,2}|_(?<=\S_)_{0,2})(?![\w*])"
                    r"|~~|`+|\\(?=[\\`*_{}\[\]()#+\-.,!|<>~$])")
_MARK_CHARS = re.compile(r"[*_~`\\]")
_LINE_PREFIX = re.compile(r"^(?P<p>[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?)+|[ \t]*(?:[-*+]|\d{1,3}[.)])[ \t]+(?:\[[ xX]\][ \t]+)?)",
                          re.M)
_HEADING_TAIL = re.compile(r"[ \t]+#+[ \t]*$", re.M)
# a ratio written as LaTeX math ("$6\times$", "$1.5 \times$"): its dollars delimit the math, they are no price
_LATEX_RATIO = re.compile(r"\$(?P<keep>[~≈]?\d[\d.,]*[ \t]*\\times)[ \t]*\$")
# a range of ratios in LaTeX math ("$2 \sim 5\times$", "$2$--$5\times$", "$2\text{-}5\times$"): the low end,
# a connector read as "-", the high end with its \times; the math's dollars and braces are no price
_LATEX_RANGE = re.compile(r"\$(?P<low>[~≈]?\d[\d.,]*)[ \t]*(?:\$[ \t]*)?"
                          r"(?P<conn>\\sim|\\text\{[ \t]*(?:-{1,3}|–|to)[ \t]*\}|-{1,3}|–|—)"
                          r"[ \t]*(?:\$[ \t]*)?(?P<high>\d[\d.,]*[ \t]*\\times)[ \t]*\$")


def comment_spans(text: str) -> list[tuple[int, int]]:
    """Spans of HTML comments as a browser reads them: from "<!--" to the first "-->" or "--!>" ("<!-->" and
    "<!--->" are empty comments), and to the end of the text when none follows; none inside a script or
    style element. Linear: each character is looked at a bounded number of times."""
    spans: list[tuple[int, int]] = []
    pos, n = 0, len(text)
    while True:
        i = text.find("<!--", pos)
        if i < 0:
            return spans
        raw = _RAW_TEXT_OPEN.search(text, pos, i)
        if raw is not None:     # skip the script or style element (its "<!--" is not a comment)
            close = re.compile(rf"</{raw.group(1)}\s*>", re.I).search(text, raw.end())
            pos = close.end() if close else n
            continue
        if text.startswith("<!-->", i):
            end = i + 5
        elif text.startswith("<!--->", i):
            end = i + 6
        else:
            m = _COMMENT_END.search(text, i + 4)
            end = m.end() if m else n
        spans.append((i, end))
        pos = end


def blank(chars: list[str], start: int, end: int) -> None:
    """Replace chars[start:end] by spaces, keeping newlines."""
    if 0 <= start and end <= len(chars) and "\n" not in chars[start:end]:
        chars[start:end] = " " * (end - start)   # one slice write for the common single-line run
        return
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


# What pads an entity glued to a digit ("1&#44;200", "2&#46;5&times;"): invisible characters a number
# may hold, so the number reads on through them (quantities.finder.INVISIBLE) where spaces would end it.
ENTITY_IN_NUMBER_PAD = "\u2060"


def write_entity(chars: list[str], text: str, start: int, end: int, ch: str) -> None:
    """Write an entity's character at its first offset and pad the rest: spaces, or word joiners when the
    entity is glued after a digit (inside or right after a number) and is not a space itself."""
    blank(chars, start, end)
    chars[start] = ch
    if end - start > 1 and start > 0 and text[start - 1].isdigit() and not ch.isspace():
        chars[start + 1:end] = ENTITY_IN_NUMBER_PAD * (end - start - 1)


def mask_entities(chars: list[str], text: str, start: int = 0, end: int | None = None) -> None:
    """Write each HTML entity's character at its first offset, padding after it (see write_entity)."""
    for m in _ENTITY.finditer(text, start, len(text) if end is None else end):
        ch = unescape(m.group())
        if len(ch) == 1:
            write_entity(chars, text, m.start(), m.end(), ch)


def _escaped_in_number(text: str, start: int, end: int) -> bool:
    """True for a Markdown exporter's backslash between a digit and an escaped point or comma before a digit."""
    return (end - start == 1 and text[start] == "\\" and start > 0 and text[start - 1].isdigit()
            and text[end:end + 1] in (".", ",") and text[end + 1:end + 2].isdigit())


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
    first = _MARK_CHARS.search(text, start, end)   # every match opens with one of these characters
    if first:
        for m in _MARKS.finditer(text, first.start(), end):
            blank(chars, m.start(), m.end())
            if _escaped_in_number(text, m.start(), m.end()):   # "5\\.0", "1\\,200": one number
                chars[m.start()] = ENTITY_IN_NUMBER_PAD
    if "&" in seg:
        mask_entities(chars, text, start, end)
    if "\\times" in seg:
        for m in _LATEX_RANGE.finditer(text, start, end):
            blank(chars, m.start(), m.start("low"))
            blank(chars, m.end("low"), m.start("high"))
            chars[m.start("conn")] = "-"
            blank(chars, m.end("high"), m.end())
        for m in _LATEX_RATIO.finditer(text, start, end):
            blank(chars, m.start(), m.start("keep"))
            blank(chars, m.end("keep"), m.end())
    return links


def mask_line_prefixes(chars: list[str], text: str, start: int, end: int) -> None:
    """Blank heading hashes, quote markers and list bullets at line starts."""
    line = start
    while line < end:   # a prefix never crosses a line: try it at each line start only
        m = _LINE_PREFIX.match(text, line, end)
        if m:
            blank(chars, m.start(), m.end())
        newline = text.find("\n", line, end)
        if newline < 0:
            break
        line = newline + 1
    if "#" in text[start:end]:
        for m in _HEADING_TAIL.finditer(text, start, end):
            blank(chars, m.start(), m.end())
