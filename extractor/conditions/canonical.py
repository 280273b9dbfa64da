"""Gazetteers of named things (models, hardware, engines, precisions, datasets) and
canonical names for them.

Entries live in `rules/gazetteers/*.jsonl`, one spaCy-pattern-style object a line:
`{"label": "MODEL", "pattern": "vLLM", "id": "vLLM"}` (a literal, matched
case-insensitively on word boundaries) or `{"label": ..., "regex": ..., "id": ...,
"cue": "a|b"}` for families. `id` is a template: `{group}` is that named group of
the match, `{size}` the first parameter-count token of the surface (70B, 8x7B),
`{family}` the group "family" or else the surface without org prefix, cut before
the first size/version token. Empty parts collapse.

`canonical(kind, surface)` maps a written name to its canonical form: a full
gazetteer match first, then a rapidfuzz match over the fixed ids above a score
threshold; anything else is None (never a guess).
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator, model_validator
from rapidfuzz import fuzz, process

from extractor.rules_io import RuleError, load_jsonl

Label = Literal["MODEL", "HARDWARE", "ENGINE", "PRECISION", "DATASET"]
LABEL_KIND: dict[str, str] = {
    "MODEL": "model", "HARDWARE": "hardware", "ENGINE": "engine",
    "PRECISION": "precision", "DATASET": "dataset",
}
FRAGMENT_RE = re.compile(r"<<([A-Z_][A-Z0-9_]*)>>")
TEMPLATE_RE = re.compile(r"\{(\w+)\}")
SIZE_RE = re.compile(r"(?<![A-Za-z0-9])(\d+x\d+[Bb]|\d+(?:\.\d+)?[BbMmTt])(?![A-Za-z0-9])")
_BLANKS = re.compile(r"\s+")
FUZZ_THRESHOLD = 90.0
# A value under an explicit label ("Dataset: ShareGTP") is known to be a name of that kind: a misspelling
# is matched more leniently.
LABELLED_FUZZ_THRESHOLD = 85.0


class GazetteerEntry(BaseModel):
    """One gazetteer line: a literal `pattern` or a `regex`, and the canonical `id`."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    label: Label
    pattern: str | None = None
    regex: str | None = None
    id: str
    cue: str | None = None
    case: bool = False
    gpus_per_unit: int | None = None
    host: bool = False   # a host processor (CPU): beside accelerators it is the machine's host, not the device
    machine: bool = False   # a machine (a cloud instance type): a word counting it ("a g5.xlarge") counts machines
    fallback: bool = False   # a generic form (any name with a size suffix): only where no other entry matches

    @field_validator("regex")
    @classmethod
    def _syntax(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                re.compile(FRAGMENT_RE.sub("(?:)", v))
            except re.error as err:
                raise ValueError(f"bad regex: {err}") from None
        return v

    @model_validator(mode="after")
    def _one_of(self) -> "GazetteerEntry":
        if (self.pattern is None) == (self.regex is None):
            raise ValueError("give exactly one of 'pattern' or 'regex'")
        if self.regex is not None and not self.cue:
            raise ValueError("a 'regex' entry needs a 'cue' (literal words, '|'-separated) for the prefilter")
        return self


class CompiledEntry:
    """A gazetteer entry ready to run: compiled regex, lowercase cues, id template."""

    __slots__ = ("entry", "kind", "rx", "cues", "where", "family_cut")

    def __init__(self, entry: GazetteerEntry, rx: re.Pattern[str], where: str, family_cut: re.Pattern[str]):
        self.entry, self.rx, self.where, self.family_cut = entry, rx, where, family_cut
        self.kind = LABEL_KIND[entry.label]
        cue = entry.cue if entry.cue is not None else (entry.pattern or "")
        self.cues = tuple(c.strip().lower() for c in cue.split("|") if c.strip())

    def render(self, m: re.Match[str]) -> str | None:
        """The canonical name for one match of this entry."""
        return render_id(self.entry.id, m, self.family_cut)


def expand(regex: str, fragments: dict[str, str], depth: int = 0) -> str:
    """Replace `<<NAME>>` by its fragment (fragments may nest)."""
    if depth > 8:
        raise ValueError("fragments nest too deeply")

    def sub(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in fragments:
            raise ValueError(f"unknown fragment <<{name}>>")
        return expand(fragments[name], fragments, depth + 1)

    return FRAGMENT_RE.sub(sub, regex)


def literal_regex(pattern: str) -> str:
    """A literal name matched on word boundaries; spaces and hyphens interchangeable."""
    parts = [re.escape(p) for p in re.split(r"[\s-]+", pattern.strip())]
    return r"(?<![\w/.-])" + r"[\s-]?".join(parts) + r"(?![\w-])"


def family_cut(variant_words: list[str]) -> re.Pattern[str]:
    """Where a model family name ends: before a size or version token, or a variant word (`family_variant_words`
    of conditions.yaml)."""
    return re.compile(r"[-_ ](?=\d|[A-Za-z]\d" + "".join("|" + re.escape(w) for w in variant_words) + ")")


# a second version written after a slash ("DeepSeek-V3/R1", conditions.yaml `model_name.alternative`): part of
# the name, not the name after an org prefix ("deepseek-ai/DeepSeek-R1")
_ALTERNATIVE = re.compile(r"/(?:[A-Z]\d+(?:\.\d+)?|\d+(?:\.\d+)?)$")


def without_org(name: str) -> str:
    """A written name without its org prefix ("deepseek-ai/DeepSeek-R1" -> "DeepSeek-R1"); a second version
    after a slash stays ("DeepSeek-V3/R1")."""
    alt = _ALTERNATIVE.search(name)
    head, tail = (name[:alt.start()], name[alt.start():]) if alt else (name, "")
    return head.rsplit("/", 1)[-1] + tail


def family_of(surface: str, cut_at: re.Pattern[str]) -> str:
    """The surface without an org prefix, cut where `cut_at` (a `family_cut`) first matches."""
    name = without_org(surface)
    cut = cut_at.search(name)
    return name[: cut.start()] if cut else name


def render_id(template: str, m: re.Match[str], cut_at: re.Pattern[str]) -> str | None:
    """Fill an id template from a match (`cut_at`: where {family} ends); None when nothing is left."""
    return _render(template, m.group(0), tuple(m.groupdict().items()), cut_at)


@lru_cache(maxsize=4096)
def _render(template: str, surface: str, group_items: tuple[tuple[str, str | None], ...],
            cut_at: re.Pattern[str]) -> str | None:
    """`render_id` for a surface and its named groups (a name recurs through a post: filled once)."""
    groups = dict(group_items)

    def sub(t: re.Match[str]) -> str:
        key = t.group(1)
        if key == "size":
            s = SIZE_RE.search(without_org(surface))
            return s.group(1).upper().replace("X", "x") if s else ""
        if key == "family" and not groups.get("family"):
            return family_of(surface, cut_at)
        return (groups.get(key) or "").strip()

    out = _BLANKS.sub(" ", TEMPLATE_RE.sub(sub, template)).strip(" -")
    return out or None


def _lines(path: Path) -> list[int]:
    """Line numbers of the entry lines of a JSONL rule file, in order."""
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        s = line.strip()
        if s and not s.startswith(("#", "//")):
            out.append(n)
    return out


def load_gazetteers(directory: Path, fragments: dict[str, str], cut_at: re.Pattern[str]) -> list[CompiledEntry]:
    """Every `*.jsonl` in `directory`, validated and compiled (sorted by file name)."""
    compiled: list[CompiledEntry] = []
    for path in sorted(Path(directory).glob("*.jsonl")):
        entries = load_jsonl(path, GazetteerEntry)
        for entry, lineno in zip(entries, _lines(path)):
            where = f"line {lineno}"
            try:
                src = expand(entry.regex, fragments) if entry.regex else literal_regex(entry.pattern or "")
                flags = 0 if entry.case else re.IGNORECASE
                rx = re.compile(src, flags)
            except (ValueError, re.error) as err:
                raise RuleError(path, where, f"bad regex: {err}") from None
            compiled.append(CompiledEntry(entry, rx, f"{path.name}:{lineno}", cut_at))
    return compiled


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "", s.lower())


class Canonicalizer:
    """Canonical names from gazetteer entries: full match first, then fuzzy over fixed ids."""

    def __init__(self, entries: list[CompiledEntry]):
        self.by_kind: dict[str, list[CompiledEntry]] = {}
        self.fixed: dict[str, dict[str, str]] = {}
        for ce in entries:
            self.by_kind.setdefault(ce.kind, []).append(ce)
            if "{" not in ce.entry.id:
                self.fixed.setdefault(ce.kind, {})[_norm(ce.entry.id)] = ce.entry.id
                if ce.entry.pattern:
                    self.fixed[ce.kind][_norm(ce.entry.pattern)] = ce.entry.id

    def canonical(self, kind: str, surface: str, threshold: float = FUZZ_THRESHOLD) -> str | None:
        """Canonical name of `surface` as a `kind`, or None when unknown (fuzzy matches need `threshold`)."""
        text = surface.strip()
        if not text:
            return None
        for ce in self.by_kind.get(kind, []):
            m = ce.rx.fullmatch(text)
            if m:
                return ce.render(m)
        for ce in self.by_kind.get(kind, []):
            m = ce.rx.search(text)
            if m and len(m.group(0)) >= 0.6 * len(text):
                return ce.render(m)
        choices = self.fixed.get(kind)
        if not choices:
            return None
        best = process.extractOne(_norm(text), list(choices), scorer=fuzz.ratio)
        if best and best[1] >= threshold:
            return choices[best[0]]
        return None
