"""Results tables: one claim per result cell, its unit and metric read from the column and
row headers when the cell holds a bare number."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from extractor.claims.classify import Cue, nearest, unit_class
from extractor.claims.table_baselines import LEADS_WITH_NUMBER as _LEADS_WITH_NUMBER, TableBaselines, cell_text as _text
from extractor.contracts import CREATED, StageContract
from extractor.ingest import Document
from extractor.ingest.model import Cell, Table, group_label
from extractor.records import Claim, ClaimContext, QuantityRecord
from extractor.ingest.segment import Passage

if TYPE_CHECKING:
    from extractor.claims.analysis import TextAnalyser
    from extractor.claims.set_aside import ProseFigures


_PAREN = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]")
# a unit named by a caption or lead-in: "(tokens/s)", "in milliseconds", "in tok/s per GPU", "tokens per second"
_LEAD_UNIT = re.compile(r"\(([^()\d]{1,24})\)|\bin ([A-Za-z/]+(?: (?:per|/) [A-Za-z]+)?)\b"
                        r"|\b([A-Za-z]+ per (?:second|sec|s|minute|min|hour|h|ms|millisecond))\b")
# a number with a unit written after it ("3.5 GB", "~18%", "12 ms"): a figure, not a count
_UNIT_AFTER_NUMBER = re.compile(r"\d\s*(?:%|[A-Za-zµ$€]|/)")
# a decimal comma: a number whose comma is followed by one or two digits (never a thousands separator)
_DECIMAL_COMMA = re.compile(r"^[\s*_~≈]*\d+,\d{1,2}[\s*_]*$")
# a cell that holds a bare number (markup, an approximation mark or a ± spread around it)
_BARE_NUMBER = re.compile(r"^[\s*_~≈]*\d[\d,]*(?:\.\d+)?(?:\s*±\s*[\d.]+)?[\s*_]*$")
# a score written out of 100 ("73/100"): a share in percent
_OUT_OF_100 = re.compile(r"^[\s*_]*(\d+(?:[.,]\d+)?)\s*/\s*100[\s*_]*$")
# a header that names money: a currency sign or word, a cost or a price
_CURRENCY = re.compile(r"[$€£¥]|\b(?:USD|EUR|cost|costs|price|prices|dollars?)\b", re.I)
# how many paragraphs before a table (in its section, after the block before it that is no prose) are read
LEAD_PARAGRAPHS = 3
LEAD_REACH = 3000   # ... within this many characters before it
_LEAD_CLASSES = ("token_rate", "request_rate", "time")
# the metric of a result cell's figure that no header, lead text or cue names: a figure is a claim unless a
# set-aside rule says why not (ClaimStage checks these against the rules before keeping them)
RESIDUAL_METRICS = {"percent": "other", "time": "latency", "memory": "memory", "cost": "cost",
                    "bandwidth": "bandwidth", "compute": "compute", "token_rate": "throughput",
                    "request_rate": "request_throughput", "energy": "energy_efficiency", "item_rate": "other"}


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
        """A header of counts or settings ("Test Size", "Batch", "#"): its cells are not results. A header
        that holds a number names one configuration ("bs=16", "Batch 32", "TP8"): its cells are results."""
        return self.cls is None and any(c.label == "count" for c in self.cues) \
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


def lead_in(d: Document, table: Table) -> list[str]:
    """What names a table's metric and unit when its headers do not, in the order it is read: the caption,
    the section heading, then the paragraphs before the table in its section (nearest first, up to
    LEAD_PARAGRAPHS, none past a table, code block or heading before them)."""
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
        if paragraphs == LEAD_PARAGRAPHS or b.start >= table.start:
            break
        if b.section != table.section or b.kind not in ("paragraph", "caption", "list_item"):
            break
        parts.append(d.view[b.start:b.end])
        paragraphs += 1
    return [re.sub(r"\s+", " ", p).strip() for p in parts if p.strip()]


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


class TableReader:
    """Reads result cells of every table of a document."""

    contract = StageContract("tables", "creates one claim per result cell of every table", assigns=CREATED,
                             creates=True)

    def __init__(self, x: "TextAnalyser"):
        self.x = x
        rules = x.builder.rules
        self.ratio_header = re.compile(
            r"(?<!\w)(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in rules.ratio_headers) + r")(?!\w)",
            re.I) if rules.ratio_headers else None
        self.cost_per_tokens = re.compile(rules.cost_per_tokens, re.I)
        self.baselines = TableBaselines(rules)
        self.baseline_header = self.baselines.header
        self.setting_headers = re.compile(rules.table_setting_headers)
        self.memory_headers = re.compile(rules.table_memory_headers)
        self.memory_saving_header = re.compile(rules.table_memory_saving_header)
        self.share_of_header = re.compile(rules.table_share_of_header)
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
            # "Cost per 1M tokens ($)", "cost to generate 1M tokens ($)": a price per that many tokens
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
        ratio ("How many times slower in TPS vs X", "Speed-up over eager"): a table of bare ratios under it
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

    def claims(self, d: Document, seen: "ProseFigures",
               residual: list[tuple[Claim, Passage]] | None = None) -> list[tuple[Claim, Passage]]:
        """The claims of every table; `seen` gains the quantities of the cells read (the set-aside pass skips
        them). `residual` gains the result cells' figures no header, lead text or cue names the metric of,
        each as a claim of its class's RESIDUAL_METRICS metric: a claim unless a set-aside rule applies."""
        out: list[tuple[Claim, Passage]] = []
        for t, table in enumerate(d.tables):
            out.extend(self.table_claims(d, t, table, seen, residual))
        return out

    def result_cells(self, d: Document, table: Table) -> list[tuple[Cell, Header | None, str, int, list[Header], bool]]:
        """Body cells that can hold a result: (cell, column header, row header text, body row, the headers
        that qualify it, whether a header names counts). Cells under a header of counts or settings are left
        out before any reading, but for those that write a unit after their number (flagged)."""
        texts = {c.col: _text(d, c) for c in table.header}
        second = second_header_row(d, table)
        if second is not None:
            # "| | FP8 (TP1) | |" over "| Model | Tokens/sec | Speedup |": each column is named by both rows
            for c in second:
                texts[c.col] = " ".join(t for t in (texts.get(c.col, ""), _text(d, c)) if t)
        width = max(texts, default=-1) + 1
        cols = [self.header(texts.get(i, "")) for i in range(width)]
        cells: list[tuple[Cell, Header | None, str, int, list[Header], bool]] = []
        group: Header | None = None
        for r, row in enumerate(table.rows):
            if r == 0 and second is not None:
                continue
            label = group_label(d.view, row)
            if label is None and len(row) == 1 and len(cols) > 1 and row[0].end > row[0].start \
                    and not any(ch.isdigit() for ch in _text(d, row[0])):
                label = row[0]     # "| **Speedup** |": a label row written as one cell of a wider table
            if label is not None:
                group = self.header(_text(d, label))      # a group label row ("H100", "Speedup")
                continue
            row_head = _text(d, row[0]) if row else ""
            row_info = self.header(row_head) if row_head and not row_head[:1].isdigit() else Header("")
            for c in row:
                if c.end > c.start and self.x.may_hold_number(d.view, c.start, c.end):
                    col = cols[c.col] if c.col < len(cols) else None
                    if c.col == 0 and row_info.text:
                        continue
                    headers = [h for h in (col, row_info, group) if h is not None and h.text]
                    # a score out of 100 under a header of counts ("Requests meeting the SLO": "73/100") is a share
                    # a row label that names a setup with a count word ("half the GPUs", "long prompts") is no row
                    # of counts when the column header names the metric and unit of its cells
                    counted = [h for h in headers if not (h is row_info and col is not None and col.cls)]
                    if not any(h.counts for h in counted) or _OUT_OF_100.match(d.view[c.start:c.end]):
                        cells.append((c, col, row_head, r, headers, False))
                    elif _UNIT_AFTER_NUMBER.search(d.view, c.start, c.end):
                        # "| Misrouted requests | ~18% |", "| CPU/rank |" over "3.5 GB": a figure written with its
                        # own unit is no count, whatever the header; it is read as an unnamed result only
                        cells.append((c, col, row_head, r, headers, True))
        return cells

    def names_setting(self, headers: list[Header], cues: list) -> bool:
        """A header of the cell names a setting, a limit or a length of media ("Timeout", "request_timeout"), or
        a limit or setting word sits in the cell: its figure is no result."""
        return any(self.setting_headers.search(h.text.replace("_", " ")) for h in headers) \
            or any(c.label in ("limit", "not_claim", "not_claim:media") for h in headers for c in h.cues) \
            or any(c.label in ("limit", "setting", "not_claim", "not_claim:media") for c in cues)

    def unnamed_measure(self, cls: str, headers: list[Header], cues: list, lead_texts: list[str],
                        col: Header | None = None) -> str | None:
        """The metric of a results cell holding a time or a size that no metric word names: a time is a
        latency (how long the step or run took), a size is memory under a header naming memory, else when the
        table's caption, heading or lead-in paragraphs (`lead_texts`) name it; None under a header that names
        a setting, a limit or a length of media, or with a limit or setting word in the cell. Under a column `col`
        that names a statistic or a metric ("p50"), the row label's words describe the setup it measured ("best
        swept threshold"): only the column and the cell may name a setting."""
        if col is not None and any(c.label.startswith(("stat:", "metric:")) for c in col.cues):
            headers = [col]
        if self.names_setting(headers, cues):
            return None
        if cls == "time":
            return "latency"
        if any(self.memory_headers.search(h.text) for h in headers):
            return "memory"
        return "memory" if any(self.memory_headers.search(t) for t in lead_texts) else None

    def table_claims(self, d: Document, t: int, table: Table, seen: "ProseFigures",
                     residual: list[tuple[Claim, Passage]] | None = None) -> list[tuple[Claim, Passage]]:
        cells = self.result_cells(d, table)
        if not cells:
            return []
        lead: Header | None = None
        lead_cues: list[Cue] | None = None
        lead_texts: list[str] | None = None
        texts = [d.view[c.start:c.end] for c, *_ in cells]
        if any(_DECIMAL_COMMA.match(t) for t in texts):
            # a table that writes decimal commas ("0,5"): its cells are read with a point (same length)
            texts = [t.replace(",", ".") if _DECIMAL_COMMA.match(t) else t for t in texts]
        scores = [_OUT_OF_100.match(t) for t in texts]
        # a score out of 100 ("73/100") is read as its share in percent ("73%"): the same length
        texts = [t[:m.end(1)] + "%" + " " * (len(t) - m.end(1) - 1) if m else t for t, m in zip(texts, scores)]
        analysed = self.x.analyse(texts, [c.start for c, *_ in cells], seen=seen)
        out: list[tuple[Claim, Passage]] = []
        unit_rows: dict[int, int] = {}        # column -> its body row that holds 1.00x
        places: list[tuple[int, int]] = []    # the (row, column) of each claim of `out`
        for (c, col, row_head, r, headers, under_counts), (qs, cues), score in zip(cells, analysed, scores):
            if score is not None:   # the quote is the score as written
                qs = [q.model_copy(update={"span": (q.span[0], c.start + score.end(1) + 4),
                                           "quote": d.text[q.span[0]:c.start + score.end(1) + 4]})
                      if q.span[0] == c.start + score.start(1) else q for q in qs]
            unit_place = Passage(c.start, c.end, "cell", -1, table.section, t, r, c.col)
            header_cues = [cue for h in headers for cue in h.cues]
            context = ClaimContext(section=d.section_path(table.section), block="table",
                                   row_header=row_head or None, column_header=col.text if col else None)
            cell_text = d.view[c.start:c.end]
            if _DECIMAL_COMMA.match(cell_text):
                cell_text = cell_text.replace(",", ".")
            for i, q in enumerate(qs):
                cls = unit_class(q.unit)
                unit = q.unit
                own_unit = cls is not None    # the figure carries its unit (not only its header)
                if under_counts:      # under a header of counts: an unnamed result at most
                    if own_unit and residual is not None:
                        self._residual(d, q, cls, cues, c.start, context, headers, col, unit_place, residual)
                    continue
                if cls is None:
                    if i > 0 or not _LEADS_WITH_NUMBER.match(cell_text):
                        continue      # a number inside a note or a command, not the cell's value
                    h = next((h for h in headers if h.cls), None)
                    if h is None:
                        if lead is None:
                            lead = self.lead_header(lead_in(d, table))
                        # what the text around the table names fits a cell that is a bare number only
                        h = lead if lead.cls and _BARE_NUMBER.match(cell_text) else None
                        if h is not None and h.cls == "score" and any(
                                c.label.startswith("metric:") and c.label != "metric:accuracy"
                                for hh in headers for c in hh.cues):
                            h = None  # a column that names its own metric ("Val loss"): the lead's score is not it
                    if h is None or (h.cls == "score" and not 0 <= q.value <= 100):
                        continue      # a count beside a score's name ("2,931 / 10,471" under "WER = 0"): no score
                    cls, unit = h.cls, h.unit
                    q = q.model_copy(update={"unit": unit})
                    if h is lead:
                        header_cues = header_cues + lead.cues
                if cls == "ratio" and q.value == 1 and q.value_max is None:
                    unit_rows.setdefault(c.col, r)
                    continue          # the 1.00x row is the baseline itself
                if cls == "cost" and col is not None and col.cls == "cost" and col.unit != unit \
                        and col.unit.startswith(unit + " /"):
                    unit = col.unit   # "$5.87" under "Cost per 1M tokens ($)": a price per that many tokens
                    q = q.model_copy(update={"unit": unit})
                metric = self.x.builder.metric_for(q, cls, cues, q.span[0], q.span[1], header_cues)
                if metric is None and cls == "ratio" and (any(h.ratio for h in headers) or (
                        col is not None and self.baseline_header.search(col.text))):
                    metric = "speedup"    # "| Speedup |", "| vs. eager |" over "3.3×": a ratio against a run
                if metric == "speedup" and cls == "ratio" and any(
                        self.memory_saving_header.search(h.text) for h in headers if h.text):
                    metric = "memory"     # "| GPU Memory Saving |" over "1.96x": a memory ratio, not a speed-up
                elif metric is None and cls == "ratio" and not (q.value == 1 and q.value_max is None):
                    if lead_cues is None:
                        lead_cues = self.lead_ratio_cues(lead_in(d, table))
                    if lead_cues:
                        # "How many times slower in TPS vs X:" over a table of ratios: its cells are speed-ups
                        header_cues = header_cues + lead_cues
                        metric = "speedup"
                elif metric is None and score is not None and q.unit == "percent":
                    metric = "other"      # a share out of 100 that names no metric of its own
                elif metric is None and cls == "percent" and not any(c.label.startswith("metric:") for c in cues):
                    if lead is None:
                        lead = self.lead_header(lead_in(d, table))
                    if lead.cls == "score":
                        metric = "accuracy"   # "Accuracy recovery:" over a table of shares: each is an accuracy
                        header_cues = header_cues + lead.cues
                elif metric is None and cls in ("time", "memory") and q.value > 0:
                    if lead_texts is None:
                        lead_texts = lead_in(d, table)
                    metric = self.unnamed_measure(cls, headers, cues, lead_texts, col)
                text = d.view[c.start:c.end]
                if metric is None:
                    if residual is not None and own_unit:
                        self._residual(d, q, cls, cues, c.start, context, headers, col, unit_place, residual,
                                       header_cues, unit)
                    continue
                claim = self.x.builder.claim(q, metric, cls, cues, text, c.start, c.start, context,
                                             header_cues, unit, written=d.text)
                out.append((claim, unit_place))
                places.append((r, c.col))
        self.baselines.fill(d, table, out, places, unit_rows, lambda: lead_in(d, table))
        return out

    def _residual(self, d: Document, q: QuantityRecord, cls: str | None, cues: list[Cue], base: int,
                  context: ClaimContext, headers: list[Header], col: Header | None, place: Passage,
                  residual: list[tuple[Claim, Passage]], header_cues: list[Cue] | None = None,
                  unit: str | None = None) -> None:
        """Adds to `residual` the claim of a result cell's figure no header, lead text or cue names the metric
        of: its class's RESIDUAL_METRICS metric; a percent under a header stating a share of a reference ("%
        of BF16") a level against it. Nothing for a figure of no such class, a negative size, time or rate, or
        under a header or beside a word that names a setting."""
        if cls not in RESIDUAL_METRICS or q.value < 0 or self.names_setting(headers, cues):
            return
        header_cues = [cue for h in headers for cue in h.cues] if header_cues is None else header_cues
        share_of = self.share_of_header.search(col.text) if col is not None and cls == "percent" else None
        claim = self.x.builder.claim(q, "speedup" if share_of else RESIDUAL_METRICS[cls], cls, cues,
                                     d.view[place.start:place.end], base, base, context, header_cues, unit or q.unit,
                                     written=d.text)
        if share_of:      # "| Slope (% of BF16) |" over "71%": a level relative to BF16
            claim.baseline = share_of.group("base").strip(" *_`")
            claim.direction = _share_direction(q.value, self.x.builder.directions.polarity([], 0, 0, header_cues))
        residual.append((claim, place))

def _share_direction(value: float, polarity: int) -> str:
    """The direction of a level written as a percent of a reference's: below 100 % is better for a
    quantity of which less is better (a latency, a slope) and worse for one of which more is (a throughput);
    above 100 % the other way round; better when the quantity's polarity is unknown."""
    if polarity == 0 or value == 100:
        return "better" if value != 100 else "neutral"
    return "better" if (value < 100) == (polarity < 0) else "worse"
