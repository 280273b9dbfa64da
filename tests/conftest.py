"""Shared pytest options and fixtures."""
import importlib.util
import sqlite3
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-expected", action="store_true", default=False,
                     help="rewrite corpus/expected/*.json from the current extraction instead of comparing")


@pytest.fixture
def update_expected(request: pytest.FixtureRequest) -> bool:
    """True when the run should rewrite expected records (`pytest --update-expected`)."""
    return bool(request.config.getoption("--update-expected"))


def _db_rows(db: Path) -> dict[str, list[tuple]]:
    con = sqlite3.connect(db)
    try:
        return {t: con.execute(f"SELECT * FROM {t} ORDER BY 1, 2, 3").fetchall()
                for t in ("documents", "claims", "conditions")}
    finally:
        con.close()


@pytest.fixture
def db_rows():
    """Every row of a claims database's documents, claims and conditions tables, in a stable order."""
    return _db_rows


@pytest.fixture(scope="session")
def refresh_docs():
    """scripts/refresh_docs.py as a module (the docs' examples and generated parts)."""
    spec = importlib.util.spec_from_file_location("refresh_docs", ROOT / "scripts" / "refresh_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
