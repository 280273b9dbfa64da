"""Writes a stated condition as the record has it: the value as written (a hardware name as count x
name, a rate that is not a batch size, a layout in parts, a swept range with the chart that holds
the point), and the value of a table column labelled with a condition."""
from __future__ import annotations

import re
from bisect import bisect_right

from dataclasses import dataclass

from extractor.claims.table_headers import second_header_row
from extractor.conditions.config_tables import configuration_cell, configuration_rows
from extractor.conditions.context import DocContext
from extractor.conditions.decisions import EngineVersion
from extractor.conditions.engine_tally import COMMIT
from extractor.conditions.mentions import Mention, lengths
from extractor.conditions.rules import ScopeRules
from extractor.conditions.where import DocumentWhere
from extractor.ingest.model import Cell
from extractor.records import Claim, Condition

_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
# a number of its own (not the digits of a name: "A100"), or a count written before an "x" ("64x A100")
_NUM = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s*[kKmM]?(?:\b|(?=[x×]))")
_PAIR = re.compile(r"\s*(\d[\d,]*(?:\.\d+)?\s*[kK]?)\s*/\s*(\d[\d,]*(?:\.\d+)?\s*[kK]?)\s*")
_PAIRED_PART = {"input_length": 1, "output_length": 2}
_BLANKS = re.compile(r"\s+")
_MEMORY_JOINER = re.compile(r"(?<=\d)[x×](?=\d+\s?GB\b)", re.I)
CARRIED_ROWS = 8   # an empty cell repeats the value above it, unless a labelled row lies this far up
LAYOUT_COLUMN = "parallelism:"   # column label keys of one layout scheme ("parallelism:TP")
_WHOLE = re.compile(r"\s*(\d{1,4})\s*")
CONFIG_COLUMNS = frozenset({"batch_or_concurrency", "input_length", "output_length", "gpu_count"})
TEXT_COLUMNS = frozenset({"scenario", "dataset", "precision"})   # a labelled column's cell is the value as written
_WORD_BEFORE = re.compile(r"[A-Za-z]")   # a letter before a cell's first number: the cell is no bare value
_TEXT_CELL = re.compile(r"[\s*_`]*(\S(?:.{0,58}\S)?)[\s*_`]*", re.S)


@dataclass(frozen=True, slots=True)
class DeviceName:
    """A hardware value as the record writes it: the device's name as written, its count and the machines the
    count is spread over ("8x H100 (2 nodes x 4)")."""

    name: str
    count: int | None = None
    nodes: int | None = None

    def __str__(self) -> str:
        if not self.count:
            return self.name
        return f"{self.count}x {self.name}" + (f" ({self.nodes} nodes x {self.count // self.nodes})"
                                                 if (self.nodes or 0) > 1 else "")


class Statements:
    """Turns the policy's decisions into stated `Condition`s: the rules here, one document's statements in
    `reading(ctx, where)`."""

    def __init__(self, scopes: ScopeRules):
        self.count_words, self.unit_noun = scopes.hardware_name_parts()
        self.no_value_cell = re.compile(scopes.no_value_cell, re.I)
        qualifier = f"(?:{scopes.column_label_qualifier})?" if scopes.column_label_qualifier else ""
        self.column_label = {name: re.compile(qualifier + "(?:" + "|".join(map(re.escape, labels)) + ")", re.I)
                             for name, labels in scopes.column_labels.items() if labels}
        self.paired_lengths = re.compile(scopes.paired_length_column, re.I)
        self.layout_schemes = list(scopes.layout_columns)
        self.column_label.update({f"{LAYOUT_COLUMN}{scheme}": re.compile("|".join(map(re.escape, labels)), re.I)
                                  for scheme, labels in scopes.layout_columns.items() if labels})

    def reading(self, ctx: DocContext, where: DocumentWhere) -> DocumentStatements:
        """The statements of one document (`where`: its where-notes, for the note of a swept value)."""
        return DocumentStatements(self, ctx, where)

    def device(self, m: Mention) -> DeviceName:
        """A hardware mention as count x name as written: "8xH200" -> 8x "H200"; "sixteen GB300 GPUs" -> 16x
        "GB300"."""
        name = self.count_words.sub("", m.quote).strip() if m.count else m.quote
        name = self.unit_noun.sub("", name).strip() or m.quote
        name += ")" * max(0, name.count("(") - name.count(")"))
        # a memory size joined to the name by an "x" is no count: "A100x80GB" is written "A100-80GB"
        return DeviceName(_MEMORY_JOINER.sub("-", name), m.count, m.nodes)

    @staticmethod
    def parts(picked: list[Mention], scope: str) -> Condition:
        """A layout stated in parts at one scope (TP8 and EP8; decode DEP8 and prefill DEP2): all parts, each
        as written, or as read when the rule reads a value out of the words ("8 GPUs with tensor parallelism"
        is TP8, "one L4" a single GPU)."""
        picked = sorted(picked, key=lambda m: m.span)
        return Condition(status="stated", value=", ".join(_part(m) for m in picked), quote=picked[0].quote,
                         span=picked[0].span, scope=scope,
                         note=f"stated in {len(picked)} parts; the span shows the first")


class DocumentStatements:
    """One document's stated conditions, with the table look-ups it memoises (the labelled columns of a table,
    its rows' starts)."""

    def __init__(self, rules: Statements, ctx: DocContext, where: DocumentWhere):
        self.rules, self.ctx, self.where = rules, ctx, where
        self._columns: dict[tuple[int, str], list[Cell]] = {}
        self._configs: dict[str, dict] = {}   # condition -> its configuration rows by name (config_tables.py)
        self._row_starts: dict[int, tuple[list[int], list[int]]] = {}   # table -> row starts, rows
        # (name, mention id, scope) -> the mention and its condition: one frozen object that every claim stating
        # `name` by that mention at that scope holds (the mention is kept here, so its id stays its own)
        self._stated: dict[tuple[str, int, str], tuple[Mention, Condition]] = {}
        self._cells: dict[tuple[str, int, int | None], Condition | None] = {}   # column_value's, by row
        self._table_rows: dict[int, tuple[int | None, int | None]] = {}   # claim start -> its table and row
        self._cell_at: dict[tuple[int, int], Cell | None] = {}   # (table, claim start) -> the claim's cell
        self._config_cells: dict[tuple[str, int, int], Condition | None] = {}   # _configuration_value's, by column

    def stated(self, claim: Claim, name: str, m: Mention, scope: str) -> Condition:
        """Condition `name` as mention `m` states it at `scope` (the same for every claim, but a swept value's
        note, which names the chart near the claim)."""
        known = self._stated.get((name, id(m), scope))
        if known is not None:
            return known[1]
        value = m.value
        note = None
        sweep = True if m.sweep else None
        if name == "hardware":
            value = str(self.rules.device(m))   # count x name as written: "8x H200", "16x GB300" (count 16)
        elif name == "gpu_count" and isinstance(value, dict):
            value = value.get("total") or value.get("gpus") or value
        elif name == "batch_or_concurrency" and isinstance(value, dict) and "rate" in value:
            value, note = value["rate"], "a request rate (requests per second), not a batch size"
        elif isinstance(value, dict) and not m.sweep:
            value = ", ".join(str(v) if k in ("name", "value") else f"{k}={v}" for k, v in value.items())
        per_claim = sweep and isinstance(value, dict)
        if per_claim:
            note = self.where.sweep_note(claim, name)
        cond = Condition(status="stated", value=value, canonical=m.canonical, quote=m.quote, span=m.span,
                         scope=scope, sweep=sweep, count=m.count if name == "hardware" else None, note=note)
        if not per_claim:
            self._stated[name, id(m), scope] = (m, cond)
        return cond

    def several(self, claim: Claim, name: str, picked: list[Mention], scope: str) -> Condition:
        """A claim that sums up runs over several systems or models (scopes.yaml `several_systems`): each as it
        would be stated alone, listed in text order ("4x L4; 8x L40S; 8x A100"); the span shows the first."""
        each = [self.stated(claim, name, m, scope) for m in sorted(picked, key=lambda m: m.span)]
        return each[0].model_copy(update={
            "value": "; ".join(str(c.value) for c in each), "count": None,
            "canonical": "; ".join(c.canonical or str(c.value) for c in each),
            "note": f"{len(each)} {name} values named together; the claim sums up its runs over all of them "
                    f"(the span shows the first)"})

    def engine_version(self, decision: EngineVersion) -> Condition:
        """The engine and its version as stated; a release with the commit it was built at, stated in its
        sentence, is both ("vLLM 0.9.1 (commit 1a2b3c4d)"), quoted from the release to the commit."""
        m, commit = decision.mention, decision.commit
        version = f"commit {m.version}" if COMMIT.fullmatch(m.version or "") else m.version
        span = m.span
        if commit is not None:
            version += f" (commit {commit.version})"
            span = (min(m.span[0], commit.span[0]), max(m.span[1], commit.span[1]))
        note = "run with " + ", ".join(decision.others) if decision.others else None
        return Condition(status="stated", value=f"{decision.engine} {version}", canonical=decision.engine,
                         quote=self.ctx.d.text[span[0]:span[1]] if commit is not None else m.quote, span=span,
                         scope=decision.scope, note=note)

    def column_value(self, claim: Claim, name: str) -> Condition | None:
        """A table column labelled with a condition ("Batch Size", "ISL"): the claim row's cell holds it. The same
        for every claim of one row: read once for them (a configuration table's row, found by the claim's column,
        once per column)."""
        pos = claim.span[0]
        place = self._table_rows.get(pos)
        if place is None:   # the table and row at the claim: once per claim, not once per condition
            place = self._table_rows[pos] = self._table_row(pos)
        t, row = place
        if t is None:
            return None
        key = (name, t, row)
        if key not in self._cells:
            self._cells[key] = self._column_value(claim, name, configuration=False)
        found = self._cells[key]
        if found is None and name in CONFIG_COLUMNS \
                and not self._labelled_columns(t, name):
            return self._configuration_value(t, claim, name)
        return found

    def _table_row(self, pos: int) -> tuple[int | None, int | None]:
        """(the table holding offset `pos`, the index of its row there), (None, None) outside every table."""
        ctx = self.ctx
        t = bisect_right(ctx.table_starts, pos) - 1
        if t < 0 or not (ctx.d.tables[t].start <= pos <= ctx.d.tables[t].end):
            return None, None
        return t, self._row_at(t, pos)

    def _column_value(self, claim: Claim, name: str, configuration: bool = True) -> Condition | None:
        """`column_value` read for this claim alone (`configuration`: with the configuration tables' step)."""
        ctx = self.ctx
        d = ctx.d
        t = bisect_right(ctx.table_starts, claim.span[0]) - 1
        if name == "parallelism":
            return self._layout_value(t, claim)
        for t, table in ([(t, d.tables[t])] if t >= 0 else []):
            if not (table.start <= claim.span[0] <= table.end):
                continue
            for h in self._labelled_columns(t, name):
                idx = self._row_at(t, claim.span[0])
                if idx is None:
                    return None
                for r in range(idx, -1, -1):    # an empty cell repeats the value above it
                    cells = [c for c in table.rows[r] if c.col == h.col]
                    if cells and cells[0].end > cells[0].start:
                        c = cells[0]
                        if name in _PAIRED_PART and self.rules.paired_lengths.search(d.view, h.start, h.end):
                            return self._pair_part(h, c, name) if r == idx else None
                        if name in TEXT_COLUMNS:
                            return _text_cell(ctx, c, r == idx, self.rules.no_value_cell)
                        m = _NUM.search(d.view, c.start, c.end)
                        if not m or _WORD_BEFORE.search(d.view, c.start, m.start()):
                            return None   # a number inside words ("Engine (8 experts)") is no value of the column
                        value = lengths([m.group()], k_base=1000)[0]   # a cell's "8K" is 8,000
                        note = None if r == idx else "carried down from an earlier row of the table (empty cell)"
                        return Condition(status="stated", value=value, quote=d.text[m.start():m.end()].strip(),
                                         span=(m.start(), m.start() + len(m.group().strip())),
                                         scope="table_row", note=note)
                    if r != idx and any(c2.end > c2.start for c2 in table.rows[r][:1]) and r < idx - CARRIED_ROWS:
                        return None
            if name in _PAIRED_PART and (paired := self._paired_value(t, claim, name)) is not None:
                return paired
            if configuration and name in CONFIG_COLUMNS and not self._labelled_columns(t, name):
                return self._configuration_value(t, claim, name)
        return None

    def _configuration_value(self, t: int, claim: Claim, name: str) -> Condition | None:
        """A condition the claim's table has no column for, from the row of a configuration table that the claim's
        column header names (config_tables.py)."""
        d, pos = self.ctx.d, claim.span[0]
        if (t, pos) in self._cell_at:   # the claim's cell: once per claim, not once per condition
            cell = self._cell_at[t, pos]
        else:
            idx = self._row_at(t, pos)
            cell = self._cell_at[t, pos] = next((c for c in d.tables[t].rows[idx] if c.start <= pos <= c.end),
                                                None) if idx is not None else None
        if cell is None:
            return None
        key = (name, t, cell.col)
        if key not in self._config_cells:
            self._config_cells[key] = self._configuration_column(t, cell.col, name)
        return self._config_cells[key]

    def _configuration_column(self, t: int, col: int, name: str) -> Condition | None:
        """`_configuration_value` of the claims of column `col` of table `t`."""
        d = self.ctx.d
        if name not in self._configs:
            self._configs[name] = configuration_rows(d.view, d.tables, lambda t2: self._labelled_columns(t2, name),
                                                     lambda table: bool(self.ctx.claims_in(table.start, table.end)))
        found = configuration_cell(d.view, d.tables, t, col, self._configs[name])
        m = _NUM.search(d.view, found[0].start, found[0].end) if found else None
        if m is None:
            return None
        config = " ".join(found[1].split())
        return Condition(status="stated", value=lengths([m.group()], k_base=1000)[0],
                         quote=d.text[m.start():m.end()].strip(), span=(m.start(), m.start() + len(m.group().strip())),
                         scope="table_row", note=f"the row of the configuration '{config}' in another table")

    def _layout_value(self, t: int, claim: Claim) -> Condition | None:
        """Columns labelled with a layout scheme ("TP", "Expert Parallel"): the claim row's whole-number cells,
        as the layout they give ("TP2", "TP8, EP8")."""
        d = self.ctx.d
        if t < 0 or not (d.tables[t].start <= claim.span[0] <= d.tables[t].end):
            return None
        idx = self._row_at(t, claim.span[0])
        if idx is None:
            return None
        parts: list[tuple[Cell, str, str]] = []   # (cell, layout part, column header)
        for scheme in self.rules.layout_schemes:
            for h in self._labelled_columns(t, LAYOUT_COLUMN + scheme)[:1]:
                cell = next((c for c in d.tables[t].rows[idx] if c.col == h.col), None)
                m = _WHOLE.fullmatch(d.view, cell.start, cell.end) if cell is not None else None
                if m and int(m.group(1)) > 0:
                    parts.append((cell, f"{scheme}{int(m.group(1))}", _PAREN.sub("", d.view[h.start:h.end]).strip()))
        if not parts:
            return None
        m = _WHOLE.fullmatch(d.view, parts[0][0].start, parts[0][0].end)
        heads = ", ".join(f"'{head}'" for _, _, head in parts)
        return Condition(status="stated", value=", ".join(v for _, v, _ in parts), quote=d.text[m.start(1):m.end(1)],
                         span=m.span(1), scope="table_row", note=f"the row's cell(s) in the {heads} column(s)")

    def _paired_value(self, t: int, claim: Claim, name: str) -> Condition | None:
        """A column that holds both lengths ("ISL/OSL", "Input/output length": "1024/128"): the part of the
        claim row's cell that is the input (first) or the output (second) length."""
        d = self.ctx.d
        heads = [h for h in d.tables[t].header if self.rules.paired_lengths.search(d.view, h.start, h.end)]
        idx = self._row_at(t, claim.span[0])
        if len(heads) != 1 or idx is None:
            return None
        cell = next((c for c in d.tables[t].rows[idx] if c.col == heads[0].col), None)
        return self._pair_part(heads[0], cell, name) if cell is not None else None

    def _pair_part(self, head: Cell, cell: Cell, name: str) -> Condition | None:
        """The input (first) or output (second) length of a paired cell ("1024/128")."""
        d = self.ctx.d
        m = _PAIR.fullmatch(d.view, cell.start, cell.end)
        if m is None:
            return None
        part = _PAIRED_PART[name]
        value = lengths([m.group(part)], k_base=1000)[0]   # a cell's "8K" is 8,000
        return Condition(status="stated", value=value, quote=d.text[m.start(part):m.end(part)],
                         span=(m.start(part), m.end(part)), scope="table_row",
                         note=f"the {'first' if part == 1 else 'second'} of the two lengths in the row's "
                              f"'{d.text[head.start:head.end].strip()}' cell")

    def _labelled_columns(self, t: int, name: str) -> list[Cell]:
        """The header cells of table `t` that name condition `name`: by a mention, or by a column label
        ("Batch Size"; a parenthesised unit aside)."""
        key, ctx = (t, name), self.ctx
        if key not in self._columns:
            view = ctx.d.view
            label_rx = self.rules.column_label.get(name)
            named = {x.col for x in ctx.by_table.get(t, []) if x.row == -1 and x.m.value == "header"
                     and x.name == name}
            table = ctx.d.tables[t]
            # a second header row under blank header cells (a row of groups over a row of labels): its labels too
            blank = {h.col for h in table.header if not view[h.start:h.end].strip()}
            second = [c for c in second_header_row(ctx.d, table) or () if c.col in blank]
            self._columns[key] = [h for h in table.header + second if h.col in named and h in table.header or (
                label_rx and label_rx.fullmatch(_PAREN.sub("", view[h.start:h.end]).strip()))]
        return self._columns[key]

    def _row_at(self, t: int, pos: int) -> int | None:
        """Index of the row of table `t` whose cells span offset `pos` (bisect over row starts, indexed once
        per table: a long table's claims do not each scan its rows)."""
        index = self._row_starts.get(t)
        rows = self.ctx.d.tables[t].rows
        if index is None:
            index = self._row_starts[t] = ([r[0].start for r in rows if r], [i for i, r in enumerate(rows) if r])
        starts, which = index
        k = bisect_right(starts, pos) - 1
        if k < 0 or pos > rows[which[k]][-1].end:
            return None
        return which[k]


def _text_cell(ctx: DocContext, c: Cell, own_row: bool, no_value: re.Pattern[str]) -> Condition | None:
    """The text of a cell in a column labelled with a named condition ("Scenario": "Server"), as written; a
    cell of more than 60 characters, of a bare number, or that says the setting is absent ("None", "N/A",
    `no_value_cell`) names nothing."""
    m = _TEXT_CELL.fullmatch(ctx.d.view, c.start, c.end)
    if m is None or _NUM.fullmatch(m.group(1)) or no_value.fullmatch(m.group(1)):
        return None
    note = None if own_row else "carried down from an earlier row of the table (empty cell)"
    return Condition(status="stated", value=_BLANKS.sub(" ", m.group(1)), quote=ctx.d.text[m.start(1):m.end(1)],
                     span=m.span(1), scope="table_row", note=note)


def _part(m: Mention) -> str:
    """One part of a condition stated in parts: its quote, or the value a rule read from it."""
    read = isinstance(m.value, str) and _BLANKS.sub(" ", m.value) != _BLANKS.sub(" ", m.quote.strip())
    return m.value if read else m.quote
