"""A batch that must stop before its end (Ctrl-C, SIGTERM, SIGHUP, a full disk) stops cleanly, with one
line that says what was stored, what was not, and that the same command resumes.

    with Interrupts() as interrupts:    # SIGTERM and SIGHUP raise `Signalled` like Ctrl-C does
        with interrupts.critical():     # a signal here is raised when the block ends
            ...
    raise BatchStopped(why, stored=120, todo=400, current=16)
"""
from __future__ import annotations

import errno
import signal
import sqlite3
import threading
from contextlib import contextmanager
from typing import Iterator

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
SIGNAL_WORDS = {"SIGINT": "Ctrl-C (SIGINT)", "SIGTERM": "SIGTERM", "SIGHUP": "SIGHUP (the terminal closed)"}


class Signalled(KeyboardInterrupt):
    """A stop signal other than SIGINT, raised where Python would raise KeyboardInterrupt for Ctrl-C."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


class Interrupts:
    """While a batch runs: SIGTERM and SIGHUP interrupt it as Ctrl-C does (main thread only), and none of
    the three lands inside a `critical()` section (a document being stored and counted): it is raised
    when the section ends, so the line printed at the stop counts exactly what the store holds."""

    def __init__(self) -> None:
        self._depth = 0
        self._pending: int | None = None
        self._old: dict[int, object] = {}

    def __enter__(self) -> "Interrupts":
        if threading.current_thread() is threading.main_thread():
            self._old = {s: signal.signal(s, self._on_signal) for s in (signal.SIGINT, *STOP_SIGNALS)}
        return self

    def __exit__(self, *exc) -> None:
        for s, handler in self._old.items():
            signal.signal(s, handler)

    def _on_signal(self, signum: int, frame) -> None:  # noqa: ARG002
        if self._depth:
            self._pending = self._pending or signum
            return
        _raise(signum)

    @contextmanager
    def critical(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if not self._depth and self._pending is not None:
            signum, self._pending = self._pending, None
            _raise(signum)


def _raise(signum: int) -> None:
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Signalled(signum)


def worker_signals() -> None:
    """In a pool worker: Ctrl-C and a hang-up reach the whole process group; the batch process decides and
    ends its workers itself (a worker printing its own KeyboardInterrupt would only add noise). SIGTERM
    ends a worker at once, whatever handler it inherited from the batch process."""
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_reason(err: BaseException) -> tuple[str, int] | None:
    """(what stopped the batch, exit code) for an interrupt, a full disk or an unwritable store; else None."""
    if isinstance(err, KeyboardInterrupt):
        signum = err.signum if isinstance(err, Signalled) else signal.SIGINT
        name = signal.Signals(signum).name
        return f"stopped by {SIGNAL_WORDS.get(name, name)}", 128 + signum
    if isinstance(err, OSError) and err.errno == errno.ENOSPC:
        return f"stopped: the disk is full ({err.strerror})", 2
    if isinstance(err, sqlite3.OperationalError):
        full = "full" in str(err)
        return (f"stopped: the disk is full ({err})" if full
                else f"stopped: the database cannot be written ({err})"), 2
    return None


class BatchStopped(Exception):
    """A batch stopped before its end; its message is the one line the user reads."""

    def __init__(self, why: str, code: int, *, stored: int, todo: int, current: int):
        self.code = code
        left = todo - stored
        super().__init__(f"{why}: {stored} of {todo} documents to extract were stored, {left} were not"
                         f" ({current} already current); run the same command again to resume")
