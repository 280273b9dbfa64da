"""What ties a mention to a claim beyond its place: the claim's site, and the tests that keep a mention
of another run (another metric's load, a comparison with no figure, another figure's system) away from it."""
from __future__ import annotations

import re
from bisect import bisect_left
from copy import copy

from extractor.conditions._internals.rung_memo import RungMemo
from extractor.conditions.context import DocContext
from extractor.conditions.located import MEASURED_KINDS, Located
from extractor.conditions.places import ancestors, sibling_items
from extractor.ingest.segment import Passage
from extractor.records import Claim

# what a figure was measured on (the system), as a complement right after it: not carried to other figures
SUBJECT_NAMES = frozenset({"model", "hardware", "precision", "parallelism"})
# the conditions a sentence may list by name, one per figure, for "respectively" (`paired_lists`)
LISTED_NAMES = frozenset({"model", "hardware", "precision", "dataset"})
# between a figure and a setting that qualifies it: a chain of prepositional phrases, no clause break
_WORDS = re.compile(r"[a-z0-9]+(?:\.[0-9]+)?")
_COMPLEMENT = re.compile(r"[\s*_]*(?:(?:on|with|for|using|at|under|in)\s[^,;:.!?()\n]{0,40}?)+", re.I)
_SHARE = re.compile(r"(\d+(?:\.\d+)?)\s*%")   # a percentage written in a mention


class ClaimSite:
    """One claim and its place, with what several readers ask, computed once per claim (`LadderReading.site`):
    built whole; what its own sentence states is added by a copy (`with_own_clause`), after the sentence rung."""

    __slots__ = ("ctx", "d", "claim", "passage", "siblings", "own_list", "settings", "chain", "linked", "section",
                 "family", "own_loads", "baseline_devices", "memo", "own", "modes", "devices", "models")

    def __init__(self, ctx: DocContext, claim: Claim, passage: Passage, linked: int | None, family: str | None,
                 settings: set[int], own_loads: set[str], baseline_devices: frozenset[str], memo: RungMemo):
        self.ctx, self.d, self.claim, self.passage = ctx, ctx.d, claim, passage
        # parallel statements of its list, and the items of a list of other experiments: not set-up
        items = sibling_items(ctx.d, passage.block)
        self.settings = settings   # labelled set-up items of its list ("GPU: 1x H100")
        self.siblings = (items | (ctx.alternatives - {passage.block})) - settings
        self.own_list = items | {passage.block}   # the claim's own block and list
        self.chain = ancestors(ctx.d, passage.section) or [None]
        self.linked = linked   # the section a highlight bullet names, which reports it
        self.section = linked if linked is not None else passage.section   # the section whose set-up governs
        self.family = family   # the claim's metric family
        self.own_loads = own_loads   # the load settings its whole sentence states, in any clause
        self.baseline_devices = baseline_devices   # the devices it compares with ("than the A100")
        self.memo = memo   # the document's ladder memos
        self.own: dict[str, set[str]] = {}   # the load settings its own clause states, by condition
        self.modes: set[str] = set()     # the named modes its own clause states ("at min-latency")
        self.devices: set[str] = set()   # the devices and models its own clause names
        self.models: set[str] = set()

    def with_own_clause(self, kept: list[Located]) -> ClaimSite:
        """This site with what the mentions its sentence rung kept state: the loads, modes, devices, models."""
        site = ClaimSite.__new__(ClaimSite)   # a shallow copy (as `copy.copy`, without its generic reduce)
        for name in _SITE_SLOTS:
            setattr(site, name, getattr(self, name))
        site.note_own_clause(kept)
        return site

    def note_own_clause(self, kept: list[Located]) -> None:
        """Set what the kept mentions of the claim's own clause state: the loads, modes, devices, models."""
        self.own, self.modes, self.devices, self.models = {}, set(), set(), set()
        for x in kept:
            if x.name in MEASURED_KINDS and x.usable:
                self.own.setdefault(x.name, set()).add(repr(x.m.value))
            elif x.name == "scenario" and x.usable and x.m.canonical:
                self.modes.add(x.m.canonical)
            elif x.name in ("hardware", "model") and x.usable:
                (self.devices if x.name == "hardware" else self.models).add(x.m.canonical or str(x.m.value))


_SITE_SLOTS = tuple(n for n in ClaimSite.__slots__ if n not in ("own", "modes", "devices", "models"))


def describes_other_run(site: ClaimSite, x: Located) -> bool:
    """A mention in another sentence that describes another run: a sentence that makes a comparison of
    its own and gives no figure ("X is quicker than Y with 4 users"), what another figure was measured on,
    or a sentence whose load settings differ from those of the claim's own sentence ("(in 8k / out 1,
    bs 64)" next to "(in 8k / out 256)")."""
    sent = x.sentence
    if sent is None or sent[0] <= site.claim.span[0] < sent[1]:
        return False
    other_run = site.memo.other_run
    if id(x) not in other_run:   # the part that does not depend on the claim, decided once per mention
        other_run[id(x)] = _another_runs_sentence(site, x, sent)
    if other_run[id(x)]:
        return True
    own = site.own
    if own and (x.name in MEASURED_KINDS or _holds_figure(site, sent)):
        # load settings unlike the claim's own: another run; a result sentence of another run keeps all of
        # its setup to itself ("For model A at batch 128, one card gave X. For model B at batch 512, ...")
        return any(name in own and value not in own[name] for name, value in _usable_settings(site, sent))
    return False


def _usable_settings(site: ClaimSite, sentence: tuple[int, int]) -> list[tuple[str, str]]:
    """(condition, value) of the usable mentions that start in a sentence, read once per sentence."""
    found = site.memo.settings_of.get(sentence)
    if found is None:
        found = site.memo.settings_of[sentence] = [(y.name, repr(y.m.value)) for y in site.ctx.between(*sentence)
                                                   if y.usable]
    return found


def _holds_figure(site: ClaimSite, sent: tuple[int, int]) -> bool:
    """Whether a claim's figure starts in sentence `sent`."""
    spans = site.ctx.claim_spans
    k = bisect_left(spans, (sent[0], sent[0]))
    return k < len(spans) and spans[k][0] < sent[1]

def _another_runs_sentence(site: ClaimSite, x: Located, sent: tuple[int, int]) -> bool:
    """Whether `x`'s sentence describes another run for any claim outside it: a comparison with no figure,
    or the system named right after another figure ("9,400 tok/s on Mistral-7B")."""
    spans = site.ctx.claim_spans
    holds_figure = _holds_figure(site, sent)
    if x.compares and not holds_figure:
        return True
    if holds_figure and x.name in SUBJECT_NAMES:
        j = bisect_left(spans, (x.m.span[0], x.m.span[0])) - 1
        if j >= 0 and spans[j][0] >= sent[0] and _COMPLEMENT.fullmatch(site.d.view, spans[j][1], x.m.span[0]):
            return True
    return False

def same_model(a: str, b: str) -> bool:
    """Whether two model names name one model, one written more fully ("Llama 70B", "Llama 3.3 70B")."""
    x, y = set(_WORDS.findall(a.lower())), set(_WORDS.findall(b.lower()))
    return bool(x) and bool(y) and (x <= y or y <= x)


def other_models_settings(levels: list, site: ClaimSite) -> list:
    """`levels` without the settings the post pairs with one model (bindings.py `_bind_pairs`: "A (2xH100) and B
    (4xH100)") that is not the claim's, when the claim's own clause names no model: the most specific rung that
    names a model names the claim's (written once or more fully); a rung that names several does not single one
    out: a setting the post gives one model alone is not the claim's (the several models' settings stay, and are
    ambiguous)."""
    if site.models or not site.ctx.binds_model or not any(x.for_model is not None for level in levels
                                                           for x in level.located):
        return levels
    for level in levels:
        names = {x.m.canonical or str(x.m.value) for x in level.located if x.name == "model" and x.usable}
        if not names:
            continue
        longest = max(names, key=len)
        if all(same_model(n, longest) for n in names):
            return [level._replace(located=[x for x in level.located if x.for_model is None
                                            or same_model(x.for_model, longest)]) for level in levels]
        return [level._replace(located=[x for x in level.located if x.for_model is None
                                        or _other_models(level.located, x)]) for level in levels]
    return levels


def paired_in_order(site: ClaimSite, respectively: re.Pattern[str]) -> list[tuple[int, int]]:
    """The figures of the claim's sentence when it pairs them in order with a list ("..., respectively") and has two
    or more; none otherwise (a table cell pairs nothing). The one test of "respectively", for the sentence rung
    (which keeps such a list for every figure) and for `respective_values` (which cuts it to the claim's value)."""
    p = site.passage
    if p.table is not None:
        return []
    key = (respectively, p.start, p.end)   # once per sentence, not once per figure of it
    said = site.memo.respectively.get(key)
    if said is None:
        said = site.memo.respectively[key] = respectively.search(site.d.view, p.start, p.end) is not None
    if not said:
        return []
    figures = site.ctx.claims_in(p.start, p.end)
    return figures if len(figures) > 1 else []


def paired_lists(located: list[Located], figures: list[tuple[int, int]], view: str,
                 joint: re.Pattern[str]) -> list[Located]:
    """The mentions of a sentence that pairs its figures in order with lists of as many values: a list written in
    one mention ("with 1K, 2K and 4K-token prompts") and the separate names of one condition listed one after the
    other with only list joints between them (`joint`: "the L40S or the RTX 6000 Ada decode 2.2x and
    2.9x faster, respectively"), as many distinct values as figures."""
    n = len(figures)
    out = [x for x in located if isinstance(x.m.value, dict) and len(x.m.value.get("values") or ()) == n]
    by_name: dict[str, list[Located]] = {}
    for x in sorted(located, key=lambda x: x.m.span):
        run = by_name.setdefault(x.name, [])
        if x.name in LISTED_NAMES and x.usable and not isinstance(x.m.value, dict) \
                and (not run or x.m.span[0] >= run[-1].m.span[1]):
            run.append(x)
    for run in by_name.values():
        if len(run) == n and len({x.m.canonical or x.m.quote for x in run}) == n \
                and all(joint.fullmatch(view, a.m.span[1], b.m.span[0]) for a, b in zip(run, run[1:])):
            out += run
    return out


def respective_values(site: ClaimSite, kept: list[Located], respectively: re.Pattern[str], joint: re.Pattern[str],
                      cut: dict[tuple[int, int], Located]) -> list[Located]:
    """The claim's sentence mentions, with the lists that the sentence pairs with its figures in order
    (`paired_lists`: "41.3k, 39.8k and 36.0k tok/s with 1K, 2K and 4K-token prompts, respectively") cut to the
    claim's own value: the k-th of as many values as the sentence has figures (`cut`: the document's cut
    mentions, made once each); of names listed apart, the k-th name alone."""
    figures = paired_in_order(site, respectively)
    if site.claim.span not in figures:
        return kept
    k = figures.index(site.claim.span)
    paired = paired_lists(kept, figures, site.d.view, joint)
    if not paired:
        return kept
    names = sorted((x for x in paired if not isinstance(x.m.value, dict)), key=lambda x: x.m.span)
    nth = {id(x): sum(y.name == x.name for y in names[:i]) for i, x in enumerate(names)}
    out = []
    for x in kept:
        if id(x) in nth:
            if nth[id(x)] != k:
                continue   # another figure's name of the list
        elif x in paired:
            if (id(x), k) not in cut:
                y = cut[id(x), k] = copy(x)
                y.m = x.m.model_copy(update={"value": x.m.value["values"][k], "sweep": False})
            x = cut[id(x), k]
        out.append(x)
    return out


def other_modes_settings(levels: list, site: ClaimSite) -> list:
    """`levels` without the settings the post gives one named mode (bindings.py: "In batch mode, we submit 3K
    prompts at once") when the most specific rung that names modes for a claim whose own clause names none
    names another mode as well ("The serving chart looks much like the batch one"): which mode
    the claim was measured in is not clear there, so a setting of one of them is not its own."""
    if site.modes or not site.ctx.binds_mode or not any(x.for_mode is not None for level in levels
                                                         for x in level.located):
        return levels
    for level in levels:
        named = {x.m.canonical for x in level.located if x.m.kind == "scenario" and x.m.canonical and x.usable}
        if named:
            return [lv._replace(located=[x for x in lv.located if x.for_mode is None or not (named - {x.for_mode})])
                    for lv in levels]
    return levels


def _other_models(located: list, x: Located) -> bool:
    """Whether a rung also gives another model than `x`'s a setting of `x`'s condition: the rung's several values
    (the claim over several models is then ambiguous about it, as the post is)."""
    return any(y.name == x.name and y.for_model is not None and y.for_model != x.for_model for y in located)


def ties_fit(site: ClaimSite, x: Located, scope: str) -> bool:
    """A mention measured for another metric ("ITL measured at 12 QPS"; a run "measuring latency", for a
    claim of another known family) is not a condition of this claim; an example or an accuracy-evaluation
    dataset is one only in the claim's own sentence, and so is a side of a comparison ("A versus B"). A mention
    whose quote holds the claim's own figure ("the cache hit rate was 62%" for the 62%) names what the claim
    measures, not a condition of it."""
    if x.m.span[0] <= site.claim.span[0] and site.claim.span[1] <= x.m.span[1] or _restates_share(site.claim, x):
        return False
    if x.bound is not None and x.bound != site.family:
        return False
    if scope != "sentence" and _bound_elsewhere(site, x):
        return False
    if scope == "figure_caption" and site.family is None and x.name in MEASURED_KINDS \
            and isinstance(x.m.value, dict) and len(x.m.value.get("values") or ()) > 1:
        return False   # a chart's settings listed bar by bar are the load of a rate or latency it shows
    if x.measured is not None and site.family is not None and x.measured != site.family:
        return False   # the load of a run that measured another metric ("..., measuring latency")
    if x.accuracy_clause and site.claim.metric != "accuracy":
        return False   # "no accuracy drop on X, and 7x faster": X is the set of the score, not the speed run's
    if x.slo_from is not None and not (x.sentence and x.slo_from <= site.claim.span[0] < x.sentence[1]):
        return False   # "handles up to 13 rps, but meets the SLOs only at 3.5 rps": the rate of another point
    if scope == "sentence":
        return True
    return not x.example and not x.side and not (x.accuracy and site.claim.metric != "accuracy") \
        and not (x.speed and site.claim.metric == "accuracy")


def _restates_share(claim: Claim, x: Located) -> bool:
    """Whether a mention holds the claim's own percentage ("a 95% cache hit rate" restating a claim of 95%): the
    claim's measure written elsewhere, not a setting of it."""
    if claim.unit != "percent" or "%" not in x.m.quote:
        return False
    return any(abs(float(n) - abs(claim.value)) < 1e-9 for n in _SHARE.findall(x.m.quote))


def _bound_elsewhere(site: ClaimSite, x: Located) -> bool:
    """A setting the post gives another named mode than the one the claim's clause names, or another metric
    family than the claim's (bindings.py) — unless the claim's own sentence gives a load of that kind in
    another clause ("at 64 concurrent requests, while keeping TTFT at 100 ms"): then which one is its own
    is not clear, and the bound setting is not let through alone."""
    if x.for_mode is not None and site.modes and x.for_mode not in site.modes:
        return True
    if x.for_device is not None and (x.for_device in site.baseline_devices
                                     or site.devices and x.for_device not in site.devices):
        return True   # the setting of another device, or of the device the claim is compared with
    if x.for_model is not None and site.models and not any(same_model(x.for_model, m) for m in site.models):
        return True
    if site.baseline_devices and x.name in MEASURED_KINDS and x.block >= 0 \
            and site.d.blocks[x.block].kind == "caption" and _one_side(site, x.block):
        return True   # a caption about one side of a comparison of devices is not the comparison's load
    return (x.for_family is not None and site.family is not None and x.for_family != site.family
            and x.name not in site.own_loads)


def _one_side(site: ClaimSite, block: int) -> bool:
    """Whether a caption describes only the measured side of a comparison with another device: it names
    devices, none of them the baseline's ("1x H200 | BS: 256, 128" for "2x faster than the A100")."""
    named = {x.m.canonical or str(x.m.value) for x in site.ctx.by_block.get(block, ()) if x.name == "hardware"}
    return bool(named) and named.isdisjoint(site.baseline_devices)
