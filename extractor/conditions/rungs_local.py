"""The rung readers of the claim's own place (rules/scopes.yaml `ladder`): its sentence, the program output it
is printed in, its table's row, column, caption and footnotes, its caption, paragraph, the figures near it, its
section and the sections above it, their benchmark commands, and the section a highlight bullet links to. Each is
registered by name (rungs.py) and returns the mentions of its place for one claim, or None when the place does
not apply to it."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extractor.conditions.code.reader import PYTHON_RULE
from extractor.conditions.code.rungs import earlier_run_sections, run_of_other_code
from extractor.conditions.located import MEASURED_KINDS, Located
from extractor.conditions.output_setup import nearest_setup
from extractor.conditions.restatements import distinctive
from extractor.conditions.neighbours import setup_lead
from extractor.conditions.places import SENTENCE_END, ancestors, footnotes, introducing_sentence, lead_in
from extractor.conditions.rungs import Tiers, rung_reader
from extractor.conditions.ties import ClaimSite, paired_in_order, paired_lists, same_model
from extractor.ingest.segment import split_sentences

if TYPE_CHECKING:
    from extractor.conditions.ladder import LadderReading

@rung_reader("sentence")
def sentence(lad: LadderReading, site: ClaimSite) -> list[Located]:
    """The claim's sentence or cell, without the baseline it is compared with; in a sentence of
    several results, the claim's own clause (`ClauseScope`, clauses.py)."""
    p, claim = site.passage, site.claim
    # the view blanks the front matter: a summary's words are read in the text as written
    text = site.d.text if p.kind == "front_matter" else site.d.view
    base_lo = base_hi = -1
    if claim.baseline:
        pos = text.find(claim.baseline, claim.span[1], p.end + 1)
        if pos >= 0:
            base_lo, base_hi = pos, pos + len(claim.baseline)
    located = [x for x in site.ctx.between(p.start, p.end) if x.m.span[1] <= p.end and not x.code
               and not (base_lo <= x.m.span[0] < base_hi)]
    if p.table is not None:
        # a cell of several results or clauses ("X halves it; Y keeps it"): the claim's own
        return located and lad.ladder.clauses.own_clause(located, claim.span, site.ctx.claims_in(p.start, p.end),
                                                         p, text)
    if (label := lad.ladder.paragraph_label.match(text, p.start, claim.span[0])) is not None:
        # a label line heading the paragraph: the sentence's own value of a condition wins over it
        stated = {x.name for x in located if x.m.span[0] >= label.end()}
        located = [x for x in located if x.m.span[0] >= label.end() or x.name not in stated]
    figures = site.ctx.claims_in(p.start, p.end)
    own = lad.ladder.clauses.own_clause(located, claim.span, figures, p, text, lad.memo.clauses_of)
    unit_device = [x for x in own if x.name == "hardware"
                   and lad.ladder.unit_device.fullmatch(text, claim.span[1], x.m.span[0])]
    if unit_device:   # the device of the figure's own unit ("2.8k tok/s/L40S"): its sentence's others are not its
        own = [x for x in own if x.name != "hardware" or x in unit_device]
    if paired_in_order(site, lad.ladder.respectively):
        # a list the sentence pairs with its figures in order is every figure's (ties.py `respective_values`)
        own += [x for x in paired_lists(located, figures, text, lad.ladder.respective_joint) if x not in own]
    return own


@rung_reader("program_output")
def program_output(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """For a result printed by a program, the setup lines printed before it in its output block, the
    nearest of each condition ("Loading model X", "Batch size: 16" above the run's own lines)."""
    p = site.passage
    printed = site.ctx.output.get(p.block) if p.kind == "code" and p.table is None else None
    if printed is None:
        return _printed_just_before(site)
    return nearest_setup(printed, p.start)


_FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")
RESTATED_AFTER = 2   # blocks between a program's output and the prose that reports its figure


def _printed_just_before(site: ClaimSite) -> list[Located] | None:
    """For a figure of a paragraph that reports what a program printed just above it in its section ("Tokens per
    second: 18210.4" printed, then "The run sustained 18,210.4 tokens per second"), the setup lines printed before that
    figure in its output block; only a distinctive figure (not a round 2x) printed there once."""
    p, claim, ctx = site.passage, site.claim, site.ctx
    if p.table is not None or p.kind == "code" or p.block < 0 or not distinctive(claim.value, claim.value_max):
        return None
    for b in range(p.block - 1, max(-1, p.block - 1 - RESTATED_AFTER), -1):
        block = site.d.blocks[b]
        if block.section != site.d.blocks[p.block].section:
            return None
        printed = ctx.output.get(b)
        if printed is None:
            continue
        at = [m.start() for m in _FIGURE.finditer(site.d.view, block.start, block.end)
              if float(m.group().replace(",", "")) == claim.value]
        return nearest_setup(printed, at[0]) if len(at) == 1 else None
    return None


@rung_reader("table_row")
def table_row(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The other cells of the claim's row (with those it repeats from above), and the row's group label; not the
    model of a column that holds the draft model of speculative decoding ("Draft model": "Llama-3.2-1B")."""
    p = site.passage
    if p.table is None:
        return None
    group = site.ctx.groups.get((p.table, p.row)) if p.row is not None else None
    carried = site.ctx.carried.get((p.table, p.row), {})   # the leading cells it leaves empty: the rows' above
    cells = [x for x in site.ctx.by_table.get(p.table, []) if x.row is not None and x.row >= 0
             and (x.row == p.row or x.row == group or carried.get(x.col) == x.row) and x.col != p.col]
    if any(x.name == "model" for x in cells):
        view, header = site.d.view, site.d.tables[p.table].header
        drafts = {h.col for h in header if lad.ladder.draft_column.search(view, h.start, h.end)}
        cells = [x for x in cells if not (x.name == "model" and x.col in drafts)]
    return cells


@rung_reader("table_column")
def table_column(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The header of the claim's column."""
    p = site.passage
    if p.table is None:
        return None
    return [x for x in site.ctx.by_table.get(p.table, []) if x.row == -1 and x.col == p.col]


@rung_reader("column_names")
def column_names(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The names in the header of the claim's column ("8x H100 (tok/s)", "Llama-3-8B"): what the column's
    cells were measured with; none when the header compares two ("B200 vs H100", "H200/H100")."""
    p = site.passage
    if p.table is None:
        return None
    header = [x for x in site.ctx.by_table.get(p.table, []) if x.row == -1 and x.usable]
    named = [x for x in header if x.col == p.col]
    head = next((c for c in site.d.tables[p.table].header if c.col == p.col), None)
    if not named:
        return _other_columns_models(header, p.col)
    if head is None:
        return []
    if lad.ladder.header_comparison.search(site.d.view, head.start, head.end):
        # a ratio's column "Speedup (INT8 vs FP16)": the side before "vs" is the result's, the other the baseline
        vs = lad.ladder.header_versus.search(site.d.view, head.start, head.end) \
            if site.claim.metric in ("speedup", "relative_change") else None
        return [x for x in named if x.m.span[1] <= vs.start()] if vs is not None else []
    return named


def _other_columns_models(header: list[Located], col: int | None) -> list[Located]:
    """The models that two or more other columns' headers name, when the claim's column names none ("| Qwen-2B |
    OtherNet-base | Llama-3-8B |"): the columns are systems, and the claim's is one the post names in a way no
    rule reads, so the model a broader rung names is no more the claim's than theirs (the rung is ambiguous)."""
    models = [x for x in header if x.name == "model" and x.col not in (col, 0)]
    return models if len({x.col for x in models}) >= 2 else []


@rung_reader("table_caption")
def table_caption(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The caption of the claim's table."""
    if site.passage.table is None:
        return None
    caption = site.d.tables[site.passage.table].caption
    return site.ctx.between(caption.start, caption.end) if caption else None


@rung_reader("table_footnotes")
def table_footnotes(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """Footnotes under the claim's table."""
    if site.passage.table is None:
        return None
    t, ctx, memo = site.passage.table, site.ctx, lad.memo
    if t not in memo.table_footnotes:   # the same for every cell of the table: found once per table
        end = site.d.tables[t].end
        memo.table_footnotes[t] = [x for b in sorted(footnotes(site.d, end, ctx.block_starts, lad.ladder.footnote_marks))
                                  for x in ctx.by_block.get(b, [])]
    return memo.table_footnotes[t]


@rung_reader("own_caption")
def own_caption(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The caption the claim is written in."""
    p = site.passage
    if p.table is not None or p.block < 0 or site.d.blocks[p.block].kind != "caption":
        return None
    return site.ctx.by_block.get(p.block, [])


@rung_reader("paragraph")
def paragraph(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """A table's lead-in paragraph; or the claim's paragraph (with its lead-in) up to the claim: what
    follows the claim may describe something else ("... fixed at a single 8xGB200 endpoint"), except
    the workload conditions a paragraph often gives after its result ("Concurrency was swept ...")."""
    p, ctx, memo = site.passage, site.ctx, lad.memo
    if p.table is not None:   # the same for every cell of the table: found once per table
        if p.table not in memo.table_lead_ins:
            block = ctx.table_block.get(p.table, -1)
            blocks = lead_in(site.d, block, lad.ladder.lead_in_endings)
            if (setup := setup_lead(site.d, block, lad.ladder.table_setup_lead)) is not None:
                blocks.add(setup)
            memo.table_lead_ins[p.table] = [x for b in sorted(blocks) for x in ctx.by_block.get(b, [])
                                           if x.table is None]
        return memo.table_lead_ins[p.table]
    if p.block < 0:
        return None
    blocks = lead_in(site.d, p.block, lad.ladder.lead_in_endings) | site.settings
    lo, hi = _described_after(lad, site)
    found = [x for b in sorted(blocks) for x in ctx.by_block.get(b, [])
             if (x.m.span[0] < p.start or x.block in site.settings or lo <= x.m.span[0] < hi
                 or x.name in lad.ladder.after_claim and not _nearer_result(site, x))
             and not _other_systems_result(site, x)]
    if (topics := _topic_tiers(lad, site, found)) is not None:
        return topics
    lead = blocks - {p.block} - site.settings
    intro = introducing_sentence(site.d, next(iter(lead))) if len(lead) == 1 else None
    if intro is None:
        return found
    # the sentence that introduces the list ("... for model X on 1 GPU:") governs its items more closely
    # than the earlier sentences of its paragraph (a past setup, an example): a tier of its own
    lo, hi = intro
    earlier = [x for x in found if x.block in lead and not lo <= x.m.span[0] < hi
               and x.name in lad.ladder.lead_in_sentence_kinds]
    if not earlier:
        return found
    return Tiers([[x for x in found if x not in earlier], earlier])


_SYSTEM_NAMES = frozenset({"hardware", "model"})
# ... and the load settings, which `describes_other_run` (ties.py) weighs against the claim's own
_KEPT_NAMES = _SYSTEM_NAMES | MEASURED_KINDS


def _other_systems_result(site: ClaimSite, x: Located) -> bool:
    """A mention in another sentence (of the paragraph or section before the claim) that reports another result on another system than the one
    the claim's own clause names (another model or hardware): that result's setting ("For the lowest cost, A with
    INT4 on X delivers 70 tok/s. For the highest throughput, B reached 300 tok/s on Y": INT4 is not B's). The
    systems it names stay: they are still among the post's candidates for the claim (several: ambiguous); so do
    its load settings, which `describes_other_run` weighs against the claim's own (dropping one of several loads
    would leave another run's as if it were the claim's)."""
    sent = x.sentence
    if sent is None or x.name in _KEPT_NAMES or not (site.devices or site.models) \
            or sent[0] <= site.claim.span[0] < sent[1]:
        return False
    known = site.memo.systems_of.get(sent)
    if known is None:
        named: dict[str, set[str]] = {name: set() for name in _SYSTEM_NAMES}
        for y in site.ctx.between(*sent):
            if y.usable and y.name in named:
                named[y.name].add(y.m.canonical or str(y.m.value))
        known = site.memo.systems_of[sent] = (site.ctx.claims_in(*sent), named["hardware"], named["model"])
    figures, devices, models = known
    own = tuple(site.claim.span)
    if not any(tuple(s) != own for s in figures):
        return False
    return bool(site.devices and devices - site.devices) \
        or bool(site.models) and any(not any(same_model(v, m) for m in site.models) for v in models)


def _topic_tiers(lad: LadderReading, site: ClaimSite, found: list[Located]) -> Tiers | None:
    """The paragraph read by the model each stretch of it is about (`topic_opener`: "On Model-A, ... . On
    Model-B, running on 4xH100, ..."): the stretch from the last such sentence up to the claim first, then what
    comes before the first one; the stretches of other models in between give nothing. None when the paragraph
    names no topic before the claim, or names one model only."""
    p, view = site.passage, site.d.view
    block_start = site.d.blocks[p.block].start
    topics: list[tuple[int, str]] = []   # (sentence start, model) of each sentence that opens with a model
    for x in site.ctx.by_block.get(p.block, []):
        if x.name != "model" or not x.usable or x.m.span[0] > p.start:
            continue
        ends = [m.end() for m in SENTENCE_END.finditer(view, block_start, x.m.span[0])]
        start = ends[-1] if ends else block_start
        if lad.ladder.topic_opener.match(view[start:x.m.span[0]]):
            topics.append((start, _topic_name(x)))
    if len({model for _, model in topics}) < 2:
        return None
    last, first = topics[-1][0], topics[0][0]
    near = [x for x in found if x.m.span[0] >= last or x.block in site.settings]
    before = [x for x in found if x.m.span[0] < first and x.block not in site.settings
              and not (x.block == p.block and x.m.span[0] >= first)]
    return Tiers([near, before])


def _topic_name(x: Located) -> str:
    return (x.m.canonical or str(x.m.value)).lower()


def _described_after(lad: LadderReading, site: ClaimSite) -> tuple[int, int]:
    """The span of the first clause of the sentence right after the claim's (its passage), in its block, when it says
    how the result was measured (scopes.yaml `described_after`: "Those figures were collected while serving ...") and
    gives no result of its own; an empty span otherwise."""
    view, block = site.d.view, site.d.blocks[site.passage.block]
    after = split_sentences(view, site.passage.end, block.end, lad.ladder.abbreviations)
    if not after:
        return 0, 0
    start, hi = after[0]
    start = _LEADING_MARKS.match(view, start, hi).end()
    if not lad.ladder.described_after.match(view, start, hi):
        return 0, 0
    if site.ctx.claims_in(start, hi):
        return 0, 0
    # its first clause: a later one (", and we plan to try INT4") is about something else
    cut = lad.ladder.described_after_end.search(view, start, hi)
    return start, cut.start() if cut else hi


_LEADING_MARKS = re.compile(r"[\s*_]*")   # bold or italic marks left before the sentence's first word


def _nearer_result(site: ClaimSite, x: Located) -> bool:
    """A mention after the claim whose sentence, or the text between, states another result: it
    describes that result ("... 410 tok/s. It also led on latency, with TTFT below 2 s on 8k prompts.")."""
    view, lo = site.d.view, site.claim.span[1]
    hi = site.memo.sentence_ends.get(x.m.span[1])
    if hi is None:   # once per mention, not once per claim of its paragraph
        end = SENTENCE_END.search(view, x.m.span[1])
        hi = site.memo.sentence_ends[x.m.span[1]] = end.start() if end else len(view)
    own = tuple(site.claim.span)
    return any(tuple(s) != own for s in site.ctx.claims_in(lo, hi))


@rung_reader("figure_captions")
def figure_captions(lad: LadderReading, site: ClaimSite) -> list[Located]:
    """Captions of the figures near the claim that fit its metric (figure_scope.FigureCaptions)."""
    return lad.figures(site)


@rung_reader("section")
def section(lad: LadderReading, site: ClaimSite) -> Tiers:
    """The claim's section and the lead text of the sections above it, up to the claim (set-up is
    stated before the results it governs), one tier per section, innermost first: a subsection's own
    set-up ("ISL 4400 / OSL 1200" in its heading) wins over what the sections above state for all of
    their subsections; not the other items of the claim's list, nor the captions of figures (a caption
    describes its own figure; the near ones are read by `figure_captions`)."""
    blocks = site.d.blocks
    noted = _footnote_tables(lad, site)
    own_table = site.passage.table
    return Tiers([x for x in site.ctx.prose_before(s, site.passage.start)
                  if x.block not in site.siblings
                  and (blocks[x.block].kind != "caption" or x.block == site.passage.block)
                  and noted.get(x.block, own_table) == own_table
                  and not _other_systems_result(site, x) and not run_of_other_code(lad, site, x, s)]
                 for s in site.chain)


def _footnote_tables(lad: LadderReading, site: ClaimSite) -> dict[int, int]:
    """Block -> the table it is a footnote of, for every table of the post (once per document): a note under a
    table ("> Measured at batch size 1 on one A100") describes that table's figures, not those of the tables
    and paragraphs after it in the section."""
    memo = lad.memo
    if memo.footnote_tables is None:
        d, starts, marks = site.d, site.ctx.block_starts, lad.ladder.footnote_marks
        memo.footnote_tables = {b: t for t in range(len(d.tables)) for b in footnotes(d, d.tables[t].end, starts, marks)}
    return memo.footnote_tables


@rung_reader("section_commands")
def section_commands(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """A benchmark command shown in the claim's section or above it states what it passes. A claim in a section that
    shows none, after two or more earlier subsections of its heading that each run commands ("Compare the four
    modes" after "Eager mode", "Compiled mode"...), reads those runs' commands: what they share is stated, what
    differs between them is ambiguous (code/rungs.py `earlier_run_sections`)."""
    if site.passage.section is None:
        return None
    code = site.ctx.code
    found = [x for s in site.chain for x in code.get(s, []) if not x.m.rule.startswith(PYTHON_RULE)]
    if found:
        # one tier per section, innermost first; a section that runs a benchmark command of its own: that run alone
        # (a quick start's command above it is another run, and what it passes is not this run's)
        kept = _not_of_later_results(site, found)
        tiers = Tiers(tier for s in site.chain if (tier := [x for x in kept if x.section == s]))
        own = tiers[0] if tiers and tiers[0][0].section == site.passage.section else []
        return own if any(x.m.rule.startswith(SHELL_RULE) for x in own) else tiers
    runs = earlier_run_sections(site, lambda s: any(not x.m.rule.startswith(PYTHON_RULE) for x in code.get(s, ())))
    found = [x for s in runs for x in code.get(s, []) if not x.m.rule.startswith(PYTHON_RULE)
             and x.m.span[0] < site.passage.start]
    return found or _commands(site, feature_appendix(lad, site, site.chain))


def _not_of_later_results(site: ClaimSite, found: list[Located]) -> list[Located]:
    """For a figure of a table, `found` without the commands of its section shown after the table and followed by
    another result of the section: such a command introduces that later result ("the same run with 4-bit weights:"
    then its command and its table), not the table's. A command after the table that no result follows (the client
    command under the results, a reproduction recipe) stays; so do the commands around a figure outside a table
    (a program's printed result is read with the command that printed it). When such a later command is set aside
    and the section shows its own command before the table, the commands of the sections above are not the table's."""
    p, d = site.passage, site.d
    if p.table is None:
        return found
    own = p.section
    after = d.tables[p.table].end
    end = d.sections[own].body_end
    later: dict[int, bool] = {}
    out = []
    for x in found:
        if x.section == own and x.m.span[0] >= after:
            if x.block not in later:
                later[x.block] = bool(site.ctx.claims_in(d.blocks[x.block].end, end))
            if later[x.block]:
                continue
        out.append(x)
    if len(out) < len(found) and any(x.section == own and x.m.span[0] < d.tables[p.table].start for x in out):
        # ... and with the later result's command set aside, the command the section shows before the table is
        # the table's run: a section above's command (a quick start) is another run
        out = [x for x in out if x.section == own]
    return out


def _commands(site: ClaimSite, sections: list[int]) -> list[Located]:
    return [x for s in sections for x in site.ctx.code.get(s, []) if not x.m.rule.startswith(PYTHON_RULE)]


SHELL_RULE = "code:shell:"   # a parsed command's mentions (code/reader.py)
_WORD = re.compile(r"[\w.+-]*\w")
_LETTERS = re.compile(r"[^\W\d_]")


def feature_appendix(lad: LadderReading, site: ClaimSite, chain: list[int | None]) -> list[int]:
    """The back-matter sections that reproduce the feature of the claim's section: their heading, less the words
    of scopes.yaml `back_matter_feature_words`, names a feature whose every word is in the heading of a section of
    `chain` ("How to reproduce the paged decoding runs" for "Paged decoding speed-ups"). A feature needs a word
    of three letters or more ("torch.compile"): a number or a letter left of the heading ("Setup 2", "Run B")
    names no feature that a numbered heading ("2. Throughput results") would share."""
    d, ctx = site.d, site.ctx
    titles = [{w.casefold() for w in _WORD.findall(d.sections[s].title)} for s in chain if s is not None]
    found = []
    for i in ctx.back_matter_sections:
        feature = {w.casefold() for w in _WORD.findall(d.sections[i].title)} - lad.ladder.feature_words
        if any(len(_LETTERS.findall(w)) >= 3 for w in feature) and any(feature <= t for t in titles) \
                and i not in chain:
            found.append(i)
    return found


def _linked(site: ClaimSite) -> list[int]:
    linked = site.linked
    return ancestors(site.d, linked)[:1] + [i for i, s in enumerate(site.d.sections) if s.parent == linked]


@rung_reader("linked_section")
def linked_section(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The section (and its subsections) that a highlight bullet's feature names."""
    if site.linked is None:
        return None
    return [x for s in _linked(site) for x in site.ctx.prose.get(s, [])]


@rung_reader("linked_commands")
def linked_commands(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The benchmark commands of that linked section."""
    if site.linked is None:
        return None
    return [x for s in _linked(site) for x in site.ctx.code.get(s, [])] \
        or _commands(site, feature_appendix(lad, site, [site.linked]))
