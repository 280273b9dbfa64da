"""Size limit and time budget: configurable by argument, CLI option and environment; errors name the document."""
from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import pytest

from extractor import api, limits
from extractor.errors import DocumentTimeout, DocumentTooLarge

POST = "Our server reached 2,400 tokens/s on two A100 GPUs at batch size 32.\n"


def test_size_limit_by_argument_names_the_document(tmp_path):
    f = tmp_path / "big-post.md"
    f.write_text(POST * 50, encoding="utf-8")
    with pytest.raises(DocumentTooLarge) as err:
        api.extract_path(f, max_bytes=100)
    assert str(f) in str(err.value) and "100-byte limit" in str(err.value)
    with pytest.raises(DocumentTooLarge, match="inline.md"):
        api.extract_text(POST * 50, "inline.md", max_bytes=100)
    assert api.extract_path(f, max_bytes=10_000).claims


def test_size_limit_from_environment(tmp_path, monkeypatch):
    f = tmp_path / "p.md"
    f.write_text(POST * 10, encoding="utf-8")
    monkeypatch.setenv(limits.MAX_BYTES_ENV, "64")
    with pytest.raises(DocumentTooLarge):
        api.extract_path(f)
    assert api.extract_path(f, max_bytes=1 << 20).claims  # an argument beats the environment
    monkeypatch.setenv(limits.MAX_BYTES_ENV, "lots")
    with pytest.raises(ValueError, match="BENCHCLAIMS_MAX_BYTES"):
        api.extract_path(f)


def test_size_counts_utf8_bytes_not_characters():
    text = "é" * 60  # 120 bytes
    with pytest.raises(DocumentTooLarge, match="120 bytes"):
        api.extract_text(text, "accents.txt", max_bytes=100)


def test_time_budget_raises_and_names_document(monkeypatch):
    ex = api.get_extractor(None)  # the same cache key extract_text uses
    real = ex.extract

    def slow(*a, **kw):
        time.sleep(0.5)
        return real(*a, **kw)

    monkeypatch.setattr(ex, "extract", slow)
    t0 = time.monotonic()
    with pytest.raises(DocumentTimeout, match=r"slow\.md: over the 0\.1 s time budget"):
        api.extract_text(POST, "slow.md", timeout=0.1)
    assert time.monotonic() - t0 < 0.45  # the alarm interrupted the sleep
    monkeypatch.setattr(ex, "extract", real)
    assert api.extract_text(POST, "fast.md", timeout=10).claims  # the next document is unaffected


def _spin(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no SIGALRM timers here")
def test_time_budget_fires_again_when_its_first_alarm_is_swallowed():
    """Python discards an exception raised inside a gc callback or `__del__`; the alarm repeats, so the
    document still stops soon after its budget instead of running on."""
    t0 = time.monotonic()
    with pytest.raises(DocumentTimeout):
        with limits.time_budget(0.05, "slow.md"):
            try:
                _spin(3.0)
            except DocumentTimeout:
                pass   # swallowed, as in a gc callback
            _spin(3.0)
    assert time.monotonic() - t0 < 1.5


def test_time_budget_restores_previous_alarm_handler():
    seen = []
    old = signal.signal(signal.SIGALRM, lambda *a: seen.append(1))
    try:
        api.extract_text(POST, "a.md", timeout=5)
        assert signal.getsignal(signal.SIGALRM) is not None
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
        signal.setitimer(signal.ITIMER_REAL, 0.01)
        time.sleep(0.05)
        assert seen == [1]
    finally:
        signal.signal(signal.SIGALRM, old)


def test_time_budget_is_cooperative_off_the_main_thread():
    out: list[BaseException | None] = []

    def work():
        try:
            with limits.time_budget(0.05, "thread.md"):
                for _ in range(200):
                    time.sleep(0.005)
                    limits.check()
            out.append(None)
        except DocumentTimeout as err:
            out.append(err)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert isinstance(out[0], DocumentTimeout) and out[0].doc == "thread.md"


def test_timeout_zero_means_unlimited(monkeypatch):
    monkeypatch.setenv(limits.TIMEOUT_ENV, "0.000001")
    with pytest.raises(DocumentTimeout):
        api.extract_text(POST * 200, "env.md")
    assert limits.timeout(0) is None
    assert api.extract_text(POST, "none.md", timeout=0).claims


def _cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-m", "extractor", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120)


def test_cli_limits_options_and_environment(tmp_path):
    f = tmp_path / "cli-post.md"
    f.write_text(POST * 20, encoding="utf-8")
    r = _cli("extract", str(f), "--max-bytes", "50")
    assert r.returncode == 2 and "cli-post.md" in r.stderr and "50-byte limit" in r.stderr
    r = _cli("extract", str(f), "--timeout", "0.000001")
    assert r.returncode == 2 and "cli-post.md: over the 1e-06 s time budget" in r.stderr
    r = _cli("extract", str(f), env={"BENCHCLAIMS_MAX_BYTES": "10"})
    assert r.returncode == 2 and "10-byte limit" in r.stderr
    r = _cli("extract", str(f), env={"BENCHCLAIMS_TIMEOUT": "soon"})
    assert r.returncode == 2 and "BENCHCLAIMS_TIMEOUT" in r.stderr
