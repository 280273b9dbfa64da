"""Writes a stated condition as the record has it: the value as written (a hardware name as count x
name, a rate that is not a batch size, a layout in parts, a swept range with the chart that holds
the point), and the value of a table column labelled with a condition."""
from __future__ import annotations

import re
from bisect import bisect_right

from extractor.conditions.context import DocContext
from extractor.conditions.mentions import Mention, lengths
from extractor.conditions.policy import COMMIT, EngineVersion
from extractor.conditions.rules import ScopeRules
from extractor.conditions.where import WhereNotes
from extractor.ingest.model import Cell
from extractor.records import Claim, Condition

_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?\s*[kKmM]?\b")
_PAIR = re.compile(r"\s*(\d[\d,]*(?:\.\d+)?\s*[kK]?)\s*/\s*(\d[\d,]*(?:\.\d+)?\s*[kK]?)\s*")
_PAIRED_PART = {"input_length": 1, "output_length": 2}
_BLANKS = re.compile(r"\s+")
CARRIED_ROWS = 8   # an empty cell repeats the value above it, unless a labelled row lies this far up
LAYOUT_COLUMN = "parallelism:"   # column label keys of one layout scheme ("parallelism:TP")
_WHOLE = re.compile(r"\s*(\d{1,4})\s*")
TEXT_COLUMNS = frozenset({"scenario", "dataset", "precision"})   # a labelled column's cell is the value as written
_TEXT_CELL = re.compile(r"[\s*_`]*(\S(?:.{0,58}\S)?)[\s*_`]*", re.S)


class Statements:
    """Turns the policy's decisions into stated `Condition`s."""

    def __init__(self, scopes: ScopeRules, where: WhereNotes):
        self.where = where
        self.count_words, self.unit_noun = scopes.hardware_name_parts()
        self.column_label = {name: re.compile("|".join(map(re.escape, labels)), re.I)
                             for name, labels in scopes.column_labels.items() if labels}
        self.paired_lengths = re.compile(scopes.paired_length_column, re.I)
        self.layout_schemes = list(scopes.layout_columns)
        self.column_label.update({f"{LAYOUT_COLUMN}{scheme}": re.compile("|".join(map(re.escape, labels)), re.I)
                                  for scheme, labels in scopes.layout_columns.items() if labels})

    def stated(self, ctx: DocContext, claim: Claim, name: str, m: Mention, scope: str) -> Condition:
        """Condition `name` as mention `m` states it at `scope`."""
        value = m.value
        note = None
        sweep = True if m.sweep else None
        if name == "hardware":
            # count x name as written: "8xH200" -> "8x H200"; "sixteen GB300 GPUs" -> "16x GB300" (count 16)
            value = self.count_words.sub("", m.quote).strip() if m.count else m.quote
            value = self.unit_noun.sub("", value).strip() or m.quote
            value += ")" * max(0, value.count("(") - value.count(")"))
            if m.count:
                value = f"{m.count}x {value}" + (f" ({m.nodes} nodes x {m.count // m.nodes})" if (m.nodes or 0) > 1 else "")
        elif name == "gpu_count" and isinstance(value, dict):
            value = value.get("total") or value.get("gpus") or value
        elif name == "batch_or_concurrency" and isinstance(value, dict) and "rate" in value:
            value, note = value["rate"], "a request rate (requests per second), not a batch size"
        elif isinstance(value, dict) and not m.sweep:
            value = ", ".join(str(v) if k in ("name", "value") else f"{k}={v}" for k, v in value.items())
        if sweep and isinstance(value, dict):
            note = self.where.sweep_note(ctx, claim, name)
        return Condition(status="stated", value=value, canonical=m.canonical, quote=m.quote, span=m.span,
                         scope=scope, sweep=sweep, count=m.count if name == "hardware" else None, note=note)

    def several(self, ctx: DocContext, claim: Claim, name: str, picked: list[Mention], scope: str) -> Condition:
        """A claim that sums up runs over several systems or models (scopes.yaml `several_systems`): each as it
        would be stated alone, listed in text order ("8x MI300X; 8x MI325X; 8x MI355X"); the span shows the first."""
        each = [self.stated(ctx, claim, name, m, scope) for m in sorted(picked, key=lambda m: m.span)]
        return each[0].model_copy(update={
            "value": "; ".join(str(c.value) for c in each), "count": None,
            "canonical": "; ".join(c.canonical or str(c.value) for c in each),
            "note": f"{len(each)} {name} values named together; the claim sums up its runs over all of them "
                    f"(the span shows the first)"})

    @staticmethod
    def parts(picked: list[Mention], scope: str) -> Condition:
        """A layout stated in parts at one scope (TP8 and EP8; decode DEP8 and prefill DEP2): all parts, each
        as written, or as read when the rule reads a value out of the words ("8 GPUs with tensor parallelism"
        is TP8, "one L4" a single GPU)."""
        picked = sorted(picked, key=lambda m: m.span)
        return Condition(status="stated", value=", ".join(_part(m) for m in picked), quote=picked[0].quote,
                         span=picked[0].span, scope=scope,
                         note=f"stated in {len(picked)} parts; the span shows the first")

    @staticmethod
    def engine_version(ctx: DocContext, decision: EngineVersion) -> Condition:
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
                         quote=ctx.d.text[span[0]:span[1]] if commit is not None else m.quote, span=span,
                         scope=decision.scope, note=note)

    def column_value(self, ctx: DocContext, claim: Claim, name: str) -> Condition | None:
        """A table column labelled with a condition ("Batch Size", "ISL"): the claim row's cell holds it."""
        d = ctx.d
        t = bisect_right(ctx.table_starts, claim.span[0]) - 1
        if name == "parallelism":
            return self._layout_value(ctx, t, claim)
        for t, table in ([(t, d.tables[t])] if t >= 0 else []):
            if not (table.start <= claim.span[0] <= table.end):
                continue
            for h in self._labelled_columns(ctx, t, name):
                idx = _row_at(ctx, t, claim.span[0])
                if idx is None:
                    return None
                for r in range(idx, -1, -1):    # an empty cell repeats the value above it
                    cells = [c for c in table.rows[r] if c.col == h.col]
                    if cells and cells[0].end > cells[0].start:
                        c = cells[0]
                        if name in _PAIRED_PART and self.paired_lengths.search(d.view, h.start, h.end):
                            return self._pair_part(ctx, h, c, name) if r == idx else None
                        if name in TEXT_COLUMNS:
                            return _text_cell(ctx, c, r == idx)
                        m = _NUM.search(d.view, c.start, c.end)
                        if not m:
                            return None
                        value = lengths([m.group()], k_base=1000)[0]   # a cell's "8K" is 8,000
                        note = None if r == idx else "carried down from an earlier row of the table (empty cell)"
                        return Condition(status="stated", value=value, quote=d.text[m.start():m.end()].strip(),
                                         span=(m.start(), m.start() + len(m.group().strip())),
                                         scope="table_row", note=note)
                    if r != idx and any(c2.end > c2.start for c2 in table.rows[r][:1]) and r < idx - CARRIED_ROWS:
                        return None
            if name in _PAIRED_PART:
                return self._paired_value(ctx, t, claim, name)
        return None

    def _layout_value(self, ctx: DocContext, t: int, claim: Claim) -> Condition | None:
        """Columns labelled with a layout scheme ("TP", "Expert Parallel"): the claim row's whole-number cells,
        as the layout they give ("TP2", "TP8, EP8")."""
        d = ctx.d
        if t < 0 or not (d.tables[t].start <= claim.span[0] <= d.tables[t].end):
            return None
        idx = _row_at(ctx, t, claim.span[0])
        if idx is None:
            return None
        parts: list[tuple[Cell, str, str]] = []   # (cell, layout part, column header)
        for scheme in self.layout_schemes:
            for h in self._labelled_columns(ctx, t, LAYOUT_COLUMN + scheme)[:1]:
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

    def _paired_value(self, ctx: DocContext, t: int, claim: Claim, name: str) -> Condition | None:
        """A column that holds both lengths ("ISL/OSL", "Input/output length": "1024/128"): the part of the
        claim row's cell that is the input (first) or the output (second) length."""
        d = ctx.d
        heads = [h for h in d.tables[t].header if self.paired_lengths.search(d.view, h.start, h.end)]
        idx = _row_at(ctx, t, claim.span[0])
        if len(heads) != 1 or idx is None:
            return None
        cell = next((c for c in d.tables[t].rows[idx] if c.col == heads[0].col), None)
        return self._pair_part(ctx, heads[0], cell, name) if cell is not None else None

    @staticmethod
    def _pair_part(ctx: DocContext, head: Cell, cell: Cell, name: str) -> Condition | None:
        """The input (first) or output (second) length of a paired cell ("1024/128")."""
        d = ctx.d
        m = _PAIR.fullmatch(d.view, cell.start, cell.end)
        if m is None:
            return None
        part = _PAIRED_PART[name]
        value = lengths([m.group(part)], k_base=1000)[0]   # a cell's "8K" is 8,000
        return Condition(status="stated", value=value, quote=d.text[m.start(part):m.end(part)],
                         span=(m.start(part), m.end(part)), scope="table_row",
                         note=f"the {'first' if part == 1 else 'second'} of the two lengths in the row's "
                              f"'{d.text[head.start:head.end].strip()}' cell")

    def _labelled_columns(self, ctx: DocContext, t: int, name: str) -> list[Cell]:
        """The header cells of table `t` that name condition `name`: by a mention, or by a column label
        ("Batch Size"; a parenthesised unit aside)."""
        key = (t, name)
        if key not in ctx.columns:
            view = ctx.d.view
            label_rx = self.column_label.get(name)
            named = {x.col for x in ctx.by_table.get(t, []) if x.row == -1 and x.m.value == "header"
                     and x.name == name}
            ctx.columns[key] = [h for h in ctx.d.tables[t].header if h.col in named or (
                label_rx and label_rx.fullmatch(_PAREN.sub("", view[h.start:h.end]).strip()))]
        return ctx.columns[key]


def _text_cell(ctx: DocContext, c: Cell, own_row: bool) -> Condition | None:
    """The text of a cell in a column labelled with a named condition ("Scenario": "Server"), as written; a
    cell of more than 60 characters or of a bare number names nothing."""
    m = _TEXT_CELL.fullmatch(ctx.d.view, c.start, c.end)
    if m is None or _NUM.fullmatch(m.group(1)):
        return None
    note = None if own_row else "carried down from an earlier row of the table (empty cell)"
    return Condition(status="stated", value=_BLANKS.sub(" ", m.group(1)), quote=ctx.d.text[m.start(1):m.end(1)],
                     span=m.span(1), scope="table_row", note=note)


def _part(m: Mention) -> str:
    """One part of a condition stated in parts: its quote, or the value a rule read from it."""
    read = isinstance(m.value, str) and _BLANKS.sub(" ", m.value) != _BLANKS.sub(" ", m.quote.strip())
    return m.value if read else m.quote


def _row_at(ctx: DocContext, t: int, pos: int) -> int | None:
    """Index of the row of table `t` whose cells span offset `pos` (bisect over row starts, indexed once
    per table: a long table's claims do not each scan its rows)."""
    index = ctx.row_starts.get(t)
    rows = ctx.d.tables[t].rows
    if index is None:
        index = ctx.row_starts[t] = ([r[0].start for r in rows if r], [i for i, r in enumerate(rows) if r])
    starts, which = index
    k = bisect_right(starts, pos) - 1
    if k < 0 or pos > rows[which[k]][-1].end:
        return None
    return which[k]
