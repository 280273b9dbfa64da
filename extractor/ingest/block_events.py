"""The block structure of a Markdown text as the ingest walk reads it: a flat list of `BlockEvent`s (the blocks,
with their line ranges, and where list items and block quotes open and close).

Two parsers of the same family give it: markdown-it-pyrs (markdown-it.rs, compiled; the default) and
markdown-it-py (pure Python, ~4x slower over real posts). Both follow CommonMark with the GFM table; where they
are known to differ, the text is read by markdown-it-py, the reference (`_rs_events` returns None):
- a block quote whose paragraph continues on a line without its ">" markers (a lazy continuation line), or that a line
  which is not blank ends: which blocks may end a quote's paragraph there differs (markdown-it-py lets an
  ordered list item numbered other than 1 do it and no table, markdown-it.rs the other way round);
- a table row line that opens like a list item ("2. ", an empty "1."): markdown-it-py may end the table there,
  markdown-it.rs reads it as a row;
- a fence left open (markdown-it-py counts the blank lines that end the text into it, markdown-it.rs does not);
- a text Rust cannot take (lone surrogates from undecodable bytes), or on which it panics.
tests/pipeline/test_speed_paths.py checks both give the same events on texts of every block kind.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it_pyrs import MarkdownIt as RsMarkdownIt, Node

# markdown-it normalises line breaks and NUL before it parses; the same text is handed to both parsers
_NEWLINES = re.compile(r"\r\n?")
_LIST_MARKER = re.compile(rb"[ \t]*(?:[0-9]{1,9}[.)]|[-+*])(?:[ \t\r\n]|$)")
# the markdown-it-py token types the walk reads; a leaf of markdown-it.rs -> its token type
WALKED_TOKEN_TYPES = frozenset({"list_item_open", "list_item_close", "blockquote_open", "blockquote_close",
                                "heading_open", "paragraph_open", "fence", "code_block", "table_open", "html_block"})
_LEAF = {"paragraph": "paragraph_open", "heading": "heading_open", "lheading": "heading_open", "fence": "fence",
         "code_block": "code_block", "table": "table_open", "html_block": "html_block"}
_CONTAINERS = frozenset({"list_item_open", "blockquote_open"})
_BLOCK_RULES = ["blockquote", "code", "fence", "heading", "hr", "lheading", "list", "paragraph", "reference",
                "html_block", "table"]


class BlockEvent(NamedTuple):
    """One token of the block structure: its markdown-it-py type, a block's lines [first, last) (None where a
    list item or quote opens or closes), the heading level (0 otherwise) and a fence's info string ("" otherwise)."""

    type: str
    map: tuple[int, int] | None
    level: int = 0
    info: str = ""


@lru_cache(maxsize=1)
def _rs_parser() -> RsMarkdownIt:
    """markdown-it.rs with the block rules only (inline markup is masked in place by the ingest walk)."""
    from markdown_it_pyrs import MarkdownIt as RsMarkdownIt

    md = RsMarkdownIt("zero")
    md.enable_many(_BLOCK_RULES)
    return md


@lru_cache(maxsize=1)
def py_parser() -> MarkdownIt:
    """markdown-it-py with the block structure only (inline parsing off)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable(["table"]).disable(["inline", "text_join"])


def prepare() -> None:
    """Build the default parser now (the extractor's build calls it)."""
    _rs_parser()


def block_events(src: str) -> list[BlockEvent]:
    """The block events of `src` (markdown-it.rs, or markdown-it-py where they differ: see the module doc)."""
    events = _rs_events(src)
    return events if events is not None else py_events(src)


def py_events(src: str) -> list[BlockEvent]:
    """The block events markdown-it-py gives."""
    return [BlockEvent(t.type, (t.map[0], t.map[1]) if t.map and t.type not in _CONTAINERS else None,
                       int(t.tag[1]) if t.type == "heading_open" else 0, (t.info or "") if t.type == "fence" else "")
            for t in py_parser().parse(src) if t.type in WALKED_TOKEN_TYPES]


def _rs_events(src: str) -> list[BlockEvent] | None:
    """The block events markdown-it.rs gives, with markdown-it-py's line maps; None where the two differ."""
    src = _NEWLINES.sub("\n", src).replace("\0", "\ufffd")
    try:
        data = src.encode("utf-8")
    except UnicodeEncodeError:
        return None
    starts = [0, *(m.end() for m in re.finditer(b"\n", data))]   # srcmap is in bytes: lines by byte offsets

    def lines(node: Node) -> tuple[int, int]:
        a, b = node.srcmap
        return bisect_right(starts, a) - 1, bisect_right(starts, max(a, b - 1))

    out: list[BlockEvent] = []

    def walk(node: Node, in_item: bool, quotes: int) -> bool:
        for child in node.children:
            name = child.name
            if name == "list_item":
                out.append(BlockEvent("list_item_open", None))
                if not walk(child, True, quotes):
                    return False
                out.append(BlockEvent("list_item_close", None))
            elif name == "blockquote":
                end = lines(child)[1]
                if end < len(starts) and data[starts[end]:starts[end + 1] if end + 1 < len(starts) else None].strip():
                    return False   # a quote ended by a line that is not blank: a lazy line may end it there
                out.append(BlockEvent("blockquote_open", None))
                if not walk(child, False, quotes + 1):
                    return False
                out.append(BlockEvent("blockquote_close", None))
            elif name in ("bullet_list", "ordered_list"):
                if not walk(child, False, quotes):
                    return False
            elif name in _LEAF or (name == "text" and in_item):   # a tight list item's paragraph is its text
                first, last = lines(child)
                if name == "table" and any(_LIST_MARKER.match(data, starts[n]) for n in range(first + 2, last)):
                    return False   # a row that opens like a list item: the parsers differ there
                if name == "fence" and not _closed(child, data[starts[last - 1]:child.srcmap[1]], first, last):
                    return False   # a fence left open: the parsers end it at different lines
                if quotes and name in ("paragraph", "text") and any(
                        not _quoted(quotes).match(data, starts[n]) for n in range(first + 1, last)):
                    return False   # a lazy continuation line in a quote: the parsers differ there
                out.append(BlockEvent(_LEAF.get(name, "paragraph_open"), (first, last),
                                      child.meta["level"] if name in ("heading", "lheading") else 0,
                                      child.meta.get("info", "") if name == "fence" else ""))
        return True

    try:
        tree = _rs_tree(src)
        return out if tree is not None and walk(tree, False, 0) else None
    finally:
        # `walk` calls itself through its closure: a reference cycle that would keep `out` (every event of the
        # post) alive until the garbage collector's next pass; emptied here, the events are freed with the post
        del walk


def _rs_tree(src: str) -> Node | None:
    """markdown-it.rs's tree of `src`; None when it panics. A Rust panic is raised as pyo3's PanicException, a
    BaseException that a batch's `except Exception` would not catch: one text must not stop a batch, so the
    text goes to markdown-it-py instead. Other errors (a time budget's stop) pass."""
    try:
        return _rs_parser().tree(src)
    except BaseException as err:   # noqa: B036 - only PanicException is kept, by name (its module is not importable)
        if type(err).__name__ != "PanicException":
            raise
        return None


@lru_cache(maxsize=None)
def _quoted(depth: int) -> re.Pattern[bytes]:
    """A line that opens with `depth` quote markers."""
    return re.compile(rb"(?:[ \t]*>)" * depth)


def _closed(fence: Node, last_line: bytes, first: int, last: int) -> bool:
    """Whether a fence's last line closes it: its marker at least as long as the opening one, alone."""
    marker = fence.meta.get("marker", "`").encode() * fence.meta.get("marker_len", 3)
    closing = last_line.strip()
    return last - first >= 2 and closing.startswith(marker) and not closing.strip(marker[:1])
