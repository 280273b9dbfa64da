"""spaCy component `benchclaims_quantities`: the quantity finder over `doc.text`.

Results go to ``doc.spans["quantities"]`` (character spans snapped outward to tokens), one span
per record the finder returns, in the same order: ``quantities_of(doc) == finder.find(doc.text)``.
Each span's ``span._.quantity`` holds its `QuantityRecord` (whose own `span` keeps the exact
character offsets) and ``span._.pint`` its value as a pint Quantity in the rules' registry
(``span._.pint_max`` the upper end of a range, else None). Two quantities inside one token
("1/16", "3:1") give two spans over the same token, each with its own record: spaCy keys span
extension values by character offsets, so each span carries a distinct ``span.id`` and the
records are stored under it.

A caller that has already run the same finder over `doc.text` hands its records over through
the Doc extension the component registers, ``doc._.found_quantities = FoundQuantities(records,
offset)`` (records in text order, found with ``find(doc.text, offset)``): the component then
places them instead of searching again, the records keep their offset, and the extension is
reset to None (consumed: the records are not carried along with the doc).
"""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from extractor import spacy_import  # noqa: F401  (spaCy without its command line)
from spacy.language import Language
from spacy.tokens import Doc, Span

from extractor.quantities.finder import QuantityFinder, default_finder
from extractor.quantities.rules import load_quantity_rules
from extractor.quantities.units import registry
from extractor.records import QuantityRecord

SPANS_KEY = "quantities"
EXTENSION = "quantity"
PINT_EXTENSION = "pint"
PINT_MAX_EXTENSION = "pint_max"
FOUND_EXTENSION = "found_quantities"
_RECORD_KEY = "benchclaims_quantity"  # doc.user_data key prefix of a span's record


def _record_key(span: Span) -> tuple:
    return (_RECORD_KEY, span.start_char, span.end_char, span.id)


def _get_record(span: Span) -> QuantityRecord | None:
    return span.doc.user_data.get(_record_key(span))


def _set_record(span: Span, record: QuantityRecord | None) -> None:
    span.doc.user_data[_record_key(span)] = record


def _pint(span: Span, upper: bool = False):
    """The span's quantity (or the upper end of its range) as a pint Quantity, None if there is none."""
    q = _get_record(span)
    value = None if q is None else (q.value_max if upper else q.value)
    if value is None:
        return None
    reg = registry(span.doc.user_data.get((_RECORD_KEY, "rules_dir")))
    return reg.Quantity(value, reg.parse_units(q.unit))


class FoundQuantities(NamedTuple):
    """Records the quantity finder already found in a doc's text: `records` in text order, found
    with `find(doc.text, offset)` (their spans are shifted by `offset`)."""

    records: list[QuantityRecord]
    offset: int


def _register_extensions() -> None:
    if Span.get_extension(EXTENSION) is None or Span.get_extension(EXTENSION)[2] is not _get_record:
        Span.set_extension(EXTENSION, getter=_get_record, setter=_set_record, force=True)
    if not Span.has_extension(PINT_EXTENSION):
        Span.set_extension(PINT_EXTENSION, getter=_pint)
    if not Span.has_extension(PINT_MAX_EXTENSION):
        Span.set_extension(PINT_MAX_EXTENSION, getter=lambda span: _pint(span, upper=True))
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
        doc.user_data[(_RECORD_KEY, "rules_dir")] = self.finder.rules_dir
        next_id = doc.user_data.get((_RECORD_KEY, "next_id"), 1)
        for q in found:
            tokens = doc.char_span(q.span[0] - offset, q.span[1] - offset, alignment_mode="expand")
            if tokens is None:  # only whitespace under the quote: cannot happen for a number
                continue
            span = Span(doc, tokens.start, tokens.end, label="QUANTITY", span_id=next_id)
            next_id += 1
            span._.set(EXTENSION, q)
            spans.append(span)
        doc.user_data[(_RECORD_KEY, "next_id")] = next_id
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
    """Words that can carry a number on their own (spelled numbers, ratio words, "half a second"), sorted."""
    n = load_quantity_rules(Path(rules_dir) if rules_dir else None).numbers
    words = {*n.spelled.ones, *n.spelled.teens, *n.spelled.tens, *n.ratio_words, *n.article_numbers.phrases()}
    return sorted(w.lower() for w in words)
