"""Table headers and the text around a table: what a header cell says of the values under it (metric cues,
unit, a ratio or a count), and the caption, heading and lead-in paragraphs that name a table's metric and unit
when its headers do not. `TableReader` (tables.py) reads the cells with them."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from extractor.claims.classify import Cue, nearest, unit_class
from extractor.claims.table_baselines import cell_text as _text
from extractor.ingest import Document
from extractor.ingest.model import Cell, Table

if TYPE_CHECKING:
    from extractor.claims.analysis import TextAnalyser


_PAREN = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")
# a unit named by a caption or lead-in: "(tokens/s)", "in milliseconds", "in tok/s per GPU", "tokens per second"
_LEAD_UNIT = re.compile(r"\(([^()\d]{1,24})\)|\bin ([A-Za-z/]+(?: (?:per|/) [A-Za-z]+)?)\b"
                        r"|\b([A-Za-z]+ per (?:second|sec|s|minute|min|hour|h|ms|millisecond))\b")
# a header that names money: a currency sign or word, a cost or a price
_CURRENCY = re.compile(r"[$€£¥]|\b(?:USD|EUR|cost|costs|price|prices|dollars?)\b", re.I)
# how many paragraphs before a table (in its section, after the block before it that is no prose) are read
LEAD_PARAGRAPHS = 3
LEAD_REACH = 3000   # ... within this many characters before it
_LEAD_CLASSES = ("token_rate", "request_rate", "time")


@dataclass(frozen=True, slots=True)
class Header:
    """What a header cell says about the values under (or beside) it (shared: headers are cached)."""

    text: str
    unit: str | None = None
    cls: str | None = None
    cues: list[Cue] = field(default_factory=list)
    ratio: bool = False       # it names a ratio between runs ("T/S Ratio to Eager"): its cells are speed-ups

    @property
    def counts(self) -> bool:
        """A header of counts or settings ("Test Size", "Batch", "#"), also one that names a score of a setting
        ("Severity score", "Priority score": the level a mapping assigns): its cells are not results. A header
        that holds a number names one configuration ("bs=16", "Batch 32", "TP8"): its cells are results."""
        return self.cls in (None, "score") and any(c.label == "count" for c in self.cues) \
            and not any(ch.isdigit() for ch in _STATUS_CODES.sub(" ", self.text))


# an opening parenthesis glued to the word before it ("TPOT(ms)")
_GLUED_PAREN = re.compile(r"(?<=[A-Za-z])\(")
# an arrow glued to a header's metric ("Acc.↑", "Error↓": which way is better) is read as a blank
_ARROWS = re.compile(r"[↑↓⬆⬇]")
# "Loss" in a header that names a score ("MMLU Loss"): the loss of that score
_SCORE_LOSS = re.compile(r"(?i)(?<!accuracy)\s+loss(?:es)?\b")
# "(lower is better)" in a header says which way is better, as an arrow does: it names no change
_BETTER_NOTE = re.compile(r"(?i)\(?\b(?:lower|higher|smaller|larger|less|more)\s+is\s+better\b\)?")
# HTTP status codes a count header names ("Injected 503s", "429 errors"): no number of a configuration
_STATUS_CODES = re.compile(r"(?i)\b[1-5]\d\d(?:s\b|\s+(?:errors?|responses?|codes?)\b)|\b[1-5]xx\b")


def lead_in(d: Document, table: Table, kinds: tuple[str, ...] = ("paragraph", "caption", "list_item"),
            limit: int | None = None) -> list[str]:
    """What names a table's metric and unit when its headers do not, in the order it is read: the caption,
    the section heading, then the blocks of `kinds` before the table in its section (nearest first, up to
    `limit`, by default LEAD_PARAGRAPHS, none past a table, code block or heading before them)."""
    limit = LEAD_PARAGRAPHS if limit is None else limit
    parts = []
    if table.caption is not None:
        parts.append(d.view[table.caption.start:table.caption.end])
    if table.section is not None:
        parts.append(d.sections[table.section].title)
    # the blocks that end in a bounded stretch before the table, nearest first (a bisection: no scan of the post)
    before = sorted((d.blocks[i] for i in d.blocks_ending(table.start - LEAD_REACH, table.start)),
                    key=lambda b: (b.end, b.start), reverse=True)
    paragraphs = 0
    for b in before:
        if paragraphs == limit or b.start >= table.start:
            break
        if b.section != table.section or b.kind not in kinds:
            break
        parts.append(d.view[b.start:b.end])
        paragraphs += 1
    return [re.sub(r"\s+", " ", p).strip() for p in parts if p.strip()]


def lead_statistics(text: str, cues: list[Cue], reach: int = 16) -> dict[str, str]:
    """The statistic a lead text names for a metric, by metric ("We timed the average decode speed ..."
    -> {"throughput": "mean"}, "Table 3: Median TTFT (ms)" -> {"ttft": "median"}): a statistic word right before the
    metric's word, within `reach` characters and no clause or list break between. Not the description of a
    figure written before it in its phrase ("(a 90 GB/s link peak bandwidth)": a datasheet peak)."""
    found: dict[str, str] = {}
    for s in (c for c in cues if c.label.startswith("stat:")):
        phrase = max((c.end for c in cues if c.label in ("break", "join", "stop") and c.end <= s.start),
                     default=0)
        if any(ch.isdigit() for ch in text[max(phrase, s.start - 25):s.start]):
            continue
        metric = min((m for m in cues if m.label.startswith("metric:") and m.start >= s.start
                      and m.start - s.end <= reach), key=lambda m: m.start, default=None)
        if metric is None or any(c.label in ("break", "join", "stop") and s.end <= c.start and c.end <= metric.start
                                 for c in cues):
            continue
        found.setdefault(metric.label[7:], s.label[5:])
    return found


def second_header_row(d: Document, table: Table) -> list[Cell] | None:
    """The first body row when it is a second header row, None otherwise: two or more filled cells, and either
    no digit in any under a header row with a blank cell (a row of groups over a row of names), or every one
    under a header cell spanning several columns (an HTML "Sequence Length" over "256", "512", ...)."""
    if not table.rows:
        return None
    row = table.rows[0]
    filled = [c for c in row if c.end > c.start and _text(d, c)]
    if len(filled) < 2:
        return None
    starts = [h.start for h in table.header]
    spanned = {h.col for h in table.header if starts.count(h.start) > 1}
    if all(c.col in spanned for c in filled):
        return row
    if not any(c.end <= c.start or not _text(d, c) for c in table.header) \
            or any(ch.isdigit() for c in filled for ch in _text(d, c)):
        return None
    return row


class HeaderReader:
    """Reads header cells (cached: headers repeat across rows, tables and posts) and a table's lead texts."""

    def __init__(self, x: "TextAnalyser"):
        self.x = x
        rules = x.builder.rules
        self.ratio_header = re.compile(
            r"(?<!\w)(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in rules.ratio_headers) + r")(?!\w)",
            re.I) if rules.ratio_headers else None
        self.cost_per_tokens = re.compile(rules.cost_per_tokens, re.I)
        self.plural_marker = re.compile(rules.table_plural_marker)
        # headers repeat across rows, tables and posts ("Model", "Throughput (tok/s)"): each is read once
        self.header = lru_cache(maxsize=4096)(self._read_header)

    def _read_header(self, text: str) -> Header:
        """Cues and unit of a header: the unit is read from its parenthesised part or its whole text. A unit
        glued to its metric ("TPOT(ms)", "Throughput(TPS)") is read as if spaced."""
        if not text:
            return Header(text)
        text = self.plural_marker.sub(r"\1s", text)   # "Step(s)", "GPU(s)": a plural, no unit of seconds
        text_read = _BETTER_NOTE.sub(" ", _ARROWS.sub(" ", _GLUED_PAREN.sub(" (", text)))
        cues = list(self.x.cues(text_read))
        if nearest(cues, 0, 0, "metric:accuracy", 10**9) and _SCORE_LOSS.search(text):
            # "MMLU Loss", "GSM8K loss (%)": the loss of that score, a change as "accuracy loss" is
            cues = list(self.x.cues(_SCORE_LOSS.sub(" accuracy loss", text_read)))
        if nearest(cues, 0, 0, "metric:accuracy", 10**9) and not (self.ratio_header and self.ratio_header.search(text)) \
                and (nearest(cues, 0, 0, "change:up", 10**9) or nearest(cues, 0, 0, "change:down", 10**9)):
            # "Accuracy drop", "MMLU Loss": a change of a score, in points (percent), not a ratio
            return Header(text, "percent", "percent", cues)
        # a header naming a change ("Speedup", "TPS/User Speedup") holds ratios, whatever unit it mentions
        if nearest(cues, 0, 0, "change:up", 10**9) or nearest(cues, 0, 0, "change:down", 10**9) \
                or self.ratio_header and "%" not in text and self.ratio_header.search(text):
            return Header(text, "x", "ratio", cues, ratio=True)
        if _CURRENCY.search(text) and (per := self.cost_per_tokens.search(text)):
            # "Cost per 1M tokens ($)", "price for 1M tokens ($)": a price per that many tokens
            qs = self.x.quantities(f"$1 per {per.group('amount')} tokens")
            if qs and unit_class(qs[0].unit) == "cost":
                return Header(text, qs[0].unit, "cost", cues)
        candidates = [m.group(1) or m.group(2) for m in _PAREN.finditer(text)] + [_PAREN.sub(" ", text), text]
        words = _PAREN.sub(" ", text).split()
        # a unit after leading words that are no unit ("Completed samples per second", "Avg tokens/s")
        candidates += [" ".join(words[i:]) for i in range(1, min(len(words), 4))]
        pieces = [f"1 {c.strip()}" for c in candidates if c and c.strip()]
        for qs in map(self.x.quantities, pieces):   # lazily: the first piece with a unit wins
            unit_q = next((q for q in qs if q.span[0] == 0 and q.unit not in ("dimensionless", "")), None)
            if unit_q and unit_class(unit_q.unit):
                return Header(text, unit_q.unit, unit_class(unit_q.unit), cues)
        if nearest(cues, 0, 0, "metric:accuracy", 10**9):
            return Header(text, "dimensionless", "score", cues)
        return Header(text, cues=cues)

    def lead_header(self, texts: list[str]) -> Header:
        """What a table's caption, section heading or lead-in paragraphs say about bare cells, read in that
        order: an accuracy metric ("accuracy on GSM8K") first named makes them scores; else the first metric
        named ("Encoding time", "Throughput") with the first unit named in parentheses, after "in" or as
        "X per Y" ("Output throughput (tokens/s)", "time in seconds", "tokens per second") gives them that
        metric and unit. Without both, the cells stay unread."""
        metrics: list[Cue] = []
        found: tuple[str, str] | None = None
        for text in texts:
            cues = list(self.x.cues(text))
            if not metrics:
                accuracy = [c for c in cues if c.label == "metric:accuracy"]
                if accuracy:
                    return Header(text, "dimensionless", "score", accuracy)
                metrics = [c for c in cues if c.label.startswith("metric:")]
            if found is None:
                found = self._lead_unit(text)
            if metrics and found:
                return Header(" ".join(texts), found[0], found[1], metrics)
        return Header("")

    def lead_ratio_cues(self, texts: list[str]) -> list[Cue]:
        """The cues of the first lead text (caption, heading, lead-in paragraph) that names a change or a
        ratio ("Slowdown factor in tok/s against X", "Speed-up over eager"): a table of bare ratios under it
        holds speed-ups, read in that text's direction. Empty when none does."""
        for text in texts:
            cues = list(self.x.cues(text))
            # "sensitive to accuracy drop": a change of a score named in passing says nothing of ratios
            score_changes = [c for c in cues if c.label.startswith("change:") and any(
                m.label == "metric:accuracy" and c.start <= m.start and m.end <= c.end for m in cues)]
            if any(c.label.startswith("change:") and c not in score_changes for c in cues) \
                    or (self.ratio_header is not None and self.ratio_header.search(text)):
                return list(cues)
        return []

    def _lead_unit(self, text: str) -> tuple[str, str] | None:
        """(unit, class) of the first unit a lead text names, of a class a bare cell can take from it."""
        units = [m.group(1) or m.group(2) or m.group(3) for m in _LEAD_UNIT.finditer(text)]
        pieces = [f"1 {u.strip()}" for u in units if u and u.strip()]
        for qs in map(self.x.quantities, pieces):
            q = next((q for q in qs if q.span[0] == 0 and q.unit not in ("dimensionless", "")), None)
            cls = unit_class(q.unit) if q else None
            if cls in _LEAD_CLASSES:
                return q.unit, cls
        return None
