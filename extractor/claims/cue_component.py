"""spaCy component `benchclaims_cues`: marks the claim cue phrases of `rules/claims.yaml`.

Each match lands in `doc.spans["cues"]` with a label naming its role: `metric:<name>`,
`change:up`, `change:down`, `change:neutral`, `change:neutral_before`, `change_adj:up|down` (only when right before a number),
`not_claim`, `measure`, `rate_claim`, `limit`, `setting`, `break`, `join`, `tokens:<kind>`, `per:<kind>`,
`baseline`, `baseline_value:before|after|score`, `count`, `stop`, `valence:better|worse|neutral|neutral_before`,
`polarity:lower|higher`, `share_of`, `length:accept`, `sla_share`, `level_reached`, `adoption`, `ratio_name`, `rate_unit`, `stat:<statistic>`, `level_intro`, `by`, `spec:before|after`.
A phrase written in capitals of at most three letters ("AL") matches only where the text has it in capitals.

A phrase written across a soft line break ("input and\\noutput") still matches, and of two
overlapping matches with the same role family the longer one is kept ("input and output" is
total tokens, not input).
"""
from __future__ import annotations

from pathlib import Path

from extractor import spacy_import  # noqa: F401  (spaCy without its command line)
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from extractor.claims.rules import ClaimRules, load_claim_rules
from extractor.rules_io import default_rules_dir

CUES_KEY = "cues"


def cue_labels(rules: ClaimRules) -> dict[str, list[str]]:
    """Every cue label and its phrases."""
    labels: dict[str, list[str]] = {f"metric:{m}": cues for m, cues in rules.metric_cues.items()}
    labels["change:up"] = rules.change_up
    labels["change:down"] = rules.change_down
    labels["change:neutral"] = rules.change_neutral
    labels["change:neutral_before"] = rules.direction_neutral_before   # "within 2% of"; never after a number
    labels["change_adj:up"] = rules.change_up_adjacent
    labels["change_adj:down"] = rules.change_down_adjacent
    labels["not_claim"] = rules.not_claim
    labels["measure"] = rules.measure_cues
    labels["rate_claim"] = rules.rate_claim_cues
    labels["limit"] = rules.limit_cues
    labels["setting"] = rules.setting_intro
    labels["break"] = rules.clause_breaks
    labels["join"] = rules.clause_joins
    labels["baseline_value:before"] = rules.baseline_value_before
    labels["baseline_value:after"] = rules.baseline_value_after
    labels["baseline_value:score"] = rules.baseline_score_before
    labels["count"] = rules.count_headers
    labels.update({f"tokens:{k}": v for k, v in rules.tokens.items()})
    labels.update({f"per:{k}": v for k, v in rules.per.items()})
    labels["valence:better"] = rules.direction_better
    labels["valence:worse"] = rules.direction_worse
    labels["valence:neutral"] = rules.direction_neutral
    labels["valence:neutral_before"] = rules.direction_neutral_before
    labels["polarity:lower"] = rules.lower_is_better
    labels["polarity:higher"] = rules.higher_is_better
    labels["share_of"] = rules.share_of
    labels["length:accept"] = rules.accept_length_cues
    labels["level_intro"] = rules.level_intro
    labels["by"] = rules.change_amount_intro
    labels["spec:before"] = rules.device_spec_before
    labels["spec:after"] = rules.device_spec_after
    labels["sla_share"] = rules.sla_share_after
    labels["level_reached"] = rules.level_reached_intro
    labels["adoption"] = rules.adoption_words
    labels["model_size"] = rules.model_size_words
    labels["ratio_name"] = rules.named_ratio_cues
    labels["rate_unit"] = rules.rate_unit_before
    labels.update({f"stat:{k}": v for k, v in rules.statistic_cues.items()})
    labels["baseline"] = rules.baseline_intro
    labels["stop"] = rules.baseline_stop
    return {k: v for k, v in labels.items() if v}


def family(label: str) -> str:
    """The role family of a label: `tokens:total` -> `tokens`; `stop` -> `stop`."""
    return label.split(":", 1)[0]


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
        for label, phrases in cue_labels(rules).items():
            self.matcher.add(label, list(nlp.tokenizer.pipe(phrases)))
            self.capitals.update((label, p) for p in phrases if p.isalpha() and p.isupper() and len(p) <= 3)

    def __call__(self, doc: Doc) -> Doc:
        matched: dict[tuple[str, int, int], Span] = {}   # (label, start, end) -> the matcher's span
        for span in self.matcher(doc, as_spans=True):
            if (span.label_, span.text.upper()) in self.capitals and span.text != span.text.upper():
                continue     # "al" in "et al." is not the acronym AL
            matched[(span.label_, span.start_char, span.end_char)] = span
        found = list(matched)
        text = doc.text
        if "\n" in text:
            # a line break ends a clause as punctuation does ("dropped by 40%\nThese gains ...")
            found += [("break", t.idx, t.idx + len(t)) for t in doc if "\n" in t.text]
            # a soft line break inside a phrase: match again on the text with breaks as spaces
            flat = self.nlp.make_doc(text.replace("\r", " ").replace("\n", " "))
            seen = set(found)
            for span in self.matcher(flat, as_spans=True):
                hit = (span.label_, span.start_char, span.end_char)
                if hit not in seen and "\n" in text[hit[1]:hit[2]]:
                    found.append(hit)
        spans = []
        for hit in sorted(keep_longest(found), key=lambda f: (f[1], f[2], f[0])):
            span = matched.get(hit) or doc.char_span(hit[1], hit[2], label=hit[0], alignment_mode="expand")
            if span is not None:
                spans.append(span)
        doc.spans[CUES_KEY] = spans
        return doc


@Language.factory("benchclaims_cues", default_config={"rules_dir": None})
def make_cue_marker(nlp: Language, name: str, rules_dir: str | None) -> CueMarker:
    """Factory: the cue marker for a rules folder (default: the installed rules)."""
    return CueMarker(nlp, load_claim_rules(Path(rules_dir) if rules_dir else default_rules_dir()))
