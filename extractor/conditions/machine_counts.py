"""The size of the machine a section describes ("all runs on one 4-GPU box") counts the devices the post had, not
always the devices each of its runs used. When a figure of a results table that takes its device count from that
machine is given again elsewhere in the post at a smaller count of its own (the same tokens/s in a split table's
1-GPU row), that table was run on parts of the machine: the device count of its rows is not stated (ambiguous),
and their hardware keeps the device's name without the machine's count. A row's own count (a device-count column)
is untouched, and so is a table none of whose figures is given at another count."""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING

from extractor.conditions.restatements import distinctive
from extractor.ingest import Document
from extractor.records import Claim, Condition

if TYPE_CHECKING:
    from extractor.conditions.mentions import MentionFinder

# where a result's own device count is read: its sentence, its table row or column, its caption or table note
OWN_COUNT_PLACES = frozenset({"sentence", "table_row", "table_column", "table_caption", "footnote",
                              "program_output", "figure_caption"})
# where a machine's description is read: a section's lead or set-up, the post's statements, its front matter
MACHINE_PLACES = frozenset({"section", "setup_section", "document", "front_matter"})

Ambiguous = Callable[[Claim, str, str], Condition]   # (claim, condition, values) -> the ambiguous verdict
RowCount = Callable[[Claim, tuple[int, int]], int | None]   # (claim, a cell's span) -> the device count of its row


def parts_of_the_machine(claims: list[Claim], d: Document, ambiguous: Ambiguous, row_count: RowCount) -> None:
    """Make the machine's device count of the rows of each table run on parts of the machine ambiguous, and drop
    it from their hardware (module docstring). `ambiguous` gives the unrecoverable verdict with its where-note;
    `row_count(claim, span)` the device count the row of a table cell at `span` states (a device-count column)."""
    machine = {id(c): m for c in claims if (m := _machine_count(c)) is not None}
    if not machine:
        return
    starts = [t.start for t in d.tables]
    table_of = {id(c): _table(d, starts, c.span[0]) for c in claims if id(c) in machine}
    parted: set[int] = set()   # the tables run on parts of the machine
    for c in claims:
        t = table_of.get(id(c))
        if t is None or t in parted or len(c.mentions) < 2 or not distinctive(c.value, c.value_max):
            continue
        for m in c.mentions:   # the same figure in another table's row, at a smaller count of its own
            other = _table(d, starts, m.span[0])
            if other is not None and other != t and (k := row_count(c, m.span)) is not None \
                    and k < machine[id(c)][0]:
                parted.add(t)
                break
    for c in claims:
        if table_of.get(id(c)) not in parted:
            continue
        count, span = machine[id(c)]
        n, hw = _count(c), c.conditions.get("hardware")
        if n is not None:
            c.conditions["gpu_count"] = ambiguous(c, "gpu_count", f"{count}, fewer where the post gives this table's figures again")
        if hw is not None and hw.status == "stated" and hw.count == count and hw.span == span \
                and str(hw.value).startswith(prefix := f"{count}x "):
            name = str(hw.value)[len(prefix):]
            name = name.rsplit(" (", 1)[0] if " nodes x " in name else name   # "8x H100 (2 nodes x 4)"
            c.conditions["hardware"] = hw.model_copy(update={"value": name, "count": None})


def _machine_count(c: Claim) -> tuple[int, tuple[int, int]] | None:
    """(count, span) of the machine a table claim takes its device count from: its device count, or (none stated)
    its hardware's count, read at a broad place; None otherwise."""
    if c.context.block != "table" or not c.conditions:
        return None
    n, hw = _count(c), c.conditions.get("hardware")
    if n is not None:
        return (n.value, n.span) if n.scope in MACHINE_PLACES and n.span is not None else None
    if hw is not None and hw.status == "stated" and hw.count and hw.scope in MACHINE_PLACES and hw.span is not None:
        return hw.count, hw.span
    return None


def _count(c: Claim) -> Condition | None:
    n = (c.conditions or {}).get("gpu_count")
    return n if n is not None and n.status == "stated" and type(n.value) is int else None


def _table(d: Document, starts: list[int], pos: int) -> int | None:
    t = bisect_right(starts, pos) - 1
    return t if t >= 0 and pos < d.tables[t].end else None


def machines_only(value: object) -> bool:
    """Whether a device count is a count of machines alone ("two H200 nodes": {nodes: 2})."""
    return isinstance(value, dict) and set(value) == {"nodes"}


def machines_only_broader(n: Condition, hw: Condition, rank: dict[str, int]) -> bool:
    """A count of machines alone from a place as broad as, or broader than, the one that counts the claim's devices
    ("16x H200"): the device count says more (`rank`: a scope's place on the ladder, lower is more specific)."""
    return n.status == "stated" and machines_only(n.value) and rank.get(n.scope or "", 0) >= rank.get(hw.scope or "", 0)


def machines_of_another_device(n: Condition, hw: Condition, finder: "MentionFinder") -> bool:
    """A count of machines named by their device ("2 H100 nodes") when the claim's hardware is not that device
    (unstated, or another): those machines may be another run's."""
    if not (n.status == "stated" and machines_only(n.value) and n.quote):
        return False
    named = {m.canonical for m in finder.find(n.quote) if m.kind == "hardware" and m.canonical}
    return bool(named) and (hw.status != "stated" or hw.canonical not in named)
