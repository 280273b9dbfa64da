"""The resolution policy, in one place: which mention states a claim's condition.

- The most specific rung of the ladder that states a condition wins (`Scopes.first`); a rung of
  column headers states a condition only through the claim row's cell (`ColumnCell`).
- At that rung, one mention per distinct value counts (`most_specific`: a value written inside a
  longer one of the same kind is the longer one). One value is stated (`Pick`; a name a broader
  rung writes out more fully is refined to that fuller form); two values are `Unstated("ambiguous")`,
  unless the condition is stated in parts (a layout: TP8 and EP8), when all parts are (`Parts`).
- The engine version: the most specific rung that names a versioned serving engine, one engine and
  one version, else ambiguous; an engine named without a version is `no_version`.

The policy returns a decision; statement.py and where.py turn it into the record's `Condition`."""
from __future__ import annotations

import re
from operator import or_

from extractor.conditions._internals.rung_summaries import of_condition, summed, tallied
from extractor.conditions.canonical import without_org
from extractor.conditions.code.choice import loaded_by_code, settled_by_code
from extractor.conditions.context import DocContext
from extractor.conditions.decisions import (ColumnCell, Decision, EngineVersion, Parts, Pick, Scopes, Unstated,
                                            name_key, norm)
from extractor.conditions.device_counts import counted_twice
from extractor.conditions.engine_tally import EngineTally
from extractor.conditions.ladder import Level
from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention
from extractor.conditions.refine import counted, first_and_union, most_specific, named_id, refined
from extractor.conditions.rules import ScopeRules
from extractor.conditions.scan import covering
from extractor.conditions.variants import Variants

ENGINE = "engine_version"
PRECISION = "precision"
LAYOUT = "parallelism"   # its mentions carry a canonical layout ("TP8 EP2"; conditions.yaml `layout_schemes`)
ONE_DEGREE = "TP1"       # the layout of a run on one device, written by its degree

MODEL = "model"
# prose around the claim, broader than its own sentence, row or printed output: a model named there loosely ("Llama 2
# 7B" in a heading or caption) gives way to the repository id the run's code loads (code/choice.py `loaded_by_code`)
_LOOSE_SCOPES = frozenset({"figure_caption", "paragraph", "section", "setup_section", "document", "front_matter"})
# the note of a value the run's code settles among several a rung names (code/choice.py)
SETTLED_BY_CODE = "the run's code loads"


PASSING_SCOPES = frozenset({"document", "front_matter"})   # the post's introduction, universal statements, title


class Policy:
    """Decides each condition of a claim from its `Scopes`."""

    def __init__(self, scopes: ScopeRules, single_device: str = "single GPU"):
        self.supporting = {norm(e) for e in scopes.supporting_engines}
        self.composite = set(scopes.composite)
        self.refinable = set(scopes.refinable)
        self.formats = {k.casefold(): v.casefold() for k, v in scopes.precision_formats.items()}
        self.generic_words = {w.casefold() for w in scopes.precision_generic_words}
        self.partial = {name: re.compile(rx, re.I) for name, rx in scopes.partial_values.items()}
        self.credit_section = re.compile(scopes.credit_sections, re.I)
        self.several_rule = scopes.several_systems
        self.other_work = re.compile(scopes.several_systems.other_work, re.I)
        self.list_joint = re.compile(scopes.several_systems.list_joint, re.I)
        self.not_the_runs = re.compile(scopes.several_systems.not_the_runs, re.I)
        self.variants = Variants(scopes.variant_names)
        self.single_device = single_device   # the layout value of a run on one device (conditions.yaml)

    def reading(self, ctx: DocContext) -> DocumentPolicy:
        """The policy for one document's claims."""
        return DocumentPolicy(self, ctx)

    def decide(self, doc: DocumentPolicy, name: str, scopes: Scopes) -> Decision:
        if name == ENGINE:
            return self.engine(scopes)
        if name not in scopes.first:
            return ColumnCell() if scopes.in_table else Unstated("absent")
        decision = self._stated(doc, name, scopes)
        return ColumnCell(decision) if name in scopes.after_cell else decision

    def _stated(self, doc: DocumentPolicy, name: str, scopes: Scopes) -> Pick | Parts | Unstated:
        """The decision of the most specific rung that states `name`."""
        scope, cands = scopes.first[name]
        picked = most_specific(cands, doc.specific, layout=name == LAYOUT)
        if len(picked) > 1 and name in self.composite:
            exact = [m for m in picked if not self.is_partial(name, m)]
            if len(exact) > 1 and len(_models_of(cands, exact)) > 1:   # each part another model's: no one layout
                return Unstated("ambiguous", values=", ".join(sorted({_show(m) for m in exact})), scope=scope,
                                mentions=tuple(exact))
            view = doc.ctx.d.view
            if len(exact) > 1 and name == LAYOUT and (more := [x for e in exact
                                                               for x in _more_devices(scopes, scope, e, view)]):
                return Unstated("ambiguous", values=", ".join(sorted({_show(x) for x in (*exact, *more)})),
                                scope=scope, mentions=(*exact, *more))
            if len(exact) > 1:
                return Parts(exact, scope)
            picked = exact or picked[:1]
        if len(picked) > 1 and (settled := settled_by_code(picked, scopes.usable, name, name_key)) is not None:
            return Pick(settled, scope, note=f"{SETTLED_BY_CODE} '{_show(settled)}' of the several named here")
        if len(picked) > 1:
            return Unstated("ambiguous", values=", ".join(sorted({_show(m) for m in picked})), scope=scope,
                            mentions=tuple(picked))
        m = first = picked[0]
        if name == LAYOUT and (more := _more_devices(scopes, scope, m, doc.ctx.d.view)):
            return Unstated("ambiguous", values=", ".join(sorted({_show(x) for x in (m, *more)})), scope=scope,
                            mentions=(m, *more))
        if name in self.refinable:
            fuller, fuller_scope = refined(m, scope, name, scopes.levels)
            if fuller is not m and not doc.two_table_names(name, m, fuller):
                m, scope = fuller, fuller_scope
        if name == MODEL and scope in _LOOSE_SCOPES and "/" not in m.quote \
                and (run := loaded_by_code(scopes.usable, name)) is not None:
            return Pick(run[0], run[1], note=f"{SETTLED_BY_CODE} '{_show(run[0])}'; the post names it "
                                             f"'{_show(m)}' around the claim")
        elif name == PRECISION:
            m, scope = self.format_of(m, scope, scopes.levels)
        if name == "hardware" and m.count is not None and scope != "sentence" \
                and counted_twice(cands, m, doc.ctx.d.view):
            # one device at two counts at this rung, paired with no model ("1xL4 = TP1, 4xL4 = best config"):
            # the rung names two runs of it; the device is stated, its count only when a more specific place
            # (the claim's row: "GPUs | 1") counts it one of those ways
            own = _own_count(scopes, scope)
            mine = next((x.m for x in cands if x.m.count == own and name_key(x.m) == name_key(m)), None)
            return Pick(mine, scope) if mine is not None else Pick(m, scope, uncounted=True)
        if name == "hardware" and m.count is None:
            m, scope = counted(m, scope, scopes.levels)
        if self.is_partial(name, m):
            # (not from a family the post's introduction or title names in passing: "... for DeepSeek models" in
            # a list of features does not make the post's one DeepSeek checkpoint every result's model)
            only = self.only_member(doc, name, m) if scope not in PASSING_SCOPES else None
            if only is not None:
                return Pick(only, "document", note=f"the only {name} of the post named '{_show(m)}' more fully "
                                                   f"(the claim's place names only '{_show(m)}')")
            return Unstated("partial", engine=" ".join(m.quote.split()))
        if name in self.variants.conditions and (one := self._one_variant(doc, name, first, cands, m, scope,
                                                                          scopes.levels)) is not None:
            return one
        if name == LAYOUT and (other := self._one_device_twin(m, scopes)) is not None:
            return Parts([m, other], scope)
        return Pick(m, scope)

    def _one_device_twin(self, m: Mention, scopes: Scopes) -> Mention | None:
        """For a one-device layout ("a single GPU", "1x H200") the degree-1 layout a broader rung writes ("TP1",
        "TP=1"), and the other way round: one layout written two ways, both kept. Only from the first rung that
        states a layout besides `m`, and only when that is its one layout."""
        forms = (self.single_device, ONE_DEGREE)
        mine = m.canonical or m.value
        if mine not in forms:
            return None
        for _, by_name in scopes.usable:
            others = {x.m.canonical or x.m.value: x.m for x in by_name.get(LAYOUT, []) if x.m is not m}
            others.pop(mine, None)
            if others:
                twin = next(iter(others.values()))
                return twin if len(others) == 1 and (twin.canonical or twin.value) in forms else None
        return None

    def _one_variant(self, doc: DocumentPolicy, name: str, first: Mention, cands: list[Located], m: Mention, scope: str,
                     levels: list[Level]) -> Unstated | None:
        """Unstated when the name the claim's place gives (`first`, refined to `m` at `scope`) is one of several
        variants (scopes.yaml `variant_names`): the place writes two of them ("Kimi-K9-Lite and Kimi-K9-Max",
        one family name for both), the broader rung that writes it out does, or the post writes two and the
        claim's place names only the short name ("MiniMax-M1" beside "-40k" and "-80k"; not a repository id named
        by words alone, which names one checkpoint)."""
        family, d = first.canonical or first.quote, doc.ctx.d
        level = None
        if m is not first:   # written out more fully at a broader rung: that rung must name one variant
            level = next((lv for lv in levels if lv.scope == scope and any(x.m is m for x in lv.located)), None)
        if level is not None:
            here = self.variants.at_place(d, family, [x for x in level.located if x.name == name and x.usable])
        else:   # (the claim's place: of a rung many claims read, once per rung)
            here = sorted(summed(cands, ("variants", family), lambda xs: self.variants.words(d, family, xs), or_))
        if len(here) > 1:
            return Unstated("ambiguous", values=", ".join(f"{family} {w}" for w in here), scope=scope)
        if m is first and not named_id(m.quote) \
                and len(variants := self.variants.of(doc.ctx.d, m.quote, m.span, doc.variants)) > 1:
            return Unstated("variants", values=", ".join(variants), engine=" ".join(m.quote.split()))
        return None

    def several(self, name: str, decision: Decision, qualifier: str, headline: bool, scopes: Scopes, view: str = ""
                ) -> list[Mention] | None:
        """The several values an ambiguous rung names, when the claim sums up runs over all of them (scopes.yaml
        `several_systems`); None when it is one run of them, or when a value gives only a family. At a headline's
        broader rung (`headline_scopes`), only values named together in one sentence of `view` that does not call
        them an earlier or another work's (`other_work`: "Our earlier post measured the H100 and A100")."""
        rule = self.several_rule
        if not isinstance(decision, Unstated) or decision.reason != "ambiguous" or name not in rule.conditions \
                or qualifier not in rule.qualifiers or len(decision.mentions) < 2 \
                or decision.scope not in rule.scopes and not (headline and decision.scope in rule.headline_scopes
                                                              and name in rule.headline_conditions
                                                              and self._named_together(decision.mentions, view)):
            return None
        if any(self.is_partial(name, m) for m in decision.mentions):
            return None
        if name == "hardware":   # each device with the count a broader rung gives it ("8x MI325X")
            return [m if m.count is not None else counted(m, decision.scope, scopes.levels)[0]
                    for m in decision.mentions]
        return list(decision.mentions)

    def _named_together(self, mentions: tuple[Mention, ...], view: str) -> bool:
        """Whether `mentions` lie in one sentence of `view` that names them as the run's systems: one list of them
        (`list_joint` between each two), in a sentence about no earlier work (`other_work`) that does not move
        between devices or name some not run (`not_the_runs`)."""
        lo, hi = covering(view, *mentions[0].span, "sentence")
        if not all(lo <= m.span[0] and m.span[1] <= hi for m in mentions):
            return False
        spans = sorted(m.span for m in mentions)
        if not all(self.list_joint.fullmatch(view, a[1], b[0]) for a, b in zip(spans, spans[1:])):
            return False
        return not self.other_work.search(view, lo, hi) and not self.not_the_runs.search(view, lo, hi)

    def format_of(self, m: Mention, scope: str, levels: list[Level]) -> tuple[Mention, str]:
        """A generic precision ("FP4", "FP4 quantization") that a broader rung writes as one specific format
        of it ("NVFP4"): that format, at its scope (like a name written out more fully). Two formats there,
        or a generic value about something else ("FP8 KV cache"), stay as written."""
        words = norm(m.canonical or str(m.value)).split()
        if not words or words[0] not in self.formats.values() or not set(words[1:]) <= self.generic_words:
            return m, scope
        for level in levels:
            first, formats = self._formats(level.located, words[0])
            if first is not None:
                return (first, level.scope) if len(formats) == 1 else (m, scope)
        return m, scope

    def _formats(self, located: list[Located], generic: str) -> tuple[Mention | None, frozenset[str]]:
        """The first precision of one rung that is a specific format of `generic`, and the formats of all such;
        of a `SharedRung`, once."""
        return of_condition(located, PRECISION, True, ("formats", generic), lambda xs: self._formats_in(xs, generic),
                            first_and_union, (None, frozenset()))

    def _formats_in(self, located: list[Located], generic: str) -> tuple[Mention | None, frozenset[str]]:
        found = [x.m for x in located if x.name == PRECISION and x.usable
                 and (w := norm(x.m.canonical or str(x.m.value)).split())
                 and self.formats.get(w[0]) == generic and set(w[1:]) <= self.generic_words]
        return (found[0] if found else None), frozenset(norm(x.canonical or str(x.value)).split()[0] for x in found)

    def only_member(self, doc: DocumentPolicy, name: str, m: Mention) -> Mention | None:
        """The one exact name the post writes out from a partial one ("DeepSeek" -> "DeepSeek-V3" when that is
        the post's only DeepSeek model); None when it names none or several ("DeepSeek-V3" and "DeepSeek-R1";
        "Llama-13B" and "Llama2-13B", which only the claim's own place could say are one model)."""
        if without_org(m.quote) != m.quote:
            return None   # a repository id ("Qwen/Qwen-Image-Edit") is one checkpoint: a longer name is another
        base = norm(without_org(m.quote))
        if (name, base) in doc.fuller_names:   # the same for every claim of the post
            return doc.fuller_names[name, base]
        ctx = doc.ctx
        fuller: dict[str, Mention] = {}
        sections = ctx.d.sections
        families: set[str] = set()   # fuller names that are themselves partial ("Qwen-Image-Edit" of "Qwen-Image")
        for x in ctx.mentions:
            if x.name != name or not x.usable or x.block in ctx.alternatives:
                continue   # (an item of a news list or of a list of alternatives is its own experiment's)
            if x.section is not None and self.credit_section.search(sections[x.section].title):
                continue   # thanks and references name what others made, not a run of the post
            full = norm(without_org(x.m.quote))
            if _extends(full, base) or x.m.canonical and _extends(norm(x.m.canonical), base):
                # (by its canonical name too: "Llama2-13B" is "Llama 2 13B", a Llama model written out)
                if self.is_partial(name, x.m):
                    families.add(full)
                else:
                    fuller.setdefault(name_key(x.m), x.m)
        only = next(iter(fuller.values())) if len(fuller) == 1 else None
        if only is not None and any(_extends(norm(without_org(only.quote)), f) for f in families):
            only = None   # the one exact name is of a narrower family the post also names ("Qwen-Image-Edit-2509")
        doc.fuller_names[name, base] = only
        return only

    def is_partial(self, name: str, m: Mention) -> bool:
        """A name that gives the kind of the condition, not its value (`partial_values`: "DeepSeek", "mixed
        precision")."""
        rx = self.partial.get(name)
        return rx is not None and rx.fullmatch(m.quote.strip()) is not None

    def is_supporting(self, m: Mention) -> bool:
        """An engine that runs beside the serving engine (an orchestrator, kernel library, cache)."""
        return name_key(m) in self.supporting

    def engine(self, scopes: Scopes) -> EngineVersion | Unstated:
        """The engine version of the most specific rung that states one (`EngineTally` of each rung): the
        version of the engine a nearer rung names, among several engines' versions; ambiguous when a rung
        states several engines or builds; else the engine named without version, or nothing."""
        named = None
        for scope, by_name in scopes.usable:
            if ENGINE not in by_name:
                continue
            tally = self._engine_tally(by_name[ENGINE])
            named_nearer = named
            if named is None:
                named = tally.first_named
            builds = tally.builds
            if not builds:
                continue
            if len(builds) > 1 and named_nearer and norm(named_nearer) in builds:
                # the engine a nearer rung names, among the versions of several ("SGLang: v0.5", "vLLM: v0.9" in a
                # setup list, for a claim whose paragraph is about SGLang): its own version
                builds = {norm(named_nearer): builds[norm(named_nearer)]}
            if len(builds) > 1:
                values = ", ".join(sorted(set().union(*(b.labels for b in builds.values()))))
                return Unstated("ambiguous", values=values, scope=scope)
            (b,) = builds.values()
            build = b.one_build()
            if build is None:
                values = ", ".join(sorted(f"{b.first.canonical or b.first.value} {v}" for v in b.versions))
                return Unstated("ambiguous", values=values, scope=scope)
            m, commit = build
            engine = m.canonical or str(m.value)
            if named and norm(named) != norm(engine):
                if not norm(engine).startswith(norm(named)):
                    continue
                if engine[len(named):len(named) + 1] not in ("-", "_") or not engine.casefold().startswith(
                        named.casefold()):
                    engine = named     # "built from vLLM at commit 9f3c..." names vLLM
                # (a project whose name joins another word to the engine's, "vllm-npu", is its own project)
            return EngineVersion(m, engine, scope, sorted(tally.others), commit)
        return Unstated("no_version", engine=named) if named else Unstated("absent")

    def _engine_tally(self, located: list[Located]) -> EngineTally:
        """The tally of a rung's engine mentions; of a `SharedRung`, once per rung (extended from the rung
        it extends)."""
        def fold(tally: EngineTally, xs: list[Located]) -> EngineTally:
            return tally.add(xs, name_key, self.is_supporting)
        return tallied(located, "engine_tally", fold, EngineTally, EngineTally.copy)


class DocumentPolicy:
    """The policy for one document: what it memoises there (the fuller form of a partial name, the distinct
    values of a rung's candidates)."""

    def __init__(self, policy: Policy, ctx: DocContext):
        self.policy, self.ctx = policy, ctx
        self.fuller_names: dict[tuple[str, str], Mention | None] = {}   # Policy.only_member's
        self.specific: dict[tuple, list[Mention]] = {}   # refine.most_specific's
        self.variants: dict[str, list[str]] = {}   # Variants.of's: the variants of each name the post writes
        self._table_names: dict[str, set[str]] | None = None   # condition -> the names its tables' cells write

    def two_table_names(self, name: str, short: Mention, fuller: Mention) -> bool:
        """Whether the post's tables name both `short` and `fuller` in cells of their own ("Mistral-7B" and
        "Mistral-7B-Instruct" as rows of a results table): two models or devices, so the fuller is no refinement."""
        if self._table_names is None:
            self._table_names = {}
            for x in self.ctx.mentions:
                if x.table is not None:
                    self._table_names.setdefault(x.name, set()).add(norm(x.m.quote))
        names = self._table_names.get(name, set())
        return norm(short.quote) in names and norm(fuller.quote) in names

    def decide(self, name: str, scopes: Scopes) -> Decision:
        """The decision on condition `name` of a claim whose rungs are `scopes`."""
        return self.policy.decide(self, name, scopes)


def _extends(full: str, base: str) -> bool:
    """`full` is `base` written out more fully (both normalised)."""
    return full.startswith(base) and len(full) > len(base) and not full[len(base)].isalnum()


def _show(m: Mention) -> str:
    if isinstance(m.value, dict):
        return "-".join(str(v) for v in m.value.values())
    return str(m.quote if isinstance(m.value, str) else m.value)


def _more_devices(scopes: Scopes, scope: str, m: Mention, view: str) -> list[Mention]:
    """The hardware mentions that count several devices for another model at the rung where a count of one gave
    the single-device layout `m` ("Model-A (1x L40S) and Model-B (4x L40S)", bindings.py `_bind_pairs`), or that
    count the same device again for no model ("1xL4 = TP1, 4xL4 = best config", `counted_twice`): the rung
    does not say one device ran the claim."""
    for sc, by_name in scopes.usable:
        devices = by_name.get("hardware", ()) if sc == scope else ()
        one = next((x for x in devices if x.m.span == m.span), None)
        if one is not None and one.for_model is not None:
            return [x.m for x in devices if x.m.count and x.m.count > 1 and x.for_model not in (None, one.for_model)]
        if one is not None and sc != "sentence" and _own_count(scopes, scope) != 1 \
                and counted_twice(devices, one.m, view):
            # (unless a more specific place, the claim's row, counts one device)
            return [x.m for x in devices if x.m.count and x.m.count > 1 and x.for_model is None
                    and name_key(x.m) == name_key(one.m)]
    return []


def _own_count(scopes: Scopes, scope: str) -> int | None:
    """The one device count a rung more specific than `scope` states for the claim (its row's "GPUs | 1")."""
    if scopes.row_count is not None:
        return scopes.row_count
    for sc, by_name in scopes.usable:
        if sc == scope:
            return None
        counts = {x.m.value for x in by_name.get("gpu_count", ()) if isinstance(x.m.value, int)}
        if counts:
            return next(iter(counts)) if len(counts) == 1 else None
    return None


def _models_of(cands: list[Located], picked: list[Mention]) -> set[str]:
    """The models the post pairs the picked mentions with (bindings.py `_bind_pairs`)."""
    ids = {id(m) for m in picked}
    return {x.for_model for x in cands if id(x.m) in ids and x.for_model is not None}
