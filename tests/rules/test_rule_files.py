"""The registry of rule files (extractor/rule_files.py) is the one list: it names every file of the rules folder,
each model and loader it names exists, and the loaders read their file names from it."""
from __future__ import annotations

import pytest
from pydantic import BaseModel

from extractor.rule_files import RULE_FILES, loaders, rule_file
from extractor.rules_io import default_rules_dir

RULES = default_rules_dir()


def test_every_file_of_the_rules_folder_is_registered():
    present = {p.name for p in RULES.iterdir() if not p.name.startswith((".", "_"))}
    assert present == {rf.name for rf in RULE_FILES}


@pytest.mark.parametrize("rf", RULE_FILES, ids=[rf.name for rf in RULE_FILES])
def test_each_registered_file_names_a_model_and_a_loader_that_exist(rf):
    assert rf.path(RULES).exists() or not rf.required
    schema = rf.schema()
    assert schema is None if rf.format == "pint" else issubclass(schema, BaseModel)
    assert rf.loader is None or callable(rf.load())


def test_the_loaders_run_once_each_in_registry_order():
    steps = loaders()
    assert len(steps) == len(set(map(id, steps)))
    assert [getattr(s, "__name__", "") for s in steps][:3] == ["registry", "load_quantity_rules", "load_claim_rules"]


def test_the_stage_modules_name_their_files_as_the_registry_does():
    from extractor.claims.output_blocks import OUTPUT_FILE
    from extractor.claims.rules import CLAIMS_FILE
    from extractor.claims.set_aside import SET_ASIDE_FILE
    from extractor.compare.rules import COMPARE_FILE
    from extractor.conditions.code.harnesses import HARNESSES_FILE
    from extractor.conditions.rules import SCOPES_FILE
    from extractor.conditions.where_rules import WHERE_FILE
    from extractor.notes.caveats import AUTHORSHIP_FILE, CAVEATS_FILE
    from extractor.quantities.rules import NUMBERS_FILE, SPELLINGS_FILE
    from extractor.quantities.units import UNITS_FILE

    for name in (OUTPUT_FILE, CLAIMS_FILE, SET_ASIDE_FILE, COMPARE_FILE, HARNESSES_FILE, SCOPES_FILE, WHERE_FILE,
                 AUTHORSHIP_FILE, CAVEATS_FILE, NUMBERS_FILE, SPELLINGS_FILE, UNITS_FILE):
        assert rule_file(name) is not None, name


def test_an_unknown_name_is_not_registered():
    assert rule_file("claims.yml") is None


def test_the_rule_files_name_only_modules_that_exist():
    import re

    root = RULES.parent if (RULES.parent / "extractor").is_dir() else None
    if root is None:
        pytest.skip("the rules are installed apart from the source tree")
    for path in sorted(RULES.rglob("*")):
        if path.suffix not in (".yaml", ".jsonl", ".txt"):
            continue
        for module in re.findall(r"\bextractor/[\w/]+\.py\b", path.read_text(encoding="utf-8")):
            assert (root / module).is_file(), f"{path.name} names {module}, which does not exist"
