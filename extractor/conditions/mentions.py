"""Find every mention of a load condition in a piece of text, with exact spans.

Vocabulary comes from rules: gazetteers (`rules/gazetteers/*.jsonl`, see
extractor/conditions/canonical.py) for named things, and `rules/conditions.yaml` for phrased
conditions (lengths, concurrency, parallelism, warm-up, scenario...). Everything is
compiled once in `MentionFinder`; `find` runs only the entries whose cue words
occur in the text (a cheap prefilter), reads each match into mentions (`MatchReader`,
readings.py), then resolves overlaps per kind.

The text may be a masked view (markup replaced by spaces) and may contain code
blocks: command-line flags (`--tp 8`, `--max-concurrency 64`) are rules too.
"""
from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections import defaultdict
from heapq import heappop, heappush
from functools import lru_cache
from pathlib import Path

import ahocorasick

from extractor.conditions.canonical import Canonicalizer, CompiledEntry
from extractor.conditions.patterns import (  # noqa: F401 - the schema is re-exported for its users
    CompiledPattern, ConditionsFile, Kind, PatternEntry, Rules, load_rules,
)
from extractor.conditions.readings import MatchReader, Mention  # noqa: F401 - Mention is re-exported
from extractor.conditions.scan import (  # noqa: F401 - blank_free_runs, lengths: re-exported
    BLANKS, KNUM_RE, TRY_COST, Scanner, anchored_matches, blank_free_runs, blocks_holding, fold, is_pow2, lengths,
    covering, matches_at, raw_number, text_blocks, url_spans,
)
from extractor.regex_starts import anchors, searchable, shortest_prefixes, start_strings
from extractor.rules_io import default_rules_dir
from extractor.spans import overlaps_disjoint, overlaps_near, point_inside


# -------------------------------------------------------------------- finder --
class MentionFinder:
    """All condition mentions in a text; build once, call `find` per text."""

    def __init__(self, rules_dir: Path | str | None = None, rules: Rules | None = None):
        self.rules = rules or load_rules(Path(rules_dir) if rules_dir else None)
        self.canonicalizer = Canonicalizer(self.rules.gazetteer)
        self.reader = MatchReader(self.rules, self.canonicalizer)
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
                out.extend(self.reader.gazetteer(text, task, m))
            else:
                out.extend(self.reader.pattern(task, m, k_base))
        if out and "." in text:
            urls = url_spans(text)
            if urls:
                ustarts = [a for a, _ in urls]
                out = [x for x in out if not point_inside(x.span[0], urls, ustarts)]
        if out and self.rules.not_conditions:
            out = self.drop_not_conditions(text, out)
        out = _resolve(out)
        if offset:
            out = [x.model_copy(update={"span": (x.span[0] + offset, x.span[1] + offset)}) for x in out]
        return out

    def drop_not_conditions(self, text: str, found: list[Mention]) -> list[Mention]:
        """`found` without the mentions that a `not_conditions` rule covers (or, for `drop: version`, without
        their version): feature lists, capability statements, minimum versions are no run's setting."""
        kinds = {x.kind for x in found}
        covers: list[tuple[int, int, frozenset[str], str]] = []
        for nc, m in self._not_condition_matches(text, kinds):
            lo, hi = covering(text, m.start(), m.end(), nc.entry.within)
            if nc.unless is not None and nc.unless.search(text, lo, hi):
                continue
            covers.append((lo, hi, nc.kinds, nc.entry.drop))
        if not covers:
            return found
        drops = _covering_drops(found, covers)
        out = []
        for x, drop in zip(found, drops):
            if "mention" in drop:
                continue
            if "version" in drop and x.version:
                x = x.model_copy(update={"version": None})
            out.append(x)
        return out

    def _not_condition_matches(self, text: str, kinds: set[str]):
        """(rule, match) for the non-empty matches of the `not_conditions` rules about one of `kinds` whose
        cue words occur in the text. The cues and the strings the rules' matches hold come from the scan
        `find` made of this text: a rule is tried only around those strings (`anchored_matches`)."""
        scanner = self._scanner or self._build_scanner()
        last = self._last
        hits = last[3] if last is not None and last[0] is text else None
        folded: str | None = None
        for nc, anchors in zip(self.rules.not_conditions, scanner.not_condition_anchors):
            if not nc.kinds & kinds:
                continue
            if nc.cues:
                if hits is not None:
                    if not any(c in hits for c in nc.cues):
                        continue
                else:
                    folded = folded if folded is not None else fold(text)
                    if not any(c in folded for c in nc.cues):
                        continue
            matches = anchored_matches(nc.rx, text, anchors, hits) if anchors and hits is not None else None
            if matches is None:
                matches = (m for m in nc.rx.finditer(text) if m.end() > m.start())
            for m in matches:
                yield nc, m

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
        found: defaultdict[str, list[int]] = defaultdict(list)   # (not `setdefault`: a new list per hit)
        found_any = scanner.automaton.kind == ahocorasick.AHOCORASICK  # an empty automaton cannot iterate
        for end, (word, last) in scanner.automaton.iter(fold(text)) if found_any else ():
            found[word].append(end - last)
        hits: dict[str, list[int]] = dict(found)
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

    def prepare(self) -> None:
        """Build the scanner now rather than on the first text (where the regex cache is active)."""
        if self._scanner is None:
            self._build_scanner()

    def _build_scanner(self) -> Scanner:
        """The strings a task's matches can begin with (extractor/regex_starts.py): where they are
        rare, its regex is tried only where one of them starts instead of at every position. One
        Aho-Corasick pass over the folded text finds every cue and every start string."""
        start_words: dict[int, tuple[str, ...]] = {}
        for i, task in enumerate(self._tasks):
            words = shortest_prefixes(start_strings(task.rx.pattern, task.rx.flags, digits=True) or ())
            if words:
                start_words[i] = tuple(words)
        # the not-condition rules: their cues, and the strings every match of theirs holds
        nc_anchors = [anchors(nc.rx.pattern, nc.rx.flags) for nc in self.rules.not_conditions]
        nc_words = {*(c for nc in self.rules.not_conditions for c in nc.cues),
                    *(w for found in nc_anchors for a in found or () for w in a.strings)}
        automaton = ahocorasick.Automaton()
        for w in sorted({*self._cue_index, *(w for ws in start_words.values() for w in ws), *nc_words}):
            automaton.add_word(w, (w, len(w) - 1))
        automaton.make_automaton()
        self._scanner = Scanner(automaton, start_words, nc_anchors)
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
        for m in _TOKEN_COUNT_RE.finditer(text):   # a count of tokens written out ("at 1,048,576 tokens")
            n = int(m.group(1).replace(",", ""))
            if n >= 1000:
                pow2, other = (pow2 + 1, other) if is_pow2(n) else (pow2, other + 1)
        if pow2 == other == 0:
            return None   # no evidence in the document: each mention decides from its own numbers
        return 1024 if pow2 > other else 1000


_LENGTH_GROUPS = frozenset({"isl", "osl", "n", "list"})
_TOKEN_COUNT_RE = re.compile(r"(?<![\w.,])(\d{1,3}(?:,\d{3}){1,5}|\d{4,18})(?![\d,])\s+tokens\b")


def _resolve(mentions: list[Mention]) -> list[Mention]:
    """Per kind, keep the longest leftmost mention of overlapping ones (a fallback form only where nothing
    else is); stable order."""
    by_kind: dict[str, list[Mention]] = {}
    for x in mentions:
        by_kind.setdefault(x.kind, []).append(x)
    devices = [x.span for x in by_kind.get("hardware", [])]
    for kind, xs in by_kind.items():
        if any(x.fallback for x in xs):   # a generic form yields to any other mention it overlaps, or to a device
            specific = sorted([x.span for x in xs if not x.fallback] + (devices if kind == "model" else []))
            by_kind[kind] = [x for x in xs if not (x.fallback and overlaps_near(specific, *x.span))]
    kept: list[Mention] = []
    for kind, xs in by_kind.items():
        xs.sort(key=lambda x: (-(x.span[1] - x.span[0]), x.span[0], x.rule))
        taken: list[tuple[int, int]] = []   # sorted, pairwise not overlapping
        for x in xs:
            if not overlaps_disjoint(taken, *x.span):
                insort(taken, x.span)
                kept.append(x)
    kept.sort(key=lambda x: (x.span[0], x.span[1], x.kind, x.rule))
    return _without_numbers_of_names(kept)


# A number inside a hardware or model name is the name's own ("Gaudi 3 accelerators": the generation, not
# three accelerators; "Xeon 6 CPUs"): a count or length read from it is no setting.
_NAME_KINDS = ("hardware", "model")
_COUNT_KINDS = frozenset({"gpu_count", "batch_or_concurrency", "input_length", "output_length"})


def _without_numbers_of_names(mentions: list[Mention]) -> list[Mention]:
    """`mentions` without the counts and lengths that start inside (not at the start of) a name mention."""
    names = {kind: [x.span for x in mentions if x.kind == kind] for kind in _NAME_KINDS}
    starts = {kind: [a for a, _ in spans] for kind, spans in names.items()}

    def inside_a_name(pos: int) -> bool:
        for kind, spans in names.items():
            i = bisect_left(starts[kind], pos) - 1   # the last name starting before pos (per kind, disjoint)
            if i >= 0 and spans[i][0] < pos < spans[i][1]:
                return True
        return False

    if not any(names.values()):
        return mentions
    return [x for x in mentions if x.kind not in _COUNT_KINDS or not inside_a_name(x.span[0])]


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


def _covering_drops(found: list[Mention], covers: list[tuple[int, int, frozenset[str], str]]) -> list[set[str]]:
    """For each mention, what the covers around its start drop ("mention", "version"): one sweep over the
    mentions in text order with a heap of the covers open there, so the cost grows with the covers that
    overlap, not with mentions x covers."""
    covers = sorted(covers, key=lambda c: c[0])
    drops: list[set[str]] = [set() for _ in found]
    open_covers: list[tuple[int, int]] = []   # (end, index into covers)
    k = 0
    for i in sorted(range(len(found)), key=lambda i: found[i].span[0]):
        pos, kind = found[i].span[0], found[i].kind
        while k < len(covers) and covers[k][0] <= pos:
            heappush(open_covers, (covers[k][1], k))
            k += 1
        while open_covers and open_covers[0][0] <= pos:
            heappop(open_covers)
        drops[i] = {covers[j][3] for _, j in open_covers if kind in covers[j][2]}
    return drops
