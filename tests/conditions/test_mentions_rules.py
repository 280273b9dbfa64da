"""Rule-file validation: bad regexes and bad entries name file, entry and reason."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from extractor.conditions.mentions import MentionFinder, load_rules
from extractor.rules_io import RuleError, default_rules_dir


def _copy_rules(tmp_path: Path) -> Path:
    dst = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), dst, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return dst


def _add_pattern(path: Path, entry: str) -> None:
    text = path.read_text()
    path.write_text(text.replace("\npatterns:\n", "\npatterns:\n" + entry, 1))


def test_default_rules_load() -> None:
    rules = load_rules()
    assert rules.patterns and rules.gazetteer


def test_bad_pattern_regex_names_entry(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    y = d / "conditions.yaml"
    _add_pattern(y, "  - name: broken_one\n    kind: warmup\n    regex: 'warm(up'\n")
    with pytest.raises(RuleError) as err:
        load_rules(d)
    msg = str(err.value)
    assert "conditions.yaml" in msg and "bad regex" in msg and "patterns" in msg


def test_unknown_fragment_names_entry(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    y = d / "conditions.yaml"
    _add_pattern(y, "  - name: frag_typo\n    kind: warmup\n    regex: '<<NOPE>>warmup'\n")
    with pytest.raises(RuleError, match=r"frag_typo.*unknown fragment <<NOPE>>"):
        load_rules(d)


def test_duplicate_name(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    y = d / "conditions.yaml"
    _add_pattern(y, "  - name: warmup_word\n    kind: warmup\n    regex: 'x'\n")
    with pytest.raises(RuleError, match="duplicate name"):
        load_rules(d)


def test_bad_gazetteer_line_names_file_and_line(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    g = d / "gazetteers" / "engines.jsonl"
    lines = g.read_text().splitlines()
    lines.append('{"label": "ENGINE", "regex": "(unclosed", "id": "X", "cue": "x"}')
    g.write_text("\n".join(lines) + "\n")
    with pytest.raises(RuleError) as err:
        load_rules(d)
    assert "engines.jsonl" in str(err.value)
    assert f"line {len(lines)}" in str(err.value)
    assert "bad regex" in str(err.value)


def test_gazetteer_regex_needs_cue(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    g = d / "gazetteers" / "engines.jsonl"
    g.write_text(g.read_text() + '{"label": "ENGINE", "regex": "Foo", "id": "Foo"}\n')
    with pytest.raises(RuleError, match="cue"):
        load_rules(d)


def test_bad_kind_rejected(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    y = d / "conditions.yaml"
    _add_pattern(y, "  - name: odd\n    kind: colour\n    regex: 'x'\n")
    with pytest.raises(RuleError, match="kind"):
        load_rules(d)


def test_custom_rules_dir_is_used(tmp_path: Path) -> None:
    d = _copy_rules(tmp_path)
    g = d / "gazetteers" / "engines.jsonl"
    g.write_text(g.read_text() + '{"label": "ENGINE", "pattern": "FooServe", "id": "FooServe"}\n')
    found = MentionFinder(d).find("deployed with FooServe 2.1 today")
    eng = [m for m in found if m.kind == "engine"]
    assert eng and eng[0].canonical == "FooServe" and eng[0].version == "2.1"
