"""One owner of the rule caches: `fresh_rule_caches(folder)` makes every loader re-read a folder and gives
the other folders' entries back afterwards (what `rules check` relies on)."""
from __future__ import annotations

import shutil
from pathlib import Path

from extractor.claims.rules import load_claim_rules
from extractor.conditions.rules import load_scope_rules
from extractor.quantities.rules import load_quantity_rules
from extractor.quantities.units import registry
from extractor.rules_io import default_rules_dir, fresh_rule_caches


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), dst, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    return dst


def test_a_folder_is_read_afresh_inside_and_its_entries_come_back_after(tmp_path):
    folder = _copy(tmp_path)
    held_rules, held_registry = load_quantity_rules(folder), registry(folder)
    held_scopes = load_scope_rules(folder)
    (folder / "scopes.yaml").write_text((folder / "scopes.yaml").read_text(encoding="utf-8")
                                        .replace("setup_label_min: 2", "setup_label_min: 5"), encoding="utf-8")
    with fresh_rule_caches(folder):
        assert load_quantity_rules(folder) is not held_rules
        assert registry(folder) is not held_registry
        assert load_scope_rules(folder).setup_label_min == 5
    assert load_quantity_rules(folder) is held_rules and registry(folder) is held_registry
    assert held_scopes.setup_label_min == 2


def test_other_folders_keep_their_entries(tmp_path):
    other = load_quantity_rules(default_rules_dir())
    with fresh_rule_caches(_copy(tmp_path)):
        assert load_quantity_rules(default_rules_dir()) is other
    assert load_quantity_rules(default_rules_dir()) is other
    assert load_claim_rules(default_rules_dir()) == load_claim_rules(default_rules_dir())
