"""Builds a document's `DocContext` (context.py): places each condition mention (block, section, table cell),
marks what ties it to something other than the claims around it (an example, the metric it was measured for, an
accuracy evaluation, the family, mode, device or model its sentence binds it to: bindings.py), and finds the
setup sections, the group-label rows of tables and the lists of alternatives."""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from extractor.conditions._internals.lookups import SectionLookup, own_ends
from extractor.conditions.baselines import baselines as baseline_names
from extractor.conditions.baselines import comparison_sides
from extractor.conditions.bindings import SettingBinder
from extractor.conditions.code.reader import CODE_RULE
from extractor.conditions.context import DocContext
from extractor.conditions.located import MEASURED_KINDS, Located
from extractor.conditions.mentions import Mention
from extractor.conditions.row_spans import carried_cells
from extractor.conditions.rules import ScopeRules
from extractor.conditions.scan import covering
from extractor.ingest import Document
from extractor.ingest.model import group_label
from extractor.spans import inside_near

_NEWLINE = re.compile(r"\n")
_WORD = re.compile(r"\w")
_NUMBERING = re.compile(r"^\s*(?:[\dIVX]+[.)]?)+\s*")
_HEADING_WORDS = re.compile(r"[^\W_][\w'-]*")
_SYSTEM_SETTINGS = frozenset({"hardware", "gpu_count", "parallelism"})   # what a speed run's note sets up
_LOOK_BACK = 120   # characters of a mention's clause read for what ties it


class DocumentReader:
    """Builds a document's `DocContext`: places each mention and marks its ties, finds the setup sections and
    the group-label rows of tables."""

    def __init__(self, scopes: ScopeRules, family_cues: dict[str, re.Pattern[str]] | None = None):
        self.scopes = scopes
        self.setup_ending, self.setup_phrase = scopes.setup_heading()
        self.topic_heading = re.compile(scopes.topic_heading, re.I)
        self.usage_heading = scopes.usage_heading()
        self.back_matter_heading = scopes.back_matter_heading()
        self.alternatives_lead_in = re.compile(scopes.alternatives_lead_in, re.I)
        self.dated_item = re.compile(scopes.dated_item, re.I)
        self.family_cues = family_cues or {}
        self.binder = SettingBinder(scopes, self.family_cues)
        self.example_cue = re.compile(scopes.example_cue, re.I)
        self.example_kind_cue = re.compile(scopes.example_kind_cue, re.I)
        self.example_code_cue = re.compile(scopes.example_code_cue, re.I)
        self.anchor_link = re.compile(scopes.anchor_link)
        self.measured_code_cue = re.compile(scopes.measured_code_cue, re.I)
        self.names_no_metric = re.compile(scopes.names_no_metric, re.I)
        self.metric_binding = re.compile(scopes.metric_binding, re.I)
        self.measures_cue = re.compile(scopes.measures_cue, re.I)
        self.comparison_cue = re.compile(scopes.comparison_cue, re.I)
        self.sides = (re.compile(scopes.versus_gap, re.I), re.compile(scopes.between_gap, re.I),
                      re.compile(scopes.between_sides, re.I))
        self.accuracy_cue = re.compile(scopes.accuracy_cue, re.I)
        self.speed_runs_cue = re.compile(scopes.speed_runs_cue, re.I)
        self.accuracy_clause_cue = re.compile(scopes.accuracy_clause_cue, re.I)
        self.slo_point_cue = re.compile(scopes.slo_point_cue, re.I)
        self.accuracy_check_cue = re.compile(scopes.accuracy_check_cue, re.I)
        self.serving_workloads = re.compile(scopes.serving_workloads, re.I)
        self.setup_label = scopes.setup_label()
        self.baseline_tail = scopes.baseline_tail()
        self.bench_command = re.compile(scopes.benchmark_command, re.I)

    def context(self, d: Document, found: list[Mention], claimed: list[tuple[int, int]],
                printed: list[tuple[int, int]] = (), feeds: dict[int | None, set[int]] | None = None) -> DocContext:
        """The document's context from its mentions (numbers that state a claim already removed); `claimed`:
        the claims' figures, sorted; `printed`: the lines of code blocks a program printed, sorted (their setup
        lines state conditions); `feeds`: per section, the Python cells its run's code reads names from
        (code/flow.py): they ran, whatever their lead-in calls them."""
        starts = [b.start for b in d.blocks]
        cells = [(c.start, c.end, t, -1 if r == 0 else r - 1, c.col)
                 for t, table in enumerate(d.tables)
                 for r, row in enumerate([table.header] + table.rows) for c in row]
        cells.sort()
        cell_starts = [c[0] for c in cells]
        located: list[Located] = []
        section_of = SectionLookup(d)
        command_blocks = self.benchmark_blocks(d, found)
        feeds = feeds or {}
        example_blocks = self.example_blocks(d, command_blocks) - {b for fed in feeds.values() for b in fed}
        baselines = baseline_names(d.view, found, self.baseline_tail)
        anchors = [m.span() for m in self.anchor_link.finditer(d.text)]
        versus, between = comparison_sides(d.view, found, *self.sides)
        sentences: dict[tuple[int, int], _SentenceReading] = {}
        accuracy_blocks: dict[int, bool] = {}
        for m in found:
            if m.kind == "command_line":
                continue
            i = bisect_right(starts, m.span[0]) - 1
            block = i if i >= 0 and d.blocks[i].start <= m.span[0] < max(d.blocks[i].end, d.blocks[i].start + 1) \
                else -1
            code = block >= 0 and d.blocks[block].kind == "code"
            output = code and inside_near(printed, *m.span)
            j = bisect_right(cell_starts, m.span[0]) - 1
            cell = cells[j] if j >= 0 and cells[j][0] <= m.span[0] < cells[j][1] + 1 else None
            if code and not output and block not in command_blocks or anchors and inside_near(anchors, *m.span) \
                    or (m.kind, m.span) in baselines and self._cue_in_own_cell(d, m, cell):
                continue
            loc = Located(m, block, section_of(m.span[0]) if block >= 0 or not d.meta_span else None,
                          code=code and not output, output=output,
                          side=(m.kind, m.span) in between or (m.kind, m.span) in versus and block >= 0
                          and d.blocks[block].kind == "caption")
            if not output:
                self._ties(d, loc, example_blocks, sentences, accuracy_blocks, claimed)
            if cell is not None:
                _, _, loc.table, loc.row, loc.col = cell
            located.append(loc)
        self._accuracy_sets_everywhere(d, located)
        located.sort(key=lambda x: x.m.span)
        for x, (family, mode, device, model) in self.binder.bind(d, located):
            x.for_family, x.for_mode, x.for_device, x.for_model = family, mode, device, model
        line_starts = [0, *(m.end() for m in _NEWLINE.finditer(d.view))]
        ends = own_ends(d)
        run_in_back = self._back_matter_run(d, found, command_blocks - example_blocks)
        setup: list[int] = []
        labelled: set[int] = set()   # setup sections by their labelled items alone (no setup heading)
        for i, s in enumerate(d.sections):
            if self.usage_heading.search(s.title):
                continue
            if self.is_setup_heading(s.title) or i in run_in_back:
                setup.append(i)
            elif self._labelled_setup(d, i, line_starts, ends[i]):
                setup.append(i)
                labelled.add(i)
        back = [i for i in range(len(d.sections)) if self._in_back_matter(d, i)]
        groups = self._groups(d)
        return DocContext(d, located, setup, {i for i in setup if i in back}, section_of,
                          groups, self.alternative_items(d), claimed, feeds, labelled, back, carried_cells(d, groups))

    def _cue_in_own_cell(self, d: Document, m: Mention, cell: tuple[int, int, int, int, int] | None) -> bool:
        """Whether the baseline cue before a name lies in the name's own table cell: the last cell of the row
        above ("Reference (eager)") is no cue of the model that opens the next row."""
        return cell is None or self.baseline_tail.before(d.view[cell[0]:m.span[1]], m.span[0] - cell[0])

    def _back_matter_run(self, d: Document, found: list[Mention], blocks: set[int]) -> set[int]:
        """The section of the back matter (under a top-level back-matter heading, or that heading itself) that runs
        the post's one benchmark command ("Appendix > Run the server and the benchmark"): it shows how the post's
        results were produced, and sets them up like a setup section. Several benchmark commands there are several
        experiments: none is the post's."""
        sections = {d.blocks[i].section for i in blocks if d.blocks[i].section is not None}
        sections = {i for i in sections if self._in_back_matter(d, i)
                    or d.sections[i].parent is None and self.back_matter_heading.search(d.sections[i].title)}
        if not sections:
            return set()
        spans = [(b.start, b.end) for i, b in enumerate(d.blocks) if i in blocks and b.section in sections]
        runs = {m.span[0] for m in found if m.kind == "command_line" and any(a <= m.span[0] < b for a, b in spans)
                and self.bench_command.search(m.quote)}
        return sections if len(runs) == 1 else set()

    def _in_back_matter(self, d: Document, section: int) -> bool:
        """A section under a back-matter heading ("Appendix", "Reproducing the results")."""
        parent = d.sections[section].parent
        while parent is not None:
            if self.back_matter_heading.search(d.sections[parent].title):
                return True
            parent = d.sections[parent].parent
        return False

    def alternative_items(self, d: Document) -> set[int]:
        """The list items after a paragraph that introduces alternatives ("two workloads:"): each describes
        its own experiment; and the items of a news list or change log that open with a date ("[2025/06/24]
        Introducing FP4 ..."): each announces its own release or post."""
        out: set[int] = {i for i, b in enumerate(d.blocks)
                         if b.kind == "list_item" and self.dated_item.match(d.text, b.start, b.end)}
        for i, b in enumerate(d.blocks[:-1]):
            if b.kind == "paragraph" and d.blocks[i + 1].kind == "list_item" \
                    and self.alternatives_lead_in.search(d.view, b.start, b.end):
                j = i + 1
                while j < len(d.blocks) and d.blocks[j].kind == "list_item":
                    out.add(j)
                    j += 1
        return out

    def benchmark_blocks(self, d: Document, found: list[Mention]) -> set[int]:
        """The code blocks that run a benchmark: they state conditions; a launch-only block is a usage
        example. The run's code the parsed reading found (code/reader.py: mentions of rule `code:`) counts."""
        commands = [m for m in found if m.kind == "command_line" or m.rule.startswith(CODE_RULE)]
        return {i for i, b in enumerate(d.blocks) if b.kind == "code"
                and any(b.start <= m.span[0] < b.end
                        and (m.rule.startswith(CODE_RULE) or self.bench_command.search(m.quote)) for m in commands)}

    def is_setup_heading(self, title: str) -> bool:
        """A heading that names a setup phrase, or ends with a setup word and is short: a long title that
        ends with one ("Why the fastest configuration is not the default one") is about a result."""
        if self.setup_phrase.search(title):
            return True
        words = _HEADING_WORDS.findall(_NUMBERING.sub("", title))
        return bool(self.setup_ending.search(title)) and len(words) <= self.scopes.setup_heading_max_words \
            and not self.topic_heading.match(title)

    def example_blocks(self, d: Document, command_blocks: set[int]) -> set[int]:
        """The benchmark code blocks the post presents as examples: the paragraph that introduces them says
        so ("The commands below are only an example", "For instance, run:"), and does not say they made
        the results ("this is the command we used to produce the numbers above")."""
        out = set()
        for i in command_blocks:
            j = i - 1
            while j >= 0 and d.blocks[j].kind == "code":
                j -= 1
            if j < 0 or d.blocks[j].section != d.blocks[i].section:
                continue
            b = d.blocks[j]
            if self.example_code_cue.search(d.view, b.start, b.end) and \
                    not self.measured_code_cue.search(d.view, b.start, b.end):
                out.add(i)
        return out

    def _ties(self, d: Document, loc: Located, example_blocks: set[int], sentences: dict[tuple[int, int], _SentenceReading],
              accuracy_blocks: dict[int, bool], claimed: list[tuple[int, int]]) -> None:
        """Mark what ties a mention to something other than the claims around it: an example, the metric
        it was measured for, an accuracy evaluation. `sentences`, `accuracy_blocks`: the document's sentences and
        blocks as read so far (each read once, whatever the number of mentions in it); `claimed`: the claims'
        figures, sorted."""
        lo, hi = loc.m.span
        if loc.code:
            loc.example = loc.block in example_blocks
            return
        b = d.blocks[loc.block] if loc.block >= 0 else None
        start = max(b.start if b else 0, lo - _LOOK_BACK)
        before = d.view[start:lo]
        cut = max(before.rfind(". "), before.rfind(";"), before.rfind(")"), before.rfind("\n"))
        clause = before[cut + 1:] if cut >= 0 else before
        loc.example = self.example_cue.search(clause) is not None
        loc.accuracy_clause = loc.m.kind == "dataset" and self.accuracy_clause_cue.search(clause) is not None
        if loc.name in MEASURED_KINDS or loc.name == "scenario":
            slo = [m.start() for m in self.slo_point_cue.finditer(clause)]   # the last such phrase before it
            loc.slo_from = lo - len(clause) + slo[-1] if slo else None
        if binding := self.metric_binding.search(clause):
            named = [(m.end(), f) for f, rx in self.family_cues.items()
                     for m in rx.finditer(clause, 0, binding.start())]
            loc.bound = max(named)[1] if named else None
        if b is not None and b.kind != "table":
            s_lo, s_hi = covering(d.view, lo, hi, "sentence")
            loc.sentence = (max(s_lo, b.start), min(s_hi, b.end))
            if not loc.example and self.example_kind_cue.search(clause):
                # "models like X" in a remark with a figure of its own: that remark's example
                i = bisect_left(claimed, (loc.sentence[0], -1))
                loc.example = i < len(claimed) and claimed[i][0] < loc.sentence[1]
            read = sentences.get(loc.sentence)   # what the sentence says, read once for all of its mentions
            if read is None:
                read = sentences[loc.sentence] = _SentenceReading(
                    self.comparison_cue.search(d.view, *loc.sentence) is not None)
            loc.compares = read.compares
            # (a scenario too: "For the offline case, ..., measuring output throughput" names the offline runs of
            # throughput results, not of the latency ones another sentence gives the online case)
            if loc.bound is None and (loc.m.kind in MEASURED_KINDS or loc.m.kind == "scenario"):
                if read.measured is _UNREAD:
                    read.measured = self._measured_family(d, *loc.sentence)
                loc.measured = read.measured
            if loc.name in _SYSTEM_SETTINGS:
                if read.speed is None:
                    read.speed = self.speed_runs_cue.search(d.view, *loc.sentence) is not None
                loc.speed = read.speed
        if loc.m.kind == "dataset" and b is not None and b.kind != "table":
            if loc.block not in accuracy_blocks:
                accuracy_blocks[loc.block] = self.accuracy_cue.search(d.view, b.start, b.end) is not None
            loc.accuracy = accuracy_blocks[loc.block]

    def _accuracy_sets_everywhere(self, d: Document, located: list[Located]) -> None:
        """A dataset the post names in a passage that checks accuracy ("we measured accuracy on GSM8K") is
        its accuracy evaluation wherever else the post names it ("the accuracy runs repeat GSM8K five
        times"), not a serving workload (`accuracy_check_cue`: a plain statement about accuracy); a set made
        for serving benchmarks (`serving_workloads`: ShareGPT, random prompts) stays a workload elsewhere."""
        blocks = d.blocks
        sets = {_dataset_key(x.m) for x in located if x.accuracy and x.block >= 0 and blocks[x.block].kind != "caption"
                and not self.serving_workloads.fullmatch(_dataset_key(x.m))
                and self.accuracy_check_cue.search(d.view, blocks[x.block].start, blocks[x.block].end)}
        for x in located if sets else ():
            if x.m.kind == "dataset" and _dataset_key(x.m) in sets:
                x.accuracy = True

    def _measured_family(self, d: Document, s_lo: int, s_hi: int) -> str | None:
        """The metric family a sentence says its run measured ("..., measuring p90 TTFT"), when it
        names exactly one."""
        named = set()
        for cue in self.measures_cue.finditer(d.view, s_lo, s_hi):
            reach = cue.end() + self.scopes.measures_reach
            if self.names_no_metric.match(d.view, cue.end(), s_hi):
                continue   # "to gauge end-to-end serving performance": no one metric
            named |= {f for f, rx in self.family_cues.items() if (m := rx.search(d.view, cue.end(), s_hi))
                      and m.start() <= reach}
        return named.pop() if len(named) == 1 else None

    def _labelled_setup(self, d: Document, section: int, line_starts: list[int], own_end: int) -> bool:
        """A section whose own text (up to `own_end`) has several 'Label: value' set-up lines
        ("Hardware: 4x A100")."""
        sec = d.sections[section]
        return self._label_lines(d.view, line_starts, sec.end, own_end) >= self.scopes.setup_label_min

    def _label_lines(self, view: str, line_starts: list[int], lo: int, hi: int) -> int:
        """len(setup_label.findall(view, lo, hi)), tried only where it can match: the pattern is
        `^\\W*label\\W*:`, so it starts at a line start up to the last colon, and where it fails it also
        fails at the later line starts of the same run of non-word characters (blank lines, masked code)."""
        n, free = 0, lo
        last_colon = view.rfind(":", lo, hi)
        for p in line_starts[bisect_left(line_starts, lo):bisect_right(line_starts, last_colon)]:
            if p < free:
                continue
            if m := self.setup_label.match(view, p, hi):
                n, free = n + 1, m.end()
            else:
                word = _WORD.search(view, p, hi)
                free = word.start() + 1 if word else hi
        return n

    @staticmethod
    def _groups(d: Document) -> dict[tuple[int, int], int | None]:
        """(table, row) -> index of the group-label row governing it, if any: a row of one filled cell that is no
        number ("| **H100** |" over the rows measured on it, also written as a one-cell row of a wider table); a
        label that opens with a number ("| 4 nodes |") names no system and ends the group above it."""
        groups: dict[tuple[int, int], int | None] = {}
        for t, table in enumerate(d.tables):
            current = None
            width = len(table.header)
            for r, row in enumerate(table.rows):
                filled = [c for c in row if c.end > c.start]
                if group_label(d.view, row) is not None:
                    current = r
                elif len(filled) == 1 and max(len(row), width) > 1:   # a label row ends the group above it
                    current = None if _NUMBER_START.match(d.view, filled[0].start, filled[0].end) else r
                groups[(t, r)] = current
        return groups


_UNREAD = object()   # a sentence's measured family not read yet (None: it names none, or several)


@dataclass(slots=True)
class _SentenceReading:
    """What a sentence says about the mentions in it, read once per sentence (`DocumentReader._ties`): whether it
    makes a comparison, the metric family it says its run measured, whether it is about speed runs."""

    compares: bool
    measured: object = _UNREAD
    speed: bool | None = None


_NUMBER_START = re.compile(r"[\s*_`]*[~<>≈±+\-−]?\s*\d")   # a cell that opens with a number is a value, not a label


def _dataset_key(m: Mention) -> str:
    return (m.canonical or str(m.value)).casefold()
