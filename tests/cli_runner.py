"""Run the `benchclaims` command for a test: in this process (`in_process`, the default: what a command
prints and its exit code, without paying the interpreter and extractor start-up per case) or as a real
process (`as_process`: for what only a process has, e.g. signals, a stdin that never ends, the locale's
streams, a hash seed). Both give a `subprocess.CompletedProcess` with text `stdout` and `stderr`.

`in_process` runs `extractor.cli.main` (the console script's entry point) with `sys.argv`, the standard
streams, the environment and the working folder swapped for the call and restored after it, and undoes
what `main` does to the garbage collector, so a test sees the command as a user runs it and leaves the
test process as it found it."""
from __future__ import annotations

import gc
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import Mapping


def _environ(env: Mapping[str, str | None] | None) -> dict[str, str]:
    """The environment of the call: this one, with `env`'s names set (a None value removes the name)."""
    environ = dict(os.environ)
    for name, value in (env or {}).items():
        if value is None:
            environ.pop(name, None)
        else:
            environ[name] = value
    return environ


def in_process(*args: str, env: Mapping[str, str | None] | None = None, cwd: Path | str | None = None,
               input: bytes | str | None = None) -> subprocess.CompletedProcess:
    """`benchclaims ARGS` run by `extractor.cli.main` in this process; stdin is `input` (else empty)."""
    from extractor.cli import main

    data = input.encode("utf-8") if isinstance(input, str) else (input or b"")
    out, err = io.BytesIO(), io.BytesIO()
    streams = (io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"),
               io.TextIOWrapper(out, encoding="utf-8", write_through=True),
               io.TextIOWrapper(err, encoding="utf-8", errors="backslashreplace", write_through=True))
    saved = (sys.argv, sys.stdin, sys.stdout, sys.stderr, dict(os.environ), os.getcwd(), gc.get_threshold())
    sys.argv = ["benchclaims", *map(str, args)]
    sys.stdin, sys.stdout, sys.stderr = streams
    os.environ.clear()
    os.environ.update(_environ(env))
    code: int | str | None = 0
    try:
        if cwd is not None:
            os.chdir(cwd)
        main()
    except SystemExit as stop:
        code = stop.code
    finally:
        for stream in streams[1:]:
            if not stream.closed:
                stream.flush()
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved[:4]
        os.environ.clear()
        os.environ.update(saved[4])
        os.chdir(saved[5])
        gc.unfreeze()   # main freezes what is left when the command ends: its process would exit there
        gc.set_threshold(*saved[6])
    if isinstance(code, str):   # sys.exit("message"): printed on stderr, exit status 1, as Python does
        err.write(f"{code}\n".encode("utf-8"))
        code = 1
    return subprocess.CompletedProcess(["benchclaims", *args], code or 0, out.getvalue().decode("utf-8", "replace"),
                                       err.getvalue().decode("utf-8", "replace"))


def as_process(*args: str, env: Mapping[str, str | None] | None = None, cwd: Path | str | None = None,
               input: bytes | str | None = None, stdin=None, timeout: float = 300) -> subprocess.CompletedProcess:
    """`python -m extractor ARGS` in a process of its own (stdin: `input`, else the file `stdin`, else none)."""
    if input is None and stdin is None:
        stdin = subprocess.DEVNULL
    r = subprocess.run([sys.executable, "-m", "extractor", *map(str, args)], capture_output=True, stdin=stdin,
                       input=input.encode("utf-8") if isinstance(input, str) else input, env=_environ(env),
                       cwd=cwd, timeout=timeout)
    return subprocess.CompletedProcess(r.args, r.returncode, r.stdout.decode("utf-8", "replace"),
                                       r.stderr.decode("utf-8", "replace"))
