"""Results tables: one claim per result cell, its unit and metric read from the column and
row headers when the cell holds a bare number (the headers and lead texts are read in table_headers.py)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extractor.claims.classify import Cue, unit_class
from extractor.claims.table_arithmetic import Level, decimals, fix_changes
from extractor.claims.table_baselines import LEADS_WITH_NUMBER as _LEADS_WITH_NUMBER, TableBaselines, cell_text as _text
from extractor.claims.table_headers import LEAD_PARAGRAPHS, Header, HeaderReader, lead_in, lead_statistics, second_header_row
from extractor.contracts import CREATED, StageContract
from extractor.ingest import Document
from extractor.ingest.model import Cell, Table, group_label
from extractor.records import Claim, ClaimContext, QuantityRecord
from extractor.ingest.segment import Passage

if TYPE_CHECKING:
    from extractor.claims.analysis import TextAnalyser
    from extractor.claims.set_aside import ProseFigures


# a number with a unit written after it ("3.5 GB", "~18%", "12 ms"): a figure, not a count
_UNIT_AFTER_NUMBER = re.compile(r"\d\s*(?:%|[A-Za-zµ$€]|/)")
# a decimal comma: a number whose comma is followed by one or two digits (never a thousands separator)
_DECIMAL_COMMA = re.compile(r"^[\s*_~≈]*\d+,\d{1,2}[\s*_]*$")
# a cell that holds a bare number (markup, an approximation mark or a ± spread around it)
_BARE_NUMBER = re.compile(r"^[\s*_~≈]*\d[\d,]*(?:\.\d+)?(?:\s*±\s*[\d.]+)?[\s*_]*$")
# a number as written, its decimals in group 1
_NUMBER = re.compile(r"\d[\d,]*(?:\.(\d+))?")
# a score written out of 100 ("73/100"): a share in percent
_OUT_OF_100 = re.compile(r"^[\s*_]*(\d+(?:[.,]\d+)?)\s*/\s*100[\s*_]*$")
# the metric of a result cell's figure that no header, lead text or cue names: a figure is a claim unless a
# set-aside rule says why not (ClaimStage checks these against the rules before keeping them)
RESIDUAL_METRICS = {"percent": "other", "time": "latency", "memory": "memory", "cost": "cost",
                    "bandwidth": "bandwidth", "compute": "compute", "token_rate": "throughput",
                    "request_rate": "request_throughput", "energy": "energy_efficiency", "item_rate": "other"}

__all__ = ["RESIDUAL_METRICS", "Header", "TableReader", "lead_in", "second_header_row"]


class TableReader:
    """Reads result cells of every table of a document."""

    contract = StageContract("tables", "creates one claim per result cell of every table", assigns=CREATED,
                             creates=True)

    def __init__(self, x: "TextAnalyser"):
        self.x = x
        rules = x.builder.rules
        self.headers = HeaderReader(x)
        self.header = self.headers.header
        self.lead_header = self.headers.lead_header
        self.lead_ratio_cues = self.headers.lead_ratio_cues
        self.baselines = TableBaselines(rules)
        self.baseline_header = self.baselines.header
        self.setting_headers = re.compile(rules.table_setting_headers)
        self.memory_headers = re.compile(rules.table_memory_headers)
        words = sorted((re.escape(w) for w in rules.training_words), key=len, reverse=True)
        self.training_lead = re.compile(rf"(?i)(?<![\w-])(?:{'|'.join(words)})(?![\w-])") if words else re.compile("(?!)")
        self.memory_saving_header = re.compile(rules.table_memory_saving_header)
        self.gain_header = re.compile(rules.table_gain_header)
        self.floor_after = re.compile(rules.table_floor_after)
        self.approx_before_metric = re.compile(rules.table_approx_before_metric)
        self.approx_header = re.compile(rules.table_approx_header)
        self.share_of_header = re.compile(rules.table_share_of_header)

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
            # "Table 1: Training time ..." (the caption or the section's heading): how long training took
            return (self.x.builder.rules.training_time_metric if any(self.training_lead.search(t) for t in lead_texts[:2])
                    else "latency")
        if any(self.memory_headers.search(h.text) for h in headers):
            return "memory"
        return "memory" if any(self.memory_headers.search(t) for t in lead_texts) else None

    def table_claims(self, d: Document, t: int, table: Table, seen: "ProseFigures",
                     residual: list[tuple[Claim, Passage]] | None = None) -> list[tuple[Claim, Passage]]:
        cells = self.result_cells(d, table)
        if not cells:
            return []
        first_residual = len(residual) if residual is not None else 0
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
        unit_rows: dict[int, list[int]] = {}  # column -> its body rows that hold 1.00x
        places: list[tuple[int, int]] = []    # the (row, column) of each claim of `out`
        levels: dict[int, list[Level]] = {}   # row -> its cells that hold one measured level
        col_headers: dict[int, Header] = {}
        row_headers: dict[int, Header] = {}
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
            if col is not None:
                col_headers[c.col] = col
            if row_head:
                row_headers[r] = self.header(row_head)
            if (level := _level(qs, cell_text, col, c.col)) is not None:
                levels.setdefault(r, []).append(level)
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
                    unit_rows.setdefault(c.col, []).append(r)
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
                        # "Slowdown factor in tok/s against X:" over a table of ratios: its cells are speed-ups
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
                claim = self.x.builder.claim(q, metric, cls, cues, text, c.start, c.start, context, header_cues, unit,
                                             written=d.text, saved=metric == "memory" and any(
                                                 self.memory_saving_header.search(h.text) for h in headers if h.text))
                out.append((claim, unit_place))
                places.append((r, c.col))
        scores_on_one_scale(out, places, {c.col for (c, *_), t in zip(cells, texts) if _over_100(t)})
        # the notes in quotes between a table and the sentence that says what its ratios compare with count too
        self.baselines.fill(d, table, out, places, unit_rows,
                            lambda: lead_in(d, table, ("paragraph", "caption", "list_item", "quote"), LEAD_PARAGRAPHS + 2))
        # the cells read here, also those no header names the metric of (a cost beside a time: "3.5 hours ($97)")
        self._lead_statistics(d, table, out + (residual[first_residual:] if residual is not None else []))
        for (claim, _), (_, col) in zip(out, places):
            if claim.qualifier == "exact" and col in col_headers and self.approx_header.search(col_headers[col].text):
                claim.qualifier = "approx"     # "| Approx. cost |", "| ~Latency (ms) |" over "$41"
            elif claim.qualifier == "exact" and claim.metric in self.x.builder.rules.statistic_min_is_requirement \
                    and self.floor_after.match(d.text, claim.span[1]):
                claim.qualifier = "at_least"   # "| 4GB minimum* |": a memory requirement's floor
        for (claim, _), (_, col) in zip(out, places):
            if claim.metric == "relative_change" and claim.value < 0 and not _SIGNED_QUOTE.search(claim.quote) \
                    and col in col_headers and self.gain_header.search(col_headers[col].text):
                # "| ITL Gain |" over "60.0%": a gain of speed, not an ITL cut of that size
                claim.value, claim.value_max = -claim.value, (None if claim.value_max is None else -claim.value_max)
        # a change cell computed from two levels of its row: its sign and direction follow from them
        polarity = self.x.builder.directions.polarity

        def level_polarity(r: int, col: int, level: Level) -> int:
            cues = [cue for h in (col_headers.get(col), row_headers.get(r), col_headers.get(level.col)) if h
                    for cue in h.cues]
            return polarity([], 0, 0, cues) or _CLASS_POLARITY.get(level.cls, 0)

        fix_changes(out, places, levels, lambda col: _metrics(col_headers.get(col)), level_polarity)
        return out

    def _lead_statistics(self, d: Document, table: Table, out: list[tuple[Claim, Passage]]) -> None:
        """A statistic the caption, section heading or lead-in paragraph names for a metric ("We timed the average
        decode speed ...", "Table 3: Median TTFT (ms)") is the statistic of the cells of that metric that name
        none themselves; the nearest text that names one decides. A hedge right before a metric's word there
        ("Run time and the approximate cost of each run") makes the exact cells of that metric approximate."""
        rules = self.x.builder.rules
        open_cells = [c for c, _ in out if c.statistic is None and c.metric in rules.statistic_metrics]
        exact = [c for c, _ in out if c.qualifier == "exact"]
        texts = lead_in(d, table) if open_cells or exact else []
        for text in texts:
            cues = list(self.x.cues(text))
            named = lead_statistics(text, cues) if open_cells else {}
            if open_cells and not named and _averaged_cells(rules.statistic_table_lead, text):
                # "Speedup over eager mode, averaged over batch sizes", "each engine, averaged across 3 runs":
                # every cell of the table that names no statistic is a mean
                named = {c.metric: "mean" for c in open_cells}
            for claim in open_cells:
                stat = named.get(claim.metric)
                if stat and not (stat == "min" and claim.metric in rules.statistic_min_is_requirement):
                    claim.statistic = stat
            if named:
                open_cells = []
            hedged = {m.label[7:] for m in cues if m.label.startswith("metric:")
                      and self.approx_before_metric.search(text, max(0, m.start - 40), m.start)}
            for claim in exact:
                if claim.metric in hedged:
                    claim.qualifier = "approx"
            if hedged:
                exact = []

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


# a quote written with its sign ("+3.0%", "-5%", "−7%")
_SIGNED_QUOTE = re.compile(r"^[\s*_~]*[+\-−]")
# which way is better for a level whose headers name no metric, by its unit's class ("357.1s" beside "124.6s")
_CLASS_POLARITY = {"time": -1, "token_time": -1, "memory": -1, "cost": -1, "token_rate": 1, "request_rate": 1,
                   "bandwidth": 1, "compute": 1, "percent": 0}


def _metrics(h: Header | None) -> frozenset[str]:
    """The metrics a header names ("Base TPOT(ms)" -> tpot); speed-up and change words name none."""
    return frozenset(c.label for c in (h.cues if h else ()) if c.label.startswith("metric:")
                     and c.label not in ("metric:speedup", "metric:relative_change", "metric:other"))


def _level(qs: list[QuantityRecord], cell_text: str, col: Header | None, col_index: int) -> Level | None:
    """The measured level a cell holds alone ("55.1" under "Base TPOT(ms)", "357.1s"), else None."""
    if len(qs) != 1 or not _LEADS_WITH_NUMBER.match(cell_text):
        return None
    q = qs[0]
    cls, unit = unit_class(q.unit), q.unit
    if cls is None and col is not None and col.cls and _BARE_NUMBER.match(cell_text):
        cls, unit = col.cls, col.unit
    if cls not in _CLASS_POLARITY or q.value_max is not None or unit is None:
        return None
    if cls == "percent" and (_SIGNED_QUOTE.search(cell_text) or (col is not None and (col.ratio or any(
            c.label.startswith(("change:", "metric:relative_change", "metric:speedup")) for c in col.cues)))):
        return None      # a percent of a change column ("Degradation", "TPS Gain", "+3%") is no level
    return Level(q.value, unit, decimals(q.quote), col_index, _metrics(col), col.text.strip(" *_`") if col else "",
                 cls)


def scores_on_one_scale(out: list[tuple[Claim, Passage]], places: list[tuple[int, int]],
                        over_100: set[int]) -> None:
    """A bare score in a column whose other bare scores are read on a 0-100 scale (a score over 10 is a percent
    written without its sign) is on that scale too when it is written alike, with as many decimals: "2.3" under
    "MATH" beside "35.2" is 2.3 percent, not a fraction; "0.724" beside "81.8" (another metric's row) stays, and so
    does any score below 1 ("0.7" beside "65.3": a fraction as likely as a percent).
    Only when every number of the column lies within 0-100 (`over_100`: the columns holding a bare number over 100)."""
    by_column: dict[int, list[Claim]] = {}
    for (claim, _), (_, col) in zip(out, places):
        if claim.metric == "accuracy" and claim.unit in ("percent", "dimensionless") and "%" not in claim.quote \
                and col not in over_100:
            by_column.setdefault(col, []).append(claim)
    for claims in by_column.values():
        if not all(0 <= c.value <= 100 and (c.value_max is None or c.value_max <= 100) for c in claims):
            continue
        scaled = {_decimals(c.quote) for c in claims if c.unit == "percent"}
        for c in claims:
            if c.unit == "dimensionless" and c.value >= 1 and _decimals(c.quote) in scaled:
                c.unit = "percent"


def _over_100(cell: str) -> bool:
    """A cell holding a bare number over 100 ("1,204")."""
    return bool(_BARE_NUMBER.match(cell)) and float(_NUMBER.search(cell).group().replace(",", "")) > 100


def _decimals(quote: str) -> int | None:
    """How many decimals the number of a quote is written with ("2.3" -> 1, "45" -> 0)."""
    m = _NUMBER.search(quote)
    return len(m.group(1) or "") if m else None


def _share_direction(value: float, polarity: int) -> str:
    """The direction of a level written as a percent of a reference's: below 100 % is better for a
    quantity of which less is better (a latency, a slope) and worse for one of which more is (a throughput);
    above 100 % the other way round; better when the quantity's polarity is unknown."""
    if polarity == 0 or value == 100:
        return "better" if value != 100 else "neutral"
    return "better" if (value < 100) == (polarity < 0) else "worse"


_SENTENCE = re.compile(r"(?:[^.!?\n]|\.(?=\d))*(?:[.!?]|\n|$)")
_OWN_RESULT = re.compile(r"\d(?:[.,]\d+)?\s*(?:×|[xX]\b|%|-?fold\b|times\b)")


def _averaged_cells(pattern: str, text: str) -> bool:
    """Whether the caption, heading or lead-in `text` says the table's cells are averages (`pattern`, the rules'
    `statistic_table_lead`): not a sentence that states its own averaged result ("Averaged over batch sizes, X
    is 1.6x faster" sums the table up; its cells are the single measurements)."""
    if not pattern:
        return False
    for m in re.finditer(pattern, text):
        sentence = next((s for s in _SENTENCE.finditer(text) if s.start() <= m.start() < max(s.end(), s.start() + 1)),
                        None)
        if sentence is None or not _OWN_RESULT.search(sentence.group()):
            return True
    return False
