"""Fixtures shared by the conditions tests."""
import pytest

from extractor.api import get_extractor


@pytest.fixture(scope="session")
def extractor():
    """The extractor of the installed rules, built once per test process (`api.get_extractor`, as the
    library and the CLI use it): the tests only read documents with it."""
    return get_extractor()
