"""The schema of `rules/conditions.yaml` and its compiled form (`Rules`), validated at load.

`load_rules(dir)` reads conditions.yaml and the gazetteers (extractor/conditions/canonical.py) and
compiles every regex once; a bad entry is a RuleError naming the file, entry and reason.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from extractor.conditions.canonical import CompiledEntry, expand, family_cut, load_gazetteers
from extractor.conditions.rules import Words
from extractor.quantities.grammar import NumberReader
from extractor.quantities.rules import load_quantity_rules
from extractor.rules_io import RuleError, default_rules_dir, load_yaml

Kind = Literal[
    "model", "hardware", "engine", "input_length", "output_length", "batch_or_concurrency",
    "parallelism", "gpu_count", "warmup", "scenario", "precision", "dataset", "prefix_caching",
    "speculative_decoding", "command_line",
]
PatternKind = Literal[
    "io_length", "input_length", "output_length", "batch_or_concurrency", "parallelism",
    "gpu_count", "warmup", "scenario", "prefix_caching", "speculative_decoding", "command_line",
    "precision", "dataset",
]


def regex_syntax(v: str) -> str:
    """`v` if it compiles with its <<FRAGMENT>> references blanked, else a ValueError naming the problem."""
    try:
        re.compile(re.sub(r"<<[A-Z_][A-Z0-9_]*>>", "(?:)", v))
    except re.error as err:
        raise ValueError(f"bad regex: {err}") from None
    return v


class PatternEntry(BaseModel):
    """One phrasing of a condition in conditions.yaml."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str
    kind: PatternKind
    regex: str
    cues: list[str] = Field(default_factory=list)
    case: bool = False
    value: str | int | float | None = None
    sweep: bool = False

    @field_validator("regex")
    @classmethod
    def _syntax(cls, v: str) -> str:
        return regex_syntax(v)


class CanonicalWord(BaseModel):
    """Canonical label for a mention whose quote matches `match`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    match: str
    canonical: str


class HardwareCount(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    machines: Words
    left: Words
    right: Words
    needs_right_for_bare: str = r"^\s*GPUs?"
    device_memory: str = r"(?!)"
    not_before: str = r"(?!)"
    not_after: str = r"(?!)"
    single_device: str | None = None
    single_device_not_right: str = r"(?!)"
    words: dict[str, int] = Field(default_factory=dict)


class HostProcessor(BaseModel):
    """When a processor of a `host: true` gazetteer entry is the host of accelerators, not a measured device:
    under a label on its line, after a host word in its sentence, or in a setup sentence that also names an
    accelerator (one without a comparison word: "8x MI300X GPUs and two EPYC 9654 CPUs")."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    label_before: str = r"(?!)"       # matched on the mention's line up to the mention
    host_words: str = r"(?!)"         # searched in the mention's sentence before it
    comparison_words: str = r"(?!)"   # a sentence with one of these compares devices: no host reading


class EngineVersion(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    right: list[str] = Field(default_factory=list)


class ModelName(BaseModel):
    """Where a model's name goes on past the end of a family's pattern: `continuation` (anchored at the end of
    the match) takes the words joined to it, `alternative` a second name written after a slash."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    continuation: str = r"(?!)"
    alternative: str = r"(?!)"
    listed_version: str = r"(?!)"   # a second version listed after the name ("X-V3 & 3.1"): group `letter`, `version`


class NotCondition(BaseModel):
    """A phrasing around which mentions are not the setting of a measured run: a feature or support list,
    a capability statement, a minimum version. Mentions of `kinds` starting in the covered text are dropped
    (`drop: mention`), or keep their name and lose their version (`drop: version`: the engine stays named,
    so an unrecoverable version still carries it as `value_partial`)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str
    kinds: list[Kind]
    regex: str
    cues: list[str] = Field(default_factory=list)
    case: bool = False
    within: Literal["match", "sentence", "line"] = "match"
    drop: Literal["mention", "version"] = "mention"
    # the covered text is a run's setting after all when this is found in it (a measurement word: "discarded",
    # "before timing"); compiled case-insensitively like `regex`
    unless: str | None = None

    @field_validator("regex", "unless")
    @classmethod
    def _syntax(cls, v: str | None) -> str | None:
        return regex_syntax(v) if v is not None else None


class ConditionsFile(BaseModel):
    """The whole of rules/conditions.yaml."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    version: int = 1
    family_variant_words: list[str] = Field(default_factory=list)
    fragments: dict[str, str] = Field(default_factory=dict)
    hardware_count: HardwareCount = Field(default_factory=HardwareCount)
    engine_version: EngineVersion = Field(default_factory=EngineVersion)
    host_processor: HostProcessor = Field(default_factory=HostProcessor)
    model_name: ModelName = Field(default_factory=ModelName)
    canonical_words: dict[str, list[CanonicalWord]] = Field(default_factory=dict)
    layout_schemes: dict[str, str] = Field(default_factory=dict)
    # the size a model's name ends with, and the sizes listed after it ("OPT-1.3B, 2.7B and 13B")
    model_size: str = r"(?!)"
    model_size_list: str = r"(?!)"
    model_size_end: str = r"(?!)"
    patterns: list[PatternEntry] = Field(default_factory=list)
    not_conditions: list[NotCondition] = Field(default_factory=list)


# what joins a layout scheme to its degree ("TP8", "TP=8", "tp 8", "tensor parallel size of 8"); a scheme
# may have none ("DP8 + EP")
_LAYOUT_DEGREE = r"(?:(?:\s*[=:]\s*|\s+(?:of|is|was|set\s+to)\s+|[\s_-]*)(?P<n>\d+)(?![\d.])|(?![A-Za-z0-9]))"


class CompiledPattern:
    __slots__ = ("entry", "rx", "cues")

    def __init__(self, entry: PatternEntry, rx: re.Pattern[str]):
        self.entry, self.rx = entry, rx
        self.cues = tuple(c.lower() for c in entry.cues)


class CompiledNotCondition:
    __slots__ = ("entry", "rx", "cues", "kinds", "unless")

    def __init__(self, entry: NotCondition, rx: re.Pattern[str], unless: re.Pattern[str] | None = None):
        self.entry, self.rx, self.unless = entry, rx, unless
        self.cues = tuple(c.lower() for c in entry.cues)
        self.kinds = frozenset(entry.kinds)


class Rules:
    """Compiled rules: gazetteer entries, condition patterns, context regexes."""

    def __init__(self, conditions: ConditionsFile, patterns: list[CompiledPattern],
                 gazetteer: list[CompiledEntry], path: Path):
        self.conditions, self.patterns, self.gazetteer, self.path = conditions, patterns, gazetteer, path
        frag = conditions.fragments
        hc = conditions.hardware_count
        try:
            self.hw_machines = [re.compile(expand(r, frag), re.I) for r in hc.machines]
            self.hw_left = [re.compile(expand(r, frag), re.I) for r in hc.left]
            self.hw_not_before = re.compile(expand(hc.not_before, frag), re.I)
            self.hw_not_after = re.compile(expand(hc.not_after, frag), re.I)
            self.hw_right = [re.compile(expand(r, frag), re.I) for r in hc.right]
            self.hw_bare_right = re.compile(expand(hc.needs_right_for_bare, frag), re.I)
            self.hw_memory = re.compile(expand(hc.device_memory, frag), re.I)
            self.hw_not_single = re.compile(expand(hc.single_device_not_right, frag), re.I)
            self.eng_right = [re.compile(expand(r, frag), re.I) for r in conditions.engine_version.right]
            self.model_size = re.compile(expand(conditions.model_size, frag))
            self.model_size_list = re.compile(expand(conditions.model_size_list, frag))
            self.model_size_end = re.compile(expand(conditions.model_size_end, frag), re.I)
            hp = conditions.host_processor
            self.host_label = re.compile(expand(hp.label_before, frag), re.I)
            self.host_words = re.compile(expand(hp.host_words, frag), re.I)
            self.host_comparison = re.compile(expand(hp.comparison_words, frag), re.I)
            self.model_continuation = re.compile(expand(conditions.model_name.continuation, frag))
            self.model_alternative = re.compile(expand(conditions.model_name.alternative, frag))
            self.model_listed_version = re.compile(expand(conditions.model_name.listed_version, frag))
            self.canon_words = {
                k: [(re.compile(w.match, re.I), w.canonical) for w in ws]
                for k, ws in conditions.canonical_words.items()
            }
            self.layout_abbr = list(conditions.layout_schemes)
            schemes = "|".join(f"(?P<s{i}>{expand(rx, frag)})" for i, rx in enumerate(conditions.layout_schemes.values()))
            self.layout_rx = re.compile(rf"(?<![A-Za-z])-{{0,2}}(?:{schemes}){_LAYOUT_DEGREE}", re.I) if schemes else None
        except (ValueError, re.error) as err:
            raise RuleError(path, "hardware_count/engine_version/host_processor/model_name/canonical_words/layout_schemes/model_size",
                            f"bad regex: {err}") from None
        self.hw_words = {k.lower(): v for k, v in hc.words.items()}
        self.spelled = NumberReader(load_quantity_rules(path.parent)).spelled_value   # "twenty" -> 20
        self.family_cut = family_cut(conditions.family_variant_words)
        self.not_conditions: list[CompiledNotCondition] = []
        for i, nc in enumerate(conditions.not_conditions):
            try:
                rx = re.compile(expand(nc.regex, frag), 0 if nc.case else re.I)
                unless = re.compile(expand(nc.unless, frag), 0 if nc.case else re.I) if nc.unless else None
            except (ValueError, re.error) as err:
                raise RuleError(path, f"entry not_conditions.{i} ({nc.name})", f"bad regex: {err}") from None
            self.not_conditions.append(CompiledNotCondition(nc, rx, unless))


    def layout(self, quote: str) -> str | None:
        """The canonical layout a parallelism mention writes ("--tensor-parallel-size 8", "tp=8",
        "Tensor Parallelism 8" -> "TP8"; "TP8EP2" -> "TP8 EP2"; "DP8 + EP" -> "DP8 EP"); None without any
        degree."""
        if self.layout_rx is None:
            return None
        parts = []
        for m in self.layout_rx.finditer(quote):
            i = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None and k != "n")
            parts.append(self.layout_abbr[i] + (str(int(m["n"])) if m["n"] else ""))
        # a scheme named without any degree ("expert parallelism", "DP attention") keeps its own words
        return " ".join(parts) if any(p[-1].isdigit() for p in parts) else None


def load_rules(rules_dir: Path | None = None) -> Rules:
    """Load and compile conditions.yaml and gazetteers/*.jsonl; RuleError on any problem."""
    rules_dir = Path(rules_dir) if rules_dir is not None else default_rules_dir()
    path = rules_dir / "conditions.yaml"
    cond = load_yaml(path, ConditionsFile)
    compiled: list[CompiledPattern] = []
    seen: set[str] = set()
    for i, entry in enumerate(cond.patterns):
        where = f"entry patterns.{i} ({entry.name})"
        if entry.name in seen:
            raise RuleError(path, where, "duplicate name")
        seen.add(entry.name)
        try:
            rx = re.compile(expand(entry.regex, cond.fragments), 0 if entry.case else re.IGNORECASE)
        except (ValueError, re.error) as err:
            raise RuleError(path, where, f"bad regex: {err}") from None
        compiled.append(CompiledPattern(entry, rx))
    gaz = load_gazetteers(rules_dir / "gazetteers", cond.fragments, family_cut(cond.family_variant_words))
    return Rules(cond, compiled, gaz, path)
