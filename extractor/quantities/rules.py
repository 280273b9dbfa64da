"""Rule data for the quantity finder: unit spellings (JSONL) and number grammar (YAML).

`load_quantity_rules(rules_dir)` reads and validates `unit_spellings.jsonl` and
`numbers.yaml`; every problem is a `RuleError` naming file, line/entry and reason
(a unit pint cannot read, a duplicate spelling, a pattern that does not compile).
"""
from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from extractor import derived_cache
from extractor.rules_io import Phrases, RuleError, compiled, default_rules_dir, folder_cache, load_jsonl, load_yaml
from extractor.quantities.units import has_dimension, parse_unit, registry
from extractor.records import SetAsideReason
from extractor.rule_files import NUMBERS, SPELLINGS, UNITS

SPELLINGS_FILE = SPELLINGS.name
NUMBERS_FILE = NUMBERS.name

Role = Literal["unit", "denominator", "both", "prefix", "kind", "per"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class UnitSpelling(_Strict):
    """One surface spelling of a unit (or of a connector / token-kind word)."""

    spelling: str = Field(min_length=1)
    unit: str | None = None
    role: Role = "unit"
    tokens: Literal["total", "output", "input", "unspecified"] | None = None
    per: Literal["gpu", "user", "node", "system"] | None = None
    case_sensitive: bool = False
    attach: Literal["tight", "loose"] = "loose"

    @model_validator(mode="after")
    def _unit_matches_role(self) -> "UnitSpelling":
        if self.role in ("kind", "per"):
            if self.unit is not None:
                raise ValueError(f"role {self.role!r} takes no unit")
            if self.role == "kind" and self.tokens is None:
                raise ValueError("role 'kind' needs 'tokens'")
        elif not self.unit:
            raise ValueError(f"role {self.role!r} needs a 'unit'")
        return self

    def key(self) -> str:
        """Lookup key: whitespace collapsed, lower-cased unless case-sensitive."""
        return spelling_key(self.spelling, self.case_sensitive)


def spelling_key(text: str, case_sensitive: bool) -> str:
    """Normalise a surface spelling for lookup (spaces collapsed, none around '/')."""
    s = re.sub(r"\s+", " ", text.strip())
    s = re.sub(r"\s*/\s*", "/", s)
    return s if case_sensitive else s.lower()


class Multiplier(_Strict):
    """A magnitude suffix or word: "K", "bn", "million". `after_prefix`: only on a number written after a
    prefix unit ("$5.4m", "£2b"), where the letter cannot be a unit such as metres or bits."""

    suffix: str = Field(min_length=1)
    value: float = Field(gt=0)
    prefix: str | None = None
    case_sensitive: bool = False
    attach: Literal["tight", "loose"] = "tight"
    after_prefix: bool = False


class Spelled(_Strict):
    ones: dict[str, int]
    teens: dict[str, int] = Field(default_factory=dict)
    tens: dict[str, int] = Field(default_factory=dict)
    scales: dict[str, int] = Field(default_factory=dict)


class ArticleNumbers(_Strict):
    """An article or "half a" as the number of a time unit, read only after a qualifier ("under half a
    second", "less than a minute"): `numbers` maps the words to their value; `units` lists the unit words."""

    numbers: dict[str, float] = Field(default_factory=dict)
    units: Phrases

    def phrases(self) -> list[str]:
        """Every "<number words> <unit>" phrase, lower-cased."""
        return sorted(f"{n} {u}".lower() for n in self.numbers for u in self.units)


class DurationPart(_Strict):
    """One unit of a compound duration and the spellings a part in that unit may carry."""

    unit: str
    spellings: Phrases


class CompoundDurations(_Strict):
    """A duration written in parts ("1 hour, 5 minutes"): the units largest first, and the joiners."""

    parts: list[DurationPart] = Field(default_factory=list)
    joiners: Phrases = Field(default_factory=list)


class QualifierCues(_Strict):
    before: Phrases
    after: Phrases


class PairedConnector(_Strict):
    open: str
    connector: str


class Ranges(_Strict):
    connectors: list[str]
    paired: list[PairedConnector] = Field(default_factory=list)
    transition_stems: Phrases
    range_stems: Phrases
    change_words: Phrases
    change_words_absolute: Phrases


class Exclusion(_Strict):
    name: str
    pattern: str
    at_number: bool = False
    line_start: bool = False
    heading: bool = False
    set_aside: SetAsideReason | None = None   # why a figure with a unit it skips is no claim

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, v: str) -> str:
        return compiled(v)


class NumberRules(_Strict):
    """The number grammar of numbers.yaml."""

    multipliers: list[Multiplier]
    spelled: Spelled
    ratio_words: dict[str, float] = Field(default_factory=dict)
    article_numbers: ArticleNumbers = Field(default_factory=ArticleNumbers)
    compound_durations: CompoundDurations = Field(default_factory=CompoundDurations)
    qualifiers: dict[Literal["approx", "at_least", "up_to"], QualifierCues]
    ranges: Ranges
    series_connectors: Phrases
    length_pair_cues: Phrases
    count_multiplier_next: str | None = None
    price_denominator_before: str | None = None
    exclude: list[Exclusion] = Field(default_factory=list)
    label_words: Phrases
    name_words: Phrases
    letter_prefix_not_after: Phrases
    months: Phrases
    year_words: Phrases
    year_range: tuple[int, int] = (1950, 2039)

    @field_validator("count_multiplier_next", "price_denominator_before")
    @classmethod
    def _compiles(cls, v: str | None) -> str | None:
        return compiled(v)


class QuantityRules(BaseModel):
    """Everything the finder compiles: spellings plus number grammar, and their source folder."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True, defer_build=True)

    rules_dir: Path
    spellings: tuple[UnitSpelling, ...]
    numbers: NumberRules
    token_units: frozenset[str]  # unit expressions whose dimensionality involves [token]


def _entry_lines(path: Path) -> list[int]:
    """Line numbers of the entries load_jsonl returns, in order (same skip rules)."""
    lines = []
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            s = line.strip()
            if s and not s.startswith(("#", "//")):
                lines.append(lineno)
    return lines


_SLOTS = {"unit": ("unit",), "denominator": ("denominator",), "both": ("unit", "denominator"),
          "prefix": ("prefix",), "kind": ("kind",), "per": ("per",)}


def load_spellings(path: Path, rules_dir: Path | None = None) -> tuple[list[UnitSpelling], frozenset[str]]:
    """Validated spellings, plus the set of their units that count tokens."""
    entries = load_jsonl(path, UnitSpelling)
    lines = _entry_lines(path)
    seen: dict[tuple[str, str], int] = {}
    counts_tokens: dict[str, bool] = {}  # each unit (shared by many spellings) is read by pint once
    for entry, lineno in zip(entries, lines):
        for slot in _SLOTS[entry.role]:
            key = (slot, entry.key())
            if key in seen:
                raise RuleError(path, f"line {lineno}",
                                f"duplicate {slot} spelling {entry.spelling!r} (first on line {seen[key]})")
            seen[key] = lineno
        if entry.unit is not None and entry.unit not in counts_tokens:
            try:
                parse_unit(entry.unit, rules_dir)
            except ValueError as err:
                raise RuleError(path, f"line {lineno}", str(err)) from None
            counts_tokens[entry.unit] = has_dimension(entry.unit, "[token]", rules_dir)
    return entries, frozenset(unit for unit, tokens in counts_tokens.items() if tokens)


_lock = threading.Lock()
_cache: dict[Path, QuantityRules] = folder_cache()


def load_quantity_rules(rules_dir: Path | None = None) -> QuantityRules:
    """Load (once per folder) and validate the quantity rules."""
    folder = Path(rules_dir or default_rules_dir()).resolve()
    with _lock:
        rules = _cache.get(folder)
        if rules is None:
            # kept across processes by the digests of the three files it reads (pint reads units.txt)
            digests = tuple(derived_cache.file_digest(folder / name) for name in (UNITS.name, SPELLINGS_FILE,
                                                                                   NUMBERS_FILE))
            rules = derived_cache.remember(("quantity-rules", str(folder), digests), lambda: _load(folder))
            _cache[folder] = rules
    return rules


def _load(folder: Path) -> QuantityRules:
    registry(folder)  # units.txt first: its errors name units.txt
    spellings, token_units = load_spellings(folder / SPELLINGS_FILE, folder)
    numbers = load_yaml(folder / NUMBERS_FILE, NumberRules)
    return QuantityRules(rules_dir=folder, spellings=tuple(spellings), numbers=numbers, token_units=token_units)
