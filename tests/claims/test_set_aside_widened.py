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
    ("Our scratch volume of three disks has a combined write throughput of roughly 9 GB/s.", "roughly 9 GB/s"),
    ("Every flash drive in the box is rated at a read speed of about 4.2 GB/s.", "about 4.2 GB/s"),
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


@pytest.mark.parametrize("text,quote", [
    ("The card pairs a 50 MB L2 cache with fast HBM.", "50 MB"),
    ("Every SM offers 228 KB of shared memory to its blocks.", "228 KB"),
    ("Each die carries 40 MB SRAM next to its matrix units.", "40 MB"),
])
def test_a_chips_cache_sram_or_shared_memory_size_is_a_datasheet_figure(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("datasheet", "set_aside.device_memory_kind") and quote not in claims


def test_a_kernels_use_of_shared_memory_is_no_chip_spec():
    claims, aside = decided("Our kernel uses 48 KB of shared memory per block and reaches 610 TFLOPS.")
    assert "48 KB" not in aside and "48 KB" in claims


@pytest.mark.parametrize("text,quote", [
    ("For two minutes the client issues requests that hold a steady 12 req/s against the gateway.", "12 req/s"),
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


@pytest.mark.parametrize("text,quotes", [
    ("Step time climbs from 0.31 s to 1.9 s going from bs=2 to bs=16.", ["0.31 s", "1.9 s"]),
    ("Going from 1 to 32 concurrent users, TTFT rises from 40 ms to 310 ms.", ["40 ms", "310 ms"]),
])
def test_both_ends_of_a_sweep_written_from_setting_to_setting_are_claims(text, quotes):
    claims, _ = decided(text)
    assert set(quotes) <= claims


def test_the_start_of_a_change_is_still_its_baseline():
    claims, aside = decided("Warm-up time dropped from 25s to 3s with the cache.")
    assert aside["25s"] == ("baseline", "set_aside.from_level") and "3s" in claims


@pytest.mark.parametrize("text,quote", [
    ("Once the toolchain is there, the kernel build then takes about 8 minutes.", "about 8 minutes"),
    ("Pulling the container image can take 40 minutes on a slow link.", "40 minutes"),
    ("Installing the drivers can take about an hour.", "about an hour"),
])
def test_the_time_a_tools_how_to_step_takes_is_an_example(text, quote):
    claims, aside = decided(text)
    assert aside[quote] == ("example", "set_aside.how_to_step_time") and quote not in claims


def test_a_build_time_the_post_compares_stays_a_claim():
    claims, _ = decided("The new toolchain cut the time: compiling takes 4 minutes, down from 20.")
    assert "4 minutes" in claims
