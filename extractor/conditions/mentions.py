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
from bisect import bisect_left, insort
from functools import lru_cache
from pathlib import Path
from typing import Any

import ahocorasick
from pydantic import BaseModel, ConfigDict, Field

from extractor.conditions.canonical import LABELLED_FUZZ_THRESHOLD, Canonicalizer, CompiledEntry, render_id
from extractor.conditions.patterns import (  # noqa: F401 - the schema is re-exported for its users
    CompiledPattern, ConditionsFile, Kind, PatternEntry, Rules, load_rules,
)
from extractor.conditions.scan import (  # noqa: F401 - blank_free_runs, lengths: re-exported
    BLANKS, KNUM_RE, TRY_COST, Scanner, blank_free_runs, blocks_holding, fold, is_pow2, lengths,
    covering, matches_at, raw_number, text_blocks, url_spans,
)
from extractor.regex_starts import searchable, shortest_prefixes, start_strings
from extractor.rules_io import default_rules_dir
from extractor.spans import overlaps_disjoint, point_inside

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
        self._scanner: Scanner | None = None
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
                out = [x for x in out if not point_inside(x.span[0], urls, ustarts)]
        if out and self.rules.not_conditions:
            out = self._drop_not_conditions(text, out)
        out = _resolve(out)
        if offset:
            out = [x.model_copy(update={"span": (x.span[0] + offset, x.span[1] + offset)}) for x in out]
        return out

    def _drop_not_conditions(self, text: str, found: list[Mention]) -> list[Mention]:
        """`found` without the mentions that a `not_conditions` rule covers (or, for `drop: version`, without
        their version): feature lists, capability statements, minimum versions are no run's setting."""
        kinds = {x.kind for x in found}
        folded: str | None = None
        covers: list[tuple[int, int, frozenset[str], str]] = []
        for nc in self.rules.not_conditions:
            if not nc.kinds & kinds:
                continue
            if nc.cues:
                folded = folded if folded is not None else fold(text)
                if not any(c in folded for c in nc.cues):
                    continue
            for m in nc.rx.finditer(text):
                if m.end() > m.start():
                    covers.append((*covering(text, m.start(), m.end(), nc.entry.within), nc.kinds, nc.entry.drop))
        if not covers:
            return found
        out = []
        for x in found:
            drop = {d for a, b, ks, d in covers if x.kind in ks and a <= x.span[0] < b}
            if "mention" in drop:
                continue
            if "version" in drop and x.version:
                x = x.model_copy(update={"version": None})
            out.append(x)
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
            blocks = text_blocks(text)
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
        for end, (word, last) in scanner.automaton.iter(fold(text)) if found_any else ():
            hits.setdefault(word, []).append(end - last)
        block_starts = [b[0] for b in blocks]
        sets: dict[int, set[int]] = {}
        for word, where in hits.items():
            ids = self._cue_index.get(word)
            if ids:
                bs = blocks_holding(block_starts, where)
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

    def _build_scanner(self) -> Scanner:
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
        self._scanner = Scanner(automaton, start_words)
        return self._scanner

    def canonical(self, kind: str, surface: str) -> str | None:
        """Canonical name for `surface` as `kind` (None when unknown)."""
        return self.canonicalizer.canonical(kind, surface)

    def infer_k_base(self, text: str) -> int | None:
        """1024 when the text's written-out lengths >= 1000 are mostly powers of two, 1000 when mostly not,
        None when it writes out none."""
        pow2 = other = 0
        for _task, m in self._matches(text, self._length_tasks):
            for name, raw in m.groupdict().items():
                if not raw or name.rstrip("0123456789") not in _LENGTH_GROUPS:
                    continue
                for one in KNUM_RE.findall(raw) if name.startswith("list") else (raw,):
                    try:
                        n, suf = raw_number(one)
                    except ValueError:
                        continue
                    if suf or n < 1000:
                        continue
                    if is_pow2(n):
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
            single = self.rules.conditions.hardware_count.single_device
            if count == 1 and single and not self.rules.hw_not_single.match(text, end, end + 48):
                extra.append(Mention(kind="parallelism", value=single, canonical=single, quote=text[start:end],
                                     span=(start, end), rule=where))
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
        value: str | int | float | dict[str, Any] = BLANKS.sub(" ", quote.strip())
        if kind == "dataset" and groups.get("r"):
            value = {"name": ce.entry.id, "random_range_ratio": float(groups["r"])}
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
                n = self.rules.hw_words.get(BLANKS.sub(" ", (g.get("word") or "").lower()))
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
        # alternatives of one pattern name their groups n, n2, n3... (a name cannot repeat in a regex)
        for k in [k for k in g if k[-1].isdigit()]:
            base = k.rstrip("0123456789")
            if base in _VALUE_GROUPS:
                g.setdefault(base, g[k])
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
                    value = render_id(value, m, self.rules.family_cut) or quote
                if "text" in g:
                    span, quote = m.span(tname), g["text"]
            elif "min" in g and "max" in g:
                lo, hi = (int(x) for x in lengths([g["min"], g["max"]], k_base))
                if hi <= lo:
                    return []
                value, sweep = {"min": lo, "max": hi}, True
            elif "list" in g:
                vals = [int(v) for v in lengths(KNUM_RE.findall(g["list"]), k_base)]
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
                value = BLANKS.sub(" ", g["text"].strip())
                span = m.span(tname)
                quote = g["text"]
            else:
                value = BLANKS.sub(" ", quote.strip())
        except (ValueError, KeyError):
            return []
        canon = self._canonical_word(e.kind, quote)
        if canon is None and e.kind == "dataset" and isinstance(value, str):
            canon = self.canonicalizer.canonical(e.kind, value, LABELLED_FUZZ_THRESHOLD)
        return [Mention(kind=e.kind, value=value, canonical=canon, sweep=sweep, quote=quote, span=span, rule=name)]

    def _canonical_word(self, kind: str, quote: str) -> str | None:
        for rx, canon in self.rules.canon_words.get(kind, ()):
            if rx.search(quote):
                return canon
        return None


_VALUE_GROUPS = frozenset({"n", "list", "min", "max", "isl", "osl", "rate", "nodes", "per"})
_LENGTH_GROUPS = frozenset({"isl", "osl", "n", "list"})


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
            if not overlaps_disjoint(taken, *x.span):
                insort(taken, x.span)
                kept.append(x)
    kept.sort(key=lambda x: (x.span[0], x.span[1], x.kind, x.rule))
    return kept


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
