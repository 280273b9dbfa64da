"""The example outputs of README.md and docs/*.md are what the commands print (scripts/refresh_docs.py)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_example_output_is_current(refresh_docs):
    blocks = sum(len(refresh_docs.BLOCK.findall(p.read_text(encoding="utf-8"))) for p in refresh_docs.doc_files())
    assert blocks >= 6   # the README's everyday questions and the data dictionary at least
    stale = refresh_docs.refresh(ROOT, check=True)
    assert stale == [], f"stale examples in {[str(p.relative_to(ROOT)) for p in stale]}: run " \
                        "`.venv/bin/python scripts/refresh_docs.py` and review the diff"


def test_readme_is_short_and_the_reference_is_in_docs():
    assert len((ROOT / "README.md").read_bytes()) < 15_000
    for name in ("cli", "record", "export", "rules", "design"):
        assert (ROOT / "docs" / f"{name}.md").is_file()
