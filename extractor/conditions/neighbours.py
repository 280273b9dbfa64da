"""The blocks around a claim's block, as the scope readers ask for them: the other items of its list and their
labelled settings, its sections' chain, the paragraph that leads into a block, the sentence that introduces it, the
footnotes under a table and the captions of the figures next to it."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

from extractor.conditions.context import DocContext
from extractor.ingest import Document

NEAR_FIGURE_BLOCKS = 3
FOOTNOTE_CHARS = 600   # a footnote starts this close after its table


def sibling_items(d: Document, block: int) -> set[int]:
    """The other items of the list a claim's list item belongs to: parallel statements, not set-up."""
    if block < 0 or d.blocks[block].kind != "list_item":
        return set()
    out = set()
    for step in (-1, 1):
        i = block + step
        while 0 <= i < len(d.blocks) and d.blocks[i].kind == "list_item":
            out.add(i)
            i += step
    return out


# a list item that opens with a label of its own ("Result: ...", "**Throughput**: ...")
_LABELLED_ITEM = re.compile(r"[\W_]*[^\W\d_][\w /()+-]{0,40}?[*_\s]*:(?!\S)")


def labelled_settings(d: Document, block: int, setting_label: re.Pattern[str], claim_spans: list[tuple[int, int]],
                      others: set[int]) -> set[int]:
    """The items of a labelled list that set up its result items ("GPU: 1x H100" and "Dataset: ..." next to
    "Result: ..."): when the claim's item opens with a label, the other items of its list that open with a
    setup label and hold no figure of their own. Items in `others` (a list of alternatives) are never one, and
    a list that gives one label twice ("GPU: ..." for each of two runs) sets up several runs: none is."""
    b = d.blocks[block] if block >= 0 else None
    if b is None or b.kind != "list_item" or not _LABELLED_ITEM.match(d.view, b.start, b.end):
        return set()
    out: dict[str, int] = {}
    for i in sorted(sibling_items(d, block) - others):
        item = d.blocks[i]
        k = bisect_left(claim_spans, (item.start, item.start))
        holds_figure = k < len(claim_spans) and claim_spans[k][0] < item.end
        if not holds_figure and (m := setting_label.match(d.view, item.start, item.end)):
            label = " ".join(re.findall(r"\w+", m[0].lower()))
            if label in out:
                return set()
            out[label] = i
    return set(out.values())


def ancestors(d: Document, section: int | None) -> list[int]:
    """The section and the sections above it, innermost first."""
    chain = []
    while section is not None:
        chain.append(section)
        section = d.sections[section].parent
    return chain


SENTENCE_END = re.compile(r"[.!?](?=\s|$)|\n\s*\n")


def lead_in(d: Document, block: int, endings: tuple[str, ...]) -> set[int]:
    """The block itself, plus the paragraph that introduces its list or table (ends with ':'); a table's may be the
    list item it is nested under ("- Model-A:" over an indented table)."""
    blocks = {block}
    i = block - 1
    while i >= 0 and d.blocks[i].kind in ("list_item",) and d.blocks[block].kind == "list_item":
        i -= 1
    introducer = ("paragraph", "list_item") if d.blocks[block].kind == "table" else ("paragraph",)
    if i >= 0 and d.blocks[i].kind in introducer:
        tail = d.view[d.blocks[i].start:d.blocks[i].end].rstrip()
        if tail.endswith(endings):
            blocks.add(i)
    return blocks


def setup_lead(d: Document, table_block: int, says_setup: re.Pattern[str]) -> int | None:
    """The paragraph right before a table that says how the table's benchmarks were run without ending in a colon
    ("To compare the layouts we run benchmarks with Model-A on L40S GPUs. The prompts are 1k tokens."),
    matched by `says_setup` (scopes.yaml `table_setup_lead`); None otherwise."""
    i = table_block - 1
    if i < 0 or d.blocks[table_block].kind != "table" or d.blocks[i].kind != "paragraph":
        return None
    return i if says_setup.search(d.view, d.blocks[i].start, d.blocks[i].end) else None


def introducing_sentence(d: Document, block: int) -> tuple[int, int] | None:
    """The span of the last sentence of a lead-in paragraph (the one that ends with ':' and introduces the
    list), when the paragraph has sentences before it; else None."""
    b = d.blocks[block]
    ends = [m.end() for m in SENTENCE_END.finditer(d.view, b.start, b.end) if m.end() < b.end - 1]
    return (ends[-1], b.end) if ends else None


def footnotes(d: Document, after: int, block_starts: list[int], marks: tuple[str, ...]) -> set[int]:
    """Short blocks right after `after` (a table's end) that open with a footnote mark; a quote right after it. Not
    past the next table or heading (its notes are its own), nor a block that ends with a colon right before a table
    or code block (it introduces that one: "Measured on 4x A100, the next run gives:")."""
    found = set()
    first = bisect_right(block_starts, after - 1)  # blocks before `after` cannot qualify
    for i in range(first, len(d.blocks)):   # (not a slice of the blocks: that copies the rest of the post)
        b, head = d.blocks[i], d.text[d.blocks[i].start:d.blocks[i].end]
        if b.start >= after and b.kind in ("table", "heading"):
            break
        if b.start >= after and b.start - after < FOOTNOTE_CHARS and b.kind in ("paragraph", "caption", "quote") \
                and not _introduces_next(d, i, head):
            if head.lstrip("*_ ").startswith(marks) or head.startswith(marks) or (b.kind == "quote" and i == first):
                found.add(i)
        if b.start - after >= FOOTNOTE_CHARS:
            break
    return found


def _introduces_next(d: Document, i: int, text: str) -> bool:
    """Whether block `i` ends with a colon and a table or code block follows it."""
    return text.rstrip(" *_").endswith(":") and i + 1 < len(d.blocks) and d.blocks[i + 1].kind in ("table", "code")


def near_captions(ctx: DocContext, section: int | None, block: int) -> set[int]:
    """Caption blocks of the figures next to a claim: the nearest run of captions in its section and any
    run within a few blocks of that one (a figure, its table and the notes under them), not the
    captions of figures further along that show something else."""
    runs = ctx.caption_runs.get(section, [])
    if not runs or block < 0:
        return {i for r in runs for i in r}
    dist = [0 if r[0] <= block <= r[-1] else min(abs(r[0] - block), abs(r[-1] - block)) for r in runs]
    best = min(dist)
    return {i for r, dd in zip(runs, dist) if dd <= best + NEAR_FIGURE_BLOCKS for i in r}
