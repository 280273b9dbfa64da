"""The spaCy component `benchclaims_quantities` and the `benchclaims quantities` command."""
import json

import spacy
from typer.testing import CliRunner

from extractor.cli import app
from extractor.quantities.component import number_words, quantities_of

TEXT = "It reached 1,850 tok/s per user, up to 2.6x better than v0.4.1 on H100."


def test_quantities_component_stores_spans_and_records():
    nlp = spacy.blank("en")
    nlp.add_pipe("benchclaims_quantities")
    doc = nlp(TEXT)
    spans = doc.spans["quantities"]
    assert [s.text for s in spans] == ["1,850 tok/s per user", "up to 2.6x"]
    records = quantities_of(doc)
    assert [(q.value, q.unit, q.qualifier) for q in records] == [
        (1850, "token / second / user", "exact"), (2.6, "x", "up_to")]
    assert all(s._.quantity is r for s, r in zip(spans, records))


def test_quantities_component_expands_to_tokens():
    nlp = spacy.blank("en")
    nlp.add_pipe("benchclaims_quantities")
    doc = nlp("gain of**3x**today")
    (span,) = doc.spans["quantities"]
    (q,) = quantities_of(doc)
    assert q.quote == "3x" and q.quote in span.text


def test_quantities_component_number_words():
    words = number_words()
    assert "twice" in words and "five" in words and words == sorted(words)


def test_quantities_cli_json_lines(tmp_path):
    path = tmp_path / "post.md"
    path.write_bytes("café: ~40% lower TTFT\r\nand 3–4x\n".encode("utf-8"))
    result = CliRunner().invoke(app, ["quantities", str(path)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in result.output.splitlines()]
    text = path.read_bytes().decode("utf-8")
    assert [(r["value"], r["value_max"], r["unit"], r["qualifier"]) for r in rows] == [
        (40, None, "percent", "approx"), (3, 4, "x", "range")]
    for r in rows:
        assert text[r["span"][0]:r["span"][1]] == r["quote"]


def test_quantities_cli_text_and_stdin():
    result = CliRunner().invoke(app, ["quantities", "-", "--format", "text"], input="at 75 ms\n")
    assert result.exit_code == 0
    header, row = result.output.splitlines()
    assert header.split()[:3] == ["value", "value_max", "unit"] and "millisecond" in row and "75 ms" in row


def test_quantities_cli_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\xff\xfe 12 ms")
    runner = CliRunner()
    assert runner.invoke(app, ["quantities", str(bad)]).exit_code == 2
    assert runner.invoke(app, ["quantities", str(tmp_path / "missing.md")]).exit_code == 2
    assert runner.invoke(app, ["quantities", str(bad), "--format", "xml"]).exit_code != 0


def test_quantities_component_entry_point_registered():
    from importlib.metadata import entry_points

    eps = {ep.name: ep.value for ep in entry_points(group="spacy_factories")}
    assert eps.get("benchclaims_quantities") == "extractor.quantities.component:make_quantity_finder"


def test_quantities_component_returns_what_the_finder_returns_with_pint_quantities():
    from extractor.quantities.finder import find_quantities
    from extractor.quantities.units import registry

    nlp = spacy.blank("en")
    nlp.add_pipe("benchclaims_quantities")
    text = "It served 3-5K tok/s per GPU at $2.10/hr, 1/16 of the old cost, and €40 a month."
    doc = nlp(text)
    spans = doc.spans["quantities"]
    assert quantities_of(doc) == find_quantities(text)
    reg = registry()
    first = spans[0]
    assert first._.pint == reg.Quantity(3000, "token / second / gpu")
    assert first._.pint_max == reg.Quantity(5000, "token / second / gpu")
    assert spans[1]._.pint.to("USD / minute").magnitude == 2.10 / 60
    assert spans[-1]._.pint.units == reg.parse_units("EUR / month") and spans[-1]._.pint_max is None
    assert [s._.pint.magnitude for s in spans if s.text == "1/16"] == [1, 16]
