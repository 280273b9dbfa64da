"""Shared pytest options and fixtures."""
import importlib.util
import resource
import sqlite3
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-durations", type=int, default=None, metavar="N",
                     help="after the run, list the N test files that took most CPU time (the test process's and its "
                          "finished child processes'; 0: all): what the suite costs on a quiet machine")
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


# -- CPU time per test file (--cpu-durations): pytest's --durations are wall times, which a busy machine inflates
def _cpu_seconds() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _cpu_phase_hook():
    """A hook wrapper that records the CPU seconds of one phase of a test (setup, call or teardown) on the item."""
    @pytest.hookimpl(hookwrapper=True)
    def hook(item):
        start = _cpu_seconds()
        yield
        item.cpu_phase = _cpu_seconds() - start
    return hook


pytest_runtest_setup = _cpu_phase_hook()
pytest_runtest_call = _cpu_phase_hook()
pytest_runtest_teardown = _cpu_phase_hook()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().cpu_seconds = getattr(item, "cpu_phase", 0.0)   # travels with the report (pytest-xdist)
    item.cpu_phase = 0.0


def pytest_terminal_summary(terminalreporter, config) -> None:
    shown = config.getoption("--cpu-durations")
    if shown is None:
        return
    per_file: dict[str, float] = defaultdict(float)
    for reports in terminalreporter.stats.values():
        for report in reports:
            if isinstance(report, pytest.TestReport):
                per_file[report.nodeid.split("::")[0]] += getattr(report, "cpu_seconds", 0.0)
    ranked = sorted(per_file.items(), key=lambda kv: (-kv[1], kv[0]))
    terminalreporter.write_sep("=", f"CPU time per test file: {sum(per_file.values()):.1f} s in all")
    for path, seconds in ranked[:shown or None]:
        terminalreporter.write_line(f"{seconds:8.1f} s  {path}")
