"""Find every mention of a load condition in a piece of text, with exact spans.

Vocabulary comes from rules: gazetteers (`rules/gazetteers/*.jsonl`, see
extractor/canonical.py) for named things, and `rules/conditions.yaml` for phrased
conditions (lengths, concurrency, parallelism, warm-up, scenario...). Everything is
compiled once in `MentionFinder`; `find` runs only the entries whose cue words
occur in the text (a cheap prefilter), then resolves overlaps per kind.

The text may be a masked view (markup replaced by spaces) and may contain code
blocks: command-line flags (`--tp 8`, `--max-concurrency 64`) are rules too.
"""
from __future__ import annotations

import re
from bisect import bisect_left, bisect_right, insort
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator, Literal, NamedTuple

import ahocorasick
from pydantic import BaseModel, ConfigDict, Field, field_validator

from extractor.conditions.canonical import Canonicalizer, CompiledEntry, expand, load_gazetteers, render_id
from extractor.regex_starts import CASE_TRAPS, searchable, shortest_prefixes, start_strings
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


class Mention(BaseModel):
    """One condition mention: `text[span[0]:span[1]] == quote` (span includes the offset)."""

    model_config = ConfigDict(extra="forbid")

    kind: Kind
    value: str | int | float | dict[str, Any]
    canonical: str | None = None
    sweep: bool = False
    count: int | None = None
    version: str | None = None
    quote: str
    span: tuple[int, int]
    rule: str = Field("", description="the rule entry that produced it (file:line or pattern name)")


# ---------------------------------------------------------------- rule schema --

class PatternEntry(BaseModel):
    """One phrasing of a condition in conditions.yaml."""

    model_config = ConfigDict(extra="forbid")

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
        try:
            re.compile(re.sub(r"<<[A-Z_][A-Z0-9_]*>>", "(?:)", v))
        except re.error as err:
            raise ValueError(f"bad regex: {err}") from None
        return v


class CanonicalWord(BaseModel):
    """Canonical label for a mention whose quote matches `match`."""

    model_config = ConfigDict(extra="forbid")

    match: str
    canonical: str


class HardwareCount(BaseModel):
    model_config = ConfigDict(extra="forbid")

    left: list[str] = Field(default_factory=list)
    right: list[str] = Field(default_factory=list)
    needs_right_for_bare: str = r"^\s*GPUs?"
    words: dict[str, int] = Field(default_factory=dict)


class EngineVersion(BaseModel):
    model_config = ConfigDict(extra="forbid")

    right: list[str] = Field(default_factory=list)


class ConditionsFile(BaseModel):
    """The whole of rules/conditions.yaml."""

    model_config = ConfigDict(extra="forbid")

    version: int = 1
    fragments: dict[str, str] = Field(default_factory=dict)
    hardware_count: HardwareCount = Field(default_factory=HardwareCount)
    engine_version: EngineVersion = Field(default_factory=EngineVersion)
    canonical_words: dict[str, list[CanonicalWord]] = Field(default_factory=dict)
    patterns: list[PatternEntry] = Field(default_factory=list)


class CompiledPattern:
    __slots__ = ("entry", "rx", "cues")

    def __init__(self, entry: PatternEntry, rx: re.Pattern[str]):
        self.entry, self.rx = entry, rx
        self.cues = tuple(c.lower() for c in entry.cues)


class Rules:
    """Compiled rules: gazetteer entries, condition patterns, context regexes."""

    def __init__(self, conditions: ConditionsFile, patterns: list[CompiledPattern],
                 gazetteer: list[CompiledEntry], path: Path):
        self.conditions, self.patterns, self.gazetteer, self.path = conditions, patterns, gazetteer, path
        frag = conditions.fragments
        hc = conditions.hardware_count
        try:
            self.hw_left = [re.compile(expand(r, frag), re.I) for r in hc.left]
            self.hw_right = [re.compile(expand(r, frag), re.I) for r in hc.right]
            self.hw_bare_right = re.compile(expand(hc.needs_right_for_bare, frag), re.I)
            self.eng_right = [re.compile(expand(r, frag), re.I) for r in conditions.engine_version.right]
            self.canon_words = {
                k: [(re.compile(w.match, re.I), w.canonical) for w in ws]
                for k, ws in conditions.canonical_words.items()
            }
        except (ValueError, re.error) as err:
            raise RuleError(path, "hardware_count/engine_version/canonical_words", f"bad regex: {err}") from None
        self.hw_words = {k.lower(): v for k, v in hc.words.items()}


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
    gaz = load_gazetteers(rules_dir / "gazetteers", cond.fragments)
    return Rules(cond, compiled, gaz, path)


# ------------------------------------------------------------------- numbers --

_NUM_RE = re.compile(r"^\s*(\d[\d,]*(?:\.\d+)?)\s*([kKmM]?)\s*$")
URL_RE = re.compile(
    r"(?:https?://|www\.)[^\s<>\"'`]+|(?<![\w])(?:/[\w.-]+){2,}\.(?:png|jpe?g|gif|svg|webp|html?)\b"
    r"|\b[\w.-]+\.(?:png|jpe?g|gif|svg|webp)\b"
)

# Every URL_RE match holds one of these and no blank: only blank-free runs holding one are searched.
_URL_TRIGGER = re.compile(r"https?://|www\.|\.(?:png|jpe?g|gif|svg|webp|html?)")
_NON_BLANK = re.compile(r"\S*")


def url_spans(text: str) -> list[tuple[int, int]]:
    """Spans of URL_RE's matches in `text` (as `URL_RE.finditer`, but it only reads around the triggers)."""
    return [m.span() for a, e in blank_free_runs(text, _URL_TRIGGER) for m in URL_RE.finditer(text, a, e)]


def blank_free_runs(text: str, trigger: re.Pattern[str]) -> Iterator[tuple[int, int]]:
    """The runs of non-blank characters of `text` that hold a match of `trigger`, in order: a regex whose
    matches are such runs need only be tried there."""
    done = 0
    for t in trigger.finditer(text):
        i = t.start()
        if i < done:
            continue
        s = i
        while s > done and not text[s - 1].isspace():
            s -= 1
        done = _NON_BLANK.match(text, i).end()
        yield s, done


def _pow2(n: float) -> bool:
    return n >= 1 and float(n).is_integer() and (int(n) & (int(n) - 1)) == 0


def _raw(s: str) -> tuple[float, str]:
    m = _NUM_RE.match(s)
    if not m:
        raise ValueError(s)
    return float(m.group(1).replace(",", "")), m.group(2).lower()


def _scaled(num: float, suffix: str, k_base: int) -> int | float:
    if suffix == "k":
        num *= k_base
    elif suffix == "m":
        num *= k_base * k_base
    return int(num) if float(num).is_integer() else num


def lengths(raws: list[str], k_base: int | None) -> list[int | float]:
    """Numbers of one mention; K suffix -> x1024 when `k_base` is 1024 or, if None, when
    another number of the same mention is written out as a power of two >= 64."""
    parsed = [_raw(r) for r in raws]
    if k_base is None:
        plain_pow2 = any(not suf and n >= 64 and _pow2(n) for n, suf in parsed)
        k_base = 1024 if plain_pow2 else 1000
    return [_scaled(n, suf, k_base) for n, suf in parsed]


_BLANK_RE = re.compile(r"\n[ \t]*\n")
_BLANKS = re.compile(r"\s+")
TRY_COST = 16  # a regex tried at one position costs about as much as scanning this many positions
_KNUM_RE = re.compile(r"\d[\d,]*(?:\.\d+)?(?:\s?[kKmM](?![A-Za-z]))?")


def _blocks(text: str, max_len: int = 4000) -> list[tuple[int, int]]:
    """Paragraph spans (split at blank lines; long ones at line ends) covering `text`."""
    out: list[tuple[int, int]] = []
    pos = 0
    for m in _BLANK_RE.finditer(text):
        out.append((pos, m.start()))
        pos = m.start()
    out.append((pos, len(text)))
    res: list[tuple[int, int]] = []
    for a, b in out:
        while b - a > max_len:
            cut = text.rfind("\n", a, a + max_len)
            cut = cut if cut > a else a + max_len
            res.append((a, cut))
            a = cut
        res.append((a, b))
    return res


# The characters whose lowercase is not one character, or that `re.IGNORECASE` matches with an ASCII
# letter they do not lowercase to: folded to that letter so the folded text keeps every offset.
_FOLD = str.maketrans(CASE_TRAPS, "iis")


def _fold(text: str) -> str:
    """`text` lowercased for cue look-up, one character for one (offsets are those of `text`)."""
    if any(c in text for c in CASE_TRAPS):  # translate is slow: only when it has work to do
        text = text.translate(_FOLD)
    return text.lower()


class _Scanner(NamedTuple):
    """Every cue word and start string, found in one pass; task -> its start strings (tasks with any)."""

    automaton: ahocorasick.Automaton
    start_words: dict[int, tuple[str, ...]]


def matches_at(rx: re.Pattern[str], text: str, spans: list[tuple[int, int]],
               starts: list[int]) -> list[re.Match[str]]:
    """`rx.finditer` over each span, trying `rx` only at `starts` (sorted; they must include every
    position where a match can begin, and no match may be empty)."""
    found = []
    for a, e in spans:
        end = a
        for p in starts[bisect_left(starts, a):bisect_left(starts, e)]:
            if p >= end:
                m = rx.match(text, p, e)
                if m:
                    found.append(m)
                    end = m.end()
    return found


def _blocks_holding(block_starts: list[int], positions: list[int]) -> list[int]:
    """Indices of the blocks (given by their sorted starts, the first at 0) holding one of `positions`
    (sorted): one look-up per block, however many positions it holds."""
    out: list[int] = []
    i, n, last = 0, len(positions), len(block_starts) - 1
    while i < n:
        b = bisect_right(block_starts, positions[i]) - 1
        out.append(b)
        if b == last:
            break
        i = bisect_left(positions, block_starts[b + 1], i)
    return out


def _int_list(s: str) -> list[int]:
    return [int(x.replace(",", "")) for x in re.findall(r"\d{1,3}(?:,\d{3})+|\d+", s)]


# -------------------------------------------------------------------- finder --

class MentionFinder:
    """All condition mentions in a text; build once, call `find` per text."""

    def __init__(self, rules_dir: Path | str | None = None, rules: Rules | None = None):
        self.rules = rules or load_rules(Path(rules_dir) if rules_dir else None)
        self.canonicalizer = Canonicalizer(self.rules.gazetteer)
        self._tasks: list[CompiledEntry | CompiledPattern] = [*self.rules.gazetteer, *self.rules.patterns]
        self._cue_index: dict[str, list[int]] = {}
        self._always: list[int] = []
        for i, task in enumerate(self._tasks):
            if not task.cues:
                self._always.append(i)
            for cue in dict.fromkeys(task.cues):
                self._cue_index.setdefault(cue, []).append(i)
        self._length_tasks = frozenset(
            i for i, t in enumerate(self._tasks)
            if isinstance(t, CompiledPattern) and t.entry.kind in ("io_length", "input_length", "output_length"))
        # Texts are scanned once for every cue and every start string (see `_build_scanner`), built on
        # the first text.
        self._scanner: _Scanner | None = None
        self._last: tuple | None = None

    # -- public --
    def find(self, text: str, offset: int = 0, k_base: int | None = None) -> list[Mention]:
        """Every mention in `text`, sorted by span then kind; spans are shifted by `offset`."""
        out: list[Mention] = []
        for task, m in self._matches(text):
            if isinstance(task, CompiledEntry):
                out.extend(self._gazetteer_mentions(text, task, m))
            else:
                out.extend(self._pattern_mentions(task, m, k_base))
        if out and "." in text:
            urls = url_spans(text)
            if urls:
                ustarts = [a for a, _ in urls]
                out = [x for x in out if not _inside(x.span[0], urls, ustarts)]
        out = _resolve(out)
        if offset:
            out = [x.model_copy(update={"span": (x.span[0] + offset, x.span[1] + offset)}) for x in out]
        return out

    def _matches(self, text: str, only: frozenset[int] | None = None):
        """(task, match) pairs, tasks in rule order. Prefilter: a task runs only over the blocks
        (paragraphs) in which one of its cue words starts (lowercased text); within them, where the
        strings its matches begin with are rare, only at their starts. The prefilter and the matches
        of the tasks already run are kept for the last text (`infer_k_base` then `find` read the
        same view)."""
        last = self._last
        if last is not None and last[0] is text:
            _, blocks, todo, hits, done = last
        else:
            blocks = _blocks(text)
            todo, hits = self._todo(text, blocks)
            done = {}
            self._last = (text, blocks, todo, hits, done)
        for t, bs in todo.items():
            if only is not None and t not in only:
                continue
            found = done.get(t)
            if found is None:
                found = done[t] = self._run(self._tasks[t].rx, text, blocks, bs, self._starts(t, hits))
            task = self._tasks[t]
            for m in found:
                yield task, m

    @staticmethod
    def _run(rx: re.Pattern[str], text: str, blocks: list[tuple[int, int]], bs: list[int],
             starts: list[int] | None) -> list[re.Match[str]]:
        """The non-empty matches of `rx` in the blocks `bs`, as `finditer` over each block finds them.
        `starts`: sorted positions that include every position where a match can begin."""
        spans = [blocks[b] for b in bs]
        if starts is not None:
            tries = sum(bisect_left(starts, e) - bisect_left(starts, a) for a, e in spans)
            if tries * TRY_COST < sum(e - a for a, e in spans):
                return matches_at(rx, text, spans, starts)
        return [m for a, e in spans for m in rx.finditer(text, a, e) if m.end() > m.start()]

    def _todo(self, text: str, blocks: list[tuple[int, int]]) -> tuple[dict[int, list[int]], dict[str, list[int]] | None]:
        """Task index -> sorted indices of the blocks holding one of its cues (tasks in rule order),
        and where each cue or start string found begins (None when start strings cannot be looked for
        in the folded text: see `regex_starts.searchable`)."""
        scanner = self._scanner or self._build_scanner()
        hits: dict[str, list[int]] = {}
        found_any = scanner.automaton.kind == ahocorasick.AHOCORASICK  # an empty automaton cannot iterate
        for end, (word, last) in scanner.automaton.iter(_fold(text)) if found_any else ():
            hits.setdefault(word, []).append(end - last)
        block_starts = [b[0] for b in blocks]
        sets: dict[int, set[int]] = {}
        for word, where in hits.items():
            ids = self._cue_index.get(word)
            if ids:
                bs = _blocks_holding(block_starts, where)
                for t in ids:
                    sets.setdefault(t, set()).update(bs)
        for t in self._always:
            sets[t] = set(range(len(blocks)))
        todo = {t: sorted(sets[t]) for t in sorted(sets)}
        return todo, hits if searchable(text) else None

    def _starts(self, t: int, hits: dict[str, list[int]] | None) -> list[int] | None:
        """Sorted positions where one of task `t`'s start strings begins ([] when none occurs); None
        when it has no start strings or `hits` is None."""
        words = self._scanner.start_words.get(t) if hits is not None else None
        if words is None:
            return None
        found = [hits[w] for w in words if w in hits]
        if len(found) == 1:
            return found[0]   # the places of one word: ascending, each once
        return sorted({p for ps in found for p in ps})

    def _build_scanner(self) -> _Scanner:
        """The strings a task's matches can begin with (extractor/regex_starts.py): where they are
        rare, its regex is tried only where one of them starts instead of at every position. One
        Aho-Corasick pass over the folded text finds every cue and every start string."""
        start_words: dict[int, tuple[str, ...]] = {}
        for i, task in enumerate(self._tasks):
            words = shortest_prefixes(start_strings(task.rx.pattern, task.rx.flags, digits=True) or ())
            if words:
                start_words[i] = tuple(words)
        automaton = ahocorasick.Automaton()
        for w in sorted({*self._cue_index, *(w for ws in start_words.values() for w in ws)}):
            automaton.add_word(w, (w, len(w) - 1))
        automaton.make_automaton()
        self._scanner = _Scanner(automaton, start_words)
        return self._scanner

    def canonical(self, kind: str, surface: str) -> str | None:
        """Canonical name for `surface` as `kind` (None when unknown)."""
        return self.canonicalizer.canonical(kind, surface)

    def infer_k_base(self, text: str) -> int | None:
        """1024 when the text's written-out lengths >= 1000 are mostly powers of two, 1000 when mostly not,
        None when it writes out none."""
        pow2 = other = 0
        for _task, m in self._matches(text, self._length_tasks):
            for g in ("isl", "osl", "n"):
                raw = m.groupdict().get(g)
                if not raw:
                    continue
                try:
                    n, suf = _raw(raw)
                except ValueError:
                    continue
                if suf or n < 1000:
                    continue
                if _pow2(n):
                    pow2 += 1
                else:
                    other += 1
        if pow2 == other == 0:
            return None   # no evidence in the document: each mention decides from its own numbers
        return 1024 if pow2 > other else 1000

    # -- gazetteer matches --
    def _gazetteer_mentions(self, text: str, ce: CompiledEntry, m: re.Match[str]) -> list[Mention]:
        start, end = m.span()
        groups = m.groupdict()
        kind = ce.kind
        canon = ce.render(m)
        count = version = None
        where = ce.where
        extra: list[Mention] = []
        if kind == "hardware":
            start, count = self._hardware_count(text, start, end, ce)
        elif kind == "engine":
            version = groups.get("version")
            if groups.get("digest"):
                version = f"{version}@{groups['digest']}" if version else groups["digest"]
            if version is None:
                end, version = self._engine_version(text, end)
        elif kind == "model" and groups.get("quant"):
            qs, qe = m.span("quant")
            extra.append(Mention(kind="precision", value=groups["quant"], canonical=groups["quant"].upper(),
                                 quote=text[qs:qe], span=(qs, qe), rule=where))
        quote = text[start:end]
        value: str | int | float | dict[str, Any] = _BLANKS.sub(" ", quote.strip())
        if kind == "dataset" and groups.get("r"):
            value = {"name": "random", "random_range_ratio": float(groups["r"])}
        return [Mention(kind=kind, value=value, canonical=canon, count=count, version=version,
                        quote=quote, span=(start, end), rule=where)] + extra

    def _hardware_count(self, text: str, start: int, end: int, ce: CompiledEntry) -> tuple[int, int | None]:
        left = text[max(0, start - 32):start]
        right = text[end:end + 48]
        per_unit = ce.entry.gpus_per_unit or 1
        for i, rx in enumerate(self.rules.hw_left):
            lm = rx.search(left)
            if not lm:
                continue
            g = lm.groupdict()
            bare = i > 0
            if bare and not (ce.entry.gpus_per_unit or self.rules.hw_bare_right.match(right)):
                continue
            if g.get("count"):
                n = int(g["count"])
            else:
                n = self.rules.hw_words.get(_BLANKS.sub(" ", (g.get("word") or "").lower()))
                if n is None:
                    continue
            return start - (len(left) - lm.start()), n * per_unit
        for rx in self.rules.hw_right:
            if rx.match(right):
                break
        return start, None

    def _engine_version(self, text: str, end: int) -> tuple[int, str | None]:
        right = text[end:end + 96]
        for rx in self.rules.eng_right:
            vm = rx.match(right)
            if vm:
                return end + vm.end(), vm.group("version")
        return end, None

    # -- condition patterns --
    def _pattern_mentions(self, cp: CompiledPattern, m: re.Match[str], k_base: int | None) -> list[Mention]:
        e = cp.entry
        g = {k: v for k, v in m.groupdict().items() if v is not None}
        # alternatives of one pattern name their text group text, text2, text3...
        tname = next((k for k in sorted(g) if k.startswith("text") and k[4:].isdigit() or k == "text"), None)
        if tname:
            g["text"] = g[tname]
        span = m.span()
        quote = m.group(0)
        name = e.name
        sweep = e.sweep
        try:
            if e.kind == "io_length":
                isl, osl = lengths([g["isl"], g["osl"]], k_base)
                return [Mention(kind="input_length", value=isl, quote=quote, span=span, rule=name),
                        Mention(kind="output_length", value=osl, quote=quote, span=span, rule=name)]
            value: Any
            if e.value is not None:
                value = e.value
                if isinstance(value, str) and "{" in value:
                    value = render_id(value, m) or quote
                if "text" in g:
                    span, quote = m.span(tname), g["text"]
            elif "min" in g and "max" in g:
                lo, hi = (int(x) for x in lengths([g["min"], g["max"]], k_base))
                if hi <= lo:
                    return []
                value, sweep = {"min": lo, "max": hi}, True
            elif "list" in g:
                vals = [int(v) for v in lengths(_KNUM_RE.findall(g["list"]), k_base)]
                if len(vals) == 1:
                    value = vals[0]
                else:
                    value, sweep = {"min": min(vals), "max": max(vals), "values": vals}, True
            elif "rate" in g:
                r = float(g["rate"].replace(",", ""))
                value = {"rate": int(r) if r.is_integer() else r}
            elif "nodes" in g or "per" in g:
                value = {}
                if "nodes" in g:
                    value["nodes"] = int(g["nodes"].replace(",", ""))
                if "per" in g:
                    value["gpus_per_node"] = int(g["per"])
                if "nodes" in value and "gpus_per_node" in value:
                    value["total"] = value["nodes"] * value["gpus_per_node"]
            elif "n" in g:
                value = lengths([g["n"]], k_base)[0]
                if e.kind in ("input_length", "output_length", "gpu_count", "batch_or_concurrency"):
                    if not float(value).is_integer() or value <= 0:
                        return []
                    value = int(value)
            elif "text" in g:
                value = _BLANKS.sub(" ", g["text"].strip())
                span = m.span(tname)
                quote = g["text"]
            else:
                value = _BLANKS.sub(" ", quote.strip())
        except (ValueError, KeyError):
            return []
        canon = self._canonical_word(e.kind, quote)
        return [Mention(kind=e.kind, value=value, canonical=canon, sweep=sweep, quote=quote, span=span, rule=name)]

    def _canonical_word(self, kind: str, quote: str) -> str | None:
        for rx, canon in self.rules.canon_words.get(kind, ()):
            if rx.search(quote):
                return canon
        return None


def _inside(pos: int, spans: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and spans[i][0] <= pos < spans[i][1]


def _resolve(mentions: list[Mention]) -> list[Mention]:
    """Per kind, keep the longest leftmost mention of overlapping ones; stable order."""
    by_kind: dict[str, list[Mention]] = {}
    for x in mentions:
        by_kind.setdefault(x.kind, []).append(x)
    kept: list[Mention] = []
    for kind, xs in by_kind.items():
        xs.sort(key=lambda x: (-(x.span[1] - x.span[0]), x.span[0], x.rule))
        taken: list[tuple[int, int]] = []   # sorted, pairwise not overlapping
        for x in xs:
            if not _overlaps_taken(taken, *x.span):
                insort(taken, x.span)
                kept.append(x)
    kept.sort(key=lambda x: (x.span[0], x.span[1], x.kind, x.rule))
    return kept


def _overlaps_taken(taken: list[tuple[int, int]], a: int, b: int) -> bool:
    """Whether [a, b) overlaps one of `taken` (sorted spans, no two of which overlap): only the span
    starting last before `a` and those starting inside [a, b) can."""
    i = bisect_left(taken, (a, -1))
    if i and taken[i - 1][1] > a:
        return True
    while i < len(taken) and taken[i][0] < b:
        if a < taken[i][1]:
            return True
        i += 1
    return False


@lru_cache(maxsize=4)
def _default_finder(rules_dir: str) -> MentionFinder:
    return MentionFinder(rules_dir)


def default_finder() -> MentionFinder:
    """The finder for the default rules folder (built once)."""
    return _default_finder(str(default_rules_dir()))


def find_mentions(text: str, offset: int = 0, k_base: int | None = None) -> list[Mention]:
    """`MentionFinder.find` with the default rules."""
    return default_finder().find(text, offset, k_base)


def infer_k_base(text: str) -> int:
    """Document-level K multiplier (1024 or 1000) under the default rules."""
    return default_finder().infer_k_base(text)


__all__ = ["Mention", "MentionFinder", "canonical", "find_mentions", "infer_k_base", "load_rules", "default_finder",
           "lengths"]


@lru_cache(maxsize=4)
def _default(rules_dir: str) -> Canonicalizer:
    return Canonicalizer(load_rules(Path(rules_dir)).gazetteer)


def canonical(kind: str, surface: str) -> str | None:
    """Canonical name of `surface` as a `kind` under the default rules (None if unknown)."""
    return _default(str(default_rules_dir())).canonical(kind, surface)
