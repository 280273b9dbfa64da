"""The baseline of a prose change that sums up the table next to it: a table of two runs ("pinned pool": 80 ms,
"paged pool": 60 ms of decode time) followed by "Paging the pool lowers decode time by 25%." When the sentence names
no baseline and exactly one pair of the table's measured cells of the quantity the sentence changes gives the change
((a - b) / a, the reference level a as the denominator), the label of the reference cell's row (or its column, when
the runs are columns) is the baseline: the text names it, in the table the sentence describes. Only for a table of
a few rows, a sentence that states no level of its own and names the cells' quantity, and an exact or approximate
change (not a bound: "can cost up to a third of the speed"). The quantity is the exact metric of the metric word
nearest the figure in its own clause ("lowers TTFT by 25%" names no TPOT column); a generic word ("decode time",
"throughput") names the cells of its family only when the table holds a single quantity of that family."""
from __future__ import annotations

import re
from typing import Callable, Iterable

from extractor.claims.cues import Cue
from extractor.claims.table_arithmetic import decimals
from extractor.claims.table_baselines import cell_text
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import Claim

# how far a sentence may sit from the table it sums up (characters between the table's end and the sentence, or
# between the sentence and the table's start)
REACH_AFTER = 600
REACH_BEFORE = 300
PROSE = frozenset({"paragraph", "list_item"})
# a table of a few runs: in a long table some pair of cells gives any round change by chance
MAX_ROWS = 6
MAX_CELLS = 48
_CELL_MARKUP = " *_`"
# a clause break between a metric word and the figure (punctuation, or a joining word: "while", "and"): the word
# names another clause's quantity
_CLAUSE_BREAK = re.compile(r"[,;:]")
# a generic metric word and the specific metrics it may stand for: "decode time" names the cells of a TPOT column
# when that is the table's only time quantity, never when the table holds two ("TTFT" and "TPOT")
_GENERIC = {"latency": frozenset({"ttft", "tpot", "itl", "e2e_latency", "latency"}),
            "throughput": frozenset({"throughput", "request_throughput"})}


def _named_metrics(named: str, cells: list[tuple[Claim, Passage]]) -> frozenset[str]:
    """The cell metrics the sentence's metric word `named` names in a table of `cells`: the exact metric, or for a
    generic word the metric of the table's single quantity of its family (all in one column, or all in one row)."""
    family = _GENERIC.get(named)
    if family is None:
        return frozenset({named})
    own = [(c.metric, p.row, p.col) for c, p in cells if c.metric in family]
    single = len({m for m, _, _ in own}) == 1 and (len({col for *_, col in own}) == 1 or len({r for _, r, _ in own}) == 1)
    return frozenset({named, own[0][0]}) if own and single else frozenset({named})


def _adjacent_table(d: Document, p: Passage, in_section: list[int]) -> int | None:
    """The table the sentence at `p` sums up: the nearest one of its section's tables (`in_section`) that ends
    shortly before it, else one that starts shortly after it; None when none does."""
    best, best_gap = None, None
    for t in in_section:
        table = d.tables[t]
        gap = p.start - table.end if table.end <= p.start else (table.start - p.end if table.start >= p.end else None)
        if gap is None or gap > (REACH_AFTER if table.end <= p.start else REACH_BEFORE):
            continue
        if best_gap is None or gap < best_gap:
            best, best_gap = t, gap
    return best


def _matches(v: float, tol: float, a: Claim, b: Claim) -> bool:
    """Whether the change from level `a` (the reference) to `b` is `v` percent, within the rounding of all three."""
    ha, hb = 0.5 * 10 ** -decimals(a.quote), 0.5 * 10 ** -decimals(b.quote)
    changes = [abs(y - x) / x * 100 for x in (a.value - ha, a.value + ha) for y in (b.value - hb, b.value + hb) if x > 0]
    return bool(changes) and min(changes) - tol <= v <= max(changes) + tol


def fill_adjacent_baselines(d: Document, placed: list[tuple[Claim, Passage]],
                            cues_of: Callable[[str], Iterable[Cue]]) -> None:
    """Sets the baseline of each prose relative change that names none from the table next to it (module doc);
    `cues_of(text)` gives a text's cues (the metrics the sentence names)."""
    cells: dict[int, list[tuple[Claim, Passage]]] = {}
    for c, p in placed:
        if p.kind == "cell" and p.table is not None and c.value_max is None and c.value > 0 \
                and c.metric not in ("speedup", "relative_change"):
            cells.setdefault(p.table, []).append((c, p))
    if not cells:
        return
    by_section: dict[int | None, list[int]] = {}
    for t in cells:
        if len(d.tables[t].rows) <= MAX_ROWS and len(cells[t]) <= MAX_CELLS:
            by_section.setdefault(d.tables[t].section, []).append(t)
    # the sentences that state levels of their own ("rises by a fifth, 40 -> 48 ms"): their change is of those
    levels = {(p.start, p.end) for c, p in placed if p.kind in PROSE and c.metric not in ("speedup", "relative_change")}
    for claim, p in placed:
        if claim.metric != "relative_change" or claim.baseline is not None or claim.value_max is not None \
                or claim.qualifier not in ("exact", "approx") or p.kind not in PROSE or (p.start, p.end) in levels \
                or (t := _adjacent_table(d, p, by_section.get(p.section, []))) is None:
            continue
        # the quantity the sentence changes: the metric word nearest the figure ("Throughput rose by 56%, mean TTFT
        # fell by 36%": throughput for the first, TTFT for the second)
        at, end = claim.span[0] - p.start, claim.span[1] - p.start
        text = d.text[p.start:p.end]
        cues = list(cues_of(text))
        joins = [c.start for c in cues if c.label == "join"]

        def broken(a: int, b: int) -> bool:
            """Whether a clause breaks between offsets `a` and `b` of the sentence."""
            return bool(_CLAUSE_BREAK.search(text, a, b)) or any(a <= j < b for j in joins)

        words = [c for c in cues if c.label.startswith("metric:")
                 and c.label not in ("metric:speedup", "metric:relative_change", "metric:other")]
        # in the figure's own clause only, before it or after it ("cuts cold starts by 20% while throughput stays
        # flat": throughput is the other clause's subject)
        before = max((c for c in words if c.end <= at and not broken(c.end, at)), key=lambda c: c.end, default=None)
        nearest = before or min((c for c in words if c.start >= end and not broken(end, c.start)),
                                key=lambda c: c.start, default=None)
        if nearest is None:
            continue        # the sentence names no quantity of its change
        named = _named_metrics(nearest.label[7:], cells[t])
        v = abs(claim.value)
        tol = 0.5 * 10 ** -decimals(claim.quote) + (0.5 if claim.qualifier == "approx" else 0.0)
        found = set()
        for a, pa in cells[t]:
            for b, pb in cells[t]:
                # two runs of one column (a row label may have turned one cell's metric, as a training word does), or
                # two columns of one quantity in a row
                if a is b or a.unit != b.unit or not (pa.col == pb.col or (pa.row == pb.row and a.metric == b.metric)) \
                        or not named & {a.metric, b.metric}:
                    continue      # the sentence changes another quantity than these cells
                if _matches(v, tol, a, b):
                    found.add(("row", pa.row) if pa.col == pb.col else ("col", pa.col))
        if len(found) != 1:
            continue        # no pair gives the change, or several do: which run it was compared with is unclear
        kind, at = found.pop()
        table = d.tables[t]
        if kind == "row":
            row = table.rows[at] if at is not None and at < len(table.rows) else []
            label = cell_text(d, row[0]) if row else ""
        else:
            label = next((cell_text(d, h) for h in table.header if h.col == at), "")
        label = label.strip(_CELL_MARKUP)
        if label and any(ch.isalpha() for ch in label):
            claim.baseline = label
