"""The shared pint registry: domain units, canonical strings, conversion, caching."""
import pint
import pytest

from extractor.quantities.units import canonical_unit, convert, has_dimension, parse_unit, registry


@pytest.mark.parametrize("expr, canonical", [
    ("tok/s/gpu", "token / second / gpu"),
    ("token / gpu / second", "token / second / gpu"),
    ("tokens/sec/user", "token / second / user"),
    ("token/second/node", "token / second / node"),
    ("req/s", "request / second"),
    ("ms", "millisecond"),
    ("%", "percent"),
    ("times", "x"),
    ("dollar/megatoken", "USD / megatoken"),
    ("GB/s", "gigabyte / second"),
    ("TFLOPS", "teraFLOPS"),
    ("", "dimensionless"),
])
def test_units_registry_canonical(expr, canonical):
    assert canonical_unit(expr) == canonical


def scorer_registry() -> pint.UnitRegistry:
    """A registry with only the scorer's minimal domain definitions on pint's defaults."""
    reg = pint.UnitRegistry()
    for line in ("token = [token] = tok", "request = [request] = req", "gpu = [gpu] = GPU", "user = [user]",
                 "node = [node]", "USD = [currency] = usd = dollar", "x = 1 = times",
                 "FLOPS = 1 / second = flops", "FLOP = 1 = flop"):
        reg.define(line)
    return reg


@pytest.mark.parametrize("expr", ["tok/s/GPU", "USD/Mtok".replace("Mtok", "megatoken"), "x", "%", "us",
                                  "TB/s", "PFLOPS", "req/min", "kilotoken"])
def test_units_registry_canonical_parses_in_minimal_registry(expr):
    reg = scorer_registry()
    canon = canonical_unit(expr)
    assert reg.parse_units(canon) == reg.parse_units(str(parse_unit(expr)))


@pytest.mark.parametrize("value, src, dst, expected", [
    (1.5, "second", "millisecond", 1500.0),
    (250, "microsecond", "millisecond", 0.25),
    (3, "x", "percent", 300.0),
    (2, "USD/kilotoken", "USD/megatoken", 2000.0),
])
def test_units_registry_convert(value, src, dst, expected):
    assert convert(value, src, dst) == pytest.approx(expected)


def test_units_registry_convert_incompatible_raises():
    with pytest.raises(pint.DimensionalityError):
        convert(1, "token/second", "millisecond")


def test_units_registry_unknown_unit_is_value_error():
    with pytest.raises(ValueError, match="frobnicate"):
        parse_unit("frobnicate/s")


def test_units_registry_is_cached_and_dimension_query():
    assert registry() is registry()
    assert has_dimension("tok/s", "[token]") and not has_dimension("ms", "[token]")
