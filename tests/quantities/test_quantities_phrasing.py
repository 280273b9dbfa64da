"""How people write numbers with units: one case per phrasing (samples written for these tests)."""
import pytest

from extractor.quantities.finder import find_quantities, unit_attributes


def only(text: str):
    found = find_quantities(text)
    assert len(found) == 1, [q.quote for q in found]
    return found[0]


@pytest.mark.parametrize("text, value, value_max, unit, qualifier, quote", [
    # thousands separators, decimals, multiplier suffixes
    ("the cluster sustained 31,250 tok/s overall", 31250, None, "token / second", "exact", "31,250 tok/s"),
    ("decode ran at 48.75 tokens/sec", 48.75, None, "token / second", "exact", "48.75 tokens/sec"),
    ("we hit 18K tokens per second", 18000, None, "token / second", "exact", "18K tokens per second"),
    ("about 41.6k output tokens/s", 41600, None, "token / second", "approx", "about 41.6k output tokens/s"),
    ("a corpus of 2.5M tokens", 2.5e6, None, "token", "exact", "2.5M tokens"),
    # per gpu / user / node
    ("peaks at 2,950 tok/s/gpu", 2950, None, "token / second / gpu", "exact", "2,950 tok/s/gpu"),
    ("each rank decodes 77 tokens/sec per rank", 77, None, "token / second / gpu", "exact",
     "77 tokens/sec per rank"),
    ("streaming 205 tok/s per user", 205, None, "token / second / user", "exact", "205 tok/s per user"),
    ("1,300 tokens per second per GPU", 1300, None, "token / second / gpu", "exact",
     "1,300 tokens per second per GPU"),
    ("reaching 16,800 tokens/sec per node", 16800, None, "token / second / node", "exact",
     "16,800 tokens/sec per node"),
    ("roughly 3100 TPS/GPU", 3100, None, "token / second / gpu", "approx", "roughly 3100 TPS/GPU"),
    ("the TGS is 950 TGS", 950, None, "token / second / gpu", "exact", "950 TGS"),
    # requests
    ("holds 14 req/s", 14, None, "request / second", "exact", "14 req/s"),
    ("served 220 QPS", 220, None, "request / second", "exact", "220 QPS"),
    ("above 9 RPS", 9, None, "request / second", "at_least", "above 9 RPS"),
    # latency
    ("TTFT of 85ms", 85, None, "millisecond", "exact", "85ms"),
    ("TPOT near 12.5 ms", 12.5, None, "millisecond", "exact", "12.5 ms"),
    ("finished in 3 s", 3, None, "second", "exact", "3 s"),
    ("took 1.5 seconds", 1.5, None, "second", "exact", "1.5 seconds"),
    ("an overhead of 40 μs", 40, None, "microsecond", "exact", "40 μs"),
    ("an overhead of 40us", 40, None, "microsecond", "exact", "40us"),
    ("ITL stays below 25 ms", 25, None, "millisecond", "up_to", "below 25 ms"),
    ("under 2 seconds to first token", 2, None, "second", "up_to", "under 2 seconds"),
    # money, memory, bandwidth, compute
    ("priced at $0.35/1M input tokens", 0.35, None, "USD / megatoken", "exact", "$0.35/1M input tokens"),
    ("costs $1.10 per million tokens", 1.10, None, "USD / megatoken", "exact", "$1.10 per million tokens"),
    ("frees 12 GB of HBM", 12, None, "gigabyte", "exact", "12 GB"),
    ("copies at 61.2 GB/s", 61.2, None, "gigabyte / second", "exact", "61.2 GB/s"),
    ("a link of 3.2TB/s", 3.2, None, "terabyte / second", "exact", "3.2TB/s"),
    ("delivers 990 TFLOPS dense", 990, None, "teraFLOPS", "exact", "990 TFLOPS"),
    # percent and ratios
    ("cuts latency by 17%", 17, None, "percent", "exact", "17%"),
    ("a **+11%** gain", 11, None, "percent", "exact", "+11%"),
    ("a -9% drop", -9, None, "percent", "exact", "-9%"),
    ("about 30 percent faster", 30, None, "percent", "approx", "about 30 percent"),
    ("runs 2.4x faster", 2.4, None, "x", "exact", "2.4x"),
    ("runs 2.4× faster", 2.4, None, "x", "exact", "2.4×"),
    ("runs 3X faster", 3, None, "x", "exact", "3X"),
    ("nearly a 1.8x jump", 1.8, None, "x", "approx", "nearly a 1.8x"),
    ("up to an 6.5x gain", 6.5, None, "x", "up_to", "up to an 6.5x"),
    ("more than 4x the throughput", 4, None, "x", "at_least", "more than 4x"),
    ("latency fell by X3", 3, None, "x", "exact", "X3"),
    ("six times faster", 6, None, "x", "exact", "six times"),
    ("a three-fold increase", 3, None, "x", "exact", "three-fold"),
    ("a 10-fold increase", 10, None, "x", "exact", "10-fold"),
    ("throughput nearly doubled", 2, None, "x", "approx", "nearly doubled"),
    ("it runs twice as fast", 2, None, "x", "exact", "twice"),
    ("memory use is halved", 0.5, None, "x", "exact", "halved"),
    # markup around numbers
    ("peak of **42,000** tok/s", 42000, None, "token / second", "up_to", "peak of **42,000** tok/s"),
    ("gain of __5x__ here", 5, None, "x", "exact", "5x"),
    # qualifiers written after
    ("over 9,000+ users", 9000, None, "user", "at_least", "over 9,000+ users"),
    ("12,000+ tok/s", 12000, None, "token / second", "at_least", "12,000+ tok/s"),
    ("16 GPUs or more", 16, None, "gpu", "at_least", "16 GPUs or more"),
    ("a 5% or so speedup", 5, None, "percent", "approx", "5% or so"),
    ("sits at ~45% utilisation", 45, None, "percent", "approx", "~45%"),
    ("RPS \\> 7 sustained", 7, None, "dimensionless", "at_least", "\\> 7"),
    ("≥ 3 nodes", 3, None, "node", "at_least", "≥ 3 nodes"),
    ("within 2.5% of the reference", 2.5, None, "percent", "up_to", "within 2.5%"),
    ("up to roughly 9%", 9, None, "percent", "up_to", "up to roughly 9%"),
])
def test_quantities_phrasing_single(text, value, value_max, unit, qualifier, quote):
    q = only(text)
    assert (q.value, q.value_max, q.unit, q.qualifier, q.quote) == (pytest.approx(value), value_max, unit,
                                                                      qualifier, quote)
    assert text[q.span[0]:q.span[1]] == q.quote


@pytest.mark.parametrize("text, value, value_max, unit, quote", [
    ("speedups of 1.15× to 4.9× overall", 1.15, 4.9, "x", "1.15× to 4.9×"),
    ("a 2x to 3x win", 2, 3, "x", "2x to 3x"),
    ("a 4–9x win", 4, 9, "x", "4–9x"),
    ("**3-11x** faster", 3, 11, "x", "3-11x"),
    ("a 1.7-2.9x gain", 1.7, 2.9, "x", "1.7-2.9x"),
    ("between **60%** and **75%** of peak", 60, 75, "percent", "60%** and **75%"),
    ("**65%** to **70%** of peak", 65, 70, "percent", "65%** to **70%"),
    ("hit rates of 15 – 25 % in practice", 15, 25, "percent", "15 – 25 %"),
    ("from 32 up to 4096 concurrent requests", 32, 4096, "dimensionless", "32 up to 4096"),
    ("from 16 up to 512 requests", 16, 512, "request", "16 up to 512 requests"),
    ("batch sizes 8-64 were tried", 8, 64, "dimensionless", "8-64"),
    ("TTFT between 1 and 3 seconds", 1, 3, "second", "1 and 3 seconds"),
    ("reduced it X3-X15", 3, 15, "x", "X3-X15"),
    ("ranging from 5% to 40%", 5, 40, "percent", "5% to 40%"),
    ("kernels 1.2×–3.6× faster", 1.2, 3.6, "x", "1.2×–3.6×"),
    ("TTFT at 2 to 4 s", 2, 4, "second", "2 to 4 s"),
])
def test_quantities_phrasing_ranges(text, value, value_max, unit, quote):
    q = only(text)
    assert (q.value, q.value_max, q.unit, q.qualifier) == (pytest.approx(value), pytest.approx(value_max), unit,
                                                           "range")
    assert quote in q.quote and text[q.span[0]:q.span[1]] == q.quote


@pytest.mark.parametrize("text", [
    "latency went from 900 ms to 120 ms",       # descending: a change, not a range
    "throughput increased from 40 to 95 tok/s",  # a change verb before 'from'
    "gains of 3x to 5 nodes",                    # units disagree
    "between 8 to 4",
])
def test_quantities_phrasing_not_ranges(text):
    assert all(q.value_max is None for q in find_quantities(text))
    assert len(find_quantities(text)) == 2


@pytest.mark.parametrize("text,units", [
    ("the price fell from $1.80 to $0.45 per million tokens", ["USD / megatoken", "USD / megatoken"]),
    ("rent went from $3 to $5", ["USD", "USD"]),                       # nothing after the second to share
    ("it fell from $10 to €8 per hour", ["USD", "EUR / hour"]),        # two currencies: nothing shared
])
def test_quantities_phrasing_a_price_change_shares_the_rest_of_its_unit(text, units):
    assert [q.unit for q in find_quantities(text)] == units


@pytest.mark.parametrize("text,unit", [
    ("Cost per 1M tokens is €0.45 on our cloud.", "EUR / megatoken"),
    ("price per million output tokens: $0.60", "USD / megatoken"),
    ("the cost per 1K requests came to $1.20", "USD / kilorequest"),
    ("per GPU hour it is $2.50", "USD"),                               # no token or request denominator
    ("per 1M tokens, not $0.60 but $0.45", "USD"),                     # words between: not the price's
])
def test_quantities_phrasing_a_price_after_its_denominator(text, unit):
    assert [q.unit for q in find_quantities(text) if q.unit.split()[0].isupper()][-1] == unit


def test_quantities_phrasing_series_share_trailing_unit():
    qs = find_quantities("goodput at four loads: **30 / 22 / 15 / 9 QPS**")
    assert [q.value for q in qs] == [30, 22, 15, 9]
    assert {q.unit for q in qs} == {"request / second"}
    assert [q.quote for q in qs] == ["30", "22", "15", "9 QPS"]


def test_quantities_phrasing_arrow_pair():
    qs = find_quantities("goodput rose (41 → 57 req/s) after tuning")
    assert [(q.value, q.unit) for q in qs] == [(41, "request / second"), (57, "request / second")]


@pytest.mark.parametrize("text, values", [
    ("ISL/OSL = 4096/512 for every run", [4096, 512]),
    ("a 2k/256 input/output length mix", [2000, 256]),
    ("we used 8K/1K (ISL/OSL) prompts", [8000, 1000]),
    ("input and output lengths were 3k/300 in this run", [3000, 300]),
    ("with input and output of 6K/600 tokens", [6000, 600]),
    ("input/output lengths of 1024/64", [1024, 64]),
])
def test_quantities_phrasing_length_pairs(text, values):
    qs = find_quantities(text)
    assert [q.value for q in qs] == values
    assert {q.unit for q in qs} == {"token"}


def test_quantities_phrasing_plain_slash_pair_is_unitless():
    qs = find_quantities("a 3k/500 split")
    assert [(q.value, q.unit) for q in qs] == [(3000, "dimensionless"), (500, "dimensionless")]
    # an input-and-output cue on another line does not make a pair of lengths
    qs = find_quantities("input and output\n a 3k/500 split")
    assert {q.unit for q in qs} == {"dimensionless"}


def test_quantities_phrasing_bare_numbers_reported_unitless():
    qs = find_quantities("| 128 | 3,412.5 | 0.957 |")
    assert [(q.value, q.unit) for q in qs] == [(128, "dimensionless"), (3412.5, "dimensionless"),
                                               (0.957, "dimensionless")]


def test_quantities_phrasing_device_count_is_not_a_ratio():
    qs = find_quantities("served on 4x B200 and 2x MI355X nodes, 3x faster")
    assert [(q.value, q.unit) for q in qs] == [(4, "dimensionless"), (2, "dimensionless"), (3, "x")]


@pytest.mark.parametrize("surface, tokens, per", [
    ("tok/s/user", "unspecified", "user"),
    ("output tokens per second per GPU", "output", "gpu"),
    ("input tok/s", "input", None),
    ("TGS", "unspecified", "gpu"),
    ("tokens/sec per node", "unspecified", "node"),
    ("ms", None, None),
])
def test_quantities_phrasing_surface_attributes(surface, tokens, per):
    info = unit_attributes(surface)
    assert (info.tokens, info.per) == (tokens, per)


def test_quantities_phrasing_surface_unit_tells_user_from_gpu():
    a, b = find_quantities("92 tok/s/user and 1,900 tok/s/gpu")
    assert (a.surface_unit, b.surface_unit) == ("tok/s/user", "tok/s/gpu")
