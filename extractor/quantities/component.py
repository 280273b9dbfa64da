"""spaCy component `benchclaims_quantities`: the quantity finder over `doc.text`.

Results go to ``doc.spans["quantities"]`` (character spans snapped outward to tokens);
each span's ``span._.quantity`` holds its `QuantityRecord`, whose own `span` keeps the
exact character offsets. `quantities_of(doc)` returns the records in text order.

A caller that has already run the same finder over `doc.text` hands its records over through
the Doc extension the component registers, ``doc._.found_quantities = FoundQuantities(records,
offset)`` (records in text order, found with ``find(doc.text, offset)``): the component then
places them instead of searching again, the records keep their offset, and the extension is
reset to None (consumed: the records are not carried along with the doc).
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from spacy.language import Language
from spacy.tokens import Doc, Span

from extractor.quantities.finder import QuantityFinder, default_finder
from extractor.quantities.rules import load_quantity_rules
from extractor.records import QuantityRecord

SPANS_KEY = "quantities"
EXTENSION = "quantity"
FOUND_EXTENSION = "found_quantities"


class FoundQuantities(NamedTuple):
    """Records the quantity finder already found in a doc's text: `records` in text order, found
    with `find(doc.text, offset)` (their spans are shifted by `offset`)."""

    records: list[QuantityRecord]
    offset: int


def _register_extensions() -> None:
    if not Span.has_extension(EXTENSION):
        Span.set_extension(EXTENSION, default=None)
    if not Doc.has_extension(FOUND_EXTENSION):
        Doc.set_extension(FOUND_EXTENSION, default=None)


class QuantityComponent:
    """Runs a `QuantityFinder` and stores spans plus records on the doc."""

    def __init__(self, finder: QuantityFinder, spans_key: str = SPANS_KEY):
        self.finder = finder
        self.spans_key = spans_key

    def __call__(self, doc: Doc) -> Doc:
        given: FoundQuantities | None = doc._.get(FOUND_EXTENSION)
        if given is None:
            found, offset = self.finder.find(doc.text), 0
        else:
            found, offset = given
            doc._.set(FOUND_EXTENSION, None)
        spans = []
        for q in found:
            span = doc.char_span(q.span[0] - offset, q.span[1] - offset, label="QUANTITY", alignment_mode="expand")
            if span is None:  # only whitespace under the quote: cannot happen for a number
                continue
            span._.set(EXTENSION, q)
            spans.append(span)
        doc.spans[self.spans_key] = spans
        return doc


@Language.factory(
    "benchclaims_quantities",
    default_config={"rules_dir": None, "spans_key": SPANS_KEY},
)
def make_quantity_finder(nlp: Language, name: str, rules_dir: str | None, spans_key: str) -> QuantityComponent:
    """Factory: a quantity component using the rules in `rules_dir` (default rules when None)."""
    _register_extensions()
    return QuantityComponent(default_finder(Path(rules_dir) if rules_dir else None), spans_key)


def quantities_of(doc: Doc, spans_key: str = SPANS_KEY) -> list[QuantityRecord]:
    """The records the component stored on `doc`, in text order."""
    if spans_key not in doc.spans:
        return []
    return [q for q in (s._.get(EXTENSION) for s in doc.spans[spans_key]) if q is not None]


def number_words(rules_dir: str | Path | None = None) -> list[str]:
    """Words that can carry a number on their own (spelled numbers, ratio words), sorted."""
    n = load_quantity_rules(Path(rules_dir) if rules_dir else None).numbers
    words = {*n.spelled.ones, *n.spelled.teens, *n.spelled.tens, *n.ratio_words}
    return sorted(w.lower() for w in words)
