"""`benchclaims rules check`: every problem with file, line and reason; duplicates and conflicts; fresh re-reads."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from extractor.cli import app
from extractor.rules_check import check_rules
from extractor.rules_io import default_rules_dir


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    dst = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), dst, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    return dst


def _append(path: Path, text: str) -> int:
    """Append lines; return the line number of the first appended line."""
    old = path.read_text(encoding="utf-8")
    if not old.endswith("\n"):
        old += "\n"
    path.write_text(old + text, encoding="utf-8")
    return old.count("\n") + 1


def test_installed_rules_are_clean_and_run(rules):
    assert check_rules(rules, smoke=True) == []


def test_a_bare_yaml_boolean_in_a_phrase_list_is_reported(rules):
    """An unquoted `on` (or yes/no/off) is a boolean to YAML: as a cue it would be the phrase 'True'."""
    claims = rules / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    assert 'baseline_stop: ["on", at,' in text
    claims.write_text(text.replace('baseline_stop: ["on", at,', "baseline_stop: [on, at,"), encoding="utf-8")
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("claims.yaml")]
    assert problems and "YAML boolean" in problems[0].reason and "baseline_stop" in problems[0].where


def test_every_bad_jsonl_line_is_reported(rules):
    gaz = rules / "gazetteers" / "engines.jsonl"
    first = _append(gaz, '{"label": "ENGINE", "regex": "(unclosed", "id": "X", "cue": "x"}\n'
                         '{"label": "ENGINE", "pattern": "Foo"\n'
                         '{"label": "GADGET", "pattern": "Bar", "id": "Bar"}\n')
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("engines.jsonl")]
    wheres = {p.where: p.reason for p in problems}
    assert f"line {first}" in wheres and "bad regex" in wheres[f"line {first}"]
    assert "not JSON" in wheres[f"line {first + 1}"]
    assert "label" in wheres[f"line {first + 2}"]
    assert all(p.severity == "error" for p in problems)


def test_gazetteer_name_with_two_ids_is_a_conflict_and_repeat_a_duplicate(rules):
    gaz = rules / "gazetteers" / "engines.jsonl"
    line = _append(gaz, '{"label": "ENGINE", "pattern": "Tiny Serve", "id": "TinyServe"}\n'
                        '{"label": "ENGINE", "pattern": "tiny-serve", "id": "Tiny-Serve"}\n'
                        '{"label": "ENGINE", "pattern": "TINY SERVE", "id": "TinyServe"}\n')
    problems = {(p.where, p.severity) for p in check_rules(rules, smoke=False) if p.file.endswith("engines.jsonl")}
    assert (f"line {line + 1}", "conflict") in problems
    assert (f"line {line + 2}", "duplicate") in problems


def test_cue_under_two_metrics_is_a_conflict_with_its_line(rules):
    claims = rules / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    text = text.replace("  ttft: [", "  ttft: [zorblat rate, ", 1).replace("  throughput: [", "  throughput: [Zorblat  Rate, ", 1)
    claims.write_text(text, encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if "Zorblat  Rate" in t)
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("claims.yaml") and "Zorblat" in p.reason]
    assert len(problems) == 1
    p = problems[0]
    assert p.severity == "conflict" and p.where.startswith(f"line {line} ")
    assert "metric_cues.ttft" in p.reason and "metric_cues.throughput" in p.reason


def test_a_key_given_twice_in_yaml_is_a_duplicate(rules):
    scopes = rules / "scopes.yaml"
    line = _append(scopes, "footnote_marks: ['+']\n")
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("scopes.yaml")]
    assert [(p.where, p.severity) for p in problems] == [(f"line {line}", "duplicate")]
    assert "footnote_marks" in problems[0].reason


def test_yaml_validation_errors_are_all_listed_with_lines(rules):
    claims = rules / "claims.yaml"
    text = claims.read_text(encoding="utf-8")
    text = text.replace("metric_cues:\n", "metric_cues:\n  warp_speed: [warp]\n", 1)
    text += "\nsurprise_key: 1\n"
    claims.write_text(text, encoding="utf-8")
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("claims.yaml")]
    reasons = " | ".join(p.reason for p in problems)
    assert "unknown metric 'warp_speed'" in reasons and "Extra inputs" in reasons
    assert all(p.where.startswith("line ") for p in problems)


def test_rules_check_reports_a_ladder_that_does_not_read_the_sentence_first(rules):
    scopes = rules / "scopes.yaml"
    text = scopes.read_text(encoding="utf-8")
    first = next(line for line in text.splitlines() if line.startswith("  - {reader: sentence,"))
    scopes.write_text(text.replace(first + "\n", "", 1).replace("ladder:\n", "ladder:\n" + first.replace(
        "reader: sentence, scope: sentence", "reader: sentence, scope: paragraph") + "\n", 1), encoding="utf-8")
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("scopes.yaml")]
    assert any("first rung of the ladder must be" in p.reason for p in problems), problems
    assert not any("first rung" in p.reason for p in check_rules(default_rules_dir(), smoke=False))


def test_broken_yaml_names_the_line(rules):
    (rules / "scopes.yaml").write_text("setup_sections: [a, b\nfootnote_marks: ['*']\n", encoding="utf-8")
    problems = [p for p in check_rules(rules, smoke=False) if p.file.endswith("scopes.yaml")]
    assert problems and problems[0].where.startswith("line ") and "not YAML" in problems[0].reason


def test_units_and_spellings(rules):
    bad_def = _append(rules / "units.txt", "wibble = 3 * nonexistent_unit\nnot a definition\n")
    sp = rules / "unit_spellings.jsonl"
    line = _append(sp, '{"spelling": "zz/s", "unit": "token / frobnitz"}\n'
                       '{"spelling": "qq", "unit": "token"}\n{"spelling": "QQ", "unit": "request"}\n')
    problems = check_rules(rules, smoke=False)
    units = [p for p in problems if p.file.endswith("units.txt")]
    assert [p.where for p in units] == [f"line {bad_def}", f"line {bad_def + 1}"]
    assert "nonexistent_unit" in units[0].reason and "bad unit definition" in units[1].reason
    spell = {(p.where, p.severity) for p in problems if p.file.endswith("unit_spellings.jsonl")}
    assert (f"line {line}", "error") in spell
    assert (f"line {line + 2}", "duplicate") in spell


def test_a_modified_copy_is_read_again(rules):
    before = {Path(p.file).name for p in check_rules(rules, smoke=False)}
    assert not before & {"engines.jsonl", "numbers.yaml"}
    _append(rules / "gazetteers" / "engines.jsonl", '{"label": "ENGINE", "regex": "[", "id": "X", "cue": "x"}\n')
    (rules / "numbers.yaml").write_text((rules / "numbers.yaml").read_text(encoding="utf-8")
                                        + "\nunknown_field: 1\n", encoding="utf-8")
    files = {Path(p.file).name for p in check_rules(rules, smoke=False)}
    assert {"engines.jsonl", "numbers.yaml"} <= files


def test_cli_exit_codes(rules):
    runner = CliRunner()
    ok = runner.invoke(app, ["rules", "check", str(rules), "--no-run"])
    assert ok.exit_code == (1 if check_rules(rules, smoke=False) else 0), ok.output
    _append(rules / "conditions.yaml", "bogus: [\n")
    bad = runner.invoke(app, ["rules", "check", str(rules), "--no-run"])
    assert bad.exit_code == 1
    assert "conditions.yaml: line" in bad.output and "not YAML" in bad.output


def test_extractor_refuses_to_start_on_invalid_rules(rules, tmp_path):
    line = _append(rules / "gazetteers" / "models.jsonl", '{"label": "MODEL", "pattern": 7}\n')
    post = tmp_path / "post.md"
    post.write_text("The server reached 1,200 tokens/s.\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "extractor", "extract", str(post), "--rules", str(rules)],
                       capture_output=True, text=True, timeout=120, env={**os.environ})
    assert r.returncode == 2
    assert r.stdout == ""
    assert r.stderr.startswith(f"benchclaims: invalid rules: {rules / 'gazetteers' / 'models.jsonl'}: line {line}: ")


def test_a_catastrophic_pattern_is_reported_with_its_line(rules):
    gaz = rules / "gazetteers" / "engines.jsonl"
    line = _append(gaz, '{"label": "ENGINE", "regex": "(?:Fast(?:er)*)*Engine\\\\s+(v+)+$", "id": "FastEngine", '
                        '"cue": "fast"}\n')
    problems = check_rules(rules, smoke=False)
    slow = [p for p in problems if "backtracks catastrophically" in p.reason]
    assert [(Path(p.file).name, p.where) for p in slow] == [("engines.jsonl", f"line {line}")]
    assert "(v+)+$" in slow[0].reason


def test_rules_check_of_a_folder_missing_a_rule_file(rules):
    (rules / "claims.yaml").unlink()
    problems = check_rules(rules, smoke=False)
    assert any(Path(p.file).name == "claims.yaml" for p in problems), problems


def _alias_bomb(levels: int = 9, width: int = 9) -> str:
    lines = [f"b0: &b0 [{', '.join(['x'] * width)}]"]
    lines += [f"b{i}: &b{i} [{', '.join([f'*b{i - 1}'] * width)}]" for i in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def test_an_alias_bomb_is_refused_by_rules_check_and_extract_alike(rules, tmp_path):
    """One YAML loader with one limit: `rules check` refuses the folder as `extract --rules` does, in bounded
    memory (9 levels of 9 aliases expand to 387 million nodes)."""
    caveats = rules / "caveats.yaml"
    caveats.write_text(_alias_bomb() + caveats.read_text(encoding="utf-8"), encoding="utf-8")
    problems = check_rules(rules)
    assert any("alias" in p.reason and p.file.endswith("caveats.yaml") for p in problems)
    post = tmp_path / "p.md"
    post.write_text("We served 100 tok/s on one GPU.\n", encoding="utf-8")
    code = "import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30)); " \
           "from extractor.cli import main; sys.argv[0] = 'benchclaims'; main()"
    for args in (["rules", "check", str(rules)], ["extract", str(post), "--rules", str(rules)]):
        r = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
        assert r.returncode != 0 and "alias" in (r.stdout + r.stderr) and "MemoryError" not in r.stderr, args


def test_aliases_of_an_ordinary_size_are_read():
    from extractor.rules_io import parse_yaml

    data, node = parse_yaml("base: &b {unit: tok/s}\nitems: [*b, *b, *b]\n")
    assert data["items"] == [{"unit": "tok/s"}] * 3 and node is not None
