"""Compiled regular expressions kept across processes, so start-up does not recompile the rules.

Building the extractor compiles about a thousand regular expressions (the quantity grammar, the gazetteers,
the condition patterns, spaCy's tokenizer rules): over half of a command's start-up, the same work in every
process. Python cannot pickle a compiled pattern (pickling stores its source and compiles it again), but
`re` compiles in two steps: parsing and code generation in Python (the slow part), then `_sre.compile`, a
C call that checks and wraps the generated code. This module keeps the generated code of each
`(pattern, flags)` in a cache file and hands it straight to `_sre.compile` the next time.

- The cache file is keyed by the interpreter's exact version and `_sre.MAGIC` (the code format), so a file
  written by another Python is never read; entries are keyed by the pattern text itself, so an edited rule
  is simply a new entry (a rules folder needs no fingerprint here).
- `_sre.compile` validates the code it is given; anything wrong with a cached entry (a damaged file, an
  interpreter whose internals differ) makes that pattern compile the ordinary way. The result is the same
  pattern object `re.compile` returns: records are byte-identical with or without the cache.
- The file is written atomically (temporary file, then rename) and only when new patterns were compiled;
  an unwritable cache folder only means no cache. `BENCHCLAIMS_CACHE_DIR` sets the folder (default
  `$XDG_CACHE_HOME/benchclaims`, else `~/.cache/benchclaims`); `BENCHCLAIMS_CACHE_DIR=off` disables it.

Use `with regex_cache.active():` around code that compiles many patterns (imports and building of the
extractor): inside it, `re.compile` and the module-level `re` functions go through the cache, and so does
what `memo` is asked for (the start strings `regex_starts` reads from a pattern's text).
"""
from __future__ import annotations

import marshal
from array import array
import os
import re
import sys
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

try:  # the two steps of re.compile (CPython); without them the cache stays off
    import _sre
    from re import _compiler, _parser
except ImportError:  # pragma: no cover - another interpreter
    _sre = _compiler = _parser = None  # type: ignore[assignment]

_DEBUG = re.DEBUG.value
# entries a file keeps beyond what one process used (rule edits leave old patterns behind)
_MAX_STALE = 2000
# A pattern shorter than this compiles in microseconds, less than rewriting the file costs: it alone does not
# make a process write the file (markdown-it builds a character class from a set, in another order in every
# process: the file was rewritten by every start-up for it).
WORTH_SAVING = 64

# The generated code is kept as the bytes of an array of 32-bit words (one bytes object: read, held and freed
# at C speed; a list of ints cost ~36 bytes a word in memory and the file ~4x longer to read)
_WORD = "I" if array("I").itemsize == 4 else "L"
Entry = tuple[int, bytes, int, dict[str, int], tuple[Any, ...]]


def cache_dir() -> Path | None:
    """The cache folder, or None when disabled."""
    env = os.environ.get("BENCHCLAIMS_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "none") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "benchclaims"


def _file_name() -> str:
    magic = getattr(_sre, "MAGIC", 0)
    tag = sys.implementation.cache_tag or sys.implementation.name
    return f"regex-{tag}-{'.'.join(map(str, sys.version_info[:3]))}-{magic}-words.marshal"


class RegexCache:
    """The generated code of compiled patterns, loaded from and saved to one file."""

    def __init__(self, path: Path | None):
        self.path = path
        self.entries: dict[tuple[bool, str | bytes, int], Entry] = {}
        self.used: set[tuple[bool, str | bytes, int]] = set()
        self.compiled: dict[tuple[bool, str | bytes, int], re.Pattern] = {}  # this process's, as re's own cache
        self.added = 0
        self.worth_saving = False   # whether what was added is worth writing the file for (WORTH_SAVING)
        self.load()

    def load(self) -> None:
        """Read the file's entries (none when it is missing or damaged)."""
        self.loaded = True
        if self.path is not None:
            try:
                loaded = marshal.loads(self.path.read_bytes())
                if isinstance(loaded, dict):
                    self.entries = loaded
            except (OSError, ValueError, EOFError, TypeError):
                pass

    def release(self) -> None:
        """Forget the file's entries once the build is over (each a list of ints, ~4 KB a pattern in memory:
        several MB the process would hold to the end); the patterns compiled stay with their users, and a later
        `active()` block reads the file again."""
        self.entries = {}
        self.loaded = False

    def compile(self, pattern: str | bytes, flags: int) -> re.Pattern:
        """`re.compile(pattern, flags)`, from the cached code when there is one."""
        flags = int(flags)  # a RegexFlag is an int subclass, which marshal does not write
        key = (isinstance(pattern, str), pattern, flags)
        compiled = self.compiled.get(key)
        if compiled is not None:
            return compiled
        entry = self.entries.get(key)
        if entry is not None:
            try:
                code = array(_WORD, entry[1]).tolist()
                compiled = _sre.compile(pattern, entry[0], code, entry[2], entry[3], entry[4])
                self.used.add(key)
                self.compiled[key] = compiled
                return compiled
            except Exception:  # a damaged entry: compile afresh below
                del self.entries[key]
        parsed = _parser.parse(pattern, flags)
        code = _compiler._code(parsed, flags)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[Any] = [None] * parsed.state.groups
        for name, i in groupindex.items():
            indexgroup[i] = name
        # plain ints: the opcodes are int subclasses, which marshal does not write
        words = [int(c) for c in code]
        entry = (int(flags | parsed.state.flags), array(_WORD, words).tobytes(), int(parsed.state.groups - 1),
                 {str(k): int(v) for k, v in groupindex.items()}, tuple(indexgroup))
        compiled = _sre.compile(pattern, entry[0], words, *entry[2:])
        self.entries[key] = entry
        self.used.add(key)
        self.compiled[key] = compiled
        self.added += 1
        self.worth_saving |= len(pattern) >= WORTH_SAVING
        return compiled

    def save(self) -> None:
        """Write the file when this process compiled patterns it did not hold, one of them at least as long as
        WORTH_SAVING, or computed a memo (atomically; errors ignored)."""
        if self.path is None or not self.added or not self.worth_saving:
            return
        keep = self.entries
        if len(keep) > len(self.used) + _MAX_STALE:
            keep = {k: v for k, v in keep.items() if k in self.used}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".regex-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as fh:
                    fh.write(marshal.dumps(keep))
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
            self.added = 0
            self.worth_saving = False
        except (OSError, ValueError):
            pass


    def memo(self, key: tuple, compute: Callable[[], Any]) -> Any:
        """`compute()`, a pure function of `key` (a tuple whose first item names it, so it cannot meet a
        pattern's key) whose result marshal can write, kept in the file beside the compiled code."""
        if key in self.entries:
            self.used.add(key)
            return self.entries[key]
        value = compute()
        self.entries[key] = value
        self.used.add(key)
        self.added += 1
        self.worth_saving = True
        return value


_lock = threading.RLock()
_cache: RegexCache | None = None
_active: RegexCache | None = None     # the cache of an `active()` block, while one runs


def memo(key: tuple, compute: Callable[[], Any]) -> Any:
    """`compute()`, kept across processes by the active cache (see `RegexCache.memo`); computed afresh
    outside `active()`. For what is derived from a pattern's text alone (`regex_starts`)."""
    cache = _active
    return compute() if cache is None else cache.memo(key, compute)


def _process_cache() -> RegexCache | None:
    global _cache
    if _cache is None and _sre is not None:
        folder = cache_dir()
        _cache = RegexCache(folder / _file_name() if folder is not None else None)
    return _cache


@contextmanager
def active() -> Iterator[None]:
    """Within the block, every `re` compile of a text pattern goes through the cache; on leaving the outermost
    block the file is saved and its entries released (`release`)."""
    with _lock:
        cache = _process_cache()
        if cache is None or cache.path is None:
            yield
            return
        if not cache.loaded:
            cache.load()
        original = re._compile  # type: ignore[attr-defined]

        def cached_compile(pattern, flags):
            if isinstance(flags, re.RegexFlag):
                flags = flags.value
            if isinstance(pattern, (str, bytes)) and not flags & _DEBUG:
                try:
                    return cache.compile(pattern, flags)
                except re.error:
                    raise
                except Exception:  # anything unexpected: the ordinary way
                    pass
            return original(pattern, flags)

        global _active
        previous = _active
        re._compile = cached_compile  # type: ignore[attr-defined]
        _active = cache
        try:
            yield
        finally:
            re._compile = original  # type: ignore[attr-defined]
            _active = previous
            if previous is None:   # the outermost block: the build is over
                cache.save()
                cache.release()
