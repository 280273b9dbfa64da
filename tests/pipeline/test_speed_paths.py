"""The extractor's shortcuts give what the full spaCy pipeline and the separate stages would give (issue 25)."""
from __future__ import annotations

import subprocess
import sys

import pytest

from extractor.api import get_extractor
from extractor.claims.cue_component import CUES_KEY
from extractor.ingest import ingest
from extractor.quantities.component import quantities_of

PIECES = [
    "Decode ran at 1,250 tokens/s per GPU with a TTFT of 85 ms.",
    "Throughput (tok/s)",
    "2.3x",
    "45%",
    "1,024",
    "p99 latency 120 ms at 64 concurrent requests",
    "The new kernel is twice as fast as the old one\nand uses half the memory.",
    "12 GB",
    "Speedup vs. baseline",
    "",
]


@pytest.fixture(scope="module")
def extractor():
    return get_extractor(None)


@pytest.fixture(scope="module")
def analyser(extractor):
    return extractor.claims.analyser


def _full(analyser, text: str):
    """What running every component of the spaCy pipeline over `text` gives."""
    doc = analyser.nlp(text)
    return tuple(quantities_of(doc)), [(s.label_, s.start_char, s.end_char) for s in doc.spans[CUES_KEY]]


@pytest.mark.parametrize("text", PIECES)
def test_a_piece_reads_as_the_whole_pipeline_reads_it(analyser, text):
    """`analyse` runs the cue marker alone and takes the quantity finder's records as they are."""
    (qs, cues), = analyser.analyse([text], [0])
    full_qs, full_cues = _full(analyser, text)
    assert qs == list(full_qs)
    assert [(c.label, c.start, c.end) for c in cues] == full_cues


def test_offsets_and_handed_records_read_as_the_whole_pipeline(analyser):
    text = PIECES[0]
    base = 500
    found = analyser.quantity_finder.find(text, base)
    (qs, cues), = analyser.analyse([text], [base], [found])
    full_qs, full_cues = _full(analyser, text)
    assert [q.span for q in qs] == [(q.span[0] + base, q.span[1] + base) for q in full_qs]
    assert [(q.value, q.unit, q.quote) for q in qs] == [(q.value, q.unit, q.quote) for q in full_qs]
    assert [(c.label, c.start - base, c.end - base) for c in cues] == full_cues
    assert full_cues and full_qs                      # the sample holds both


def test_claim_and_condition_stages_share_the_program_output_lines(extractor):
    """The lines a program printed are found once per document, for both stages."""
    blocks = extractor.claims.script_output.blocks
    assert blocks is extractor.conditions.output.blocks
    d = ingest("# Run\n\n```\n$ python bench.py\nThroughput: 1200 tokens/s\n```\n", "post.md", "markdown")
    lines = blocks.lines(d)
    assert [d.text[x.start:x.end] for x in lines] == ["Throughput: 1200 tokens/s"]
    assert extractor.conditions.output.blocks.lines(d) is lines


def test_spacy_is_imported_without_its_command_line():
    """Building the extractor imports spaCy without `spacy.cli` (weasel, httpx...); `spacy.info` and a later
    `import spacy.cli` still give spaCy's own (a fresh process: this one may have imported spaCy already)."""
    code = """
import sys
from extractor.api import get_extractor
get_extractor(None)
assert "spacy.cli" not in sys.modules and "weasel" not in sys.modules and "httpx" not in sys.modules
import spacy
assert spacy.info(silent=True)["spacy_version"] == spacy.__version__
import spacy.cli
assert spacy.cli.download.__module__ == "spacy.cli.download" and spacy.cli.info.__module__ == "spacy.cli.info"
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


@pytest.mark.parametrize("text", PIECES)
def test_cues_alone_are_the_cues_of_analyse(analyser, text):
    """A table header or lead-in reads only its cues: the same as `analyse` gives, without the quantity finder."""
    (_, cues), = analyser.analyse([text], [0])
    assert list(analyser.cues(text)) == list(cues)
