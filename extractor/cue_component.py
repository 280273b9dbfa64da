"""spaCy component `benchclaims_cues`: marks the claim cue phrases of `rules/claims.yaml`.

Each match lands in `doc.spans["cues"]` with a label naming its role: `metric:<name>`,
`change:up`, `change:down`, `change:neutral`, `not_claim`, `tokens:<kind>`, `per:<kind>`, `baseline`, `stop`.
"""
from __future__ import annotations

from pathlib import Path

from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from extractor.claim_rules import ClaimRules, load_claim_rules
from extractor.rules_io import default_rules_dir

CUES_KEY = "cues"


def cue_labels(rules: ClaimRules) -> dict[str, list[str]]:
    """Every cue label and its phrases."""
    labels: dict[str, list[str]] = {f"metric:{m}": cues for m, cues in rules.metric_cues.items()}
    labels["change:up"] = rules.change_up
    labels["change:down"] = rules.change_down
    labels["change:neutral"] = rules.change_neutral
    labels["not_claim"] = rules.not_claim
    labels.update({f"tokens:{k}": v for k, v in rules.tokens.items()})
    labels.update({f"per:{k}": v for k, v in rules.per.items()})
    labels["baseline"] = rules.baseline_intro
    labels["stop"] = rules.baseline_stop
    return labels


class CueMarker:
    """Marks cue phrases with a case-insensitive PhraseMatcher built from the claim rules."""

    def __init__(self, nlp: Language, rules: ClaimRules):
        self.matcher = PhraseMatcher(nlp.vocab, attr="LOWER")
        for label, phrases in cue_labels(rules).items():
            self.matcher.add(label, list(nlp.tokenizer.pipe(phrases)))

    def __call__(self, doc: Doc) -> Doc:
        doc.spans[CUES_KEY] = [Span(doc, s, e, label=m) for m, s, e in self.matcher(doc)]
        return doc


@Language.factory("benchclaims_cues", default_config={"rules_dir": None})
def make_cue_marker(nlp: Language, name: str, rules_dir: str | None) -> CueMarker:
    """Factory: the cue marker for a rules folder (default: the installed rules)."""
    return CueMarker(nlp, load_claim_rules(Path(rules_dir) if rules_dir else default_rules_dir()))
