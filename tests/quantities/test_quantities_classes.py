"""The quantity classes of issue 13, one table per class, positives and negatives (sentences written for
these tests). Each row lists every quantity the finder must return for the sentence, as
(quote, value, value_max, unit): nothing more, nothing less."""
import pytest

from extractor.quantities.finder import find_quantities

Q = tuple[str, float, float | None, str]


def check(text: str, expected: list[Q]) -> None:
    found = find_quantities(text)
    got = [(q.quote, q.value, q.value_max, q.unit) for q in found]
    assert got == [(quote, pytest.approx(v), None if vmax is None else pytest.approx(vmax), unit)
                   for quote, v, vmax, unit in expected], got
    for q in found:
        assert text[q.span[0]:q.span[1]] == q.quote


CURRENCY = [
    ("The board approved USD2,400 for the pilot.", [("USD2,400", 2400, None, "USD")]),
    ("A license costs USD 1,250 per seat.", [("USD 1,250", 1250, None, "USD")]),
    ("The grant was US$3,100,000 in total.", [("US$3,100,000", 3.1e6, None, "USD")]),
    ("The port authority spent S$1.8 billion on cranes.", [("S$1.8 billion", 1.8e9, None, "SGD")]),
    ("Tickets are €35 at the door.", [("€35", 35, None, "EUR")]),
    ("It sold for 420 EUR last week.", [("420 EUR", 420, None, "EUR")]),
    ("The fine was £12,000.", [("£12,000", 12000, None, "GBP")]),
    ("A bowl of ramen is ¥980 there.", [("¥980", 980, None, "JPY")]),
    ("The subsidy reached 3 billion yuan.", [("3 billion yuan", 3e9, None, "CNY")]),
    ("She paid 450 rupees for the ride and Rs. 90 for tea.",
     [("450 rupees", 450, None, "INR"), ("Rs. 90", 90, None, "INR")]),
    ("A stamp costs 85 cents.", [("85 cents", 85, None, "cent")]),
    ("They raised $5.4m in seed money and $4.2b later.",
     [("$5.4m", 5.4e6, None, "USD"), ("$4.2b", 4.2e9, None, "USD")]),
    ("Annual revenue hit $2.5bn.", [("$2.5bn", 2.5e9, None, "USD")]),
    ("Converted, €100 is not $108: each stays in its currency.",
     [("€100", 100, None, "EUR"), ("$108", 108, None, "USD")]),
    # negatives: codes glued to words, a lone currency symbol, minutes written '5m'
    ("The EUR-USD pair and the $ sign carry no amount.", []),
    ("The job timed out after 5m of waiting.", []),
]

PRICES = [
    ("Spot instances run $0.42 per hour.", [("$0.42 per hour", 0.42, None, "USD / hour")]),
    ("The plan is $9.99 a month.", [("$9.99 a month", 9.99, None, "USD / month")]),
    ("Input is billed at $2 per million tokens.", [("$2 per million tokens", 2, None, "USD / megatoken")]),
    ("A reserved node is $3.50/hr.", [("$3.50/hr", 3.5, None, "USD / hour")]),
    ("Storage costs €0.02 per GB-month? No: €0.02 per month.",
     [("€0.02", 0.02, None, "EUR"), ("€0.02 per month", 0.02, None, "EUR / month")]),
    ("That is 60 cents per hour per GPU.", [("60 cents per hour per GPU", 60, None, "cent / hour / gpu")]),
]

MAGNITUDE = [
    ("Throughput ranged 10-15K tok/s.", [("10-15K tok/s", 1e4, 1.5e4, "token / second")]),
    ("The fund is worth $10 to $15 billion.", [("$10 to $15 billion", 1e10, 1.5e10, "USD")]),
    ("Prompts of 32–64k tokens", [("32–64k tokens", 32e3, 64e3, "token")]),
    ("between 2 and 3M users", [("2 and 3M users", 2e6, 3e6, "user")]),
    ("Batches held 1.2, 2.4 and 3.6M tokens.",
     [("1.2", 1.2e6, None, "token"), ("2.4", 2.4e6, None, "token"), ("3.6M tokens", 3.6e6, None, "token")]),
    ("We spent $1.5, $2 and $4 billion over three years.",
     [("$1.5", 1.5e9, None, "USD"), ("$2", 2e9, None, "USD"), ("$4 billion", 4e9, None, "USD"),
      ("over three years", 3, None, "year")]),
    ("Contexts of 8K, 32K and 128K tokens", [("8K", 8e3, None, "token"), ("32K", 32e3, None, "token"),
                                             ("128K tokens", 128e3, None, "token")]),
    ("2.3mn visitors, 7MM rows and 1.1tn in bonds", [("2.3mn", 2.3e6, None, "dimensionless"),
                                                     ("7MM", 7e6, None, "dimensionless"),
                                                     ("1.1tn", 1.1e12, None, "dimensionless")]),
    # negatives: the scale stays on its own number when the other is written in full
    ("from 500 to 10K requests", [("500 to 10K requests", 500, 1e4, "request")]),
    ("500, 800 and 1.2K tokens", [("500", 500, None, "token"), ("800", 800, None, "token"),
                                  ("1.2K tokens", 1200, None, "token")]),
]

TIME = [
    ("The migration took three months.", [("three months", 3, None, "month")]),
    ("We benchmarked for 2 weeks and then a fortnight more.", [("2 weeks", 2, None, "week")]),
    ("Support lasts 5 years.", [("5 years", 5, None, "year")]),
    ("It ran for 36 hours in 2 days.", [("36 hours", 36, None, "hour"), ("2 days", 2, None, "day")]),
    ("Two decades of data", [("Two decades", 2, None, "decade")]),
    # negatives: decades, years as dates, product names
    ("Music of the 1970s still sells.", []),
    ("Hardware of the 2020s is different from the '90s and the 80s.", []),
    ("In 2024 the team grew.", []),
    ("The Model 3s and the X6 are both cars.", []),
    ("BMW X5 owners and the X7 line", []),
    ("The Series 7 and Gen 5 parts shipped.", []),
    ("It took 90s to warm up.", [("90s", 90, None, "second")]),
    ("TTFT stays in the 10s of milliseconds.", []),                       # tens of, an order of magnitude
    ("The fleet has 100s of GPUs.", []),
    ("Decode took 10s on the old card.", [("10s", 10, None, "second")]),
    ("Waiting 2000s is too long.", []),
]

FREQUENCY = [
    ("The core boosts to 2.4GHz.", [("2.4GHz", 2.4, None, "gigahertz")]),
    ("A 300 Hz tone and a 44.1 kHz sample rate", [("300 Hz", 300, None, "hertz"), ("44.1 kHz", 44.1, None, "kilohertz")]),
    ("Memory clocks at 1,593 MHz", [("1,593 MHz", 1593, None, "megahertz")]),
    ("A 5 gigahertz chip", [("5 gigahertz", 5, None, "gigahertz")]),
]

DATA = [
    ("Each card holds 80 GB; the host has 512 GiB.", [("80 GB", 80, None, "gigabyte"), ("512 GiB", 512, None, "gibibyte")]),
    ("Bandwidth is 3.35 TB/s per GPU.", [("3.35 TB/s per GPU", 3.35, None, "terabyte / second / gpu")]),
    ("NICs run at 400 Gbps and 200 Gb/s.", [("400 Gbps", 400, None, "gigabit / second"),
                                          ("200 Gb/s", 200, None, "gigabit / second")]),
    ("a 10 Gbit link and 25 megabits", [("10 Gbit", 10, None, "gigabit"), ("25 megabits", 25, None, "megabit")]),
]

CHANGES = [
    ("Decode rose by 300 tok/s to 2,000 tok/s.",
     [("300 tok/s", 300, None, "token / second"), ("2,000 tok/s", 2000, None, "token / second")]),
    ("TTFT fell from ~5884 ms to ~632 ms.",
     [("~5884 ms", 5884, None, "millisecond"), ("~632 ms", 632, None, "millisecond")]),
    ("Revenue was up 12% to $4.1 billion.", [("12%", 12, None, "percent"), ("$4.1 billion", 4.1e9, None, "USD")]),
    ("Share was up 12% to 15%.", [("12%", 12, None, "percent"), ("15%", 15, None, "percent")]),
    ("p99 latency went down 40 ms to 210 ms.", [("40 ms", 40, None, "millisecond"), ("210 ms", 210, None, "millisecond")]),
    ("Throughput grew from 1,200 to 1,900 tok/s.",
     [("1,200", 1200, None, "token / second"), ("1,900 tok/s", 1900, None, "token / second")]),
    # negatives: these are ranges
    ("It speeds decoding up by 2x to 3x.", [("2x to 3x", 2, 3, "x")]),
    ("It improves goodput by 10% to 20%.", [("10% to 20%", 10, 20, "percent")]),
    ("Speedups ranging from 8% to 30%", [("8% to 30%", 8, 30, "percent")]),
    ("a sweep from 64 to 512 requests", [("64 to 512 requests", 64, 512, "request")]),
]

FRACTIONS = [
    ("Only 1/16 of the weights move.", [("1", 1, None, "dimensionless"), ("16", 16, None, "dimensionless")]),
    ("Reads and writes mix 3:1.", [("3", 3, None, "dimensionless"), ("1", 1, None, "dimensionless")]),
    # negatives: a clock time and a date
    ("The run started at 10:30 on 3/14/2025.", []),
]

SPELLED = [
    ("It is two to four times faster.", [("two to four times", 2, 4, "x")]),
    ("a twenty-five percent gain", [("twenty-five percent", 25, None, "percent")]),
    ("between three and five seconds", [("three and five seconds", 3, 5, "second")]),
    ("It is twice as fast.", [("twice", 2, None, "x")]),
    # negatives: number words without a unit
    ("One of two runs failed.", []),
]

PHYSICAL = [
    ("The storm moved at 25 mph across 300 square miles and left 12 inches of snow.",
     [("25 mph", 25, None, "mile / hour"), ("300 square miles", 300, None, "mile ** 2"), ("12 inches", 12, None, "inch")]),
    ("A 3nm part at 95°C draws 700 W; the site uses 1.2 GW.",
     [("3nm", 3, None, "nanometer"), ("95°C", 95, None, "degree_Celsius"), ("700 W", 700, None, "watt"),
      ("1.2 GW", 1.2, None, "gigawatt")]),
    ("The lorry hauled 18 tonnes, about 40,000 lbs, across 1,200 kilometres.",
     [("18 tonnes", 18, None, "metric_ton"), ("about 40,000 lbs", 40000, None, "pound"),
      ("1,200 kilometres", 1200, None, "kilometer")]),
    ("Crude sold at $82 a barrel.", [("$82 a barrel", 82, None, "USD / oil_barrel")]),
    ("It serves 9,000 tok/s per MW.", [("9,000 tok/s per MW", 9000, None, "token / second / megawatt")]),
    # negatives: ambiguous short forms stay unitless or unread
    ("We need 5G coverage and 4 in stock.", [("4", 4, None, "dimensionless")]),
]

CLASSES = {"currency": CURRENCY, "prices": PRICES, "magnitude": MAGNITUDE, "time": TIME, "frequency": FREQUENCY,
           "data": DATA, "changes": CHANGES, "fractions": FRACTIONS, "spelled": SPELLED, "physical": PHYSICAL}
ROWS = [pytest.param(text, expected, id=f"{name}-{i}") for name, rows in CLASSES.items()
        for i, (text, expected) in enumerate(rows)]


@pytest.mark.parametrize("text, expected", ROWS)
def test_quantities_class(text, expected):
    check(text, expected)


def test_quantities_currencies_are_not_converted_into_each_other():
    import pint

    from extractor.quantities.units import convert

    assert convert(250, "cent", "USD") == pytest.approx(2.5)   # a currency and its hundredths convert
    for other in ("EUR", "GBP", "JPY", "CNY", "INR", "SGD"):
        with pytest.raises(pint.DimensionalityError):
            convert(1, other, "USD")
