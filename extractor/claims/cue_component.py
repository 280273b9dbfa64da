"""spaCy component `benchclaims_cues`: marks the claim cue phrases of `rules/claims.yaml`.

Each match lands in `doc.spans["cues"]` with a label naming its role: `metric:<name>`,
`change:up`, `change:down`, `change:neutral`, `change:neutral_before`, `change_adj:up|down` (only when right before a number),
`not_claim`, `measure`, `rate_claim`, `limit`, `setting`, `break`, `join`, `tokens:<kind>`, `per:<kind>`,
`baseline`, `baseline_value:before|after|score`, `count`, `stop`, `valence:better|worse|neutral|neutral_before`,
`polarity:lower|higher`, `share_of`, `length:accept`, `sla_share`, `level_reached`, `adoption`, `ratio_name`, `rate_unit`, `stat:<statistic>`, `level_intro`, `level_measured`, `by`, `spec:before|after`.
A phrase written in capitals of at most three letters ("AL") matches only where the text has it in capitals.

A phrase written across a soft line break ("input and\\noutput") still matches, and of two
overlapping matches with the same role family the longer one is kept ("input and output" is
total tokens, not input).
"""
from __future__ import annotations

import re

from pathlib import Path

from extractor import spacy_import  # noqa: F401  (spaCy without its command line)
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from extractor.claims.rules import ClaimRules, load_claim_rules
from extractor.rules_io import default_rules_dir

CUES_KEY = "cues"


# Each cue label and the claim-rules field holding its phrases, in the order the matcher learns them; a label
# with "{}" stands for one label per key of a mapping field ("tokens:{}": "tokens:total", "tokens:output"...).
# "change:neutral_before" ("within 2% of") is never matched after a number.
LABEL_FIELDS: tuple[tuple[str, str], ...] = (
    ("metric:{}", "metric_cues"), ("change:up", "change_up"), ("change:down", "change_down"),
    ("change:neutral", "change_neutral"), ("change:neutral_before", "direction_neutral_before"),
    ("change_adj:up", "change_up_adjacent"), ("change_adj:down", "change_down_adjacent"), ("not_claim", "not_claim"),
    ("not_claim:media", "media_words"),
    ("measure", "measure_cues"), ("rate_claim", "rate_claim_cues"), ("limit", "limit_cues"),
    ("setting", "setting_intro"), ("break", "clause_breaks"), ("join", "clause_joins"),
    ("baseline_value:before", "baseline_value_before"), ("baseline_value:after", "baseline_value_after"),
    ("baseline_value:score", "baseline_score_before"), ("count", "count_headers"), ("tokens:{}", "tokens"),
    ("per:{}", "per"), ("valence:better", "direction_better"), ("valence:worse", "direction_worse"),
    ("valence:neutral", "direction_neutral"), ("valence:neutral_before", "direction_neutral_before"),
    ("polarity:lower", "lower_is_better"), ("polarity:higher", "higher_is_better"), ("share_of", "share_of"),
    ("overhead", "overhead_words"), ("training", "training_words"),
    ("length:accept", "accept_length_cues"), ("level_intro", "level_intro"), ("level_measured", "level_measured_intro"),
    ("by", "change_amount_intro"),
    ("spec:before", "device_spec_before"), ("spec:after", "device_spec_after"),
    ("state_after", "device_spec_not_after"), ("sla_share", "sla_share_after"),
    ("level_reached", "level_reached_intro"), ("pair_from", "level_pair_from"), ("adoption", "adoption_words"),
    ("model_size", "model_size_words"),
    ("ratio_name", "named_ratio_cues"), ("rate_unit", "rate_unit_before"), ("stat:{}", "statistic_cues"),
    ("baseline", "baseline_intro"), ("stop", "baseline_stop"))


def cue_labels(rules: ClaimRules) -> dict[str, list[str]]:
    """Every cue label and its phrases."""
    labels: dict[str, list[str]] = {}
    for label, field in LABEL_FIELDS:
        phrases = getattr(rules, field)
        if "{}" in label:
            labels.update({label.format(key): cues for key, cues in phrases.items()})
        else:
            labels[label] = phrases
    return {k: v for k, v in labels.items() if v}


def family(label: str) -> str:
    """The role family of a label: `tokens:total` -> `tokens`; `stop` -> `stop`."""
    return label.split(":", 1)[0]


SOFT_WRAP_MIN = 50
_SOFT_WRAP_BEFORE = re.compile(r"[^\W_]\Z")
_SOFT_WRAP_AFTER = re.compile(r"[ \t]*[a-z]")


def _soft_wrap(text: str, start: int, end: int) -> bool:
    """The blank at [start, end) is one line break inside a hard-wrapped sentence: a line filled to a wrap width
    (SOFT_WRAP_MIN characters or more) ends in a word or number and the next line goes on with a lower-case word
    (not a new item, row, heading or sentence; a short line such as "p99 latency .... 2.7 s" is a line of its own)."""
    gap = text[start:end]
    return (gap.count("\n") == 1 and start - (text.rfind("\n", 0, start) + 1) >= SOFT_WRAP_MIN
            and _SOFT_WRAP_BEFORE.search(text, max(0, start - 1), start) is not None
            and _SOFT_WRAP_AFTER.match(text, end) is not None)


def keep_longest(found: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Drop a match lying inside a longer match of the same role family (one sort and sweep per family,
    not a scan of the family per match)."""
    spans: dict[str, set[tuple[int, int]]] = {}
    for label, s, e in found:
        spans.setdefault(family(label), set()).add((s, e))
    inside: set[tuple[str, int, int]] = set()
    for fam, group in spans.items():
        reach = -1   # the furthest end of the spans before this one (starting earlier, or as early and longer)
        for s, e in sorted(group, key=lambda se: (se[0], -se[1])):
            if reach >= e:
                inside.add((fam, s, e))
            reach = max(reach, e)
    return [(label, s, e) for label, s, e in found if (family(label), s, e) not in inside]


class CueMarker:
    """Marks cue phrases with a case-insensitive PhraseMatcher built from the claim rules."""

    def __init__(self, nlp: Language, rules: ClaimRules):
        self.nlp = nlp
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.capitals: set[tuple[str, str]] = set()   # (label, phrase) of short acronyms: match in capitals only
        # "M3 Max", "iPhone 15 Pro Max": a statistic word that ends a product's name states no statistic
        self.not_a_statistic = re.compile(rf"(?:{rules.statistic_not_before})[ \t]*$")
        for label, phrases in cue_labels(rules).items():
            self.matcher.add(label, list(nlp.tokenizer.pipe(phrases)))
            self.capitals.update((label, p) for p in phrases if p.isalpha() and p.isupper() and len(p) <= 3)

    def __call__(self, doc: Doc) -> Doc:
        doc.spans[CUES_KEY] = [doc.char_span(s, e, label=label) for label, s, e in self.hits(doc)]
        return doc

    def hits(self, doc: Doc, text: str | None = None) -> list[tuple[str, int, int]]:
        """The cues `__call__` places, as (label, start_char, end_char) in their order: a reader that needs
        only these skips building the span group and reading its spans back. `text`: the text the doc was
        made from (`doc.text`, which spaCy's tokenizer keeps whole; given, the doc's tokens are not joined
        again to rebuild it)."""
        text = doc.text if text is None else text
        matched: dict[tuple[str, int, int], None] = {}   # (label, start, end) of the matcher's spans, in order
        for span in self.matcher(doc, as_spans=True):
            start, end = span.start_char, span.end_char
            surface = text[start:end]     # the span's text, without building its tokens
            if (span.label_, surface.upper()) in self.capitals and surface != surface.upper():
                continue     # "al" in "et al." is not the acronym AL
            if span.label_.startswith("stat:") and self.not_a_statistic.search(text, max(0, start - 24), start):
                continue
            matched[(span.label_, start, end)] = None
        found = list(matched)
        if "\n" in text:
            # a line break ends a clause as punctuation does ("dropped by 40%\nThese gains ..."), but a soft wrap
            # inside a sentence does not ("and increases GPU\nutilization by 24%")
            found += [("break", t.idx, t.idx + len(t)) for t in doc
                      if "\n" in t.text and not _soft_wrap(text, t.idx, t.idx + len(t))]
            # a soft line break inside a phrase: match again on the text with breaks as spaces
            flat = self.nlp.make_doc(text.replace("\r", " ").replace("\n", " "))
            seen = set(found)
            for span in self.matcher(flat, as_spans=True):
                hit = (span.label_, span.start_char, span.end_char)
                if hit not in seen and "\n" in text[hit[1]:hit[2]]:
                    found.append(hit)
        out = []
        # one match or none: nothing lies inside another, and the order is that one
        for hit in (sorted(keep_longest(found), key=lambda f: (f[1], f[2], f[0])) if len(found) > 1 else found):
            if hit in matched:      # a matcher's span: on token bounds already
                out.append(hit)
            elif (span := doc.char_span(hit[1], hit[2], label=hit[0], alignment_mode="expand")) is not None:
                out.append((hit[0], span.start_char, span.end_char))
        return out


@Language.factory("benchclaims_cues", default_config={"rules_dir": None})
def make_cue_marker(nlp: Language, name: str, rules_dir: str | None) -> CueMarker:
    """Factory: the cue marker for a rules folder (default: the installed rules)."""
    return CueMarker(nlp, load_claim_rules(Path(rules_dir) if rules_dir else default_rules_dir()))
