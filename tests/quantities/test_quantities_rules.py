"""Rule files are validated at load: errors name the file, the line or entry, and the reason."""
import shutil
from pathlib import Path

import pytest

from extractor.quantities.finder import QuantityFinder
from extractor.quantities.rules import load_quantity_rules
from extractor.rules_io import RuleError, default_rules_dir


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    src = default_rules_dir()
    for name in ("units.txt", "unit_spellings.jsonl", "numbers.yaml"):
        shutil.copy(src / name, tmp_path / name)
    return tmp_path


def append(path: Path, line: str) -> int:
    text = path.read_text(encoding="utf-8")
    if not text.endswith("\n"):
        text += "\n"
    path.write_text(text + line + "\n", encoding="utf-8")
    return text.count("\n") + 1


def test_quantities_rules_default_rules_load():
    rules = load_quantity_rules()
    assert rules.spellings and "token" in rules.token_units


def test_quantities_rules_bad_unit_names_file_and_line(rules_copy):
    path = rules_copy / "unit_spellings.jsonl"
    line = append(path, '{"spelling": "widgets/s", "unit": "widget/second"}')
    with pytest.raises(RuleError) as err:
        load_quantity_rules(rules_copy)
    assert err.value.path == str(path) and err.value.where == f"line {line}"
    assert "widget" in err.value.reason


def test_quantities_rules_duplicate_spelling_reported(rules_copy):
    path = rules_copy / "unit_spellings.jsonl"
    line = append(path, '{"spelling": "QPS", "unit": "request/second", "case_sensitive": true}')
    with pytest.raises(RuleError) as err:
        load_quantity_rules(rules_copy)
    assert err.value.where == f"line {line}" and "duplicate" in err.value.reason


def test_quantities_rules_case_insensitive_duplicate_reported(rules_copy):
    path = rules_copy / "unit_spellings.jsonl"
    append(path, '{"spelling": "Percent", "unit": "percent"}')
    with pytest.raises(RuleError, match="duplicate"):
        load_quantity_rules(rules_copy)


@pytest.mark.parametrize("line, reason", [
    ('{"spelling": "output", "role": "kind"}', "tokens"),
    ('{"spelling": "per", "role": "per", "unit": "second"}', "no unit"),
    ('{"spelling": "zz", "role": "unit"}', "unit"),
    ('{"spelling": "zz", "unit": "second", "role": "suffix"}', "role"),
    ('{"spelling": "zz", "unit": "second", "colour": "red"}', "colour"),
    ('{"spelling": "zz", "unit": ', "not JSON"),
])
def test_quantities_rules_schema_errors(rules_copy, line, reason):
    path = rules_copy / "unit_spellings.jsonl"
    n = append(path, line)
    with pytest.raises(RuleError) as err:
        load_quantity_rules(rules_copy)
    assert err.value.where == f"line {n}" and reason in err.value.reason


def test_quantities_rules_bad_exclusion_pattern(rules_copy):
    path = rules_copy / "numbers.yaml"
    append(path, "extra_key_is_rejected: true")
    with pytest.raises(RuleError) as err:
        load_quantity_rules(rules_copy)
    assert err.value.path == str(path)


def test_quantities_rules_pattern_must_compile(rules_copy):
    path = rules_copy / "numbers.yaml"
    text = path.read_text(encoding="utf-8").replace("exclude:\n", "exclude:\n  - name: broken\n    pattern: '(unclosed'\n", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RuleError) as err:
        load_quantity_rules(rules_copy)
    assert "exclude" in err.value.where and "compile" in err.value.reason


def test_quantities_rules_bad_pint_definition(rules_copy):
    path = rules_copy / "units.txt"
    n = append(path, "blorp = [[broken")
    with pytest.raises(RuleError) as err:
        load_quantity_rules(rules_copy)
    assert err.value.where == f"line {n}"


def test_quantities_rules_new_spelling_is_used(rules_copy):
    append(rules_copy / "units.txt", "sample = [sample]")
    append(rules_copy / "unit_spellings.jsonl", '{"spelling": "samples/s", "unit": "sample/second"}')
    finder = QuantityFinder(load_quantity_rules(rules_copy))
    (q,) = finder.find("about 640 samples/s")
    assert (q.value, q.unit, q.qualifier) == (640, "sample / second", "approx")
