"""The ladder rung of the run's Python code (scope `code`, reader `section_code` in rules/scopes.yaml)."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from extractor.conditions.code.reader import PYTHON_RULE
from extractor.conditions.located import Located
from extractor.conditions.rungs import Tiers, rung_reader
from extractor.conditions.ties import ClaimSite

if TYPE_CHECKING:
    from extractor.conditions.ladder import LadderReading


@rung_reader("section_code")
def run_code_before(lad: LadderReading, site: ClaimSite) -> Tiers | None:
    """The run's Python code shown before the claim in its section or above it (code/reader.py): the code after
    a result is not what produced it. A section that shows a program's output before the claim but no run's code
    of its own or above it ("3. Sample output") reads the run's code of the section right before it under the
    same heading ("2. The script"): the code run before the output. Second, the cells elsewhere that this code
    reads names from (the model loaded under an earlier heading: flow.py), a broader tier; third, for a claim
    whose section runs no code, the runs of the earlier subsections under its heading (`_earlier_runs`). None
    outside any section."""
    if site.passage.section is None:
        return None
    code = site.ctx.code
    chain = site.chain
    found = [x for s in chain for x in code.get(s, [])
             if x.m.rule.startswith(PYTHON_RULE) and x.m.span[0] < site.passage.start]
    if not found and site.section is not None and shows_code_before(lad, site):
        sections = site.d.sections
        parent = sections[site.section].parent
        before = next((s for s in range(site.section - 1, -1, -1) if sections[s].parent == parent), None)
        if before is not None:
            found = [x for x in code.get(before, []) if x.m.rule.startswith(PYTHON_RULE)]
            chain = [before]
    fed = _fed(site, chain)
    if found or fed or any(s in site.ctx.code_feeds for s in chain):
        return Tiers([found, fed, []])
    return Tiers([found, fed, _earlier_runs(site)])


def _earlier_runs(site: ClaimSite) -> list[Located]:
    """For a claim whose section runs no code of its own, under a heading (not the post's title) with two or more
    earlier subsections that each run code ("Comparing the four modes" after "Eager mode", "Compiled mode"...):
    the run's code of those subsections and the cells they read from; where they differ, the policy leaves the
    condition unrecoverable."""
    runs = earlier_run_sections(site, lambda s: s in site.ctx.code_feeds)
    if not runs:
        return []
    found = [x for s in runs for x in site.ctx.code.get(s, [])
             if x.m.rule.startswith(PYTHON_RULE) and x.m.span[0] < site.passage.start]
    return found + [x for x in _fed(site, runs) if x not in found]


def earlier_run_sections(site: ClaimSite, runs: Callable[[int], bool]) -> list[int]:
    """For a claim under a heading (not the post's title): the earlier subsections under that heading that each run
    something (`runs`), in order, when there are two or more ("Comparing the four modes" after "Eager mode",
    "Compiled mode"...); none when there is one: the section after a single run is another experiment."""
    sections = site.d.sections
    head = site.chain[1] if len(site.chain) > 1 else None
    if head is None or site.section is None or _is_title(site, head):
        return []
    found = []
    for s in range(site.section - 1, head, -1):
        up = sections[s].parent
        while up is not None and up != head:
            up = sections[up].parent
        if up is not None and runs(s):
            found.append(s)
    return sorted(found) if len(found) >= 2 else []


def _fed(site: ClaimSite, chain: list[int | None]) -> list[Located]:
    """The mentions of the cells outside `chain` that the run's code of `chain` reads names from."""
    feeds = site.ctx.code_feeds
    if not feeds:
        return []
    blocks = sorted({b for s in chain for b in feeds.get(s, ()) if site.d.blocks[b].section not in chain})
    return [x for b in blocks for x in site.ctx.by_block.get(b, [])
            if x.code and x.m.rule.startswith(PYTHON_RULE) and x.m.span[0] < site.passage.start]


def _is_title(site: ClaimSite, section: int) -> bool:
    """The post's title heading: the one top-level section of level 1, which holds every other."""
    sections = site.d.sections
    return sections[section].parent is None and sections[section].level == 1 \
        and sum(1 for s in sections if s.level == 1) == 1


def shows_code_before(lad: LadderReading, site: ClaimSite) -> bool:
    """Whether the claim's section shows a code block (a command, a program's output) before the claim.
    The first code block of each section is found once per document (kept with the ladder's memos)."""
    first = lad.memo.first_code
    if first is None:
        first = lad.memo.first_code = {}
        for b in site.d.blocks:
            if b.kind == "code":
                first.setdefault(b.section, b.start)
    return first.get(site.section, site.passage.start) < site.passage.start


def run_of_other_code(lad: LadderReading, site: ClaimSite, x: Located, section: int | None) -> bool:
    """A mention of a section above the claim's whose sentence tells what the code shown above it does ("The command
    above loads the 1B checkpoint in float16", "That script uses 2 GPUs"), when the claim's own section shows code
    of its own before the claim: that sentence is about the other code's run, not the claim's."""
    if section == site.section or x.sentence is None:
        return False
    runs = lad.memo.code_runs
    if x.sentence not in runs:   # once per sentence
        runs[x.sentence] = lad.ladder.code_run_sentence.match(site.d.view, *x.sentence) is not None
    return runs[x.sentence] and shows_code_before(lad, site)
