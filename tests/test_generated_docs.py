"""The parts of docs/ written from the code and the rules are current (scripts/refresh_docs.py
`refresh_generated`): the scope-ladder page from rules/scopes.yaml, the stage contracts and the rule files."""
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_generated_docs_are_current(refresh_docs):
    stale = refresh_docs.refresh_generated(ROOT, check=True)
    assert stale == [], f"stale generated docs {[str(p.relative_to(ROOT)) for p in stale]}: run " \
                        "`.venv/bin/python scripts/refresh_docs.py` and review the diff"


def test_the_ladder_page_follows_the_rules(tmp_path, refresh_docs):
    from extractor.rules_io import default_rules_dir

    rules = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), rules, ignore=shutil.ignore_patterns("__pycache__"))
    scopes = rules / "scopes.yaml"
    text = scopes.read_text(encoding="utf-8")
    first = "  - {reader: sentence, scope: sentence, about: \"the claim's sentence or table cell, not the baseline " \
            "it is compared with\"}\n"
    assert first in text
    scopes.write_text(text.replace(first, first.replace("the claim's sentence", "the sentence of the claim")),
                      encoding="utf-8")
    page = refresh_docs.ladder_page(rules)
    assert "| 1 | `sentence` | `sentence` | the sentence of the claim or table cell" in page
    assert page != refresh_docs.ladder_page()


def test_every_stage_and_rule_file_is_in_the_architecture_page():
    from extractor.pipeline import STAGES
    from extractor.rule_files import RULE_FILES

    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert all(f"| {c.stage} |" in page for c in STAGES)
    assert all(f"| `{rf.name}` |" in page for rf in RULE_FILES)


def test_the_architecture_page_names_files_that_exist():
    import re

    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for path in re.findall(r"`((?:extractor|tests|scripts)/[\w/.*]+)`", page):
        assert list(ROOT.glob(path.rstrip("/"))), f"docs/architecture.md names {path}, which does not exist"
