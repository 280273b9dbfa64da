"""`benchclaims export --describe`: the data dictionary names every exported column, once, with a meaning."""
import json

from typer.testing import CliRunner

from extractor.cli import app
from extractor.corpus.export import COLUMNS, FIELDS, describe


def test_the_dictionary_lists_every_column_once():
    names = [c for c, _ in FIELDS]
    assert len(names) == len(set(names))
    data = json.loads(describe("json"))
    assert [d["column"] for d in data] == names and all(d["description"] for d in data)
    table = describe("text").splitlines()
    assert len(table) == 2 + len(COLUMNS) and table[2].startswith("| `path` |")


def test_export_describe_prints_it_without_a_database(tmp_path):
    res = CliRunner().invoke(app, ["export", "--describe", "--db", str(tmp_path / "none.db")])
    assert res.exit_code == 0 and "| `base_value` | float64 |" in res.stdout
    assert "| `batch_or_concurrency_min` | float64 |" in res.stdout
