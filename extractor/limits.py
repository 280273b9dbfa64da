"""Per-document limits: a size cap, a cap on candidate claims and a time budget, configurable by argument or
environment.

    with time_budget(5.0, "post.md"):      # raises DocumentTimeout naming post.md
        record = extractor.extract(...)

How the time budget is enforced (no thread is ever killed, so no state is left half-built):

* In the main thread of a process (the CLI, batch workers), `signal.setitimer(ITIMER_REAL)`
  arms a SIGALRM whose handler raises `DocumentTimeout` at the next Python bytecode boundary.
  Past the budget the alarm repeats every `REPEAT_S`: Python discards an exception raised while
  it runs a garbage-collector callback or a `__del__`, so a first alarm landing there must not
  be the last.
  The extractor keeps no per-document state between calls and its caches are filled by pure
  functions (an interrupted call caches nothing), so the next document starts clean. The
  previous SIGALRM handler and timer are restored on exit.
* Elsewhere (other threads, platforms without SIGALRM) the budget is cooperative: `check()`
  raises once the deadline has passed; it is called between pipeline units by the finders
  and once more when extraction returns, so a slow document fails instead of passing late.

A single C-level call (one regex match) is not interrupted mid-way by either method; the
rules avoid catastrophic patterns and the finders work on bounded blocks.
"""
from __future__ import annotations

import contextvars
import math
import os
import signal
import threading
import time
from contextlib import contextmanager
from typing import Iterator

from extractor.errors import DocumentTimeout

MAX_BYTES_ENV = "BENCHCLAIMS_MAX_BYTES"
TIMEOUT_ENV = "BENCHCLAIMS_TIMEOUT"
MAX_CLAIMS_ENV = "BENCHCLAIMS_MAX_CLAIMS"
DEFAULT_MAX_BYTES = 20 * 1024 * 1024
# Candidate claims (quantities read in prose that may state a result) one document may hold. The largest
# real posts hold a few hundred; each costs about a millisecond to resolve, so this many take about ten
# seconds on one core. A document of more (a generated list of 100,000 results) is refused as soon as the
# count passes the limit, with a message naming it, instead of running into the time budget.
DEFAULT_MAX_CLAIMS = 10_000
DEFAULT_TIMEOUT = 60.0
REPEAT_S = 0.05

_deadline: contextvars.ContextVar[tuple[float, str, float] | None] = contextvars.ContextVar(
    "benchclaims_deadline", default=None)


MAX_TIMEOUT = 10_000_000.0  # about 115 days: the largest budget an interval timer takes everywhere


class LimitError(ValueError):
    """A size limit or time budget that is not a usable value; the message says where it came from."""


def _env_number(name: str, default: float, cast: type) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = cast(float(raw)) if cast is int else cast(raw)
    except (ValueError, OverflowError):
        raise LimitError(f"{name}={raw!r} is not a number") from None
    if value <= 0:
        raise LimitError(f"{name}={raw!r} must be positive")
    return value


def max_bytes(value: int | None = None) -> int:
    """The size limit in bytes: `value`, else $BENCHCLAIMS_MAX_BYTES, else 20 MiB."""
    return int(value) if value is not None else int(_env_number(MAX_BYTES_ENV, DEFAULT_MAX_BYTES, int))


def valid_max_claims(value: int | str, source: str = "--max-claims") -> int | None:
    """One validation for the option and the environment: a whole number of candidate claims >= 0 (0: no cap).

    Returns the cap, None for no cap; anything else (negative, fractional, not a number) raises LimitError
    naming `source`."""
    text = value.strip() if isinstance(value, str) else value
    try:
        if isinstance(text, bool) or (isinstance(text, float) and not text.is_integer()):
            raise ValueError
        cap = int(text)
    except (TypeError, ValueError, OverflowError):
        raise LimitError(f"{source}={value!r} is not a whole number of candidate claims") from None
    if cap < 0:
        raise LimitError(f"{source}={value!r} must be 0 (no cap) or more")
    return cap or None


def max_claims(value: int | None = None) -> int | None:
    """The cap on candidate claims per document (None: none): `value`, else $BENCHCLAIMS_MAX_CLAIMS, else
    DEFAULT_MAX_CLAIMS; 0 means no cap. Both are checked by `valid_max_claims` (LimitError names the source)."""
    if value is not None:
        return valid_max_claims(value, "max_claims")
    raw = os.environ.get(MAX_CLAIMS_ENV, "").strip()
    return valid_max_claims(raw, MAX_CLAIMS_ENV) if raw else DEFAULT_MAX_CLAIMS


def valid_timeout(value: float | str, source: str = "--timeout") -> float | None:
    """One validation for the option and the environment: seconds > 0, or 0 / inf for no budget.

    Negative, NaN, non-numeric and finite values over MAX_TIMEOUT raise LimitError naming `source`."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        raise LimitError(f"{source}={value!r} is not a number of seconds") from None
    if math.isnan(seconds) or seconds < 0:
        raise LimitError(f"{source}={value!r}: the time budget must be 0 or more seconds (0 or inf: none)")
    if seconds == 0 or math.isinf(seconds):
        return None
    if seconds > MAX_TIMEOUT:
        raise LimitError(f"{source}={value!r} is over the largest budget, {MAX_TIMEOUT:g} s "
                         "(use 0 or inf for no budget)")
    return seconds


def timeout(value: float | None = None) -> float | None:
    """The time budget in seconds (None: none): `value`, else $BENCHCLAIMS_TIMEOUT, else 60 s.

    Both are checked by `valid_timeout`: 0 or inf mean no budget; negative or NaN raise LimitError."""
    if value is not None:
        return valid_timeout(value)
    raw = os.environ.get(TIMEOUT_ENV, "").strip()
    return valid_timeout(raw, TIMEOUT_ENV) if raw else DEFAULT_TIMEOUT


def check() -> None:
    """Raise DocumentTimeout when the current document's budget is spent (cheap; call often)."""
    dl = _deadline.get()
    if dl is not None and time.monotonic() > dl[0]:
        raise DocumentTimeout(dl[1], f"over the {dl[2]:g} s time budget")


def _can_signal() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def time_budget(seconds: float | None, doc: str) -> Iterator[None]:
    """Run the body under a budget of `seconds` (None: unlimited); DocumentTimeout names `doc`."""
    if not seconds:
        yield
        return
    token = _deadline.set((time.monotonic() + seconds, doc, seconds))
    armed = False
    old_handler = None
    old_timer = (0.0, 0.0)
    try:
        # armed inside the try: a tiny budget can fire before the body starts, and must still be cleaned up
        if _can_signal() and _deadline_outer(token) is None:
            def on_alarm(signum, frame):  # noqa: ARG001
                raise DocumentTimeout(doc, f"over the {seconds:g} s time budget")

            old_handler = signal.signal(signal.SIGALRM, on_alarm)
            armed = True
            old_timer = signal.setitimer(signal.ITIMER_REAL, seconds, REPEAT_S)
        yield
        check()
    finally:
        # the alarm may fire while this runs (a body that ends right at the budget): each step sits in its own
        # finally so the handler is restored and the deadline reset whatever raises
        try:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
        finally:
            try:
                if armed:
                    signal.signal(signal.SIGALRM, old_handler)
                    if old_timer[0] > 0:
                        signal.setitimer(signal.ITIMER_REAL, *old_timer)
            finally:
                _deadline.reset(token)


def _deadline_outer(token: contextvars.Token) -> object:
    """The deadline that was active before this one (nested budgets arm no second timer)."""
    old = token.old_value
    return None if old is contextvars.Token.MISSING else old
