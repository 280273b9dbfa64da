"""The shared pint registry: pint's defaults plus the domain units in `rules/units.txt`.

`registry()` builds it once per rules folder (lazily, cached); `canonical_unit` turns any
pint expression into a stable string such as ``token / second / gpu``; `convert` converts
a magnitude between two unit expressions.
"""
from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from extractor import derived_cache
from extractor.rules_io import RuleError, default_rules_dir, folder_cache, rule_cache
from extractor.rule_files import UNITS

if TYPE_CHECKING:  # pint is imported lazily: it is slow to import
    import pint

V = TypeVar("V")
UNITS_FILE = UNITS.name
DIMENSIONLESS = "dimensionless"

_lock = threading.Lock()
_registries: dict[Path, "pint.UnitRegistry"] = folder_cache()   # keyed by the resolved units.txt


def registry(rules_dir: Path | None = None) -> "pint.UnitRegistry":
    """The cached registry for `rules_dir` (default rules when None)."""
    path = _units_file(Path(rules_dir or default_rules_dir()))
    reg = _registries.get(path)
    if reg is not None:
        return reg
    with _lock:
        reg = _registries.get(path)
        if reg is None:
            reg = _build(path)
            _registries[path] = reg
    return reg


@lru_cache(maxsize=64)
def _units_file(folder: Path) -> Path:
    """The resolved path of a rules folder's units.txt (resolving costs a system call per path part)."""
    return folder.resolve() / UNITS_FILE


def _build(path: Path) -> "pint.UnitRegistry":
    import pint

    try:  # pint's own defaults parsed once into pint's cache (keyed by the content of its files)
        reg = pint.UnitRegistry(autoconvert_offset_to_baseunit=True, cache_folder=":auto:")
    except Exception:  # noqa: BLE001 - no writable cache folder: parse them every time
        reg = pint.UnitRegistry(autoconvert_offset_to_baseunit=True)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise RuleError(path, "file", f"cannot read ({err.strerror})") from None
    for lineno, line in definitions(lines):
        try:
            reg.define(line)
        except Exception as err:  # pint raises several error types for bad definitions
            raise RuleError(path, f"line {lineno}", f"bad unit definition ({err})") from None
    return reg


def definitions(lines: list[str]) -> Iterator[tuple[int, str]]:
    """(line number, definition) of each line of units.txt that defines something (comments dropped)."""
    for lineno, raw in enumerate(lines, 1):
        line = raw.split("#", 1)[0].strip()
        if line:
            yield lineno, line


def parse_unit(expr: str, rules_dir: Path | None = None) -> "pint.Unit":
    """Parse a unit expression; raises ValueError naming the expression when pint cannot."""
    reg = registry(rules_dir)  # a broken units.txt raises RuleError here, unwrapped
    try:
        return reg.parse_units(expr.strip() or DIMENSIONLESS)
    except Exception as err:
        raise ValueError(f"unknown unit expression {expr!r} ({err})") from None


def _remembered(name: str, args: tuple, rules_dir: Path | None, compute: Callable[[], V]) -> V:
    """`compute()`, what pint says of a unit expression with the units.txt of `rules_dir`, kept across processes
    by the digest of that units.txt (extractor/derived_cache.py): a process that reads only units read before
    neither imports pint nor builds its registry. A ValueError (an expression pint cannot read) is kept as such
    and raised again; a RuleError (a broken units.txt) is never kept."""
    path = _units_file(Path(rules_dir or default_rules_dir()))

    def outcome() -> tuple[bool, Any]:
        try:
            return True, compute()
        except RuleError:
            raise
        except ValueError as err:
            return False, str(err)

    ok, value = derived_cache.remember(("units", name, args, derived_cache.file_digest(path)), outcome,
                                       after_build=True)
    if not ok:
        raise ValueError(value)
    return value


@rule_cache(maxsize=4096)
def _canonical(expr: str, rules_dir: Path | None) -> str:
    return _remembered("canonical", (expr,), rules_dir, lambda: _canonical_of(expr, rules_dir))


def _canonical_of(expr: str, rules_dir: Path | None) -> str:
    unit = parse_unit(expr, rules_dir)
    reg = registry(rules_dir)
    items = list(unit._units.items())  # name -> exponent, pint's canonical names
    if not items:
        return DIMENSIONLESS

    def is_time(name: str) -> bool:
        return reg.get_dimensionality(name) == reg.get_dimensionality("second")

    def term(name: str, exp: float) -> str:
        exp = abs(exp)
        exp_s = str(int(exp)) if float(exp).is_integer() else str(exp)
        return name if exp == 1 else f"{name} ** {exp_s}"

    num = sorted((n, e) for n, e in items if e > 0)
    den = sorted(((n, e) for n, e in items if e < 0), key=lambda t: (not is_time(t[0]), t[0]))
    out = " * ".join(term(n, e) for n, e in num) or "1"
    for n, e in den:
        out += " / " + term(n, e)
    return out


def canonical_unit(expr: str, rules_dir: Path | None = None) -> str:
    """Stable canonical string: numerator names, then ``/ time``, then ``/ per-entity``."""
    return _canonical(expr.strip() or DIMENSIONLESS, rules_dir)


def convert(value: float, from_unit: str, to_unit: str, rules_dir: Path | None = None) -> float:
    """`value` in `from_unit` expressed in `to_unit` (pint raises on incompatible units)."""
    reg = registry(rules_dir)
    q = reg.Quantity(value, parse_unit(from_unit, rules_dir))
    return float(q.to(parse_unit(to_unit, rules_dir)).magnitude)


def one_in(from_unit: str, to_unit: str, rules_dir: Path | None = None) -> float:
    """`convert(1, from_unit, to_unit)`: how many `to_unit` one `from_unit` is (kept across processes)."""
    return _remembered("one_in", (from_unit, to_unit), rules_dir, lambda: convert(1, from_unit, to_unit, rules_dir))


def base_units(expr: str, rules_dir: Path | None = None) -> tuple[float, str]:
    """(factor to pint base units, base-unit signature) of a unit expression, kept across processes; ValueError
    when pint cannot read it. The signature lists the base units sorted by name with their exponents, so two
    units are compatible exactly when their signatures are equal ('gpu^-1 second^-1 token^1')."""
    def compute() -> tuple[float, str]:
        q = registry(rules_dir).Quantity(1.0, parse_unit(expr, rules_dir)).to_base_units()
        return float(q.magnitude), " ".join(f"{name}^{exp:g}" for name, exp in sorted(q.unit_items()))
    return _remembered("base_units", (expr,), rules_dir, compute)


def has_dimension(expr: str, dimension: str, rules_dir: Path | None = None) -> bool:
    """Whether the unit's dimensionality involves `dimension` (e.g. ``[token]``)."""
    return dimension in dimensions(expr, rules_dir)


@rule_cache(maxsize=4096)
def dimensions(expr: str, rules_dir: Path | None = None) -> dict[str, float]:
    """The dimensionality of a unit expression, {"[token]": 1, "[time]": -1}; ValueError when pint cannot read
    it (kept across processes; a copy is the caller's to keep, the cached dict is not to be changed)."""
    def compute() -> dict[str, float]:
        reg = registry(rules_dir)
        return dict(reg.get_dimensionality(parse_unit(expr, rules_dir)))
    return _remembered("dimensions", (expr,), rules_dir, compute)


def dimensions_text(expr: str, rules_dir: Path | None = None) -> str:
    """pint's text of a unit expression's dimensionality ("[token] / [time]"), kept across processes."""
    def compute() -> str:
        reg = registry(rules_dir)
        return str(reg.get_dimensionality(reg.parse_units(expr)))
    return _remembered("dimensions_text", (expr,), rules_dir, compute)
