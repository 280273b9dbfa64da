"""Set-aside rules written for a class of phrasing, not one sentence (issue 23, principle 3): the size of a unit of
work named before it (blocks, shards, buckets, I/O sizes) and a drive's or a link's own rate named before it, each
in several shapes, with the measured forms that stay results. Every sentence is written for the test."""
from __future__ import annotations

import pytest

from extractor.api import extract_text


def decided(text: str) -> tuple[set[str], dict[str, tuple[str, str]]]:
    r = extract_text(text, doc="t.md")
    return {c.quote for c in r.claims}, {a.quote: (a.reason, a.rule) for a in r.set_aside}


@pytest.mark.parametrize("text,quote", [
    ("We tried block sizes from 64KB up to 4MB before settling on one.", "up to 4MB"),
    ("We split the checkpoint into shards with a shard size of 5 GB.", "5 GB"),
    ("Reads used an I/O size of 1 MB against the striped volume.", "1 MB"),
    ("The object store was configured with a part size: 64 MB.", "64 MB"),
])
def test_a_unit_of_works_size_named_before_it_is_a_setting(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("setting", "set_aside.unit_size_named_before") and quote not in claims


@pytest.mark.parametrize("text", [
    "With the new page allocator the cache held 12 GB.",            # a page word, no size named
    "Our request size is bounded; the server used 30 GB of KV cache.",  # another clause
])
def test_a_size_not_named_as_a_units_size_is_not_that_setting(text):
    _, aside = decided(text)
    assert "set_aside.unit_size_named_before" not in {rule for _, rule in aside.values()}


@pytest.mark.parametrize("text,quote", [
    ("Four SSDs, each with a read bandwidth of ~7 GB/sec, form one striped volume.", "~7 GB/sec"),
    ("Each SSD has a read speed of about 6.5 GB/s.", "about 6.5 GB/s"),
    ("The adapter's line rate: 100 Gbps per port.", "100 Gbps"),
    ("Every host drives its Ethernet uplink at a speed of up to 50 GB/s.", "up to 50 GB/s"),
])
def test_a_drives_or_links_own_rate_named_before_it_is_a_datasheet_figure(text, quote):
    claims, aside = decided(text)
    assert aside[quote][0] == "datasheet" and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("Over the InfiniBand link we measured a bandwidth of 45 GB/s.", "45 GB/s"),
    ("Across the NVMe drives the loader reached a read throughput of 21 GB/s.", "21 GB/s"),
])
def test_a_rate_the_run_reached_over_a_link_stays_a_claim(text, quote):
    claims, aside = decided(text)
    assert quote in claims and quote not in aside


@pytest.mark.parametrize("text,quote,rule", [
    ("Each CPU core has eight tile registers, each able to hold up to 16 rows × 64 bytes of data.", "64 bytes",
     "on_chip_storage_before"),
    ("The card pairs a 50 MB L2 cache with fast HBM.", "50 MB", "on_chip_storage_after"),
    ("Every SM offers 228 KB of shared memory to its blocks.", "228 KB", "on_chip_storage_after"),
    ("The accelerator's SRAM totals 44 MB per chip.", "44 MB per chip", "on_chip_storage_before"),
])
def test_a_chips_register_cache_or_sram_size_is_a_datasheet_figure(text, quote, rule):
    claims, aside = decided(text)
    assert aside[quote] == ("datasheet", f"set_aside.{rule}") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("Our kernel uses 48 KB of shared memory per block and reaches 610 TFLOPS.", "48 KB"),   # a kernel's use of it
    ("Each block moves 64 KB of data between registers and HBM.", "64 KB"),                  # a unit of work
    ("We serve it with a 40 GB KV cache.", "40 GB"),                                         # a cache pool setting
])
def test_a_use_of_on_chip_storage_or_a_cache_pool_is_no_chip_spec(text, quote):
    _, aside = decided(text)
    assert quote not in aside or not aside[quote][1].startswith("set_aside.on_chip_storage")


@pytest.mark.parametrize("text,quote", [
    ("In device memory each cache entry occupies 656 bytes, consisting of 512 one-byte codes, 4 scales of 4 bytes "
     "and 64 two-byte values.", "656 bytes"),
    ("Every packed row is 1.5 KB, made up of 1024 four-bit weights and 256 bytes of scales.", "1.5 KB"),
])
def test_a_size_given_with_the_parts_it_is_made_of_is_design_arithmetic(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("design_arithmetic", "set_aside.size_with_its_parts") and quote not in claims


def test_a_measured_size_with_a_share_in_words_is_not_that_arithmetic():
    _, aside = decided("During the run the server used 40 GB, consisting mostly of KV cache.")
    assert "set_aside.size_with_its_parts" not in {rule for _, rule in aside.values()}


@pytest.mark.parametrize("text,quote", [
    ("Send 30 seconds of traffic maintaining 50 QPS to the endpoint.", "50 QPS"),
    ("We fire requests at a steady 8 req/s for ten minutes.", "8 req/s"),
    ("Replaying the trace, the load generator issues queries at 20 queries/s.", "20 queries/s"),
])
def test_the_rate_a_load_generator_sends_is_a_setting(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("setting", "set_aside.sent_load_rate") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("We sent requests to the server and it reached a peak throughput of 50 QPS.", "50 QPS"),
    ("After we sent the traffic, the gateway sustained 120 req/s.", "120 req/s"),
])
def test_a_rate_the_system_reached_under_sent_load_stays_a_claim(text, quote):
    claims, _ = decided(text)
    assert quote in claims


@pytest.mark.parametrize("text,quote", [
    ("- **Memory:** The X100 provides **192 GB** of HBM3 per GPU; the X300 raises this to **288 GB**.", "288 GB"),
    ("The H100 offers 3.35 TB/s of memory bandwidth, and the B200 takes that to 8 TB/s.", "8 TB/s"),
])
def test_the_next_devices_figure_of_a_spec_is_a_datasheet_figure(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("datasheet", "set_aside.next_device_spec") and quote not in claims


@pytest.mark.parametrize("text,quote", [
    ("On an H100 our kernel raises this to 610 TFLOPS.", "610 TFLOPS"),
    ("Batching on the L40S raises this to 2,400 tokens/s.", "2,400 tokens/s"),
])
def test_a_run_that_raises_a_figure_on_a_device_stays_a_claim(text, quote):
    claims, _ = decided(text)
    assert quote in claims


@pytest.mark.parametrize("text,quotes", [
    ("From c=1 to c=64, E2E grows from 0.56s to 8.73s, not linearly.", ["0.56s", "8.73s"]),
    ("Going from 1 to 32 concurrent users, TTFT rises from 40 ms to 310 ms.", ["40 ms", "310 ms"]),
])
def test_both_ends_of_a_sweep_written_from_setting_to_setting_are_claims(text, quotes):
    claims, _ = decided(text)
    assert set(quotes) <= claims


def test_the_start_of_a_change_is_still_its_baseline():
    claims, aside = decided("Warm-up time dropped from 25s to 3s with the cache.")
    assert aside["25s"] == ("baseline", "set_aside.from_level") and "3s" in claims


@pytest.mark.parametrize("text,quote", [
    ("Without ninja it can be slow; with ninja, compiling takes 3-5 minutes on a 64-core machine.", "3-5 minutes"),
    ("Installing the drivers can take about an hour.", "about an hour"),
])
def test_the_time_a_tools_how_to_step_takes_is_an_example(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("example", "set_aside.tool_step_takes") and quote not in claims


def test_a_build_time_the_post_compares_stays_a_claim():
    claims, _ = decided("The new toolchain cut the time: compiling takes 4 minutes, down from 20.")
    assert "4 minutes" in claims
