"""Load settings a post binds to one metric or one mode where it states them: "BS=64 max throughput, BS=1
first-token latency" (a caption), "batch size 64 for peak throughput, batch size 1 for TTFT" (a list or a
sentence), "(BS=8, max-throughput mode; BS=1, min-latency mode)", "the min-latency scenario (a single request
at a time)". Each setting is marked with the metric family (`Located.for_family`) or the named mode
(`Located.for_mode`) its own stretch of text names; the scope ladder then keeps it away from claims of another
family or mode (ties.py), and a claim that names the mode takes the setting the post gives that mode
(`ModeSettings`). The break words and the kinds of settings bound are data (`setting_binding` in
rules/scopes.yaml)."""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass

from extractor.conditions.context import DocContext
from extractor.conditions.located import Located
from extractor.conditions.mentions import Mention
from extractor.conditions.rules import ScopeRules
from extractor.ingest import Document

SCENARIO = "scenario"


@dataclass(slots=True)
class Binding:
    """What a setting's own stretch of its sentence binds it to (`Located.for_family`, `for_mode`, `for_device`,
    `for_model`)."""

    family: str | None = None
    mode: str | None = None
    device: str | None = None
    model: str | None = None

    def __iter__(self):
        return iter((self.family, self.mode, self.device, self.model))


def _binding(ties: dict[int, tuple[Located, Binding]], x: Located) -> Binding:
    if id(x) not in ties:
        ties[id(x)] = (x, Binding())
    return ties[id(x)][1]


class SettingBinder:
    """Marks the load settings a sentence ties to one metric family or one named mode."""

    def __init__(self, scopes: ScopeRules, family_cues: dict[str, re.Pattern[str]]):
        rules = scopes.setting_binding
        self.kinds = frozenset(rules.kinds)
        self.item_break = re.compile(rules.item_break, re.I)
        self.group_break = re.compile(rules.group_break, re.I)
        self.family_cues = family_cues
        self.paired_kinds = tuple(rules.paired_kinds)
        self.model_first = re.compile(rules.model_first, re.I)
        self.setting_first = re.compile(rules.setting_first, re.I)

    def bind(self, d: Document, located: list[Located]) -> list[tuple[Located, Binding]]:
        """The `Binding` of each setting of each sentence (prose, captions, list items) that ties it so (the
        document reader sets it on the mention as it builds it). A family is bound only where the sentence (or
        the figure's captions, or the list, as a whole) gives two families each their own setting (a contrast:
        "BS=64 for throughput, BS=1 for latency"); a mode also where one sentence gives one mode its setting
        ("the min-latency scenario, or concurrency 8")."""
        by_sentence: dict[tuple[int, int], list[Located]] = {}
        for x in located:
            if x.sentence is not None and not x.code and x.table is None and x.usable:
                by_sentence.setdefault(x.sentence, []).append(x)
        families: dict[tuple[object, str], set[str]] = {}   # (contrast unit, condition) -> values bound there
        ties: dict[int, tuple[Located, Binding]] = {}
        bound: list[tuple[object, Located]] = []
        for sentence, here in by_sentence.items():
            self._bind_pairs(d, sentence, here, families, ties)
            _bind_name_suffixes(d, sentence, here, families, ties)
            settings = [x for x in here if x.name in self.kinds and x.bound is None and x.m.kind != SCENARIO]
            if not settings:
                continue
            modes = [x for x in here if x.m.kind == SCENARIO and x.m.canonical]
            spans = sorted(x.m.span for x in here)
            for x in settings:
                tie = self._tie(d.view, sentence, x, settings, modes, spans)
                if tie is None:
                    continue
                kind, value = tie
                b = _binding(ties, x)
                if kind == "mode":
                    b.mode = value
                else:
                    b.family = value
                    unit = _contrast_unit(d, x, sentence)
                    families.setdefault((unit, x.name), set()).add(value)
                    bound.append((unit, x))
            self._bind_systems(d, sentence, here, settings, spans, families, bound, ties)
        for unit, x in bound:   # a family, a device or a model only in a contrast of them
            b = ties[id(x)][1]
            if b.family is not None and len(families[unit, x.name]) < 2:
                b.family = None
            if b.device is not None and len(families[unit, "hardware"]) < 2:
                b.device = None
            if b.model is not None and len(families[unit, "model"]) < 2:
                b.model = None
        return list(ties.values())

    def _bind_systems(self, d: Document, sentence: tuple[int, int], here: list[Located], settings: list[Located],
                      spans: list[tuple[int, int]], seen: dict[tuple[object, str], set[str]],
                      bound: list[tuple[object, Located]], ties: dict[int, tuple[Located, Binding]]) -> None:
        """Bind each setting to the one device its item names ("H200 FP8 BS 32") and to the one model its item,
        else its group, names ("Llama-70B: H100 BS 8, H200 BS 32 | GPT-3: ..."), recording them per contrast
        unit."""
        systems = [y for y in here if y.name in ("hardware", "model")]
        if not systems:
            return
        for x in settings:
            unit = _contrast_unit(d, x, sentence)
            for name, levels in (("hardware", (self.item_break,)), ("model", (self.item_break, self.group_break))):
                for rx in levels:
                    lo, hi = _stretch(d.view, sentence, x.m.span, rx, spans)
                    named = {y.m.canonical or str(y.m.value) for y in systems if y.name == name and lo <= y.m.span[0] < hi}
                    if named:
                        if len(named) == 1:
                            value = named.pop()
                            if name == "hardware":
                                _binding(ties, x).device = value
                            else:
                                _binding(ties, x).model = value
                            seen.setdefault((unit, name), set()).add(value)
                            bound.append((unit, x))
                        break

    def _bind_pairs(self, d: Document, sentence: tuple[int, int], here: list[Located],
                    seen: dict[tuple[object, str], set[str]], ties: dict[int, tuple[Located, Binding]]) -> None:
        """Bind each setting of a paired kind to the model written right before it ("A (2xH100)", "A on 4x L40S",
        "A: TP4") or right after it ("TP=8 for B", "TP1 (A)"), when the sentence pairs settings so with two models
        or more; a setting of a kind both or neither way paired leaves that kind unbound."""
        models = sorted((y for y in here if y.name == "model"), key=lambda y: y.m.span)
        if len({_key(y) for y in models}) < 2:
            return
        view = d.view
        pairs: list[tuple[Located, Located]] = []
        for kind in self.paired_kinds:
            of_kind = []
            for x in (x for x in here if x.name == kind):
                before = next((y for y in reversed(models) if y.m.span[1] <= x.m.span[0]), None)
                after = next((y for y in models if y.m.span[0] >= x.m.span[1]), None)
                first = before is not None and self.model_first.fullmatch(view, before.m.span[1], x.m.span[0])
                then = after is not None and self.setting_first.fullmatch(view, x.m.span[1], after.m.span[0])
                if bool(first) == bool(then):
                    break
                of_kind.append((x, before if first else after))
            else:
                pairs += of_kind
        if len({_key(y) for _, y in pairs}) < 2:
            return
        for x, y in pairs:
            if _binding(ties, x).model is None:
                _binding(ties, x).model = _key(y)
                seen.setdefault((_contrast_unit(d, x, sentence), "model"), set()).add(_key(y))

    def _tie(self, view: str, sentence: tuple[int, int], x: Located, settings: list[Located],
             modes: list[Located], spans: list[tuple[int, int]]) -> tuple[str, str] | None:
        """("mode", canonical) or ("family", family) that `x`'s own stretch of its sentence names: of the
        stretches between break words (its item, then its group) that hold `x` as their only setting of its
        kind, the narrowest that names one mode; else the narrowest that names one metric family (outside any
        mention). A stretch that names two is no tie."""
        stretches = []
        for rx in (self.item_break, self.group_break):
            lo, hi = _stretch(view, sentence, x.m.span, rx, spans)
            if sum(1 for y in settings if y.name == x.name and lo <= y.m.span[0] < hi) > 1:
                break   # the stretch gives this setting twice: it ties neither to one metric or mode
            stretches.append((lo, hi))
        for lo, hi in stretches:
            named = {y.m.canonical for y in modes if lo <= y.m.span[0] < hi}
            if named:
                return ("mode", named.pop()) if len(named) == 1 else None
        for lo, hi in stretches:
            found = {f for f, rx_f in self.family_cues.items()
                     if any(not _inside(spans, m.span()) for m in rx_f.finditer(view, lo, hi))}
            if found:
                return ("family", found.pop()) if len(found) == 1 else None
        return None


def _bind_name_suffixes(d: Document, sentence: tuple[int, int], here: list[Located],
                        seen: dict[tuple[object, str], set[str]], ties: dict[int, tuple[Located, Binding]]) -> None:
    """Bind a precision written in a model's name ("Model-A-W8A8", "Model-B-FP8") to that model, when the sentence
    names two models or more ("we use Model-A-W8A8 and Model-B"): the format of one checkpoint, not the other's."""
    models = [y for y in here if y.name == "model"]
    if len({_key(y) for y in models}) < 2:
        return
    for x in here:
        if x.name != "precision":
            continue
        owner = next((y for y in models if y.m.span[0] < x.m.span[0] and x.m.span[1] <= y.m.span[1]), None)
        if owner is not None and _binding(ties, x).model is None:
            _binding(ties, x).model = _key(owner)
            seen.setdefault((_contrast_unit(d, x, sentence), "model"), set()).update(_key(y) for y in models)


def _key(x: Located) -> str:
    return x.m.canonical or str(x.m.value)


def _contrast_unit(d: Document, x: Located, sentence: tuple[int, int]) -> object:
    """Where a contrast of families is read: the captions of one figure (a run of caption blocks) or one list
    (a run of list items) as a whole, else the sentence."""
    kind = d.blocks[x.block].kind if x.block >= 0 else None
    if kind not in ("caption", "list_item"):
        return sentence
    i = x.block
    while i > 0 and d.blocks[i - 1].kind == kind:
        i -= 1
    return kind, i


def _stretch(view: str, sentence: tuple[int, int], span: tuple[int, int], breaks: re.Pattern[str],
             spans: list[tuple[int, int]]) -> tuple[int, int]:
    """The stretch of `sentence` around `span` between two break matches that are not inside a mention
    ("128 and 256" is one setting, not a break)."""
    lo, hi = sentence
    for m in breaks.finditer(view, sentence[0], sentence[1]):
        if _inside(spans, m.span()):
            continue
        if m.end() <= span[0]:
            lo = m.end()
        elif m.start() >= span[1]:
            hi = m.start()
            break
    return lo, hi


def _inside(spans: list[tuple[int, int]], span: tuple[int, int]) -> bool:
    """Whether `span` lies within one of `spans` (sorted by start)."""
    k = bisect_left(spans, (span[0] + 1,)) - 1
    while k >= 0 and spans[k][0] <= span[0]:
        if spans[k][1] >= span[1]:
            return True
        k -= 1
    return False


class ModeSettings:
    """One document's settings by named mode (`Located.for_mode`), looked up per mode and kind once."""

    def __init__(self, ctx: DocContext):
        self.ctx = ctx
        self._found: dict[tuple[str, str], Mention | None] = {}

    def __call__(self, mode: str, name: str) -> Mention | None:
        """The one setting of kind `name` the post gives the named mode (the same value wherever it says so), or
        None when it gives none or several."""
        if (mode, name) not in self._found:   # the same for every claim of the post: found once
            found = [x.m for x in self.ctx.mentions if x.for_mode == mode and x.name == name and x.usable
                     and not x.example]
            self._found[mode, name] = found[0] if len({repr(m.value) for m in found}) == 1 else None
        return self._found[mode, name]
