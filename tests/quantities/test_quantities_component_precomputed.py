"""The quantity component places records a caller already found instead of searching again."""
from __future__ import annotations

import spacy

from extractor.quantities.component import FoundQuantities, quantities_of


def _nlp():
    nlp = spacy.blank("en")
    nlp.add_pipe("benchclaims_quantities")
    return nlp


def test_precomputed_records_are_placed_like_found_ones():
    nlp = _nlp()
    text = "Decode ran at 1,250 tokens/s per GPU with a TTFT of 85 ms."
    searched = nlp(text)
    doc = nlp.make_doc(text)
    doc._.found_quantities = FoundQuantities(quantities_of(searched), 0)
    doc = nlp.get_pipe("benchclaims_quantities")(doc)
    assert quantities_of(doc) == quantities_of(searched)
    assert [s.text for s in doc.spans["quantities"]] == [s.text for s in searched.spans["quantities"]]
    assert doc._.found_quantities is None           # consumed: not carried along with the doc


def test_precomputed_records_are_trusted():
    nlp = _nlp()
    text = "Peak memory was 71 GB."
    doc = nlp.make_doc(text)
    doc._.found_quantities = FoundQuantities([], 0)   # the caller found nothing: nothing is placed
    doc = nlp.get_pipe("benchclaims_quantities")(doc)
    assert quantities_of(doc) == []
    assert quantities_of(nlp(text))                   # without them the component searches


def test_precomputed_records_keep_their_offset():
    nlp = _nlp()
    text = "Peak memory was 71 GB."
    finder = nlp.get_pipe("benchclaims_quantities").finder
    doc = nlp.make_doc(text)
    doc._.found_quantities = FoundQuantities(finder.find(text, 100), 100)   # the text sits at 100 in its document
    doc = nlp.get_pipe("benchclaims_quantities")(doc)
    assert [q.span for q in quantities_of(doc)] == [(116, 121)]
    assert [s.text for s in doc.spans["quantities"]] == ["71 GB"]
