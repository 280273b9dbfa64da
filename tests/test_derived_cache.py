"""The cross-process cache of validated rules and unit readings (extractor/derived_cache.py): what it gives is
what is computed afresh; stale, damaged or concurrently written files only mean computing again."""
from __future__ import annotations

import multiprocessing
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from extractor import derived_cache
from extractor.derived_cache import DerivedCache
from extractor.rules_io import RuleError, default_rules_dir, load_jsonl, load_yaml

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def cache_home(tmp_path, monkeypatch):
    """A fresh cache folder, no cache loaded in this process."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("BENCHCLAIMS_CACHE_DIR", str(folder))
    monkeypatch.setattr(derived_cache, "_cache", None)
    yield folder
    monkeypatch.setattr(derived_cache, "_cache", None)


def _calls(value):
    calls = []

    def compute():
        calls.append(1)
        return value
    return calls, compute


def test_a_kept_value_is_read_back_by_a_later_process(tmp_path):
    path = tmp_path / "derived.pickle"
    first = DerivedCache(path)
    calls, compute = _calls({"unit": "token / second", "dims": {"[token]": 1, "[time]": -1}})
    assert first.get(("probe", 1), compute) == compute()
    first.save()
    second = DerivedCache(path)          # a later process
    again, never = _calls(None)
    assert second.get(("probe", 1), never) == {"unit": "token / second", "dims": {"[token]": 1, "[time]": -1}}
    assert again == [] and second.new == {}


def test_a_damaged_file_or_entry_only_means_computing_again(tmp_path):
    path = tmp_path / "derived.pickle"
    path.write_bytes(b"\x80\x05 not a pickle at all")
    cache = DerivedCache(path)
    assert cache.entries == {}
    assert cache.get(("probe",), lambda: 3) == 3
    cache.save()
    damaged = DerivedCache(path)
    damaged.entries[("probe",)] = b"\x80\x05garbage"
    calls, compute = _calls(3)
    assert damaged.get(("probe",), compute) == 3 and calls == [1]
    path.write_bytes(pickle.dumps(["a list, not a dict"]))
    assert DerivedCache(path).entries == {}


def test_errors_are_not_kept(tmp_path):
    cache = DerivedCache(tmp_path / "derived.pickle")

    def broken():
        raise ValueError("no such unit")
    for _ in range(2):
        with pytest.raises(ValueError):
            cache.get(("probe",), broken)
    assert cache.new == {}


def test_an_unwritable_folder_is_no_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    cache = DerivedCache(blocker / "sub" / "derived.pickle")
    assert cache.get(("probe",), lambda: 1) == 1
    cache.save()   # silently nothing


def _writer(path: str, n: int) -> None:
    for round_ in range(20):
        cache = DerivedCache(Path(path))
        for i in range(10):
            cache.get(("writer", n, round_, i), lambda: "x" * 1000 * (i + 1))
        cache.save()


def test_concurrent_writers_leave_a_readable_file(tmp_path):
    """Processes writing the file at once: every reader sees a whole file (the rename is atomic), each of its
    entries is one a writer computed, and no temporary file is left behind."""
    path = tmp_path / "derived.pickle"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_writer, args=(str(path), n)) for n in range(4)]
    for p in procs:
        p.start()
    seen = 0
    while any(p.is_alive() for p in procs):
        if path.exists():
            entries = pickle.loads(path.read_bytes())    # never a partial file
            seen = max(seen, len(entries))
    for p in procs:
        p.join()
        assert p.exitcode == 0
    entries = DerivedCache(path).entries
    assert entries and all(k[0] == "writer" and pickle.loads(v) == "x" * 1000 * (k[3] + 1)
                           for k, v in entries.items())
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]


def test_stale_entries_beyond_the_limit_are_dropped_oldest_first(tmp_path, monkeypatch):
    monkeypatch.setattr(derived_cache, "MAX_STALE", 3)
    path = tmp_path / "derived.pickle"
    old = DerivedCache(path)
    for i in range(6):
        old.get(("old", i), lambda: i)
    old.save()
    new = DerivedCache(path)
    new.get(("new",), lambda: "n")
    new.save()
    assert set(DerivedCache(path).entries) == {("old", 3), ("old", 4), ("old", 5), ("new",)}


def test_validated_rules_come_back_equal_and_an_edited_file_is_read_afresh(cache_home, tmp_path):
    from extractor.claims.rules import ClaimRules
    from extractor.quantities.rules import UnitSpelling

    folder = tmp_path / "rules"
    shutil.copytree(default_rules_dir(), folder)
    fresh_yaml = load_yaml(folder / "claims.yaml", ClaimRules)          # no active block: not kept
    fresh_jsonl = load_jsonl(folder / "unit_spellings.jsonl", UnitSpelling)
    assert not list(cache_home.glob("derived-*"))
    for _ in range(2):   # the first block validates and saves; the second reads the file written
        with derived_cache.active():
            assert load_yaml(folder / "claims.yaml", ClaimRules) == fresh_yaml
            assert load_jsonl(folder / "unit_spellings.jsonl", UnitSpelling) == fresh_jsonl
        derived_cache._cache = None
    with derived_cache.active():
        kept = derived_cache._cache.entries
        assert sum(k[0] in ("rules-yaml", "rules-jsonl") for k in kept) == 2
        spellings = folder / "unit_spellings.jsonl"
        spellings.write_text(spellings.read_text(encoding="utf-8")
                             + '{"spelling": "widgets/s", "unit": "token / second"}\n', encoding="utf-8")
        edited = load_jsonl(spellings, UnitSpelling)
        assert edited[-1].spelling == "widgets/s" and edited[:-1] == fresh_jsonl


def test_a_rule_error_is_raised_every_time(cache_home, tmp_path):
    from extractor.claims.rules import ClaimRules

    bad = tmp_path / "claims.yaml"
    bad.write_text("metrics: [unclosed\n", encoding="utf-8")
    for _ in range(2):
        derived_cache._cache = None
        with derived_cache.active():
            with pytest.raises(RuleError):
                load_yaml(bad, ClaimRules)


def test_another_code_version_never_meets_old_values(cache_home, monkeypatch):
    with derived_cache.active():
        assert derived_cache.remember(("probe",), lambda: "old code") == "old code"
    derived_cache._cache = None
    monkeypatch.setattr(derived_cache, "code_version", lambda: "another version")
    with derived_cache.active():
        assert derived_cache.remember(("probe",), lambda: "new code") == "new code"


def test_unit_readings_kept_after_the_build_and_their_errors_kept_as_errors(cache_home):
    from extractor.quantities import units

    with derived_cache.active():
        pass
    first = units.dimensions_text("token / second")
    with pytest.raises(ValueError) as err:
        units.dimensions("no_such_unit_zz")
    kept = {k[2]: pickle.loads(v) for k, v in derived_cache._cache.new.items() if k[0] == "units"}
    assert kept["dimensions_text"] == (True, first)
    assert kept["dimensions"] == (False, str(err.value))
    with pytest.raises(ValueError, match="no_such_unit_zz"):   # read back as the same error
        units._remembered("dimensions", ("no_such_unit_zz",), None, lambda: pytest.fail("computed again"))


WARM_START = """
import sqlite3, sys
from extractor.api import extract_text
from extractor.corpus.store import Store
record = extract_text("On 8x H100, Llama-3.1-8B reached 12,400 output tokens/s at concurrency 64.", doc="a.md")
with Store(sys.argv[1]) as store:   # storing gives each claim its value in base units
    store.put_record(record)
    rows = store.conn.execute("SELECT base_value, base_unit FROM claims").fetchall()
sys.stdout.write(record.model_dump_json() + repr(rows))
sys.stderr.write("pint imported" if "pint" in sys.modules else "no pint")
"""


def test_records_are_byte_identical_and_a_warm_start_needs_no_pint(tmp_path):
    """Fresh processes: the cache off, the cache written, the cache read; the same record and stored rows each
    time, and the process that reads the cache neither validates the rules again nor imports pint (storing the
    record's values in base units included)."""
    outputs = []
    for i, setting in enumerate(("off", str(tmp_path), str(tmp_path))):
        env = {**os.environ, "BENCHCLAIMS_CACHE_DIR": setting}
        done = subprocess.run([sys.executable, "-c", WARM_START, str(tmp_path / f"store-{i}.db")], env=env,
                              capture_output=True, check=True, cwd=ROOT)
        outputs.append((done.stdout, done.stderr.decode()))
    assert outputs[0][0] == outputs[1][0] == outputs[2][0]
    assert outputs[0][1].endswith("pint imported") and outputs[2][1].endswith("no pint")
    assert outputs[0][0].endswith(b"[(12400.0, 'second^-1 token^1')]")
    assert list(tmp_path.glob("derived-*.pickle"))


def test_one_file_per_code_version_and_old_versions_pruned(cache_home, monkeypatch):
    monkeypatch.setattr(derived_cache, "MAX_FILES", 2)
    for version in ("v1", "v2", "v3"):
        monkeypatch.setattr(derived_cache, "code_version", lambda v=version: v)
        derived_cache._cache = None
        with derived_cache.active():
            assert derived_cache.remember(("probe",), lambda v=version: v) == version
        os.utime(cache_home / f"derived-{sys.implementation.cache_tag}-{version}.pickle",
                 ns=(10**18 + int(version[1:]),) * 2)   # written in this order, long ago
    assert sorted(p.name.rsplit("-", 1)[1] for p in cache_home.glob("derived-*.pickle")) == ["v2.pickle",
                                                                                             "v3.pickle"]
