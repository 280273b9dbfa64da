"""Shared pytest options."""
import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-expected", action="store_true", default=False,
                     help="rewrite corpus/expected/*.json from the current extraction instead of comparing")


@pytest.fixture
def update_expected(request: pytest.FixtureRequest) -> bool:
    """True when the run should rewrite expected records (`pytest --update-expected`)."""
    return bool(request.config.getoption("--update-expected"))
