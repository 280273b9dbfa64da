"""The cross-process regex cache (extractor/regex_cache.py): same patterns as `re`, robust to bad files."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from extractor import regex_cache
from extractor.regex_cache import RegexCache

ROOT = Path(__file__).resolve().parent.parent

PATTERNS = [
    (r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>tok(?:ens)?/s)", 0),
    (r"\bH100\b|\bH200\b", re.I),
    (r"^(?:#+)\s+(.*)$", re.M),
    (r"(?<![\w.])(\d{1,3}(?:,\d{3})+)(?!\d)", 0),
    (r"[\u00b5\u03bc]s\b", 0),
    (rb"\x00+(?P<n>[0-9]+)", 0),
    (r"(?P<value>\d+(?:\.\d+)?)\s*(?P<unit>(?:output |input |total )?tok(?:en)?s?\s*/\s*s(?:ec(?:ond)?)?)\b", 0),
]
SAMPLES = ["25,000 tokens/s on H100", "## Results\n12.5 tok/s", "8 h200 and 3 µs", "1,234,567 tokens",
           "no number here"]


def _same(a: re.Pattern, b: re.Pattern) -> None:
    assert (a.pattern, a.flags, a.groups, a.groupindex) == (b.pattern, b.flags, b.groups, b.groupindex)
    for s in SAMPLES:
        if isinstance(a.pattern, bytes):
            s = s.encode("utf-8")
        assert [m.span() for m in a.finditer(s)] == [m.span() for m in b.finditer(s)]
        assert [m.groupdict() for m in a.finditer(s)] == [m.groupdict() for m in b.finditer(s)]


def test_cached_patterns_are_the_patterns_re_compiles(tmp_path):
    path = tmp_path / "cache.marshal"
    first = RegexCache(path)
    for pattern, flags in PATTERNS:
        _same(first.compile(pattern, flags), re.compile(pattern, flags))
    first.save()
    assert path.exists()
    second = RegexCache(path)  # a later process: every pattern read from the file
    assert len(second.entries) == len(PATTERNS)
    for pattern, flags in PATTERNS:
        _same(second.compile(pattern, flags), re.compile(pattern, flags))
    assert second.added == 0


def test_short_patterns_alone_do_not_rewrite_the_file(tmp_path):
    """A pattern shorter than WORTH_SAVING (markdown-it's set-ordered character class, new in every process)
    compiles faster than the file is written: it alone does not rewrite the file; it is kept with a longer one."""
    path = tmp_path / "cache.marshal"
    short = [(p, f) for p, f in PATTERNS if len(p) < regex_cache.WORTH_SAVING]
    long_ = [(p, f) for p, f in PATTERNS if len(p) >= regex_cache.WORTH_SAVING]
    assert short and long_
    cache = RegexCache(path)
    for pattern, flags in short:
        cache.compile(pattern, flags)
    cache.save()
    assert not path.exists()
    cache.compile(*long_[0])
    cache.save()
    assert len(RegexCache(path).entries) == len(short) + 1


def test_a_bad_pattern_raises_re_error_as_re_does(tmp_path):
    with pytest.raises(re.error):
        RegexCache(tmp_path / "c").compile(r"(unclosed", 0)


def test_a_damaged_file_or_entry_only_means_compiling_again(tmp_path):
    path = tmp_path / "cache.marshal"
    path.write_bytes(b"not marshal data at all")
    cache = RegexCache(path)
    assert cache.entries == {}
    _same(cache.compile(*PATTERNS[-1]), re.compile(*PATTERNS[-1]))
    cache.save()
    damaged = RegexCache(path)
    key = next(iter(damaged.entries))
    flags, code, groups, groupindex, indexgroup = damaged.entries[key]
    damaged.entries[key] = (flags, [99999] * len(code), groups, groupindex, indexgroup)  # code _sre refuses
    _same(damaged.compile(*PATTERNS[-1]), re.compile(*PATTERNS[-1]))


def test_an_unwritable_folder_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = RegexCache(blocker / "sub" / "cache.marshal")  # its folder cannot be made
    cache.compile(*PATTERNS[1])
    cache.save()  # silently nothing


def test_active_routes_re_compile_and_restores_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHCLAIMS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(regex_cache, "_cache", None)
    original = re._compile
    with regex_cache.active():
        assert re._compile is not original
        rx = re.compile(r"(?P<x>benchclaims-cache-probe-\d+)(?:-(?P<tail>[a-z]+(?:-[a-z]+)*))?(?P<end>$|\s)")
        assert re.search(r"probe-(\d+)", "probe-42").group(1) == "42"
    assert re._compile is original
    assert rx.match("benchclaims-cache-probe-7").group("x") == "benchclaims-cache-probe-7"
    assert list(tmp_path.glob("regex-*.marshal"))


def test_start_strings_and_anchors_kept_in_the_cache_are_those_read_afresh(tmp_path, monkeypatch):
    from extractor.regex_starts import anchors, start_strings

    monkeypatch.setenv("BENCHCLAIMS_CACHE_DIR", str(tmp_path))
    pattern, flags = r"\b(?:H100|H200|MI300X)\b|\bv?\d+\.\d+ tok/s", re.I
    fresh = (start_strings(pattern, flags, digits=True), anchors(pattern, flags))
    for _ in range(2):   # the first block computes and saves; the second reads the file written
        monkeypatch.setattr(regex_cache, "_cache", None)
        with regex_cache.active():
            kept = (start_strings(pattern, flags, digits=True), anchors(pattern, flags))
        assert kept[0] == fresh[0]
        assert [(a.strings, a.before and a.before.pattern) for a in kept[1]] == \
            [(a.strings, a.before and a.before.pattern) for a in fresh[1]]
    assert any(k[0] == "starts" for k in regex_cache._cache.used)
    assert regex_cache.memo(("probe",), lambda: 7) == 7    # outside active(): computed, not kept


def test_records_are_byte_identical_with_and_without_the_cache(tmp_path):
    """Fresh processes: the cache off, the cache written, the cache read; the same record each time."""
    doc = ROOT / "corpus" / "setup-section-h200.md"
    outputs = []
    for setting in ("off", str(tmp_path), str(tmp_path)):
        env = {**os.environ, "BENCHCLAIMS_CACHE_DIR": setting}
        done = subprocess.run([sys.executable, "-m", "extractor", "extract", str(doc)], env=env,
                              capture_output=True, check=True)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert list(tmp_path.glob("regex-*.marshal"))


def test_entries_are_released_after_the_outermost_block_and_read_again_by_the_next(tmp_path, monkeypatch):
    monkeypatch.setenv("BENCHCLAIMS_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(regex_cache, "_cache", None)
    pattern, flags = PATTERNS[-1]
    with regex_cache.active():
        with regex_cache.active():      # an inner block leaves the entries to the outer one
            re.compile(pattern, flags)
        assert regex_cache._cache.entries
    cache = regex_cache._cache
    assert cache.entries == {} and not cache.loaded     # the build is over: the file's entries forgotten
    cache.compiled.clear()   # as another process would: nothing compiled yet
    with regex_cache.active():
        assert cache.loaded and cache.entries
        added = cache.added
        _same(re.compile(pattern, flags), RegexCache(None).compile(pattern, flags))
        assert cache.added == added   # read from the file, not compiled again
