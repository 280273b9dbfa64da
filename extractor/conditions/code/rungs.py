"""The ladder rung of the run's Python code (scope `code`, reader `section_code` in rules/scopes.yaml)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from extractor.conditions.code.reader import PYTHON_RULE
from extractor.conditions.located import Located
from extractor.conditions.rungs import rung_reader
from extractor.conditions.ties import ClaimSite

if TYPE_CHECKING:
    from extractor.conditions.ladder import LadderReading


@rung_reader("section_code")
def run_code_before(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The run's Python code shown before the claim in its section or above it (code/reader.py): the code after
    a result is not what produced it. A section that shows a program's output before the claim but no run's code
    of its own or above it ("3. Sample output") reads the run's code of the section right before it under the
    same heading ("2. The script"): the code run before the output. None outside any section."""
    if site.passage.section is None:
        return None
    code = site.ctx.code
    found = [x for s in site.chain for x in code.get(s, [])
             if x.m.rule.startswith(PYTHON_RULE) and x.m.span[0] < site.passage.start]
    if found or site.section is None or not _shows_output(lad, site):
        return found
    sections = site.d.sections
    parent = sections[site.section].parent
    before = next((s for s in range(site.section - 1, -1, -1) if sections[s].parent == parent), None)
    return [x for x in code.get(before, []) if x.m.rule.startswith(PYTHON_RULE)] if before is not None else []


def _shows_output(lad: LadderReading, site: ClaimSite) -> bool:
    """Whether the claim's section shows a code block (here: no run's code, so a program's output) before it.
    The first code block of each section is found once per document (kept with the ladder's memos)."""
    first = lad.memo.first_code
    if first is None:
        first = lad.memo.first_code = {}
        for b in site.d.blocks:
            if b.kind == "code":
                first.setdefault(b.section, b.start)
    return first.get(site.section, site.passage.start) < site.passage.start
