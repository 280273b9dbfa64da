"""Markdown ingestion: markdown-it (block_events.py) gives the block structure (with line maps); inline
markup is masked in place so offsets stay those of the original file."""
from __future__ import annotations

import re
import yaml

from extractor.ingest import html as html_ingest
from extractor.ingest.block_events import block_events
from extractor.ingest.masking import blank, mask_inline_markdown, mask_line_prefixes
from extractor.ingest.model import Block, Cell, Document, Image, Link, Node, Section, Table
from extractor.ingest.structure import CAPTION, attach_captions, finish_sections

_FRONT_MATTER = re.compile(r"\A(?:\ufeff)?---[ \t]*\r?\n(.*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|\Z)", re.S)
_PIPE = re.compile(r"(?<!\\)\|")
_DELIMITER_ROW = re.compile(r"\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*")
_IMAGE = re.compile(r"!\[(?P<alt>[^\]\n]*)\]\((?P<src>[^)\s]*)[^)\n]*\)")
CAPTION_MAX = 300  # a caption under a figure is one short line; a long paragraph after it is body text
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.I)
_ATTR = re.compile(r"""(?P<name>[\w:-]+)\s*=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)')""")
# A paragraph set in small print or as a caption element right under a figure or table is its caption.
_BOLD_TITLE = re.compile(r"[ \t]*(\*\*|__)(?=\S)[^*_\n]{1,120}(?<=\S)\1[ \t]*")   # "**Max throughput on H200**"
_CAPTION_WRAP = re.compile(r"^\s*<(?:sub|sup|small|figcaption|caption|em|i)\b", re.I)
# The tokens that make blocks; the others only open and close containers.
_BLOCK_TOKENS = {"heading_open", "paragraph_open", "fence", "code_block", "table_open", "html_block"}


class _Lines:
    """Line number <-> offset arithmetic for one text."""

    def __init__(self, text: str):
        self.text = text
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Offsets of lines [first, last), without the final newline."""
        start = self.starts[first] if first < len(self.starts) else len(self.text)
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return start, end


class _FrontMatterLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """YAML's safe loader (libyaml's parser when available, as for the rule files) that keeps dates and times
    as written (strings): a date that is no date (`2025-02-30`) is then the date reader's problem to report,
    not an error that loses the front matter."""


_FrontMatterLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def _front_matter(text: str) -> tuple[dict, tuple[int, int] | None]:
    m = _FRONT_MATTER.match(text)
    if not m:
        return {}, None
    try:
        data = yaml.load(m.group(1), Loader=_FrontMatterLoader)  # noqa: S506 - a SafeLoader
    except (yaml.YAMLError, ValueError):
        data = None
    return (data if isinstance(data, dict) else {}), (m.start(), m.end())


_FENCE = re.compile(r"[ \t]{0,3}(```|~~~)")
_ESM = re.compile(r"(?:import|export)\b")


def _blank_mdx_esm(src: str, chars: list[str]) -> str:
    """MDX: the `import`/`export` statements (from a line that starts with one to the next blank line, outside
    code fences) are code, not prose: blanked in the view and in the text the Markdown parser reads, offsets
    kept. JSX elements are read as HTML blocks are (their text is content, their attributes are not)."""
    out = list(src)
    fence: str | None = None
    in_esm = False
    pos = 0
    for line in src.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        m = _FENCE.match(body)
        if fence is None and not in_esm and m:
            fence = m.group(1)
        elif fence is not None:
            if m and m.group(1) == fence:
                fence = None
        elif not body.strip():
            in_esm = False
        elif in_esm or _ESM.match(body):
            in_esm = True
            blank(out, pos, pos + len(body))
            blank(chars, pos, pos + len(body))
        pos += len(line)
    return "".join(out)


def _strip(view: str, start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) (start <= end) to its non-blank content in the view."""
    part = view[start:end]
    s = start + len(part) - len(part.lstrip())
    return s, max(s, start + len(part.rstrip()))


def _table_titles(text: str, blocks: list[Block]) -> None:
    """A short line set wholly in bold right above a table ("**FP8 peak throughput on B200**") is the table's title:
    a caption (its block reaches the closing marker, so the table finds it next to it)."""
    for i in range(len(blocks) - 1):
        b, after = blocks[i], blocks[i + 1]
        if b.kind != "paragraph" or after.kind != "table" or text.count("\n", b.end, after.start) > 3:
            continue
        lo = text.rfind("\n", 0, b.start) + 1
        hi = text.find("\n", b.end)
        hi = len(text) if hi < 0 else hi
        if lo <= b.start and _BOLD_TITLE.fullmatch(text, lo, hi):
            blocks[i] = b.model_copy(update={"kind": "caption", "end": lo + len(text[lo:hi].rstrip())})


def _table(text: str, chars: list[str], lines: _Lines, first: int, last: int, section: int | None) -> Table:
    """Split pipe-table lines into cells with offsets; the delimiter row is dropped."""
    rows: list[list[Cell]] = []
    for line_no in range(first, last):
        ls, le = lines.span(line_no, line_no + 1)
        line = text[ls:le]
        if _DELIMITER_ROW.fullmatch(line):
            continue
        pipes = [m.start() for m in _PIPE.finditer(line)]
        edges = ([-1] if not line.lstrip().startswith("|") else []) + pipes
        if not line.rstrip().endswith("|"):
            edges.append(le - ls)
        row_view = "".join(chars[ls:le])  # this row's characters: no pipe blanked yet
        cells = []
        for c, (a, b) in enumerate(zip(edges, edges[1:])):
            s, e = _strip(row_view, a + 1, b)
            cells.append(Cell(start=ls + s, end=ls + e, row=len(rows), col=c))
        for pipe in pipes:
            chars[ls + pipe] = " "
        rows.append(cells)
    start, end = lines.span(first, last)
    if _bold_header_below_empty(text, rows):
        # an empty header row over a row of bold labels (Markdown needs a header; some writers leave it blank and
        # write the labels bold in the first row): the bold row is the header
        rows = [[c.model_copy(update={"row": c.row - 1}) for c in row] for row in rows[1:]]
    return Table(start=start, end=end, section=section, header=rows[0] if rows else [], rows=rows[1:])


def _bold_header_below_empty(text: str, rows: list[list[Cell]]) -> bool:
    """Whether the header row is all empty cells and the first body row holds two or more labels, each wholly
    bold (the cell's extent leaves its markers out), and nothing else (a key-value table left without a header keeps its first row as data)."""
    if len(rows) < 3 or any(c.end > c.start for c in rows[0]):
        return False
    labels = [c for c in rows[1] if c.end > c.start]
    return len(labels) >= 2 and all(text[c.start - 2:c.start] in ("**", "__") and
                                    text[c.end:c.end + 2] == text[c.start - 2:c.start] for c in labels)


def _img_tags(text: str, start: int, end: int) -> list[Image]:
    """Inline <img> tags of a Markdown paragraph, with their alt text."""
    found: list[Image] = []
    if text.find("<", start, end) < 0:
        return found     # every tag opens with "<": a plain search skips the paragraph at C speed
    for m in _IMG_TAG.finditer(text, start, end):
        attrs = {a.group("name").lower(): a for a in _ATTR.finditer(m.group())}
        alt = None
        if "alt" in attrs:
            a = attrs["alt"]
            g = "dq" if a.group("dq") is not None else "sq"
            if a.group(g).strip():
                alt = Node(start=m.start() + a.start(g), end=m.start() + a.end(g))
        src_m = attrs.get("src")
        src = (src_m.group("dq") if src_m.group("dq") is not None else src_m.group("sq")) if src_m else ""
        found.append(Image(start=m.start(), end=m.end(), src=src, alt=alt))
    return found


def _printed_table(text: str, lines: _Lines, first: int, last: int) -> tuple[int, int] | None:
    """The lines [a, b) of the first pipe table printed inside the code block on lines [first, last): a
    header row, a delimiter row and at least one row, each line opening with a pipe."""
    a = None
    for n in range(first, last + 1):
        ls, le = lines.span(n, n + 1) if n < last else (0, 0)
        piped = n < last and text[ls:le].lstrip().startswith("|")
        if piped and a is None:
            a = n
        elif not piped and a is not None:
            d0, d1 = lines.span(a + 1, a + 2)
            if n - a >= 3 and _DELIMITER_ROW.fullmatch(text[d0:d1]):
                return a, n
            a = None
    return None


def parse(text: str, name: str) -> Document:
    """Ingest a Markdown document."""
    chars = list(text)
    meta, meta_span = _front_matter(text)
    src = text
    if meta_span:
        blank(chars, *meta_span)
        src = "".join("\n" if ch == "\n" else " " for ch in text[: meta_span[1]]) + text[meta_span[1]:]
    if name.lower().endswith(".mdx"):
        src = _blank_mdx_esm(src, chars)
    lines = _Lines(text)
    tokens = block_events(src)

    blocks: list[Block] = []
    tables: list[Table] = []
    sections: list[Section] = []
    links: list[Link] = []
    images: list[Image] = []
    in_item = 0
    in_quote = 0
    current: int | None = None

    for tok in tokens:
        t = tok.type
        if t == "list_item_open":
            in_item += 1
        elif t == "list_item_close":
            in_item -= 1
        elif t == "blockquote_open":
            in_quote += 1
        elif t == "blockquote_close":
            in_quote -= 1
        if t not in _BLOCK_TOKENS or not tok.map:
            continue
        first, last = tok.map
        start, end = lines.span(first, last)
        if t == "heading_open":
            level = tok.level
            mask_line_prefixes(chars, text, start, end)
            for s, e, target in mask_inline_markdown(chars, text, start, end):
                links.append(Link(start=s, end=e, target=target))
            view = "".join(chars[start:end])
            s, e = _strip(view, 0, len(view))
            sections.append(Section(start=start + s, end=start + e, title=view[s:e], level=level,
                                    body_end=len(text)))
            current = len(sections) - 1
            blocks.append(Block(kind="heading", start=start + s, end=start + e, section=current))
        elif t == "paragraph_open":
            mask_line_prefixes(chars, text, start, end)
            for s, e, target in mask_inline_markdown(chars, text, start, end):
                links.append(Link(start=s, end=e, target=target))
            n_images = len(images)
            for m in _IMAGE.finditer(text, start, end):
                alt = Node(start=m.start("alt"), end=m.end("alt")) if m.group("alt").strip() else None
                images.append(Image(start=m.start(), end=m.end(), src=m.group("src"), alt=alt))
            images.extend(_img_tags(text, start, end))
            view = "".join(chars[start:end])
            s, e = _strip(view, 0, len(view))
            if s >= e:
                if len(images) > n_images:
                    blocks.append(Block(kind="image", start=start, end=end, section=current))
                continue
            kind = "list_item" if in_item else "quote" if in_quote else "paragraph"
            after_figure = bool(blocks) and blocks[-1].kind in ("image", "table") and \
                text.count("\n", blocks[-1].end, start) <= 3
            if CAPTION.match(view[s:e]) or (images and images[-1].start >= start and images[-1].end >= start + e) \
                    or (kind == "paragraph" and (_CAPTION_WRAP.match(text[start:end])
                                                 or (after_figure and blocks[-1].kind == "image"
                                                     and e - s <= CAPTION_MAX and "\n" not in view[s:e]))):
                kind = "caption"
            blocks.append(Block(kind=kind, start=start + s, end=start + e, section=current))
        elif t in ("fence", "code_block"):
            blocks.append(Block(kind="code", start=start, end=end, section=current,
                                lang=tok.info.strip() or None))
            printed = _printed_table(text, lines, first, last)
            if printed:   # a tool's output printed as a pipe table ("| model | test | t/s |"): read as a table
                table = _table(text, chars, lines, *printed, current)
                tables.append(table)
                blocks.append(Block(kind="table", start=table.start, end=table.end, section=current))
        elif t == "table_open":
            for s, e, target in mask_inline_markdown(chars, text, start, end):
                links.append(Link(start=s, end=e, target=target))
            table = _table(text, chars, lines, first, last, current)
            tables.append(table)
            blocks.append(Block(kind="table", start=start, end=end, section=current))
        elif t == "html_block":
            part = html_ingest.parse_fragment(text, chars, start, end, current, sections)
            current = part.section
            blocks.extend(part.blocks)
            tables.extend(part.tables)
            links.extend(part.links)
            images.extend(part.images)

    _table_titles(text, blocks)
    attach_captions(tables, blocks, gap=3)
    finish_sections(sections, len(text))
    view = "".join(chars)
    title = meta.get("title") if isinstance(meta.get("title"), str) else None
    title_span = None
    if title:
        pos = text.find(title, meta_span[0] if meta_span else 0, meta_span[1] if meta_span else len(text))
        title_span = (pos, pos + len(title)) if pos >= 0 else None
    elif sections and sections[0].level == 1:
        title, title_span = sections[0].title, (sections[0].start, sections[0].end)
    return Document(name=name, fmt="markdown", text=text, view=view, title=title, title_span=title_span,
                    meta={k: v for k, v in meta.items() if isinstance(k, str)}, meta_span=meta_span,
                    sections=sections, blocks=blocks, tables=tables, links=links, images=images)

