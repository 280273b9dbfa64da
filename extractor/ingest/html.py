"""HTML ingestion with the standard library's HTMLParser, which reports source positions.

Only main content is kept: inside <article>/<main> when the page has one, and never
navigation, headers, footers, scripts or styles. Text keeps its original offsets:
tags become spaces in the view, entities their character padded with spaces.
"""
from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser

from extractor.ingest.html_tables import HtmlTables
from extractor.ingest.masking import ENTITY_IN_NUMBER_PAD, blank, comment_spans
from extractor.ingest.model import Block, Document, Image, Link, Node, Section, Table
from extractor.ingest.structure import CAPTION, attach_captions, finish_sections

SKIP = {"script", "style", "nav", "header", "footer", "aside", "noscript", "template", "svg", "form",
        "button", "head", "iframe", "select", "canvas"}
BLOCK_KINDS = {"p": "paragraph", "li": "list_item", "pre": "code", "blockquote": "quote",
               "figcaption": "caption", "caption": "caption", "dt": "paragraph", "dd": "paragraph",
               "div": "paragraph", "section": "paragraph", "article": "paragraph", "main": "paragraph",
               "figure": "paragraph", "td": "table", "th": "table", "body": "paragraph", "html": "paragraph"}
HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
VOID = {"br", "img", "hr", "meta", "link", "input", "source", "wbr", "area", "col", "embed", "param", "track"}
_BLOCK_STARTS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "table", "pre", "div", "blockquote", "dl",
                 "figure", "section", "hr"}
_PARA_LIKE = {"p", "h1", "h2", "h3", "h4", "h5", "h6"}
IMPLIED_CLOSE: dict[str, set[str]] = {t: _PARA_LIKE for t in _BLOCK_STARTS}
IMPLIED_CLOSE.update({"li": {"li"} | _PARA_LIKE, "tr": {"tr", "td", "th"}, "td": {"td", "th"}, "th": {"td", "th"},
                      "body": {"head"}, "dt": {"dd", "dt"}, "dd": {"dd", "dt"}})
_MAIN = re.compile(r"<(article|main)\b", re.I)
_HIDING_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\s*(?:!important\s*)?(?:;|$)",
                           re.I)
# A short run of text after an image inside the same paragraph or figure element ("<p><img ...><br>Throughput on
# 8x H100 (BF16).</p>") is the image's caption; a longer run is body text.
_CAPTION_HOSTS = {"p", "figure"}
_CAPTION_MAX = 300
_ATTR = re.compile(r"""(?P<name>[\w:-]+)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s>]+))""")


class _Walker(HTMLParser):
    """Walks the markup once, filling the view and collecting the structure."""

    def __init__(self, text: str, chars: list[str], base: int, section: int | None, main_only: bool,
                 sections: list[Section] | None = None):
        super().__init__(convert_charrefs=False)
        self.text, self.chars, self.base = text, chars, base
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.main_only = main_only
        self.main_depth = 0
        self.skip_depth = 0
        self.stack: list[str] = []
        self.hidden_depths: list[int] = []   # stack depths of open elements a reader never sees (hidden, display:none)
        self.sections = sections if sections is not None else []
        self.section = section
        self.blocks: list[Block] = []
        self.tables: list[Table] = []
        self.table_reader = HtmlTables()
        self.links: list[Link] = []
        self.images: list[Image] = []
        self.meta: dict[str, str] = {}
        self.title: str | None = None
        self.title_span: tuple[int, int] | None = None
        self.open_links: list[tuple[str, int | None, int | None]] = []
        self.run: list[int] = []   # [first, last] offsets of text in the current block
        self.imaged: dict[int, int] = {}   # stack depth of an open paragraph or figure element -> end of its first image
        self.in_title = False

    # -- positions -------------------------------------------------------------
    def _offset(self) -> int:
        line, col = self.getpos()
        return self.base + self.starts[line - 1] + col

    def _active(self) -> bool:
        return self.skip_depth == 0 and (not self.main_only or self.main_depth > 0)

    # -- blocks ----------------------------------------------------------------
    def _flush(self) -> None:
        if self.run:
            kind = "paragraph"
            for tag in reversed(self.stack):
                if tag in HEADINGS:
                    kind = "heading"
                    break
                if tag in BLOCK_KINDS:
                    kind = BLOCK_KINDS[tag]
                    break
            if kind != "table":
                start, end = self.run
                if kind == "paragraph" and (CAPTION.match(self.text[start - self.base:end - self.base])
                                            or self._after_image(start, end)):
                    kind = "caption"
                if kind == "heading":
                    level = next(HEADINGS[t] for t in reversed(self.stack) if t in HEADINGS)
                    title = "".join(self.chars[start:end]).strip()
                    title = re.sub(r"\s+", " ", title)
                    self.sections.append(Section(start=start, end=end, title=title, level=level, body_end=end))
                    self.section = len(self.sections) - 1
                    if level == 1 and self.title is None:
                        self.title, self.title_span = title, (start, end)
                self.blocks.append(Block(kind=kind, start=start, end=end, section=self.section))
        self.run = []

    def _after_image(self, start: int, end: int) -> bool:
        """Whether a text run is a short line after an image in its own paragraph or figure element."""
        host = self._caption_host()
        if host is None or self.imaged.get(host, end) > start:
            return False   # no image before the run in its element (an inline icon in a sentence: no caption)
        run = "".join(self.chars[start:end]).strip()
        return 0 < len(run) <= _CAPTION_MAX and "\n" not in run

    def _caption_host(self) -> int | None:
        """Stack depth of the innermost open block element when it is a paragraph or a figure."""
        host = next((i for i in range(len(self.stack) - 1, -1, -1) if self.stack[i] in BLOCK_KINDS), None)
        return host if host is not None and self.stack[host] in _CAPTION_HOSTS else None

    def _mark(self, start: int, end: int) -> None:
        if not self.run:
            self.run = [start, end]
        else:
            self.run[1] = end
        self.table_reader.mark(start, end)

    # -- parser callbacks ----------------------------------------------------
    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, closing=tag in VOID)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, closing=True)

    def _implied_close(self, tag: str) -> None:
        """Close what the start of `tag` implicitly ends (HTML's optional end tags): an open <p> or
        heading before a new block, an open <li> before the next, cells and rows before the next, <head>
        before <body>."""
        closes = IMPLIED_CLOSE.get(tag)
        if not closes:
            return
        barrier = {"div", "li", "td", "th", "table", "blockquote", "section", "article", "main", "body"} - {tag}
        for i in range(len(self.stack) - 1, -1, -1):
            open_tag = self.stack[i]
            if open_tag in closes:
                while len(self.stack) > i:
                    self._close(self.stack[-1])   # closed while still open, so its block kind is known
                    self.stack.pop()
                return
            if open_tag in barrier:
                return

    def _start(self, tag: str, attrs, closing: bool) -> None:
        pos = self._offset()
        raw = self.get_starttag_text() or ""
        blank(self.chars, pos, pos + len(raw))
        self._implied_close(tag)
        if tag in ("article", "main"):
            self.main_depth += 1
        if tag == "title":
            self.in_title = True
        if tag == "meta":
            _read_meta(self.meta, dict(attrs))
        if tag == "time":
            self._time(dict(attrs))
        if tag in SKIP or _hidden(attrs):
            if not closing:
                self.skip_depth += 1
                self.stack.append(tag)
                if tag not in SKIP:
                    self.hidden_depths.append(len(self.stack))
            return
        if not self._active():
            if not closing:
                self.stack.append(tag)
            return
        if tag in BLOCK_KINDS or tag in HEADINGS or tag in ("br", "tr", "table", "hr"):
            self._flush()
        if tag == "table":
            self.table_reader.start_table(pos, self.section)
        elif tag == "tr":
            self.table_reader.start_row()
        elif tag in ("td", "th"):
            self.table_reader.start_cell(attrs, pos + len(raw))
        elif tag == "a":
            self.open_links.append((dict(attrs).get("href") or "", None, None))
        elif tag == "img":
            self._image(raw, pos, dict(attrs))
            if (host := self._caption_host()) is not None:
                self.imaged.setdefault(host, pos + len(raw))
        if not closing:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        pos = self._offset()
        end = self.text.find(">", pos - self.base)
        blank(self.chars, pos, self.base + (end + 1 if end >= 0 else len(self.text)))
        if tag == "title":
            self.in_title = False
        if tag not in self.stack:
            return
        while self.stack:
            top = self.stack[-1]
            self._close(top)   # closed while still on the stack, so the block takes its kind
            self.stack.pop()
            if top == tag:
                break

    def _close(self, tag: str) -> None:
        self._close_element(tag)
        self.imaged.pop(len(self.stack) - 1, None)   # (after its last text run was flushed with it open)

    def _close_element(self, tag: str) -> None:
        if tag in SKIP or (self.hidden_depths and self.hidden_depths[-1] == len(self.stack)):
            if tag not in SKIP:
                self.hidden_depths.pop()
            self.skip_depth -= 1
            return
        if tag in ("article", "main"):
            self.main_depth -= 1
        if self.skip_depth or (self.main_only and self.main_depth <= 0 and tag not in ("article", "main")):
            return
        if tag in BLOCK_KINDS or tag in HEADINGS or tag in ("tr", "table"):
            self._flush()
        if tag in ("td", "th"):
            self.table_reader.end_cell()
        elif tag == "tr":
            self.table_reader.end_row()
        elif tag == "table":
            self._finish_table()
        elif tag == "a" and self.open_links:
            target, s, e = self.open_links.pop()
            if s is not None and target:
                self.links.append(Link(start=s, end=e, target=target))

    def _finish_table(self) -> None:
        """Close the innermost open table: a table with rows is kept, and is a block."""
        table = self.table_reader.end_table()
        if table is not None:
            self.tables.append(table)
            self.blocks.append(Block(kind="table", start=table.start, end=table.end, section=table.section))

    def handle_data(self, data):
        pos = self._offset()
        if self.in_title and self.title is None:
            s = data.strip()
            if s:
                start = pos + data.index(s[0])
                self.title, self.title_span = re.sub(r"\s+", " ", s), (start, start + len(s))
        if not self._active():
            blank(self.chars, pos, pos + len(data))
            return
        s = len(data) - len(data.lstrip())
        e = len(data.rstrip())
        if e > s:
            self._mark(pos + s, pos + e)
            self._link_extent(pos + s, pos + e)

    def _link_extent(self, start: int, end: int) -> None:
        if self.open_links:
            target, s, _ = self.open_links[-1]
            self.open_links[-1] = (target, start if s is None else s, end)

    def handle_entityref(self, name):
        self._entity(f"&{name};")

    def handle_charref(self, name):
        self._entity(f"&#{name};")

    def _entity(self, raw: str) -> None:
        pos = self._offset()
        length = len(raw) if self.text.startswith(raw, pos - self.base) else len(raw) - 1
        ch = unescape(self.text[pos - self.base:pos - self.base + length])
        blank(self.chars, pos, pos + length)
        if self._active() and len(ch) == 1:
            self.chars[pos] = ch
            rel = pos - self.base
            if length > 1 and rel > 0 and self.text[rel - 1].isdigit() and not ch.isspace():
                self.chars[pos + 1:pos + length] = ENTITY_IN_NUMBER_PAD * (length - 1)  # "1&#44;200": one number
            if not ch.isspace():
                self._mark(pos, pos + length)

    def handle_comment(self, data):
        pos = self._offset()
        blank(self.chars, pos, pos + len(data) + 7)

    def handle_decl(self, decl):
        pos = self._offset()
        blank(self.chars, pos, pos + len(decl) + 3)

    def handle_pi(self, data):
        pos = self._offset()
        blank(self.chars, pos, pos + len(data) + 3)

    # -- attributes --------------------------------------------------------------
    def _time(self, attrs: dict) -> None:
        """The first `<time datetime>` of the post: in its article or main element when the page has one
        (a header inside it counts: the byline's date is there), never in navigation, asides or footers
        (lists of other posts and their dates)."""
        if not attrs.get("datetime") or (self.main_only and self.main_depth == 0):
            return
        if any(t in ("nav", "aside", "footer") for t in self.stack):
            return
        self.meta.setdefault("time_datetime", attrs["datetime"])

    def _image(self, raw: str, pos: int, attrs: dict) -> None:
        alt_node = None
        for m in _ATTR.finditer(raw):
            if m.group("name").lower() == "alt":
                group = "dq" if m.group("dq") is not None else "sq" if m.group("sq") is not None else "bare"
                s, e = pos + m.start(group), pos + m.end(group)
                if e > s and self._active():
                    for i in range(s, e):
                        self.chars[i] = self.text[i - self.base]
                    alt_node = Node(start=s, end=e)
                    self.blocks.append(Block(kind="caption", start=s, end=e, section=self.section))
        self.images.append(Image(start=pos, end=pos + len(raw), src=attrs.get("src") or "", alt=alt_node))


def _hidden(attrs) -> bool:
    """An element a reader never sees: the `hidden` attribute, or a style of display:none / visibility:hidden."""
    for name, value in attrs:
        if name == "hidden" or (name == "style" and value and _HIDING_STYLE.search(value)):
            return True
    return False


def _read_meta(meta: dict[str, str], attrs: dict) -> None:
    """The page field a `<meta>` tag gives (author, date, title, tags, summary), unless already given."""
    key = (attrs.get("name") or attrs.get("property") or attrs.get("itemprop") or "").lower()
    content = attrs.get("content")
    if not content:
        return
    for wanted, field in (("author", "author"), ("article:author", "author"), ("date", "date"),
                          ("article:published_time", "date"), ("datepublished", "date"), ("og:title", "title"),
                          ("keywords", "tags"), ("description", "summary")):
        if key == wanted:
            meta.setdefault(field, content)


def _walk(text: str, chars: list[str], base: int, section: int | None, main_only: bool,
          sections: list[Section] | None = None) -> _Walker:
    comments = comment_spans(text)
    if comments:   # read as a browser does ("--!>" ends one, an unclosed one runs to the end): never shown
        hidden = list(text)
        for s, e in comments:
            blank(chars, base + s, base + e)
            blank(hidden, s, e)
        text = "".join(hidden)
    walker = _Walker(text, chars, base, section, main_only, sections)
    try:
        walker.feed(text)
        walker.close()
    except AssertionError:  # HTMLParser's own complaints about malformed declarations
        pass
    walker._flush()
    while walker.table_reader.open:
        walker._finish_table()
    for link_target, s, e in walker.open_links:
        if s is not None and link_target:
            walker.links.append(Link(start=s, end=e, target=link_target))
    return walker


def parse(text: str, name: str) -> Document:
    """Ingest an HTML page, main content only."""
    chars = list(text)
    walker = _walk(text, chars, 0, None, main_only=bool(_MAIN.search(text)))
    sections = walker.sections
    finish_sections(sections, len(text))
    attach_captions(walker.tables, walker.blocks, gap=300)
    meta = dict(walker.meta)
    title = meta.get("title") or walker.title
    return Document(name=name, fmt="html", text=text, view="".join(chars), title=title,
                    title_span=walker.title_span, meta=meta, sections=sections, blocks=walker.blocks,
                    tables=walker.tables, links=walker.links, images=walker.images)


def parse_fragment(text: str, chars: list[str], start: int, end: int, section: int | None,
                   sections: list[Section] | None = None) -> _Walker:
    """Ingest an HTML block embedded in Markdown, writing into the shared view (absolute offsets);
    its headings are added to `sections` (the document's), so block section indexes stay valid."""
    return _walk(text[start:end], chars, start, section, main_only=False, sections=sections)
