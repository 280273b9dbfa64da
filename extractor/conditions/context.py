"""What condition resolution knows of one document, computed once: the condition mentions placed in
the document (block, section, table cell), grouped by place, plus the document's setup sections,
figures and table group-label rows. `DocumentReader` builds it; `DocContext` holds it."""
from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from extractor.conditions.baselines import baselines as baseline_names
from extractor.conditions.code.reader import CODE_RULE
from extractor.conditions.figures import Figure
from extractor.conditions.mentions import Mention
from extractor.conditions.scan import covering
from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document
from extractor.ingest.model import Cell, group_label
from extractor.records import Claim
from extractor.spans import inside_near

# A mention of kind `engine` states the condition `engine_version`; every other kind is its condition.
KIND_TO_CONDITION = {"engine": "engine_version"}
NUMERIC_KINDS = {"input_length", "output_length", "batch_or_concurrency", "gpu_count"}
MEASURED_KINDS = {"input_length", "output_length", "batch_or_concurrency"}   # a run's load settings
_NEWLINE = re.compile(r"\n")
_WORD = re.compile(r"\w")
_NUMBERING = re.compile(r"^\s*(?:[\dIVX]+[.)]?)+\s*")
_HEADING_WORDS = re.compile(r"[^\W_][\w'-]*")
_LOOK_BACK = 120   # characters of a mention's clause read for what ties it


def condition_of(kind: str) -> str:
    """The condition a mention of this kind states."""
    return KIND_TO_CONDITION.get(kind, kind)


@dataclass(slots=True)
class Located:
    """A mention and where it sits in the document."""

    m: Mention
    block: int
    section: int | None
    table: int | None = None
    row: int | None = None   # -1: header row
    col: int | None = None
    code: bool = False       # inside a code block that holds a benchmark or launch command
    output: bool = False     # on a line a program printed (a setup line of the results printed with it)
    example: bool = False    # given as an example ("e.g. ...", a command the post calls an example)
    bound: str | None = None  # the metric family it was measured for ("ITL measured at 12 QPS": latency)
    accuracy: bool = False   # a dataset of an accuracy evaluation, not a serving workload
    measured: str | None = None   # the metric family its sentence says the run measured ("..., measuring latency")
    for_family: str | None = None   # a setting its sentence gives one metric family of several ("BS=1 for TTFT")
    for_mode: str | None = None     # a setting its sentence gives one named mode ("BS=1, min-latency mode")
    for_device: str | None = None   # ... one device of several ("H100 BS 8, H200 BS 32")
    for_model: str | None = None    # ... one model of several ("Model-A: BS 8 | Model-B: BS 64")
    sentence: tuple[int, int] | None = None   # its sentence (prose and captions; None in tables and code)
    compares: bool = False   # its sentence makes a comparison of its own ("quicker than X with 4 users")
    other_run: bool | None = None   # its sentence describes another run, whatever the claim (ScopeLadder's)
    name: str = field(init=False)     # the condition it states
    usable: bool = field(init=False)  # a value, not a column header's label or an overflowing number

    def __post_init__(self) -> None:
        self.name = condition_of(self.m.kind)
        self.usable = self.m.value != "header" and _finite(self.m.value)


class SectionLookup:
    """`Document.section_at` for many offsets: its answer changes only at a section's start or body end,
    so it is asked once per stretch between those and looked up by bisection."""

    def __init__(self, d: Document):
        self.bounds = sorted({0, *(s.start for s in d.sections), *(s.body_end for s in d.sections)})
        self.sections = [d.section_at(b) for b in self.bounds]

    def __call__(self, offset: int) -> int | None:
        return self.sections[bisect_right(self.bounds, offset) - 1]


@dataclass(slots=True)
class DocContext:
    """Everything condition resolution needs from one document, computed once."""

    d: Document
    mentions: list[Located]
    setup: list[int]
    offers: dict[str, str]
    figures: list[Figure]
    section_of: SectionLookup
    groups: dict[tuple[int, int], int | None] = field(default_factory=dict)
    starts: list[int] = field(default_factory=list)
    by_block: dict[int, list[Located]] = field(default_factory=dict)
    by_table: dict[int, list[Located]] = field(default_factory=dict)
    prose: dict[int | None, list[Located]] = field(default_factory=dict)
    prose_starts: dict[int | None, list[int]] = field(default_factory=dict)
    code: dict[int | None, list[Located]] = field(default_factory=dict)
    code_feeds: dict[int | None, set[int]] = field(default_factory=dict)   # section -> cells its run's code reads from
    output: dict[int, list[Located]] = field(default_factory=dict)   # code block -> mentions on its printed lines
    captions: dict[int | None, list[Located]] = field(default_factory=dict)
    table_block: dict[int, int] = field(default_factory=dict)
    block_starts: list[int] = field(default_factory=list)
    fuller_names: dict[tuple[str, str], Mention | None] = field(default_factory=dict)   # Policy.only_member's
    settings_of: dict[tuple[int, int], list[tuple[str, str]]] = field(default_factory=dict)   # usable_settings'
    table_starts: list[int] = field(default_factory=list)
    caption_runs: dict[int | None, list[list[int]]] = field(default_factory=dict)
    alternatives: set[int] = field(default_factory=set)   # list items that each describe their own experiment
    # per-document memos of what many claims ask alike
    figure_after: dict[int, str | None] = field(default_factory=dict)
    notes: dict[tuple[str, str, str, str, str | None], tuple[str, str]] = field(default_factory=dict)
    columns: dict[tuple[int, str], list[Cell]] = field(default_factory=dict)
    row_starts: dict[int, tuple[list[int], list[int]]] = field(default_factory=dict)   # table -> row starts, rows
    table_lead_ins: dict[int, list[Located]] = field(default_factory=dict)
    table_footnotes: dict[int, list[Located]] = field(default_factory=dict)
    figures_named: dict[int, set[str]] = field(default_factory=dict)   # block -> the figures it refers to
    setup_by_parent: dict[int | None, list[int]] | None = None
    top_setup_starts: list[int] | None = None   # where the setup sections of parent None start (None: not in order)
    figure_index: tuple[list[int], list[int]] | None = None   # figure positions sorted, and their indexes
    caption_families: dict[int, set[str]] = field(default_factory=dict)
    specific: dict[tuple[int, ...], list[Mention]] = field(default_factory=dict)
    external_cue: dict[int, bool] = field(default_factory=dict)
    section_starts: list[int] | None = None   # the sections' starts when in text order, else []
    feature_links: dict[str, list[tuple[float, int | None]]] = field(default_factory=dict)   # Places.linked_section's
    mode_settings: dict[tuple[str, str], Mention | None] = field(default_factory=dict)   # bindings.mode_setting's
    claim_spans: list[tuple[int, int]] = field(default_factory=list)   # every claim's figure, in order
    claim_starts: list[int] = field(default_factory=list)   # their starts (for `claims_in`)
    # mentions of the post's statements of universal scope, each with the offset the claims it covers start before
    universal: list[tuple[Located, int]] | None = None
    universal_reaches: list[int] = field(default_factory=list)   # their distinct reaches, sorted
    # the rungs many claims read alike, built once (ScopeLadder's `SharedRung`s): setup sections, universal ...
    rungs: dict[object, list[Located]] = field(default_factory=dict)
    # setup sections in the post's back matter (an appendix, a reproduction section): they set up the whole post
    back_matter_setup: set[int] = field(default_factory=set)

    def index(self) -> None:
        """Group the mentions by place once, so each claim's scopes are look-ups, not scans."""
        self.mentions.sort(key=lambda x: x.m.span)
        self.starts = [x.m.span[0] for x in self.mentions]
        table_captions = {t.caption.start for t in self.d.tables if t.caption}
        for x in self.mentions:
            self.by_block.setdefault(x.block, []).append(x)
            if x.table is not None:
                self.by_table.setdefault(x.table, []).append(x)
            if x.output:
                self.output.setdefault(x.block, []).append(x)
            elif x.code:
                self.code.setdefault(x.section, []).append(x)
            elif x.block >= 0 and x.table is None:
                self.prose.setdefault(x.section, []).append(x)
                b = self.d.blocks[x.block]
                if b.kind == "caption" and b.start not in table_captions:
                    self.captions.setdefault(x.section, []).append(x)
        self.prose_starts = {s: [x.m.span[0] for x in located] for s, located in self.prose.items()}
        self.block_starts = [b.start for b in self.d.blocks]
        self.table_starts = [t.start for t in self.d.tables]
        table_blocks = {b.start: i for i, b in enumerate(self.d.blocks) if b.kind == "table"}
        for t, table in enumerate(self.d.tables):
            i = bisect_right(self.block_starts, table.start) - 1
            self.table_block[t] = i if i >= 0 and self.d.blocks[i].kind == "table" else table_blocks.get(table.start, -1)
        for i, b in enumerate(self.d.blocks):   # runs of consecutive caption blocks: one figure's captions
            if b.kind == "caption":
                runs = self.caption_runs.setdefault(b.section, [])
                if runs and runs[-1][-1] == i - 1:
                    runs[-1].append(i)
                else:
                    runs.append([i])

    def between(self, start: int, end: int) -> list[Located]:
        """Mentions that start in [start, end)."""
        return self.mentions[bisect_left(self.starts, start):bisect_left(self.starts, end)]

    def usable_settings(self, sentence: tuple[int, int]) -> list[tuple[str, str]]:
        """(condition, value) of the usable mentions that start in a sentence, read once per sentence."""
        found = self.settings_of.get(sentence)
        if found is None:
            found = [(y.name, repr(y.m.value)) for y in self.between(*sentence) if y.usable]
            self.settings_of[sentence] = found
        return found

    def set_claims(self, spans: list[tuple[int, int]]) -> None:
        """The claims' figures (sorted), indexed for `claims_in`."""
        self.claim_spans = spans
        self.claim_starts = [s[0] for s in spans]

    def claims_in(self, start: int, end: int) -> list[tuple[int, int]]:
        """The claims' figures that start in [start, end), in order (a bisection, not a scan of every claim)."""
        return self.claim_spans[bisect_left(self.claim_starts, start):bisect_left(self.claim_starts, end)]

    def prose_before(self, section: int | None, end: int) -> list[Located]:
        """The prose mentions of a section that start before `end`."""
        located = self.prose.get(section, [])
        return located[:bisect_left(self.prose_starts[section], end)] if located else located

    def figure_near(self, claim: Claim) -> str | None:
        """The figure a claim is read from: the next figure in its section, else the nearest one."""
        pos = claim.span[0]
        if pos not in self.figure_after:
            sec = self.section_of(pos)
            end = self.d.sections[sec].body_end if sec is not None else len(self.d.text)
            if self.figure_index is None:   # figures by position, once: each claim bisects, not scans
                order = sorted(range(len(self.figures)), key=lambda i: self.figures[i].at)
                self.figure_index = ([self.figures[i].at for i in order], order)
            ats, order = self.figure_index
            after = [self.figures[i].label for i in sorted(order[bisect_left(ats, pos):bisect_left(ats, end)])]
            # (a label "Figure N" names a numbered figure; the labels are made by `DocumentReader.figures`)
            self.figure_after[pos] = (after[-1] if len(after) > 1 and "Figure" in after[-1] else after[0]) \
                if after else None
        return self.figure_after[pos]


class DocumentReader:
    """Builds a document's `DocContext`: places each mention, finds the setup sections, the figures and
    the group-label rows of tables."""

    def __init__(self, scopes: ScopeRules, family_cues: dict[str, re.Pattern[str]] | None = None):
        self.scopes = scopes
        self.setup_ending, self.setup_phrase = scopes.setup_heading()
        self.topic_heading = re.compile(scopes.topic_heading, re.I)
        self.usage_heading = scopes.usage_heading()
        self.back_matter_heading = scopes.back_matter_heading()
        self.alternatives_lead_in = re.compile(scopes.alternatives_lead_in, re.I)
        self.family_cues = family_cues or {}
        self.example_cue = re.compile(scopes.example_cue, re.I)
        self.example_code_cue = re.compile(scopes.example_code_cue, re.I)
        self.measured_code_cue = re.compile(scopes.measured_code_cue, re.I)
        self.metric_binding = re.compile(scopes.metric_binding, re.I)
        self.measures_cue = re.compile(scopes.measures_cue, re.I)
        self.comparison_cue = re.compile(scopes.comparison_cue, re.I)
        self.accuracy_cue = re.compile(scopes.accuracy_cue, re.I)
        self.accuracy_check_cue = re.compile(scopes.accuracy_check_cue, re.I)
        self.serving_workloads = re.compile(scopes.serving_workloads, re.I)
        self.setup_label = scopes.setup_label()
        self.baseline_tail = scopes.baseline_tail()
        self.bench_command = re.compile(scopes.benchmark_command, re.I)

    def context(self, d: Document, found: list[Mention], offers: dict[str, str],
                figures: list[Figure], printed: list[tuple[int, int]] = ()) -> DocContext:
        """The document's context from its mentions (numbers that state a claim already removed); `printed`:
        the lines of code blocks a program printed, sorted (their setup lines state conditions)."""
        starts = [b.start for b in d.blocks]
        cells = [(c.start, c.end, t, -1 if r == 0 else r - 1, c.col)
                 for t, table in enumerate(d.tables)
                 for r, row in enumerate([table.header] + table.rows) for c in row]
        cells.sort()
        cell_starts = [c[0] for c in cells]
        located: list[Located] = []
        section_of = SectionLookup(d)
        command_blocks = self.benchmark_blocks(d, found)
        example_blocks = self.example_blocks(d, command_blocks)
        baselines = baseline_names(d.view, found, self.baseline_tail)
        for m in found:
            if m.kind == "command_line":
                continue
            i = bisect_right(starts, m.span[0]) - 1
            block = i if i >= 0 and d.blocks[i].start <= m.span[0] < max(d.blocks[i].end, d.blocks[i].start + 1) \
                else -1
            code = block >= 0 and d.blocks[block].kind == "code"
            output = code and inside_near(printed, *m.span)
            if code and not output and block not in command_blocks or (m.kind, m.span) in baselines:
                continue
            loc = Located(m, block, section_of(m.span[0]) if block >= 0 or not d.meta_span else None,
                          code=code and not output, output=output)
            if not output:
                self._ties(d, loc, example_blocks)
            j = bisect_right(cell_starts, m.span[0]) - 1
            if j >= 0 and cells[j][0] <= m.span[0] < cells[j][1] + 1:
                _, _, loc.table, loc.row, loc.col = cells[j]
            located.append(loc)
        self._accuracy_sets_everywhere(d, located)
        line_starts = [0, *(m.end() for m in _NEWLINE.finditer(d.view))]
        own_ends = _own_ends(d)
        run_in_back = self._back_matter_run(d, found, command_blocks - example_blocks)
        setup = [i for i, s in enumerate(d.sections) if not self.usage_heading.search(s.title)
                 and (self.is_setup_heading(s.title) or i in run_in_back
                      or self._labelled_setup(d, i, line_starts, own_ends[i]))]
        ctx = DocContext(d, located, setup, offers, figures, section_of)
        ctx.back_matter_setup = {i for i in setup if self._in_back_matter(d, i)}
        ctx.groups = self._groups(d)
        ctx.alternatives = self.alternative_items(d)
        ctx.index()
        return ctx

    def _back_matter_run(self, d: Document, found: list[Mention], blocks: set[int]) -> set[int]:
        """The section of the back matter (under a top-level back-matter heading, or that heading itself) that runs
        the post's one benchmark command ("Appendix > Run the server and the benchmark"): it shows how the post's results were produced, and sets them up like a setup
        section. Several benchmark commands there are several experiments: none is the post's."""
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
        its own experiment."""
        out: set[int] = set()
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

    def _ties(self, d: Document, loc: Located, example_blocks: set[int]) -> None:
        """Mark what ties a mention to something other than the claims around it: an example, the metric
        it was measured for, an accuracy evaluation."""
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
        if binding := self.metric_binding.search(clause):
            named = [(m.end(), f) for f, rx in self.family_cues.items()
                     for m in rx.finditer(clause, 0, binding.start())]
            loc.bound = max(named)[1] if named else None
        if b is not None and b.kind != "table":
            s_lo, s_hi = covering(d.view, lo, hi, "sentence")
            loc.sentence = (max(s_lo, b.start), min(s_hi, b.end))
            loc.compares = self.comparison_cue.search(d.view, *loc.sentence) is not None
            if loc.bound is None and loc.m.kind in MEASURED_KINDS:
                loc.measured = self._measured_family(d, *loc.sentence)
        if loc.m.kind == "dataset" and b is not None and b.kind != "table":
            loc.accuracy = self.accuracy_cue.search(d.view, b.start, b.end) is not None

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
        """(table, row) -> index of the group-label row governing it, if any."""
        groups: dict[tuple[int, int], int | None] = {}
        for t, table in enumerate(d.tables):
            current = None
            for r, row in enumerate(table.rows):
                if group_label(d.view, row) is not None:
                    current = r
                groups[(t, r)] = current
        return groups


def _dataset_key(m: Mention) -> str:
    return (m.canonical or str(m.value)).casefold()


def _finite(value) -> bool:
    """A number too large for a float (a 400-digit "rate") states nothing usable."""
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return not isinstance(value, float) or math.isfinite(value)


def flat_prose(d: Document) -> str:
    """The view with the soft line breaks inside prose blocks made spaces (same length), so a phrase
    wrapped across lines ("1,000\\ninput tokens") reads as written; code keeps its lines."""
    view = d.view
    spans = sorted((b.start, b.end) for b in d.blocks
                   if b.kind not in ("code", "table") and view.find("\n", b.start, b.end) >= 0)
    parts, done = [], 0
    for start, end in spans:   # (overlapping blocks: each stretch is flattened once)
        start = max(start, done)
        if end > start:
            parts += [view[done:start], view[start:end].replace("\n", " ")]
            done = end
    return "".join(parts) + view[done:] if parts else view


def _own_ends(d: Document) -> list[int]:
    """Where each section's own text ends: at the first heading inside its body, else at its body end.
    One bisection per section when the sections are in text order (as ingestion makes them)."""
    starts = [s.start for s in d.sections]
    if any(a > b for a, b in zip(starts, starts[1:])):
        return [next((s.start for s in d.sections if sec.start < s.start < sec.body_end), sec.body_end)
                for sec in d.sections]
    ends = []
    for sec in d.sections:
        k = bisect_right(starts, sec.start)
        ends.append(starts[k] if k < len(starts) and starts[k] < sec.body_end else sec.body_end)
    return ends
