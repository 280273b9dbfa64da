"""Load conditions of each claim: found by scope, most specific first; unstated ones marked
unrecoverable with a where-note, never filled in by a guess.

Scopes, most specific first: the claim's sentence (or table cell), its table row (with the
row's group label), its column header, the table caption, a footnote under the table,
the paragraph (with a lead-in paragraph that introduces its list or table), the section,
the setup sections that cover it, and the front matter / title.
"""
from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from rapidfuzz import fuzz

from extractor.claims.headlines import same_figure
from extractor.claims.rules import load_claim_rules
from extractor.conditions.rules import ScopeRules, WhereRules, load_scope_rules, load_where_rules
from extractor.ingest import Document
from extractor.ingest.model import Cell
from extractor.conditions.mentions import Mention, MentionFinder, blank_free_runs
from extractor.conditions.restatements import distinctive as _distinctive
from extractor.records import CONDITIONS, Claim, Condition
from extractor.ingest.segment import Unit

KIND_TO_CONDITION = {"engine": "engine_version"}
RATIO_OBJECT_CHARS = 40
_PAREN = re.compile(r"\([^)]*\)|\[[^\]]*\]")
NEAR_FIGURE_BLOCKS = 3
# Metric families whose figures a caption may name ("max throughput", "1st token latency").
FAMILIES = {"throughput": "rate", "request_throughput": "rate", "ttft": "latency", "tpot": "latency",
            "itl": "latency", "e2e_latency": "latency", "latency": "latency"}
BASELINE_KINDS = {"model", "hardware", "engine", "precision"}
NUMERIC_KINDS = {"input_length", "output_length", "batch_or_concurrency", "gpu_count"}
_NEWLINE = re.compile(r"\n")
_WORD = re.compile(r"\w")
_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?\s*[kKmM]?\b")
_FIGURE = re.compile(r"\b(?:figure|fig\.)\s*(\d+)", re.I)


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
    name: str = field(init=False)     # the condition it states
    usable: bool = field(init=False)  # a value, not a column header's label or an overflowing number

    def __post_init__(self) -> None:
        self.name = KIND_TO_CONDITION.get(self.m.kind, self.m.kind)
        self.usable = self.m.value != "header" and _finite(self.m.value)


@dataclass(slots=True)
class DocContext:
    """Everything condition resolution needs from one document, computed once."""

    d: Document
    mentions: list[Located]
    setup: list[int]
    offers: dict[str, str]
    figures: list[tuple[int, str]]
    section_of: SectionLookup
    groups: dict[tuple[int, int], int | None] = field(default_factory=dict)
    starts: list[int] = field(default_factory=list)
    by_block: dict[int, list[Located]] = field(default_factory=dict)
    by_table: dict[int, list[Located]] = field(default_factory=dict)
    prose: dict[int | None, list[Located]] = field(default_factory=dict)
    prose_starts: dict[int | None, list[int]] = field(default_factory=dict)
    code: dict[int | None, list[Located]] = field(default_factory=dict)
    captions: dict[int | None, list[Located]] = field(default_factory=dict)
    table_block: dict[int, int] = field(default_factory=dict)
    block_starts: list[int] = field(default_factory=list)
    table_starts: list[int] = field(default_factory=list)
    caption_runs: dict[int | None, list[list[int]]] = field(default_factory=dict)
    # per-document memos of what many claims ask alike
    figure_after: dict[int, str | None] = field(default_factory=dict)
    notes: dict[tuple[str, str, str, str, str | None], tuple[str, str]] = field(default_factory=dict)
    columns: dict[tuple[int, str], list[Cell]] = field(default_factory=dict)
    caption_families: dict[int, set[str]] = field(default_factory=dict)
    specific: dict[tuple[int, ...], list[Mention]] = field(default_factory=dict)
    external_cue: dict[int, bool] = field(default_factory=dict)

    def index(self) -> None:
        """Group the mentions by place once, so each claim's scopes are look-ups, not scans."""
        self.mentions.sort(key=lambda x: x.m.span)
        self.starts = [x.m.span[0] for x in self.mentions]
        table_captions = {t.caption.start for t in self.d.tables if t.caption}
        for x in self.mentions:
            self.by_block.setdefault(x.block, []).append(x)
            if x.table is not None:
                self.by_table.setdefault(x.table, []).append(x)
            if x.code:
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

    def prose_before(self, section: int | None, end: int) -> list[Located]:
        """The prose mentions of a section that start before `end`."""
        located = self.prose.get(section, [])
        return located[:bisect_left(self.prose_starts[section], end)] if located else located

    def most_specific(self, cands: list[Located]) -> list[Mention]:
        """`_most_specific`, once per set of candidates: the claims of a section share its broader scopes.
        Keyed by identity: the located mentions live as long as this context."""
        key = tuple(map(id, cands))
        if key not in self.specific:
            self.specific[key] = _most_specific(cands)
        return self.specific[key]


@dataclass(slots=True)
class Scopes:
    """A claim's scopes, most specific first: their mentions, and the usable ones by condition name."""

    levels: list[tuple[str, list[Located]]]
    usable: list[tuple[str, dict[str, list[Located]]]] = field(init=False)
    first: dict[str, tuple[str, list[Located]]] = field(init=False)   # condition -> its most specific scope
    in_table: bool = field(init=False)   # the claim sits in a table whose column headers may name a condition

    def __post_init__(self) -> None:
        self.usable = [(scope, _by_condition(located)) for scope, located in self.levels]
        self.first = {}
        for scope, by_name in self.usable:
            if scope != "table_column":   # a column's header states a condition through the row's cell
                for name, cands in by_name.items():
                    self.first.setdefault(name, (scope, cands))
        self.in_table = any(scope == "table_column" for scope, _ in self.levels)


def _by_condition(located: list[Located]) -> dict[str, list[Located]]:
    """The usable mentions of one scope, grouped by the condition they state (in document order)."""
    out: dict[str, list[Located]] = {}
    for x in located:
        if x.usable:
            out.setdefault(x.name, []).append(x)
    return out


class SectionLookup:
    """`Document.section_at` for many offsets: its answer changes only at a section's start or body end,
    so it is asked once per stretch between those and looked up by bisection."""

    def __init__(self, d: Document):
        self.bounds = sorted({0, *(s.start for s in d.sections), *(s.body_end for s in d.sections)})
        self.sections = [d.section_at(b) for b in self.bounds]

    def __call__(self, offset: int) -> int | None:
        return self.sections[bisect_right(self.bounds, offset) - 1]


_NON_NAME = re.compile(r"[^a-z0-9.]+")


@lru_cache(maxsize=8192)
def _norm(s: str) -> str:
    """Lower case, runs of other characters than letters, digits and dots made one space."""
    return _NON_NAME.sub(" ", s.lower()).strip()


def _key(m: Mention) -> str:
    if isinstance(m.value, dict):
        return repr(sorted(m.value.items()))
    return _norm(m.canonical or str(m.value))


class ConditionResolver:
    """Attaches the checklist conditions to claims."""

    def __init__(self, rules_dir: Path):
        self.scopes: ScopeRules = load_scope_rules(rules_dir)
        self.where: WhereRules = load_where_rules(rules_dir)
        self.finder = MentionFinder(rules_dir)
        self.setup_heading = self.scopes.setup_heading()
        self.setup_label = self.scopes.setup_label()
        self.baseline_tail = self.scopes.baseline_tail()
        self.bench_command = re.compile(self.scopes.benchmark_command, re.I)
        self.bare_version = re.compile(self.scopes.bare_version)
        cue_words = sorted(map(re.escape, self.scopes.external_cues), key=len, reverse=True)
        self.external_cue = re.compile(rf"(?<!\w)(?:{'|'.join(cue_words)})(?!\w)", re.I) if cue_words \
            else re.compile(r"(?!)")
        cues = load_claim_rules(rules_dir).metric_cues
        self.family_cues = {}
        for family in set(FAMILIES.values()):
            phrases = sorted({p for m, f in FAMILIES.items() if f == family for p in cues.get(m, [])}, key=len,
                             reverse=True)
            self.family_cues[family] = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, phrases)) + r")(?!\w)",
                                                  re.I)
        self.supporting = {_norm(e) for e in self.scopes.supporting_engines}
        self.composite = set(self.scopes.composite)
        self.after_claim = set(self.scopes.after_claim)
        self.count_words, self.unit_noun = self.scopes.hardware_name_parts()
        self.refinable = set(self.scopes.refinable)
        self.column_label = {name: re.compile("|".join(map(re.escape, labels)), re.I)
                             for name, labels in self.scopes.column_labels.items() if labels}
        self.offer_rx = {name: o.patterns() for name, o in self.where.offers.items()}
        self.offer_holds = {name: re.compile(re.escape(o.text_holds))
                            for name, o in self.where.offers.items() if o.text_holds}

    # -- per document --------------------------------------------------------------
    def mentions(self, d: Document) -> list[Mention]:
        """Every condition mention of a document: its view, front matter and (HTML) title."""
        flat = _flat_prose(d)
        k_base = self.finder.infer_k_base(flat)  # this resolver's rules; the same text lets find() reuse its scan
        found = self.finder.find(flat, k_base=k_base)
        if d.meta_span:
            lo, hi = d.meta_span
            found += self.finder.find(d.text[lo:hi], lo, k_base=k_base)
        if d.title_span and not d.view[d.title_span[0]:d.title_span[1]].strip():
            lo, hi = d.title_span
            found += self.finder.find(d.text[lo:hi], lo, k_base=k_base)
        return found + self._bare_versions(d, found)

    def _bare_versions(self, d: Document, found: list[Mention]) -> list[Mention]:
        """A version written without its engine ("the v0.9.1 image") in a post about one serving engine
        is that engine's version."""
        engines = {m.canonical or str(m.value) for m in found if m.kind == "engine"
                   and _norm(m.canonical or str(m.value)) not in self.supporting}
        if len(engines) != 1:
            return []
        engine = engines.pop()
        taken = sorted(m.span for m in found if m.kind == "engine")
        out = []
        for m in self.bare_version.finditer(d.view):
            span = (m.start("v"), m.end("v"))
            if not _overlaps(taken, span):
                out.append(Mention(kind="engine", value=engine, canonical=engine, version=m.group("v"),
                                   quote=d.text[span[0]:span[1]], span=span, rule="scopes.yaml:bare_version"))
        return out

    def context(self, d: Document, found: list[Mention], claims: list[Claim] = ()) -> DocContext:
        # a number that states a claim ("22.3k output tokens per second") is not also a condition
        claimed = sorted(c.span for c in claims)
        found = [m for m in found if m.kind not in NUMERIC_KINDS or not _overlaps(claimed, m.span)]
        starts = [b.start for b in d.blocks]
        cells = [(c.start, c.end, t, -1 if r == 0 else r - 1, c.col)
                 for t, table in enumerate(d.tables)
                 for r, row in enumerate([table.header] + table.rows) for c in row]
        cells.sort()
        cell_starts = [c[0] for c in cells]
        located: list[Located] = []
        section_of = SectionLookup(d)
        commands = [m for m in found if m.kind == "command_line"]
        # a code block states conditions when it runs a benchmark; a launch-only block is a usage example
        command_blocks = {i for i, b in enumerate(d.blocks) if b.kind == "code"
                          and any(b.start <= m.span[0] < b.end and self.bench_command.search(m.quote)
                                  for m in commands)}
        for m in found:
            if m.kind == "command_line":
                continue
            i = bisect_right(starts, m.span[0]) - 1
            block = i if i >= 0 and d.blocks[i].start <= m.span[0] < max(d.blocks[i].end, d.blocks[i].start + 1) \
                else -1
            code = block >= 0 and d.blocks[block].kind == "code"
            if code and block not in command_blocks or self._after_baseline_cue(d, m):
                continue
            loc = Located(m, block, section_of(m.span[0]) if block >= 0 or not d.meta_span else None, code=code)
            j = bisect_right(cell_starts, m.span[0]) - 1
            if j >= 0 and cells[j][0] <= m.span[0] < cells[j][1] + 1:
                _, _, loc.table, loc.row, loc.col = cells[j]
            located.append(loc)
        line_starts = [0, *(m.end() for m in _NEWLINE.finditer(d.view))]
        setup = [i for i, s in enumerate(d.sections) if self.setup_heading.search(s.title)
                 or self._labelled_setup(d, i, line_starts)]
        figures = self._figures(d)
        ctx = DocContext(d, located, setup, self._offers(d, commands, figures), figures, section_of)
        ctx.groups = self._groups(d)
        ctx.index()
        return ctx

    def _near_captions(self, ctx: DocContext, section: int | None, block: int) -> set[int]:
        """Caption blocks of the figures next to a claim: the nearest run of captions in its section and any
        run within a few blocks of that one (a figure, its table and the notes under them), not the
        captions of figures further along that show something else."""
        runs = ctx.caption_runs.get(section, [])
        if not runs or block < 0:
            return {i for r in runs for i in r}
        dist = [0 if r[0] <= block <= r[-1] else min(abs(r[0] - block), abs(r[-1] - block)) for r in runs]
        best = min(dist)
        return {i for r, dd in zip(runs, dist) if dd <= best + NEAR_FIGURE_BLOCKS for i in r}

    def _ratio_family(self, d: Document, claim: Claim) -> str | None:
        """What a speed-up or change is of, when the words right after it say ("4.4x faster 1st token
        latency" is about latency)."""
        if claim.metric not in ("speedup", "relative_change"):
            return None
        after = d.view[claim.span[0]:claim.span[1] + RATIO_OBJECT_CHARS]
        hits = [(rx.search(after), f) for f, rx in self.family_cues.items()]
        hits = [(m.start(), f) for m, f in hits if m]
        return min(hits)[1] if hits else None

    def _caption_fits(self, ctx: DocContext, block: int, family: str | None) -> bool:
        """A caption that names what its figure shows ("1st token latency") describes claims of that kind
        only; one naming nothing, or a claim of no such kind, fits any."""
        if family is None:
            return True
        if block not in ctx.caption_families:
            b = ctx.d.blocks[block]
            ctx.caption_families[block] = {f for f, rx in self.family_cues.items()
                                           if rx.search(ctx.d.view, b.start, b.end)}
        named = ctx.caption_families[block]
        return not named or family in named

    def _after_baseline_cue(self, d: Document, m: Mention) -> bool:
        """A name right after "than / vs / compared with" belongs to the baseline, not to the claim."""
        return m.kind in BASELINE_KINDS and self.baseline_tail.before(d.view, m.span[0])

    def _labelled_setup(self, d: Document, section: int, line_starts: list[int]) -> bool:
        """A section whose own text has several 'Label: value' set-up lines ("Hardware: 4x A100")."""
        sec = d.sections[section]
        own_end = next((s.start for s in d.sections if sec.start < s.start < sec.body_end), sec.body_end)
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

    def _groups(self, d: Document) -> dict[tuple[int, int], int | None]:
        """(table, row) -> index of the group-label row governing it, if any."""
        groups: dict[tuple[int, int], int | None] = {}
        for t, table in enumerate(d.tables):
            current = None
            for r, row in enumerate(table.rows):
                filled = [c for c in row if c.end > c.start]
                if len(filled) == 1 and len(row) > 1 and not any(ch.isdigit() for ch in d.view[filled[0].start:
                                                                                                filled[0].end]):
                    current = r
                groups[(t, r)] = current
        return groups

    def _figures(self, d: Document) -> list[tuple[int, str]]:
        """(offset, label) of each figure: "Figure N" from its alt text or caption, else its alt text."""
        figs: list[tuple[int, str]] = []
        for img in d.images:
            label = None
            if img.alt:
                alt = d.text[img.alt.start:img.alt.end]
                m = _FIGURE.search(alt)
                label = f"Figure {m.group(1)}" if m else (f'the figure "{alt[:60]}"' if alt.strip() else None)
            if label is None:
                nxt = next((b for b in d.blocks if b.start >= img.end and b.kind == "caption"
                            and b.start - img.end < 400), None)
                m = _FIGURE.search(d.view[nxt.start:nxt.end]) if nxt else None
                label = f"Figure {m.group(1)}" if m else f"the figure {img.src.rsplit('/', 1)[-1]}"
            figs.append((img.start, label))
        for b in d.blocks:
            if b.kind == "caption":
                m = _FIGURE.match(d.view[b.start:b.end].strip())
                if m and not any(abs(p - b.start) < 400 for p, _ in figs):
                    figs.append((b.start, f"Figure {m.group(1)}"))
        figs.sort()
        return figs

    def _offers(self, d: Document, commands: list[Mention], figures) -> dict[str, str]:
        offers: dict[str, str] = {}
        for name in ("recipe", "issue"):
            rx = self.offer_rx.get(name, {})
            best, best_score = None, 0
            for link in d.links:
                target, text = link.target, d.view[link.start:link.end]
                if not target or target.startswith("#"):
                    continue
                score = 2 * bool(rx.get("link_target") and rx["link_target"].search(target)) + \
                    bool(rx.get("link_text") and rx["link_text"].search(text))
                if name == "issue" and not (rx.get("link_target") and rx["link_target"].search(target)
                                            and score == 3):
                    continue
                if score > best_score or (score == best_score and best and len(target) > len(best)):
                    best, best_score = target, score
            if best and best_score >= 2:
                offers[name] = best
        if "image" in self.offer_rx and "text" in self.offer_rx["image"]:
            m = self._offer_text("image", d.view)
            if m:
                offers["image"] = m.group()
        if commands:
            first = commands[0].quote.strip().splitlines()[0]
            offers["command"] = first if len(first) <= 90 else first[:87] + "..."
        return offers

    def _offer_text(self, name: str, view: str) -> re.Match[str] | None:
        """The first match of an offer's `text` pattern in the view."""
        rx, holds = self.offer_rx[name]["text"], self.offer_holds.get(name)
        if holds is None:
            return rx.search(view)
        return next((m for a, e in blank_free_runs(view, holds) if (m := rx.search(view, a, e))), None)

    # -- per claim -------------------------------------------------------------
    def resolve(self, ctx: DocContext, claim: Claim, unit: Unit) -> dict[str, Condition]:
        levels = self._levels(ctx, claim, unit)
        source = self._external_source(ctx, claim, unit)
        if source:
            # a result the post cites from elsewhere: only what its own sentence says is stated here
            levels = levels[:1]
        scopes = Scopes(levels)
        out: dict[str, Condition] = {}
        for name in CONDITIONS:
            out[name] = self._condition(ctx, claim, name, scopes)
            if source and out[name].status == "unrecoverable":
                out[name] = Condition(status="unrecoverable",
                                      where=self.where.external_where.format(source=source),
                                      why=self.where.why["external"].format(source=source))
                out[name]._reason = "external"
        hw = out["hardware"]
        if out["gpu_count"].status == "unrecoverable" and hw.status == "stated" and hw.count:
            out["gpu_count"] = Condition(status="stated", value=hw.count, quote=hw.quote, span=hw.span,
                                         scope=hw.scope)
        for cond in out.values():  # provenance: quote the original text (mentions are found in the masked view)
            if cond.span is not None and cond.quote != (quote := ctx.d.text[cond.span[0]:cond.span[1]]):
                cond.quote = quote
        return out

    def _levels(self, ctx: DocContext, claim: Claim, unit: Unit) -> list[tuple[str, list[Located]]]:
        d = ctx.d
        base_lo = base_hi = -1
        if claim.baseline:
            pos = d.view.find(claim.baseline, claim.span[1], unit.end + 1)
            if pos >= 0:
                base_lo, base_hi = pos, pos + len(claim.baseline)
        sentence = [x for x in ctx.between(unit.start, unit.end) if x.m.span[1] <= unit.end and not x.code
                    and not (base_lo <= x.m.span[0] < base_hi)]
        levels: list[tuple[str, list[Located]]] = [("sentence", sentence)]
        if unit.table is not None:
            t, r = unit.table, unit.row
            group = ctx.groups.get((t, r)) if r is not None else None
            in_table = ctx.by_table.get(t, [])
            levels.append(("table_row", [x for x in in_table if x.row is not None and x.row >= 0
                                         and (x.row == r or x.row == group) and x.col != unit.col]))
            levels.append(("table_column", [x for x in in_table if x.row == -1 and x.col == unit.col]))
            table = d.tables[t]
            if table.caption:
                levels.append(("table_caption", ctx.between(table.caption.start, table.caption.end)))
            levels.append(("footnote", [x for b in sorted(self._footnotes(d, table.end, ctx.block_starts))
                                        for x in ctx.by_block.get(b, [])]))
            blocks = self._lead_in(d, ctx.table_block.get(t, -1))
            levels.append(("paragraph", [x for b in sorted(blocks) for x in ctx.by_block.get(b, [])
                                         if x.table is None]))
        elif unit.block >= 0:
            if d.blocks[unit.block].kind == "caption":
                levels.append(("figure_caption", ctx.by_block.get(unit.block, [])))
            blocks = self._lead_in(d, unit.block)
            # the paragraph up to the claim; what follows it in the paragraph may describe something else
            # ("... fixed at a single 8xGB200 endpoint"), except the workload kinds a paragraph often gives
            # after its result ("Concurrency was swept from 64 up to 5120.")
            levels.append(("paragraph", [x for b in sorted(blocks) for x in ctx.by_block.get(b, [])
                                         if x.m.span[0] < unit.start or KIND_TO_CONDITION.get(x.m.kind, x.m.kind)
                                         in self.after_claim]))
        # captions and footnotes of the figures in the claim's section describe the measurement the
        # figures show, which the section's claims report
        section = unit.section
        siblings = self._sibling_items(d, unit.block)
        if True:  # captions of the claim's section (or of the untitled introduction)
            family = FAMILIES.get(claim.metric) or self._ratio_family(d, claim)
            near = self._near_captions(ctx, section, unit.block if unit.block >= 0 else ctx.table_block.get(
                unit.table, -1) if unit.table is not None else -1)
            levels.append(("figure_caption", [x for x in ctx.captions.get(section, []) if x.block != unit.block
                                              and x.block in near and self._caption_fits(ctx, x.block, family)]))
        # the claim's section and the lead text of the sections above it, up to the claim: set-up is
        # stated before the results it governs; other items of the claim's list are parallel statements
        chain = self._ancestors(d, section) or [None]
        levels.append(("section", [x for s in chain for x in ctx.prose_before(s, unit.start)
                                   if x.block not in siblings]))
        if section is not None:
            # a benchmark command shown in the claim's section (or above it) states what it passes
            levels.append(("command_line", [x for s in chain for x in ctx.code.get(s, [])]))
        linked = self._linked_section(d, claim, unit)
        if linked is not None:
            # a highlight bullet naming a feature that has its own section: that section reports it
            sub = self._ancestors(d, linked)[:1] + [i for i, s in enumerate(d.sections) if s.parent == linked]
            levels.append(("section", [x for s in sub for x in ctx.prose.get(s, [])]))
            levels.append(("command_line", [x for s in sub for x in ctx.code.get(s, [])]))
            section = linked
        covering = self._covering_setup(ctx, section)
        before = [i for i in covering if d.sections[i].start < unit.start]
        covering = before or covering   # a set-up given before the results governs them, not a later one
        if covering:
            levels.append(("setup_section", [x for i in covering
                                             for x in ctx.between(d.sections[i].start, d.sections[i].body_end)
                                             if x.block not in siblings]))
        if section is not None or unit.kind == "front_matter":
            # the untitled introduction describes what the whole post measured
            levels.append(("document", [x for x in ctx.prose.get(None, []) if x.block not in siblings]))
        fm: list[Located] = []
        if d.meta_span:
            fm += ctx.between(*d.meta_span)
        if d.title_span:
            fm += ctx.between(*d.title_span)
        levels.append(("front_matter", fm))
        return levels

    def _external_source(self, ctx: DocContext, claim: Claim, unit: Unit) -> str | None:
        """The link a post gives as the source of a result it reports from elsewhere ("According to the
        benchmark results ... learn more in the xgrammar blog post: <link>"), for the claim's paragraph or,
        for a highlight bullet, the paragraph of its section that gives the same figure."""
        d = ctx.d
        blocks = [unit.block] if unit.block >= 0 else []
        linked = self._linked_section(d, claim, unit)
        if linked is not None:
            sec = d.sections[linked]
            number = re.escape(re.sub(r"\.0$", "", f"{abs(claim.value):g}"))
            blocks += [i for i, b in enumerate(d.blocks) if sec.start <= b.start < sec.body_end
                       and re.search(rf"(?<![\d.]){number}(?![\d])", d.view[b.start:b.end])]
        for i in blocks:
            b = d.blocks[i]
            if i not in ctx.external_cue:
                ctx.external_cue[i] = self.external_cue.search(d.view, b.start, b.end) is not None
            if not ctx.external_cue[i]:
                continue
            span_end = d.blocks[i + 1].end if i + 1 < len(d.blocks) else b.end
            link = next((ln.target for ln in d.links if b.start <= ln.start < span_end
                         and ln.target.startswith(("http://", "https://"))), None)
            if link:
                return link
        return None

    def _linked_section(self, d: Document, claim: Claim, unit: Unit) -> int | None:
        """For a headline claim in a list item ("Cache-aware load balancer: up to 1.9x ..."), the section
        whose heading names the same feature, when one matches well."""
        if not claim.headline or unit.block < 0 or d.blocks[unit.block].kind != "list_item":
            return None
        b = d.blocks[unit.block]
        item = d.view[b.start:b.end]
        label = re.split(r"[:—–]|\s-\s", item, maxsplit=1)[0].strip()
        if not label or len(label.split()) > 10:
            return None
        best, best_score = None, 0.0
        for i, sec in enumerate(d.sections):
            if sec.start <= b.start:
                continue
            score = fuzz.token_set_ratio(label.lower(), sec.title.lower())
            if score > best_score:
                best, best_score = i, score
        return best if best_score >= self.scopes.feature_link_score else None

    @staticmethod
    def _sibling_items(d: Document, block: int) -> set[int]:
        """The other items of the list a claim's list item belongs to: parallel statements, not set-up."""
        if block < 0 or d.blocks[block].kind != "list_item":
            return set()
        out = set()
        for step in (-1, 1):
            i = block + step
            while 0 <= i < len(d.blocks) and d.blocks[i].kind == "list_item":
                out.add(i)
                i += step
        return out

    @staticmethod
    def _ancestors(d: Document, section: int | None) -> list[int]:
        chain = []
        while section is not None:
            chain.append(section)
            section = d.sections[section].parent
        return chain

    def _lead_in(self, d: Document, block: int) -> set[int]:
        """The block itself, plus the paragraph that introduces its list or table (ends with ':')."""
        blocks = {block}
        i = block - 1
        while i >= 0 and d.blocks[i].kind in ("list_item",) and d.blocks[block].kind == "list_item":
            i -= 1
        if i >= 0 and d.blocks[i].kind == "paragraph":
            tail = d.view[d.blocks[i].start:d.blocks[i].end].rstrip()
            if tail.endswith(tuple(self.scopes.lead_in_endings)):
                blocks.add(i)
        return blocks

    def _footnotes(self, d: Document, after: int, block_starts: list[int]) -> set[int]:
        marks = tuple(self.scopes.footnote_marks)
        found = set()
        first = bisect_right(block_starts, after - 1)  # blocks before `after` cannot qualify
        for i, b in enumerate(d.blocks[first:], first):
            if b.start >= after and b.start - after < 600 and b.kind in ("paragraph", "caption", "quote"):
                if d.text[b.start:b.end].lstrip("*_ ").startswith(marks) or d.text[b.start:b.end].startswith(marks):
                    found.add(i)
            if b.start - after >= 600:
                break
        return found

    def _covering_setup(self, ctx: DocContext, section: int | None) -> list[int]:
        """Setup sections that cover a claim in `section`: top-level ones, or ones whose parent is an
        ancestor of the claim's section (the claim's own section included)."""
        d = ctx.d
        chain: list[int | None] = [None]
        s = section
        while s is not None:
            chain.append(s)
            s = d.sections[s].parent
        return [i for i in ctx.setup if d.sections[i].parent in chain or i in chain]

    def fill_from_restatements(self, claims: list[Claim]) -> None:
        """A headline figure the post states again in its body was measured under the conditions stated
        there: fill the headline's unstated conditions from the one restatement of the same figure."""
        for c in claims:
            if not c.headline or not c.conditions:
                continue
            same = [o for o in claims if o is not c and same_figure(c, o)]
            own = sum(v.status == "stated" for v in c.conditions.values())
            twins = [o for o in same if sum(v.status == "stated" for v in o.conditions.values()) > own]
            if not twins:
                continue
            if not _distinctive(c.value, c.value_max):
                # a common round figure (2x, 60%) is taken as the same measurement only from the one
                # restatement that states clearly more than any other
                rank = sorted(((sum(v.status == "stated" for v in o.conditions.values()), i)
                               for i, o in enumerate(twins)), reverse=True)
                if len(rank) > 1 and rank[0][0] - rank[1][0] < 2:
                    continue
                twins = [twins[rank[0][1]]]
            for name, cond in c.conditions.items():
                if cond.status == "stated" or cond.why and "several values" in cond.why:
                    continue
                stated = [t.conditions[name] for t in twins if t.conditions.get(name)
                          and t.conditions[name].status == "stated"]
                values = {repr(s.value) for s in stated}
                if len(values) == 1 and len(stated) == sum(1 for t in twins if t.conditions.get(name)):
                    src = stated[0]
                    twin = next(t for t in twins if t.conditions.get(name) is src)
                    c.conditions[name] = src.model_copy(update={
                        "scope": "restatement",
                        "note": "; ".join(x for x in (src.note, f"stated where the post gives this figure again "
                                                                 f"({twin.quote!r})") if x)})

    # -- one condition ---------------------------------------------------------
    def _condition(self, ctx: DocContext, claim: Claim, name: str, scopes: Scopes) -> Condition:
        if name == "engine_version":
            return self._engine(ctx, claim, scopes)
        if name in scopes.first:
            scope, cands = scopes.first[name]
            picked = ctx.most_specific(cands)
            if len(picked) > 1 and name in self.composite:
                return self._composite(name, picked, scope)
            if len(picked) > 1:
                values = ", ".join(sorted({_show(m) for m in picked}))
                return self._unrecoverable(ctx, claim, name, "ambiguous", values=values)
            m = picked[0]
            if name in self.refinable:
                m, scope = self._refined(m, scope, name, scopes.levels)
            return self._stated(ctx, claim, name, m, scope)
        cell = self._column_value(ctx, claim, name) if scopes.in_table else None
        if cell is not None:
            return cell
        return self._unrecoverable(ctx, claim, name, "absent")

    def _column_value(self, ctx: DocContext, claim: Claim, name: str) -> Condition | None:
        """A table column labelled with a condition ("Batch Size", "ISL"): the claim row's cell holds it."""
        d = ctx.d
        t = bisect_right(ctx.table_starts, claim.span[0]) - 1
        for t, table in ([(t, d.tables[t])] if t >= 0 else []):
            if not (table.start <= claim.span[0] <= table.end):
                continue
            for h in self._labelled_columns(ctx, t, name):
                row = next((r for r in table.rows if r and r[0].start <= claim.span[0] <= r[-1].end), None)
                if row is None:
                    return None
                idx = table.rows.index(row)
                for r in range(idx, -1, -1):    # an empty cell repeats the value above it
                    cells = [c for c in table.rows[r] if c.col == h.col]
                    if cells and cells[0].end > cells[0].start:
                        c = cells[0]
                        m = _NUM.search(d.view, c.start, c.end)
                        if not m:
                            return None
                        value = _number(m.group())
                        note = None if r == idx else "carried down from an earlier row of the table (empty cell)"
                        return Condition(status="stated", value=value, quote=d.text[m.start():m.end()].strip(),
                                         span=(m.start(), m.start() + len(m.group().strip())),
                                         scope="table_row", note=note)
                    if r != idx and any(c2.end > c2.start for c2 in table.rows[r][:1]) and r < idx - 8:
                        return None
        return None

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

    def _engine(self, ctx: DocContext, claim: Claim, scopes: Scopes) -> Condition:
        named = None
        for scope, by_name in scopes.usable:
            if "engine_version" not in by_name:
                continue
            engines = [x.m for x in by_name["engine_version"]]
            primary = [m for m in engines if _norm(m.canonical or str(m.value)) not in self.supporting]
            if named is None and primary:
                named = primary[0].canonical or str(primary[0].value)
            versioned = [m for m in primary if m.version]
            if not versioned:
                continue
            names = {_norm(m.canonical or str(m.value)) for m in versioned}
            if len(names) > 1:
                values = ", ".join(sorted({f"{m.canonical or m.value} {m.version}" for m in versioned}))
                return self._unrecoverable(ctx, claim, "engine_version", "ambiguous", values=values)
            versions = {m.version for m in versioned}
            if len(versions) > 1:
                values = ", ".join(sorted(f"{versioned[0].canonical or versioned[0].value} {v}" for v in versions))
                return self._unrecoverable(ctx, claim, "engine_version", "ambiguous", values=values)
            m = versioned[0]
            engine = m.canonical or str(m.value)
            if named and _norm(named) != _norm(engine):
                if not _norm(engine).startswith(_norm(named)):
                    continue
                engine = named     # "vLLM commit hash 2a17..." names vLLM
            others = sorted({f"{x.canonical or x.value} {x.version}" for x in engines
                             if x.version and _norm(x.canonical or str(x.value)) in self.supporting})
            cond = Condition(status="stated", value=f"{engine} {m.version}", canonical=engine, quote=m.quote,
                             span=m.span, scope=scope)
            if others:
                cond.note = "run with " + ", ".join(others)
            return cond
        cond = self._unrecoverable(ctx, claim, "engine_version", "no_version" if named else "absent",
                                   engine=named or "")
        if named:
            cond.value_partial = named
        return cond

    @staticmethod
    def _refined(m: Mention, scope: str, name: str, levels) -> tuple[Mention, str]:
        """The same name written out more fully in a broader scope ("Qwen3.5" in the sentence,
        "Qwen3.5-397B-A17B-NVFP4" in the setup section; "GB200", "GB200 NVL72"): the fuller one."""
        base = _norm(m.quote)
        best, best_scope = m, scope
        for lvl_scope, located in levels:
            for x in located:
                if x.name != name:
                    continue
                full = _norm(x.m.quote)
                if len(full) > len(_norm(best.quote)) and full.startswith(base) and \
                        (len(full) == len(base) or not full[len(base)].isalnum()):
                    best, best_scope = x.m, lvl_scope
        return best, best_scope

    @staticmethod
    def _composite(name: str, picked: list[Mention], scope: str) -> Condition:
        """A layout stated in parts at one scope (TP8 and EP8; decode DEP8 and prefill DEP2): all parts."""
        picked = sorted(picked, key=lambda m: m.span)
        return Condition(status="stated", value=", ".join(m.quote for m in picked), quote=picked[0].quote,
                         span=picked[0].span, scope=scope,
                         note=f"stated in {len(picked)} parts; the span shows the first")

    def _stated(self, ctx: DocContext, claim: Claim, name: str, m: Mention, scope: str) -> Condition:
        value = m.value
        note = None
        sweep = True if m.sweep else None
        if name == "hardware":
            # the name as written, without its count ("8xH200" -> "H200", count 8; "16 GB300 GPUs" -> "GB300")
            value = self.count_words.sub("", m.quote).strip() if m.count else m.quote
            value = self.unit_noun.sub("", value).strip() or m.quote
            value += ")" * max(0, value.count("(") - value.count(")"))
        elif name == "gpu_count" and isinstance(value, dict):
            value = value.get("total") or value.get("gpus") or value
        elif name == "batch_or_concurrency" and isinstance(value, dict) and "rate" in value:
            value, note = value["rate"], "a request rate (requests per second), not a batch size"
        elif isinstance(value, dict) and not m.sweep:
            value = ", ".join(str(v) if k in ("name", "value") else f"{k}={v}" for k, v in value.items())
        if sweep and isinstance(value, dict):
            fig = self._figure_near(ctx, claim)
            label = name.replace("_", " ")
            note = (self.where.sweep_note.format(condition=label, figure=fig) if fig
                    else self.where.sweep_note_no_figure.format(condition=label))
        return Condition(status="stated", value=value, canonical=m.canonical, quote=m.quote, span=m.span,
                         scope=scope, sweep=sweep, count=m.count if name == "hardware" else None, note=note)

    @staticmethod
    def _figure_near(ctx: DocContext, claim: Claim) -> str | None:
        """The figure a swept claim is read from: the next figure in its section, else the nearest one."""
        pos = claim.span[0]
        if pos not in ctx.figure_after:
            d = ctx.d
            sec = ctx.section_of(pos)
            end = d.sections[sec].body_end if sec is not None else len(d.text)
            after = [label for at, label in ctx.figures if pos <= at < end]
            ctx.figure_after[pos] = (after[-1] if len(after) > 1 and "Figure" in after[-1] else after[0]) \
                if after else None
        return ctx.figure_after[pos]

    def ambiguous(self, ctx: DocContext, claim: Claim, name: str, values: str) -> Condition:
        """An unrecoverable condition for which the post states several values (`values`) for this claim."""
        return self._unrecoverable(ctx, claim, name, "ambiguous", values=values)

    def _unrecoverable(self, ctx: DocContext, claim: Claim, name: str, reason: str, values: str = "",
                       engine: str = "") -> Condition:
        fig = self._figure_near(ctx, claim)
        key = (name, reason, values, engine, fig)
        if key not in ctx.notes:
            ctx.notes[key] = self._where_why(ctx, *key)
        where, why = ctx.notes[key]
        cond = Condition(status="unrecoverable", where=where, why=why)
        cond._reason = reason
        return cond

    def _where_why(self, ctx: DocContext, name: str, reason: str, values: str, engine: str,
                   fig: str | None) -> tuple[str, str]:
        """The where-note (the first whose needs the document offers) and the why of an unstated condition."""
        offers = dict(ctx.offers)
        if fig:
            offers["figure"] = fig
        if engine:
            offers["engine"] = engine
        where = next(n.where.format(**offers) for n in self.where.notes[name] if all(k in offers for k in n.needs))
        why = self.where.why[reason].format(values=values, engine=engine, figure=fig or "a chart")
        return where, why


def _finite(value) -> bool:
    """A number too large for a float (a 400-digit "rate") states nothing usable."""
    if isinstance(value, dict):
        return all(_finite(v) for v in value.values())
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return not isinstance(value, float) or math.isfinite(value)


def _flat_prose(d: Document) -> str:
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


def _overlaps(spans: list[tuple[int, int]], span: tuple[int, int]) -> bool:
    i = bisect_right(spans, (span[1], span[1]))
    return any(s < span[1] and span[0] < e for s, e in spans[max(0, i - 8):i])


def _most_specific(cands: list[Located]) -> list[Mention]:
    """One mention per distinct value; a value contained in a longer one of the same kind is dropped
    ("Qwen3.5" inside "Qwen3.5-397B-A17B")."""
    by_key: dict[str, Mention] = {}
    for x in cands:
        m = x.m
        k = _key(m)
        if k not in by_key or len(m.quote) > len(by_key[k].quote) or (m.count and not by_key[k].count):
            by_key[k] = m
    surfaces = {k: _norm(str(m.quote)) for k, m in by_key.items()}
    return [by_key[k] for k, surface in surfaces.items()
            if not any(k2 != k and (k in k2 or surface in s2) and len(k2) >= len(k)
                       for k2, s2 in surfaces.items() if s2 != surface)] or [cands[0].m]


def _show(m: Mention) -> str:
    if isinstance(m.value, dict):
        return "-".join(str(v) for v in m.value.values())
    return str(m.quote if isinstance(m.value, str) else m.value)


def _number(s: str) -> int | float:
    s = s.strip().replace(",", "")
    mult = 1
    if s[-1:] in "kK":
        mult, s = 1000, s[:-1]
    elif s[-1:] in "mM":
        mult, s = 1_000_000, s[:-1]
    v = float(s) * mult
    return int(v) if v.is_integer() else v
