"""Values derived from rule files, kept across processes: validated rules, and what pint says of a unit.

Start-up read and validated every rule file (YAML parsing, pydantic validation) and imported pint (with
dask when installed) to check the unit spellings and to read units: the same work in every process, for
the same files. This module keeps such values, pickled, in a cache file per code version beside the regex cache
(`regex_cache.cache_dir()`, `BENCHCLAIMS_CACHE_DIR=off` disables both).

Safety: a value is only ever found again under the same key, and every key holds
- what the value is (a namespace and its arguments: the rule model, the unit expression...),
- the digest of every rule file it was derived from (`file_digest`: an edited rule is a new key), and
- `code_version()`: a digest of the source of the whole `extractor` package, the Python version and the
  versions of pydantic, pydantic-core, PyYAML and pint, so that a change of the code or a library that
  derives the value never meets an old one. The file name holds `code_version()` too: a process reads only
  what its own code derived (the MAX_FILES most recent files are kept, for several checkouts or installs).
Only a value computed without error is kept (a rule error is raised afresh every time). The file is written
atomically (a temporary file, then a rename) by merging this process's new values into the file as it then
is; a file that cannot be read or unpickled, or an entry that cannot, only means computing again. The cache
is trusted as `~/.cache` is (pickle data: whoever can write the folder can run code, as with `.pyc` files).

Use: `with derived_cache.active():` around building the extractor (inside it `remember` keeps what it is
asked for, and the block saves on leaving); after such a block `remember` keeps using the loaded file and
saves what it added when the process exits.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import pickle
import sys
import tempfile
import threading
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from extractor.regex_cache import cache_dir

T = TypeVar("T")
# entries of other keys (another code version, other rule files) a file keeps beyond what this process used
MAX_STALE = 400
# cache files of other code versions (other checkouts, older installs) kept in the folder, the newest first
MAX_FILES = 12
_PACKAGE = Path(__file__).resolve().parent


def _file_name() -> str:
    """One file per code version: a process reads only the values its own code derived."""
    tag = sys.implementation.cache_tag or sys.implementation.name
    return f"derived-{tag}-{code_version()}.pickle"


@lru_cache(maxsize=1)
def code_version() -> str:
    """Digest of the extractor's source files and of the libraries that read rules and units."""
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE.rglob("*.py")):
        digest.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    digest.update(repr((sys.version, _versions())).encode())
    return digest.hexdigest()[:20]


def _versions() -> tuple[str, ...]:
    """The versions of the libraries that validate rules (imported by then) and pint's installed files (pint
    itself is not imported for this: its `__init__.py` by path, size and time, as Python checks a `.pyc`)."""
    import importlib.util

    import pydantic
    import pydantic_core
    import yaml

    found = [f"pydantic={pydantic.VERSION}", f"pydantic-core={pydantic_core.__version__}", f"PyYAML={yaml.__version__}"]
    spec = importlib.util.find_spec("pint")
    origin = spec.origin if spec is not None else None
    if origin:
        st = os.stat(origin)
        found.append(f"pint={origin}:{st.st_size}:{st.st_mtime_ns}")
    else:
        found.append("pint=none")
    return tuple(found)


@lru_cache(maxsize=256)
def _digest_of(path: Path, size: int, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def file_digest(path: Path | str) -> str:
    """The sha256 of a file's bytes ("absent" for a missing file), read once per process and file state."""
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        return "absent"
    return _digest_of(p.resolve(), st.st_size, st.st_mtime_ns)


class DerivedCache:
    """Pickled values by key, loaded from and saved to one file."""

    def __init__(self, path: Path | None):
        self.path = path
        self.entries: dict[tuple, bytes] = self._read() if path is not None else {}
        self.new: dict[tuple, bytes] = {}
        self.used: set[tuple] = set()

    def _read(self) -> dict[tuple, bytes]:
        try:
            loaded = pickle.loads(self.path.read_bytes())  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - missing, damaged, or written by other code: start empty
            return {}
        if not isinstance(loaded, dict):
            return {}
        return {k: v for k, v in loaded.items() if isinstance(k, tuple) and isinstance(v, bytes)}

    def get(self, key: tuple, compute: Callable[[], T]) -> T:
        """The value kept under `key`, else `compute()` (kept when it pickles; its errors propagate)."""
        blob = self.entries.get(key)
        if blob is not None:
            try:
                value = pickle.loads(blob)
            except Exception:  # noqa: BLE001 - an entry that no longer unpickles: compute again
                del self.entries[key]
            else:
                self.used.add(key)
                return value
        value = compute()
        try:
            blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - a value pickle cannot write is simply not kept
            return value
        self.entries[key] = self.new[key] = blob
        self.used.add(key)
        return value

    def save(self) -> None:
        """Merge the values this process added into the file as it is now (atomically; errors ignored)."""
        if self.path is None or not self.new:
            return
        merged = self._read()
        merged.update(self.new)
        stale = [k for k in merged if k not in self.used]
        for k in stale[:max(0, len(stale) - MAX_STALE)]:   # the oldest first
            del merged[k]
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".derived-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as fh:
                    pickle.dump(merged, fh, protocol=pickle.HIGHEST_PROTOCOL)
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
            self.new = {}
            _prune(self.path.parent)
        except (OSError, ValueError, pickle.PicklingError):
            pass


def _prune(folder: Path) -> None:
    """Remove the cache files of other code versions beyond the MAX_FILES most recently written."""
    files = []
    for path in folder.glob("derived-*.pickle"):
        try:
            files.append((path.stat().st_mtime_ns, path))
        except OSError:
            continue
    for _, path in sorted(files, reverse=True)[MAX_FILES:]:
        try:
            path.unlink()
        except OSError:
            pass


_lock = threading.RLock()
_cache: DerivedCache | None = None      # this process's cache, once an `active()` block loaded it
_depth = 0                              # nesting of `active()` blocks
_exit_hook = False


def _process_cache() -> DerivedCache | None:
    global _cache
    if _cache is None:
        folder = cache_dir()
        if folder is None:
            return None
        _cache = DerivedCache(folder / _file_name())
    return _cache


def remember(key: tuple, compute: Callable[[], T], *, after_build: bool = False) -> T:
    """`compute()`, a pure function of `key` (its first item a namespace) and of `code_version()`, kept across
    processes inside an `active()` block; with `after_build`, also after one (what a unit is, read while a
    document is extracted), then saved when the process exits. Computed afresh otherwise, or with the cache
    off."""
    global _exit_hook
    with _lock:
        cache = _cache if _depth or after_build else None
        if cache is None or cache.path is None:
            return compute()
        full = (key[0], code_version(), *key[1:])
        value = cache.get(full, compute)
        if cache.new and not _depth and not _exit_hook:
            atexit.register(_save_at_exit)
            _exit_hook = True
        return value


def _save_at_exit() -> None:
    with _lock:
        if _cache is not None:
            _cache.save()


@contextmanager
def active() -> Iterator[None]:
    """Within the block `remember` keeps values (loading the cache file first); saved on leaving."""
    global _depth
    with _lock:
        cache = _process_cache()
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
            if cache is not None and not _depth:
                cache.save()
