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
from dataclasses import dataclass, field
from functools import lru_cache

from extractor.conditions.code.choice import settled_by_code
from extractor.conditions.context import DocContext, Located
from extractor.conditions.engine_tally import COMMIT, EngineTally  # noqa: F401 - COMMIT is re-exported
from extractor.conditions.ladder import Level
from extractor.conditions.mentions import Mention
from extractor.conditions.rules import ScopeRules
from extractor.conditions.shared_rungs import SharedRung, folded, summary
from extractor.conditions.variants import Variants
from extractor.conditions.where import Reason

ENGINE = "engine_version"
PRECISION = "precision"
LAYOUT = "parallelism"   # its mentions carry a canonical layout ("TP8 EP2"; conditions.yaml `layout_schemes`)
_NON_NAME = re.compile(r"[^a-z0-9.]+")


@lru_cache(maxsize=8192)
def _norm(s: str) -> str:
    """Lower case, runs of other characters than letters, digits and dots made one space. (Not one function
    with canonical.py's `_norm`, which drops those characters: "GPT 4" is inside "GPT4o" there and not here,
    and the fuzzy scores of canonical names are tuned on the dropped form; merging would change output.)"""
    return _NON_NAME.sub(" ", s.lower()).strip()


def name_key(m: Mention) -> str:
    """The normalised name (canonical, else value) of a mention."""
    return _norm(m.canonical or str(m.value))


# -- decisions -------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Pick:
    """One mention states the condition at `scope`."""

    mention: Mention
    scope: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Parts:
    """A condition stated in parts at one scope (TP8 and EP8): all of them."""

    mentions: list[Mention]
    scope: str


@dataclass(frozen=True, slots=True)
class EngineVersion:
    """The serving engine and its version; `others`: supporting engines run with it, with versions."""

    mention: Mention
    engine: str
    scope: str
    others: list[str] = field(default_factory=list)
    commit: Mention | None = None   # the commit the release was built at, stated with it ("v0.6.2 (commit 1a2b3c4d)")


@dataclass(frozen=True, slots=True)
class ColumnCell:
    """The claim sits in a table and no rung up to its column headers states the condition: a column labelled
    with it may, through the claim row's cell; failing that, `fallback` (what a broader rung states), if any."""

    fallback: "Pick | Parts | Unstated | None" = None


@dataclass(frozen=True, slots=True)
class Unstated:
    """The condition is unrecoverable for `reason`; `values` (ambiguous) and `engine` (no_version) fill
    the why-wording."""

    reason: Reason
    values: str = ""
    engine: str = ""
    scope: str | None = None   # ambiguous: the scope that states the several values
    mentions: tuple[Mention, ...] = ()   # ambiguous: one mention of each of them


Decision = Pick | Parts | EngineVersion | ColumnCell | Unstated


@dataclass(slots=True)
class Scopes:
    """A claim's rungs, most specific first: their mentions, and the usable ones by condition name."""

    levels: list[Level]
    usable: list[tuple[str, dict[str, list[Located]]]] = field(init=False)
    first: dict[str, tuple[str, list[Located]]] = field(init=False)   # condition -> its most specific scope
    in_table: bool = field(init=False)   # the claim sits in a table whose column headers may name a condition
    # conditions first stated on a rung broader than the column headers (a caption, the section): the claim
    # row's cell under a column labelled with the condition is more specific than those
    after_cell: set[str] = field(init=False)

    def __post_init__(self) -> None:
        self.usable = [(level.scope, _by_condition(level.located)) for level in self.levels]
        self.first = {}
        self.after_cell = set()
        cell_seen = False
        for level, (scope, by_name) in zip(self.levels, self.usable):
            cell_seen = cell_seen or level.via_cell
            if not level.via_cell:
                for name, cands in by_name.items():
                    if name not in self.first:
                        self.first[name] = (scope, cands)
                        if cell_seen:
                            self.after_cell.add(name)
        self.in_table = cell_seen


class Policy:
    """Decides each condition of a claim from its `Scopes`."""

    def __init__(self, scopes: ScopeRules):
        self.supporting = {_norm(e) for e in scopes.supporting_engines}
        self.composite = set(scopes.composite)
        self.refinable = set(scopes.refinable)
        self.formats = {k.casefold(): v.casefold() for k, v in scopes.precision_formats.items()}
        self.generic_words = {w.casefold() for w in scopes.precision_generic_words}
        self.partial = {name: re.compile(rx, re.I) for name, rx in scopes.partial_values.items()}
        self.credit_section = re.compile(scopes.credit_sections, re.I)
        self.several_rule = scopes.several_systems
        self.variants = Variants(scopes.variant_names)

    def decide(self, ctx: DocContext, name: str, scopes: Scopes) -> Decision:
        if name == ENGINE:
            return self.engine(scopes)
        if name not in scopes.first:
            return ColumnCell() if scopes.in_table else Unstated("absent")
        decision = self._stated(ctx, name, scopes)
        return ColumnCell(decision) if name in scopes.after_cell else decision

    def _stated(self, ctx: DocContext, name: str, scopes: Scopes) -> Pick | Parts | Unstated:
        """The decision of the most specific rung that states `name`."""
        scope, cands = scopes.first[name]
        picked = most_specific(ctx, cands, layout=name == LAYOUT)
        if len(picked) > 1 and name in self.composite:
            exact = [m for m in picked if not self.is_partial(name, m)]
            if len(exact) > 1:
                return Parts(exact, scope)
            picked = exact or picked[:1]
        if len(picked) > 1 and (settled := settled_by_code(picked, scopes.usable, name, name_key)) is not None:
            return Pick(settled, scope, note=f"the run's code loads '{_show(settled)}' of the several named here")
        if len(picked) > 1:
            return Unstated("ambiguous", values=", ".join(sorted({_show(m) for m in picked})), scope=scope,
                            mentions=tuple(picked))
        m = first = picked[0]
        if name in self.refinable:
            m, scope = _refined(m, scope, name, scopes.levels)
        elif name == PRECISION:
            m, scope = self.format_of(m, scope, scopes.levels)
        if name == "hardware" and m.count is None:
            m, scope = _counted(m, scope, scopes.levels)
        if self.is_partial(name, m):
            only = self.only_member(ctx, name, m)
            if only is not None:
                return Pick(only, "document", note=f"the only {name} of the post named '{_show(m)}' more fully "
                                                   f"(the claim's place names only '{_show(m)}')")
            return Unstated("partial", engine=" ".join(m.quote.split()))
        if name in self.variants.conditions and (one := self._one_variant(ctx, name, first, cands, m, scope,
                                                                          scopes.levels)) is not None:
            return one
        return Pick(m, scope)

    def _one_variant(self, ctx: DocContext, name: str, first: Mention, cands: list[Located], m: Mention, scope: str,
                     levels: list[Level]) -> Unstated | None:
        """Unstated when the name the claim's place gives (`first`, refined to `m` at `scope`) is one of several
        variants (scopes.yaml `variant_names`): the place writes two of them ("Kimi-K9-Lite and Kimi-K9-Max",
        one family name for both), the broader rung that writes it out does, or the post writes two and the
        claim's place names only the short name ("MiniMax-M1" beside "-40k" and "-80k")."""
        family = first.canonical or first.quote
        place = [(x.m.quote, x.m.span) for x in cands]
        if m is not first:   # written out more fully at a broader rung: that rung must name one variant
            level = next((lv for lv in levels if lv.scope == scope and any(x.m is m for x in lv.located)), None)
            if level is not None:
                place = [(x.m.quote, x.m.span) for x in level.located if x.name == name and x.usable]
        if len(here := self.variants.at_place(ctx.d, family, place)) > 1:
            return Unstated("ambiguous", values=", ".join(f"{family} {w}" for w in here), scope=scope)
        if m is first and len(variants := self.variants.of(ctx.d, m.quote, m.span)) > 1:
            return Unstated("variants", values=", ".join(variants), engine=" ".join(m.quote.split()))
        return None

    def several(self, name: str, decision: Decision, qualifier: str, headline: bool, scopes: Scopes
                ) -> list[Mention] | None:
        """The several values an ambiguous rung names, when the claim sums up runs over all of them (scopes.yaml
        `several_systems`); None when it is one run of them, or when a value gives only a family."""
        rule = self.several_rule
        if not isinstance(decision, Unstated) or decision.reason != "ambiguous" or name not in rule.conditions \
                or qualifier not in rule.qualifiers or len(decision.mentions) < 2 \
                or decision.scope not in rule.scopes and not (headline and decision.scope in rule.headline_scopes):
            return None
        if any(self.is_partial(name, m) for m in decision.mentions):
            return None
        if name == "hardware":   # each device with the count a broader rung gives it ("8x MI325X")
            return [m if m.count is not None else _counted(m, decision.scope, scopes.levels)[0]
                    for m in decision.mentions]
        return list(decision.mentions)

    def format_of(self, m: Mention, scope: str, levels: list[Level]) -> tuple[Mention, str]:
        """A generic precision ("FP4", "FP4 quantization") that a broader rung writes as one specific format
        of it ("NVFP4"): that format, at its scope (like a name written out more fully). Two formats there,
        or a generic value about something else ("FP8 KV cache"), stay as written."""
        words = _norm(m.canonical or str(m.value)).split()
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
        if isinstance(located, SharedRung):
            cands = located.grouped("by_condition", usable=True).get(PRECISION)
            return summary(cands, ("formats", generic), lambda xs: self._formats(xs, generic), _first_and_union) \
                if cands is not None else (None, frozenset())
        found = [x.m for x in located if x.name == PRECISION and x.usable
                 and (w := _norm(x.m.canonical or str(x.m.value)).split())
                 and self.formats.get(w[0]) == generic and set(w[1:]) <= self.generic_words]
        return (found[0] if found else None), frozenset(_norm(x.canonical or str(x.value)).split()[0] for x in found)

    def only_member(self, ctx: DocContext, name: str, m: Mention) -> Mention | None:
        """The one exact name the post writes out from a partial one ("DeepSeek" -> "DeepSeek-V3" when that is
        the post's only DeepSeek model); None when it names none or several ("DeepSeek-V3" and "DeepSeek-R1")."""
        base = _norm(m.quote.rsplit("/", 1)[-1])
        if (name, base) in ctx.fuller_names:   # the same for every claim of the post
            return ctx.fuller_names[name, base]
        fuller: dict[str, Mention] = {}
        sections = ctx.d.sections
        for x in ctx.mentions:
            if x.name != name or not x.usable or self.is_partial(name, x.m):
                continue
            if x.section is not None and self.credit_section.search(sections[x.section].title):
                continue   # thanks and references name what others made, not a run of the post
            full = _norm(x.m.quote.rsplit("/", 1)[-1])
            if full.startswith(base) and len(full) > len(base) and not full[len(base)].isalnum():
                fuller.setdefault(name_key(x.m), x.m)
        only = next(iter(fuller.values())) if len(fuller) == 1 else None
        ctx.fuller_names[name, base] = only
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
            if len(builds) > 1 and named_nearer and _norm(named_nearer) in builds:
                # the engine a nearer rung names, among the versions of several ("SGLang: v0.5", "vLLM: v0.9" in a
                # setup list, for a claim whose paragraph is about SGLang): its own version
                builds = {_norm(named_nearer): builds[_norm(named_nearer)]}
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
            if named and _norm(named) != _norm(engine):
                if not _norm(engine).startswith(_norm(named)):
                    continue
                engine = named     # "vLLM commit hash 2a17..." names vLLM
            return EngineVersion(m, engine, scope, sorted(tally.others), commit)
        return Unstated("no_version", engine=named) if named else Unstated("absent")

    def _engine_tally(self, located: list[Located]) -> EngineTally:
        """The tally of a rung's engine mentions; of a `SharedRung`, once per rung (extended from the rung
        it extends)."""
        def fold(tally: EngineTally, xs: list[Located]) -> EngineTally:
            return tally.add(xs, name_key, self.is_supporting)
        if isinstance(located, SharedRung):
            return folded(located, "engine_tally", fold, EngineTally, EngineTally.copy)
        return fold(EngineTally(), list(located))


def _by_condition(located: list[Located]) -> dict[str, list[Located]]:
    """The usable mentions of one scope, grouped by the condition they state (in document order); of a
    `SharedRung`, once per rung (each group a `SharedRung` too)."""
    if isinstance(located, SharedRung):
        return located.grouped("by_condition", usable=True)
    out: dict[str, list[Located]] = {}
    for x in located:
        if x.usable:
            out.setdefault(x.name, []).append(x)
    return out


def _key(m: Mention) -> str:
    if isinstance(m.value, dict):
        return repr(sorted(m.value.items()))
    return name_key(m)


def most_specific(ctx: DocContext, cands: list[Located], layout: bool = False) -> list[Mention]:
    """One mention per distinct value; a value contained in a longer one of the same kind is dropped
    ("Mistral" inside "Mistral-Small-24B"). A layout (`layout`) compares its canonical parts: "TP8" is
    inside "TP8EP2" but "TP1" is not inside "TP16", and of one layout written two ways the shorter form
    is kept ("TP8" over "--tensor-parallel-size 8"). Memoised per document by the candidates' identity:
    the claims of a section share its broader scopes, and the located mentions live as long as `ctx`."""
    if isinstance(cands, SharedRung):   # read by many claims: kept on the rung, no key of every mention
        if ("specific", layout) not in cands.memo:
            by_key = folded(cands, ("by_key", layout), lambda state, xs: _fold_values(state, xs, layout), dict, dict)
            cands.memo["specific", layout] = _distinct(by_key, layout) or [cands.first().m]
        return cands.memo["specific", layout]
    memo = (layout, *map(id, cands))
    if memo not in ctx.specific:
        ctx.specific[memo] = _distinct(_fold_values({}, cands, layout), layout) or [cands[0].m]
    return ctx.specific[memo]


def _fold_values(by_key: dict[str, Mention], cands: list[Located], layout: bool) -> dict[str, Mention]:
    """`by_key` with the candidates' values added in order: one mention per value (the counted one, else
    the longest quote; of a layout, the shortest)."""
    for x in cands:
        m = x.m
        k = " ".join(sorted(_key(m).split())) if layout else _key(m)
        shorter = layout and any(c.isdigit() for c in k)   # "TP8" over "--tensor-parallel-size 8"
        if k not in by_key or (m.count and not by_key[k].count) or \
                (len(m.quote) < len(by_key[k].quote) if shorter else len(m.quote) > len(by_key[k].quote)):
            by_key[k] = m
    return by_key


def _distinct(by_key: dict[str, Mention], layout: bool) -> list[Mention]:
    """The values not contained in a longer one of the same kind."""
    surfaces = {k: _norm(str(m.quote)) for k, m in by_key.items()}
    if layout:
        parts = {k: frozenset(k.split()) for k in by_key}
        return [by_key[k] for k in by_key if not any(k2 != k and parts[k] < parts[k2] for k2 in by_key)]
    return [by_key[k] for k, surface in surfaces.items()
            if not any(k2 != k and (k in k2 or surface in s2) and len(k2) >= len(k)
                       for k2, s2 in surfaces.items() if s2 != surface)]


def _refined(m: Mention, scope: str, name: str, levels: list[Level]) -> tuple[Mention, str]:
    """The same name written out more fully in a broader scope ("Mistral Large" in the sentence,
    "Mistral-Large-Instruct-2411" in the setup section; "GB200", "GB200 NVL72"): the fuller one."""
    base = _norm(m.quote)
    best, best_scope, best_len = m, scope, len(base)
    keys: set[str] = set()
    for level in levels:
        level_keys, fullest, size = _fuller(level.located, name, base)
        keys |= level_keys
        if size > best_len:
            best, best_scope, best_len = fullest, level.scope, size
    if len(keys) > 1 and not any(all(k2 == k or k2 in k for k2 in keys) for k in keys):
        return m, scope   # two different fuller names ("gemma-2-9b", "gemma-2-27b"): neither is the one
    return best, best_scope


def _fuller(located: list[Located], name: str, base: str) -> tuple[set[str], Mention | None, int]:
    """The mentions of `name` in one rung that write `base` out more fully: their names, and the first of the
    longest with its length (0: none); of a `SharedRung`, once per rung and name."""
    if isinstance(located, SharedRung):
        named = located.grouped("by_name", usable=False).get(name)
        if named is None:
            return set(), None, 0
        return summary(named, ("fuller", base), lambda xs: _fuller(xs, name, base), _longer)
    keys: set[str] = set()
    best, best_len = None, 0
    for x in located:
        if x.name != name:
            continue
        full = _norm(x.m.quote)
        if len(full) > len(base) and full.startswith(base) and not full[len(base)].isalnum():
            keys.add(name_key(x.m))
            if len(full) > best_len:
                best, best_len = x.m, len(full)
    return keys, best, best_len


def _longer(first: tuple[set[str], Mention | None, int], then: tuple[set[str], Mention | None, int]
            ) -> tuple[set[str], Mention | None, int]:
    """Two `_fuller` results of consecutive mentions as one: the names of both, the first of the longest."""
    return first[0] | then[0], *(then[1:] if then[2] > first[2] else first[1:])


def _counted(m: Mention, scope: str, levels: list[Level]) -> tuple[Mention, str]:
    """A device named without its count ("on the AMD MI300X") whose count a broader scope gives for the
    same device ("8x MI300X" in the setup section, a caption): that mention, from the most specific rung
    that counts it, when the rung gives one count (two counts there: the name stays without one)."""
    if not m.canonical:
        return m, scope
    for level in levels:
        if level.via_cell:
            continue
        first, counts = _counts(level.located, m.canonical)
        if first is not None:
            if len(counts) == 1:
                return first, level.scope
            return m, scope
    return m, scope


def _counts(located: list[Located], canonical: str) -> tuple[Mention | None, frozenset]:
    """The first hardware mention of one rung that counts the device `canonical`, and the counts of all such;
    of a `SharedRung`, once."""
    if isinstance(located, SharedRung):
        cands = located.grouped("by_condition", usable=True).get("hardware")
        return summary(cands, ("counts", canonical), lambda xs: _counts(xs, canonical), _first_and_union) \
            if cands is not None else (None, frozenset())
    counted = [x.m for x in located if x.usable and x.name == "hardware" and x.m.count and x.m.canonical == canonical]
    return (counted[0] if counted else None), frozenset(x.count for x in counted)


def _first_and_union(first: tuple, then: tuple) -> tuple:
    """Two (first mention or None, set) results of consecutive mentions as one."""
    return (first[0] if first[0] is not None else then[0]), first[1] | then[1]


def _show(m: Mention) -> str:
    if isinstance(m.value, dict):
        return "-".join(str(v) for v in m.value.values())
    return str(m.quote if isinstance(m.value, str) else m.value)
