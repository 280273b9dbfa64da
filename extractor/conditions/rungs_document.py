"""The rung readers of places that hold the same mentions for many claims of a document (rules/scopes.yaml
`ladder`): the setup sections that cover a claim, the post's statements of universal scope, its untitled
introduction and its front matter. Each is read once per stretch of the post as a `SharedRung`
(_internals/shared_rungs.py) that the claims of that stretch share; a claim whose own block or list lies in it
reads its own list instead (`_own_rung`)."""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from extractor.conditions._internals.rung_memo import RungMemo
from extractor.conditions._internals.shared_rungs import SharedRung
from extractor.conditions.context import DocContext
from extractor.conditions.located import Located
from extractor.conditions.places import SENTENCE_END
from extractor.conditions.rungs import rung_reader
from extractor.conditions.ties import ClaimSite, same_model

if TYPE_CHECKING:
    from extractor.conditions.ladder import LadderReading

@rung_reader("setup_sections")
def setup_sections(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The setup sections that cover the claim; those before it, when any (a set-up given before the
    results governs them, not a later one)."""
    d, ctx, memo = site.d, site.ctx, lad.memo
    covering = lad.places.covering_setup(site.section, site.passage.start)
    if not covering:
        return None
    rung = memo.rungs.get(covering)
    if rung is None:   # the claims of a stretch of the post share their setup sections: read once
        # a claim further on covers the setup sections of an earlier one and those in between: an extension
        n = next((n for n in range(len(covering) - 1, max(0, len(covering) - 5), -1) if covering[:n] in memo.rungs), 0)
        rung = memo.rungs[covering] = SharedRung.joined(
            ([memo.rungs[covering[:n]]] if n else []) + [_section_rung(ctx, memo, i) for i in covering[n:]])
    own = _own_rung(site, rung, lambda: (x for i in covering
                                         for x in ctx.between(d.sections[i].start, d.sections[i].body_end)))
    cases = _other_cases(site, lad.memo, covering) + _other_models_setups(site, lad.memo, covering)
    return [x for x in own if not any(lo <= x.m.span[0] < hi for lo, hi in cases)] if cases else own


def _other_models_setups(site: ClaimSite, memo: RungMemo, covering: tuple[int, ...]) -> list[tuple[int, int]]:
    """The spans of the covering setup sections outside the claim's own chain of sections whose heading names the
    model they set up (an example's set-up beside the claim's section: "### Full example: Model-A" with its GPU and
    backend, then "### Options"), none of them one the claim's own sentence names ("needs ~9 GB more for Model-B"):
    that set-up is the example run of another model, not the claim's. (A setup section that names its model in its
    body only, "How to reproduce" with one model's command, still covers the post's other models' claims.)"""
    p = site.passage
    if p.table is not None:
        return []
    named = {x.m.canonical or str(x.m.value) for x in site.ctx.between(p.start, p.end) if x.name == "model" and x.usable}
    if not named:
        return []
    if memo.setup_models is None:   # once per document: the setup sections whose heading names a model
        memo.setup_models, view = {}, site.d.view
        for i in site.ctx.setup:
            sec = site.d.sections[i]
            heading_end = view.find("\n", sec.start, sec.body_end)
            models = frozenset(x.m.canonical or str(x.m.value) for x in site.ctx.between(
                sec.start, heading_end if heading_end > 0 else sec.body_end) if x.name == "model" and x.usable)
            if models:
                memo.setup_models[i] = models
    chain, sections, out = set(site.chain), site.d.sections, []
    for i, models in memo.setup_models.items():
        k = bisect_left(covering, i)
        if k < len(covering) and covering[k] == i and i not in chain \
                and not any(same_model(a, b) for a in models for b in named):
            out.append((sections[i].start, sections[i].body_end))
    return out


def _other_cases(site: ClaimSite, memo: RungMemo, covering: tuple[int, ...]) -> list[tuple[int, int]]:
    """The spans of the other subsections of a setup section the claim lies in that report results of their own
    ("## Configurations we reproduced" over "### Case 1" and "### Case 2", each giving its machine over its
    figures): each is an experiment, and another case's machine is not the claim's. The subsections that hold a
    figure are indexed by parent once per document."""
    # (the covering sections are sorted: each of the claim's few enclosing sections is looked up by bisection, so a
    # claim covered by every earlier setup section of a long post costs no scan of them)
    holders = [i for i in site.chain if i is not None and (k := bisect_left(covering, i)) < len(covering)
               and covering[k] == i]
    if not holders:
        return []
    chain = set(site.chain)
    if memo.result_subsections is None:
        memo.result_subsections, starts = {}, site.ctx.claim_starts
        for j, sub in enumerate(site.d.sections):
            k = bisect_left(starts, sub.start)   # (a bisection per section, no slice of the claims)
            if k < len(starts) and starts[k] < sub.body_end:
                memo.result_subsections.setdefault(sub.parent, []).append((j, (sub.start, sub.body_end)))
    return [span for i in holders for j, span in memo.result_subsections.get(i, ()) if j not in chain]


@rung_reader("universal")
def universal(lad: LadderReading, site: ClaimSite) -> list[Located]:
    """Statements of universal scope anywhere in the post ("All experiments use ...", "Unless noted
    otherwise, ..."): they cover every result of the post, after them as well as before; a statement
    that ends in a colon covers what it introduces (the next block). One about the results above it
    ("The above numbers were collected with ...") covers only the results before it."""
    ctx, memo = site.ctx, lad.memo
    if memo.universal is None:
        d, view, found = site.d, site.d.view, []
        for m in lad.ladder.universal_scope.finditer(view):
            end = SENTENCE_END.search(view, m.end())
            hi = end.start() + 1 if end else len(view)
            b = bisect_right(ctx.block_starts, m.start()) - 1
            if view[m.start():hi].rstrip().endswith(lad.ladder.lead_in_endings) and 0 <= b < len(d.blocks) - 1:
                hi = d.blocks[b + 1].end
            elif 0 <= b and _setup_label_before(lad, view, d.blocks[b].start, m.start()):
                hi = max(hi, d.blocks[b].end)   # a labelled set-up paragraph ("Methodology: All runs used ...")
            reach = m.start() if m.groupdict().get("above") else len(view)
            found += [(x, reach) for x in ctx.between(m.start(), hi)]
        memo.universal = found
        memo.universal_reaches = sorted({reach for _, reach in found})
    pos = site.claim.span[0]
    covers = ("universal", bisect_right(memo.universal_reaches, pos))   # the statements whose reach is past pos
    rung = memo.rungs.get(covers)
    if rung is None:
        rung = memo.rungs[covers] = _rung(ctx, [x for x, reach in memo.universal if pos < reach])
    return _own_rung(site, rung, lambda: (x for x, reach in memo.universal if pos < reach))


@rung_reader("introduction")
def introduction(lad: LadderReading, site: ClaimSite) -> list[Located] | None:
    """The untitled introduction: it describes what the whole post measured. For a claim of its own, what it states
    after the claim (the paragraph and section rungs read it only up to the claim) in a sentence that states no
    result ("... reached 212 tokens/s per user. ... Every run used one rack of NVIDIA GB300 GPUs."; not "TTFT under 1 s on
    10,000-token prompts", another result's setting), in prose (not a list of what the post covers) and for a claim
    of its prose (not of a table)."""
    own = site.section is None and site.passage.kind != "front_matter"
    if own and site.passage.table is not None:
        return None
    ctx, memo = site.ctx, lad.memo
    rung = memo.rungs.get("introduction")
    if rung is None:
        rung = memo.rungs["introduction"] = _rung(ctx, ctx.prose.get(None, []))
    located = _own_rung(site, rung, lambda: ctx.prose.get(None, []))
    if not own:
        return located
    start, blocks = site.claim.span[0], site.d.blocks
    return [x for x in located if x.m.span[0] < start or x.sentence is not None and x.block >= 0
            and blocks[x.block].kind == "paragraph" and not ctx.claims_in(*x.sentence)]


@rung_reader("front_matter")
def front_matter(lad: LadderReading, site: ClaimSite) -> list[Located]:
    """The front matter and the (HTML) title."""
    d, ctx, memo = site.d, site.ctx, lad.memo
    if "front_matter" not in memo.rungs:
        fm: list[Located] = []
        if d.meta_span:
            fm += ctx.between(*d.meta_span)
        if d.title_span:
            fm += ctx.between(*d.title_span)
        memo.rungs["front_matter"] = SharedRung(fm)
    return memo.rungs["front_matter"]


def _setup_label_before(lad: LadderReading, view: str, lo: int, hi: int) -> bool:
    """The statement opens its paragraph after a set-up label ("**Benchmark methodology**: All benchmarks were
    run ...", "Test setup: every run used ..."): the whole paragraph describes how the results were measured."""
    label = view[lo:hi].strip()
    if not label.endswith(lad.ladder.lead_in_endings):
        return False
    label = label[:-1].strip()
    return 0 < len(label) <= 60 and "\n" not in label and not any(ch in label for ch in ".!?") \
        and bool(lad.ladder.setup_ending.search(label) or lad.ladder.setup_phrase.search(label))


def _rung(ctx: DocContext, located: list[Located]) -> SharedRung:
    """A shared rung of `located`, without the items of the post's lists of alternatives (each describes its
    own experiment, for every claim outside it)."""
    return SharedRung((x for x in located if x.block not in ctx.alternatives), full=located)


def _section_rung(ctx: DocContext, memo: RungMemo, section: int) -> SharedRung:
    """The mentions of one setup section, as a part of the setup rungs that hold it."""
    if ("section", section) not in memo.rungs:
        sec = ctx.d.sections[section]
        memo.rungs["section", section] = _rung(ctx, ctx.between(sec.start, sec.body_end))
    return memo.rungs["section", section]


def _own_rung(site: ClaimSite, rung: SharedRung, located: Callable[[], Iterable[Located]]) -> list[Located]:
    """What the claim reads of a shared rung: the rung itself when no mention it was cut from lies in the
    claim's own block or list (the rung leaves out the post's lists of alternatives, as `site.siblings`
    does); else `located` without the claim's siblings, as a list of its own."""
    blocks = site.d.blocks
    if site.passage.block < 0:   # (a table cell, the front matter: no list of its own; its siblings are the alternatives)
        return rung
    lo = min(blocks[b].start for b in site.own_list)
    hi = max(max(blocks[b].end, blocks[b].start + 1) for b in site.own_list)
    if not rung.starts_in(lo, hi):
        return rung
    return [x for x in located() if x.block not in site.siblings]
