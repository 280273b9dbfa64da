"""The baseline a prose speed-up or change names: the phrase after "than / over / vs / compared with ..."
following the value; else a comparison that leads the sentence or a clause before it ("Compared with V1, ...",
"..., compared to the first release, X improved by 23%"); else a form that names what was changed from
("switching from X to Y brings 1.5x", "by replacing X with Y, we got 2x", "outperforms X by 3x")."""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

from extractor.claims.cues import Cue, labelled, near, once
from extractor.claims.rules import ClaimRules
from extractor.records import Claim

# a factor and what it is of ("30x throughput improvement", "2x speedups", "12%"): another figure; a count of
# devices ("8x H100") is what was compared with
_FACTOR_OF_A_QUANTITY = re.compile(r"[~≈<>]?\s*[\d.,]+\s*(?:[x×X%]|times)(?:\s+[a-z]|\W*$)")
# a phrase that is a figure: the value of the baseline, not what was compared with
_NUMBER_PHRASE = re.compile(r"[~≈<>]?\s*[\d.,]+(?:\s|$)")
# the value of the baseline before what it was measured with ("compared to 8.4 tokens/s in a stock runtime")
_VALUE_THEN_NAME = re.compile(r"\s*[~≈<>]?\s*\$?[\d.,]+\s*[^\s,;()]*\s+(?:in|with|from|of|on|by|using|for)\s+(?=\S)")
_CLAUSE_END = re.compile(r"[:;]")
# a parenthesis after the value, closed or still open at the comparison word ("4x slower (see runs: 0.9 s vs ...")
_PARENTHESES = re.compile(r"\([^()]*\)?")
# (and a pictograph: a check mark, a star or an emoji of a feature list, "than PlainHTTP ✔ Streaming")
_PHRASE_END = re.compile(r"[,;:()!?\n|\u2190-\u2bff\U0001f000-\U0001faff]|\.(?!\w)| — | – ")
# a pronoun names nothing a reader can look up ("replaces them with one fused kernel")
_PRONOUN = re.compile(r"(?i)(?:it|them|this|that|these|those|they|one|ones)")
# a verb after a method sentence's feature ends it ("with and without X is small")
_VERB_AFTER = re.compile(r"(?i)\s+(?:is|are|was|were|has|have|had|shows?|showed|gives?|gave)\b")
# a Markdown footnote marker ("[^2]", "[^note]"): a pointer to a note, no part of the name
_FOOTNOTE_MARKER = re.compile(r"\[\^[\w-]{1,40}\]")
_COMPARISONS = ("speedup", "relative_change")
HEAD_REACH = 240   # characters before the value read for a switch, a replacement or a win
REACH = 80      # characters after the value within which a baseline cue is read
LEAD_REACH = 40     # characters before a sweep read for the conjunction or gerund that leads it
SUBJECT_REACH = 120  # characters after a sweep read for the metric that is its clause's subject


class SentenceSweeps(NamedTuple):
    """The load sweeps of one sentence, read once (`BaselineReader.sweeps`): each match, its end offset (sorted,
    for a bisect by figure) and whether the sentence refuses it as a baseline (it compares systems, or names a
    cause in the sweep's clause)."""
    ends: list[int]
    matches: list[re.Match]
    refused: list[bool]


class BaselineReader:
    """Reads the baseline of one prose figure (rules: `baseline_intro`, `baseline_stop`,
    `baseline_clause_lead`, `prose_baseline_before` of claims.yaml)."""

    def __init__(self, rules: ClaimRules):
        self.clause_lead = {p.lower() for p in rules.baseline_clause_lead}
        # the stop words as text: a phrase read across a line break ends at one too ("than\nthe X build on an H200")
        words = sorted((re.escape(w) for w in rules.baseline_stop if w[:1].isalpha()), key=len, reverse=True)
        self.stop_word = re.compile(rf"(?i)\s(?:{'|'.join(words)})\b") if words else re.compile(r"(?!)")
        self.before = [re.compile(p) for p in rules.prose_baseline_before]
        self.setup = [re.compile(p) for p in rules.previous_comparison_setup]
        self.previous_comparison = [re.compile(p) for p in rules.previous_comparison]
        self.continuation = re.compile(rules.baseline_continuation_start)
        self.coordinated = re.compile(rules.baseline_coordinated_name)
        self.method = [re.compile(p) for p in rules.method_with_without]
        self.generic = {w.lower() for w in rules.method_feature_generic_words}
        self.sweep = re.compile(rules.sweep_baseline)
        self.sweep_not_across = re.compile(rules.sweep_not_across)
        self.sweep_subject = re.compile(rules.sweep_metric_subject)
        self.coordinated_gap = re.compile(rules.coordinated_comparison_gap)
        self.sweep_cause = re.compile(rules.sweep_named_cause)
        self.sweep_verb = re.compile(rules.sweep_subject_verb)
        self.sweep_lead = re.compile(rules.sweep_lead)
        self.sweep_counted = re.compile(rules.sweep_counted_noun)
        self.sweep_uncounted = {w.lower() for w in rules.sweep_uncounted_nouns}
        self.sweep_singular = {k.lower(): v for k, v in rules.sweep_singular.items()}

    def from_previous(self, previous: str, sentence: str) -> str | None:
        """The baseline the sentence before a figure's sentence (in its paragraph) names, for a figure whose own
        sentence names none: a comparison it sets up ("We compared X with Y." then "we achieved 1.2-7.1x"), or
        any comparison it makes when the figure's sentence continues it ("... compared to PyTorch.
        Furthermore, ... 1.81x", "410 images/s vs 55 images/s for the unpruned network. This is a 7.5x gain")."""
        patterns = self.setup + (self.previous_comparison if self.continuation.match(sentence) else [])
        for pattern in patterns:
            for m in pattern.finditer(previous):
                base = m.group("base").strip(" *_`")
                if _NUMBER_PHRASE.match(base) and (v := _VALUE_THEN_NAME.match(" " + base)):
                    base = base[v.end() - 1:]     # "55 images/s for the unpruned network" -> "the unpruned network"
                if not _NUMBER_PHRASE.match(base) and (phrase := _clean(base)):
                    return phrase
        return None

    def from_method(self, scope: str, sentence: str) -> str | None:
        """The run without a feature that a method sentence in `scope` (the figure's section up to its sentence)
        runs with and without ("we time each request with and without prompt-lookup decoding"), for a figure whose
        own `sentence` names no baseline but names every content word of the feature (all but
        `method_feature_generic_words`): "without prompt-lookup decoding". None when no such sentence, when the
        figure's sentence does not name the whole feature ("The new router" is not "the new scheduler",
        "speculative sampling" not "speculative decoding"), or names the run without it ("Without graph capture,
        each restart suffers a 5x slowdown" is that run's figure, against the one with it)."""
        for pattern in self.method:
            for m in reversed(list(pattern.finditer(scope))):
                feature = _clean(_VERB_AFTER.split(m.group("base"))[0].strip(" *_`"))
                words = [w for w in re.findall(r"[\w-]+", feature or "") if w.lower() not in self.generic]
                if feature is None or not words:
                    continue
                if not all(re.search(rf"(?i)(?<![\w-]){re.escape(w)}(?![\w-])", sentence) for w in words) \
                        or re.search(rf"(?i)\b(?:without|no|disabled?)\W+(?:the\W+|any\W+)?{re.escape(words[0])}"
                                     r"(?![\w-])", sentence):
                    return None
                off = m.groupdict().get("off")
                return f"{feature} {off.lower()}" if off else f"without {feature}"
        return None

    def sweeps(self, sentence: str) -> SentenceSweeps:
        """The sweeps of `sentence` (`sweep_baseline`), each with its verdict: refused when a comparison word
        stands anywhere in the sentence outside it (`sweep_not_across`: the figure compares systems), or a cause
        is named after it, up to the next sweep (`sweep_named_cause`: the figure compares with and without it).
        Read once per sentence: linear in the sentence, whatever the number of figures."""
        matches = list(self.sweep.finditer(sentence))
        across = [(n.start(), n.end()) for n in self.sweep_not_across.finditer(sentence)]
        refused = []
        for i, m in enumerate(matches):
            upto = matches[i + 1].start() if i + 1 < len(matches) else len(sentence)
            refused.append(any(e <= m.start() or s >= m.end() for s, e in across)
                           or self.sweep_cause.search(sentence, m.end(), upto) is not None)
        return SentenceSweeps([m.end() for m in matches], matches, refused)

    def from_sweep(self, sweeps: SentenceSweeps, sentence: str, at: int) -> str | None:
        """The low end of a load sweep that `sentence` (its sweeps read by `sweeps`) states before its figure at
        offset `at` ("Across batch sizes of 2 to 32, decode throughput is 9x better" -> "batch size 2"; "going
        from 4 to 16 nodes, the cluster's throughput rises by over 3 times" -> "4 nodes"), when the sweep or the
        metric is the subject of the figure's clause and the sentence compares no systems and names no cause
        (see `sweep_baseline` in claims.yaml)."""
        i = bisect_right(sweeps.ends, at) - 1
        if i < 0 or sweeps.refused[i]:
            return None
        m = sweeps.matches[i]
        groups = m.groupdict()
        low, high = next((groups[k], groups[k.replace("low", "high")]) for k in ("low", "low2", "low3") if groups[k])
        if not int(low) < int(high):
            return None
        after = sentence[m.end():min(at, m.end() + SUBJECT_REACH)]
        metric_is_subject = self.sweep_subject.match(after) is not None
        gerund_opens = self.sweep_verb.match(m.group()) is not None
        setting_grows = bool(groups["setting2"]) and self.sweep_verb.search(m.group(), 1) is not None
        lead_opens = bool(groups["setting2"]) \
            and self.sweep_lead.search(sentence, max(0, m.start() - LEAD_REACH), m.start()) is not None
        # after a comma the sweep is an adverbial phrase: the clause that follows has its own subject, which must
        # be the metric ("Scaling from 1 to 8 GPUs, the new all-reduce lifts ..." compares all-reduces)
        opens_clause = after.lstrip().startswith(",")
        if not metric_is_subject and (opens_clause or not (gerund_opens or setting_grows or lead_opens)):
            return None
        setting = re.sub(r"\s+", " ", groups["setting"] or groups["setting2"] or "")
        unit = groups["unit"] or (c.group(1) if (c := self.sweep_counted.search(setting)) else None)
        if unit:      # "1 GPU", "2 GPUs"
            return f"{low} {unit[:-1] if low == '1' and unit.endswith('s') else unit}"
        words = setting.lower().split()
        if words[-1] not in self.sweep_uncounted:
            words[-1] = self.sweep_singular.get(words[-1], words[-1].removesuffix("s"))   # "batch sizes" -> "batch size"
        return f"{' '.join(words)} {low}"

    def shared_by_coordination(self, claims: list[Claim], text: str, base: int) -> list[Claim]:
        """`claims` (of one sentence `text` at offset `base`, in text order) with each comparison that names no
        baseline given the one of the next comparison figure when "and" joins them and no comparison stands between
        ("3x faster decoding for the small model and 1.8x faster ... compared to the stock engine"): the phrase after
        the second figure compares both."""
        out = list(claims)
        for i, c in enumerate(out):
            if c.metric not in _COMPARISONS or c.baseline is not None:
                continue
            later = next((d for d in out[i + 1:] if d.metric in _COMPARISONS), None)
            if later is not None and later.baseline is not None and later.span[0] >= c.span[1] \
                    and self.coordinated_gap.match(text[c.span[1] - base:later.span[0] - base]) \
                    and later.baseline in text[later.span[1] - base:]:
                out[i] = c.model_copy(update={"baseline": later.baseline})
        return out

    def read(self, text: str, base: int, cues: list[Cue], start: int, end: int, unit_start: int) -> str | None:
        """The baseline of the figure at [start, end) of `text` (which starts at offset `base`; its sentence
        at `unit_start`), or None when the sentence names none."""
        # a comparison after the value in its clause: not past a colon or semicolon outside parentheses ("Faster
        # (+15%): integrated the kernel from project X" compares nothing with X)
        after = [c for c in near(cues, end, end + REACH) if c.label == "baseline" and c.start >= end
                 and c.start - end <= REACH
                 and not _CLAUSE_END.search(_PARENTHESES.sub("", text[end - base:c.start - base]))]
        # a comparison that leads the sentence, or one of the clause-leading phrases before the value
        # ("..., compared to the first release, ...", "better performance compared to X, with up to 37%"): the
        # last of them
        leading = once(cues, ("baseline_lead", text, base, unit_start), lambda: [
            c for c in labelled(cues, "baseline") if c.label == "baseline"
            and (c.start - unit_start <= 2 or text[c.start - base:c.end - base].lower() in self.clause_lead)])
        lead = next((c for c in reversed(leading) if c.end <= start
                     and (c.start - unit_start <= 2 or _ends_at_comma(text[c.end - base:start - base]))), None)
        for c in after[:1] + ([lead] if lead is not None else []):
            if (phrase := self._phrase(text, base, c.end, cues)) is not None:
                return phrase
        head = text[max(unit_start - base, start - base - HEAD_REACH, 0):start - base]
        for pattern in self.before:
            if (m := pattern.search(head)) and not _NUMBER_PHRASE.match(m.group("base").strip(" *_`")) \
                    and (phrase := _clean(m.group("base"))):
                return phrase
        return None

    def _phrase(self, text: str, base: int, at: int, cues: list[Cue]) -> str | None:
        """The phrase from offset `at` to the next stop word or punctuation; past a leading value to what it
        was measured with ("4.2 tok/s on the stock runtime" -> "the stock runtime"); None for a bare figure."""
        raw = text[at - base:at - base + REACH]
        if _NUMBER_PHRASE.match(raw.lstrip()) and (m := _VALUE_THEN_NAME.match(raw)):
            at += m.end()
        raw = text[at - base:at - base + REACH]
        first = at + len(raw) - len(raw.lstrip())     # a stop word that opens the phrase ("than on the H100") stays
        # the first stop word within reach; a stop word glued to the word before it is part of a name ("the
        # copy-through loader", "pull-based")
        limit = min((c.start for c in near(cues, first + 1, at + REACH) if c.label == "stop"
                     and first + 1 <= c.start <= at + REACH and text[c.start - base - 1:c.start - base] != "-"),
                    default=None)
        stop = min(x for x in (limit, at + REACH, len(text) + base) if x is not None)
        head = text[at - base:stop - base].lstrip()
        phrase = self.stop_word.split(_PHRASE_END.split(head)[0])[0].strip(" *_")
        if _NUMBER_PHRASE.match(phrase) or _FACTOR_OF_A_QUANTITY.match(phrase):
            return None      # a bare number is the baseline value; a factor another figure ("by 5.7x, ... by over
                             # 40x", "above 12x ... where X reaches above 25x the throughput")
        if phrase and (m := self.coordinated.match(text, first - base + head.find(phrase) + len(phrase),
                                                   min(len(text), first - base + REACH + 40))) \
                and not _FACTOR_OF_A_QUANTITY.match(m.group("name")):
            phrase = text[first - base + head.find(phrase):m.end("name") ].strip(" *_")   # "X and Y": both
        return _clean(phrase)


def _ends_at_comma(between: str) -> bool:
    """Whether the comparison's phrase ends at a comma before the figure ("compared to X, with up to 37%"),
    not running on into the clause that holds it ("compared to X can result in 2x")."""
    end = _PHRASE_END.search(between.lstrip())
    return end is not None and end.group() == ","


def _clean(phrase: str) -> str | None:
    """The phrase with its white space collapsed and its footnote markers dropped ("the reference build[^2]"), when
    it names something in at most ten words."""
    phrase = _FOOTNOTE_MARKER.sub("", phrase).strip(" *_`")
    if phrase and len(phrase.split()) <= 10 and re.search(r"[A-Za-z0-9]", phrase) \
            and not _PRONOUN.fullmatch(phrase):
        return re.sub(r"\s+", " ", phrase)
    return None
