"""Sizes, compute, bandwidth and rates in prose (issue 23): each figure no claim took is set aside with the
reason its words give (a device's datasheet, a model's size, a setting, arithmetic about a design, a cited or
earlier figure), and a measured result is never set aside. Sentences written for these tests."""
from __future__ import annotations

import pytest

from extractor.api import extract_text
from extractor.claims.classify import unit_class


def _decided(text: str) -> tuple[dict[str, tuple[str, str]], set[str]]:
    record = extract_text(text, "t.md")
    return {a.quote: (a.reason, a.rule) for a in record.set_aside}, {c.quote for c in record.claims}


@pytest.mark.parametrize("text,quote,reason", [
    # a device's figure
    ("Under a power cap the practical peak FLOPs drops to ~700 TFlops on the L20.\n", "~700 TFlops", "datasheet"),
    ("In theory each core of this CPU can provide 3 TOPS of compute.\n", "3 TOPS", "datasheet"),
    ("Both chips read LPDDR5x memory that offers up to 200 GB/s.\n", "up to 200 GB/s", "datasheet"),
    ("Each package pairs 144 GB of HBM3e at 6 TB/s.\n", "6 TB/s", "datasheet"),
    ("The box has 96 GB of unified system memory for both processors.\n", "96 GB", "datasheet"),
    ("Each host has 1.5TiB (12 DIMMs, 128 GiB/DIMM) of memory.\n", "1.5TiB", "datasheet"),
    ("Each host has 1.5TiB (12 DIMMs, 128 GiB/DIMM) of memory.\n", "128 GiB", "datasheet"),
    ("The trainer prints device 0 as (NVIDIA RTX A6000, 49140MiB).\n", "49140MiB", "datasheet"),
    ("### Offline throughput: a 13B model on 4xL40 (48GB)\n", "48GB", "datasheet"),
    ("Our figures come from a laptop with 16GB RAM.\n", "16GB", "datasheet"),
    ("With activations, the weights exceed the A10's 24 GB capacity.\n", "24 GB", "datasheet"),
    ("Both cards are 80GB SXM parts in this comparison.\n", "80GB", "datasheet"),
    ("The newer part has 288 GB of HBM (against 192 GB for MI300X).\n", "192 GB", "datasheet"),
    ("The host has a 4TB NVMe SSD and a 100Gbps NIC for the traffic.\n", "4TB", "datasheet"),
    ("On the box, the scratch disk is listed at 2.4 GB/s random writes.\n", "2.4 GB/s", "datasheet"),
    ("The scratch disk's sequential write throughput is roughly 2.8 GB/s.\n", "roughly 2.8 GB/s", "datasheet"),
    ("On this board the CPU and the GPU share one 32 GB memory pool.\n", "32 GB", "datasheet"),
    # a model's size
    ("Fetch the Q4 model (~410MB) before the first request.\n", "~410MB", "model_size"),
    ("Two cards are needed for the large one (34B parameters, 68 GB in BF16).\n", "68 GB", "model_size"),
    ("Quantized, the weights come to 35 GB (70B) and 4 GB (8B) on disk.\n", "4 GB", "model_size"),
    ("This works out near 0.4 bits per weight (roughly 2 GB for 40B parameters).\n", "roughly 2 GB", "model_size"),
    ("Even the ~70 GB model fits on the larger card.\n", "~70 GB", "model_size"),   # demoted from a claim
    ("The [quantized model](https://example.org/m) is only about 210 GB.\n", "about 210 GB", "model_size"),
    ("The model keeps its parameters in FP16, consuming roughly 300GB of raw storage.\n", "roughly 300GB",
     "model_size"),
    ("The first call triggers asset downloads of about 80MB.\n", "about 80MB", "model_size"),
    ("It crawls on CPU (and takes close to 30GB of memory).\n", "close to 30GB", "model_size"),
    # a setting: the size of a unit of work, a pool, a threshold
    ("We tested block sizes ranging from 16KB to 8MB in the copy test.\n", "8MB", "setting"),
    ("It uses a model with a 2 MB block size in the new layout.\n", "2 MB", "setting"),
    ("We time 4GB data transfers between the two tiers.\n", "4GB", "setting"),
    ("We time the read speed of 2GB data transfers from SSD to GPU memory.\n", "2GB", "setting"),
    ("For large reads of at least 2 GiB the path switches to RDMA.\n", "at least 2 GiB", "setting"),
    ("Boot was timed with a roughly 300 GiB host KV pool.\n", "roughly 300 GiB", "setting"),
    ("- Swap Space: 8 GB on every worker\n", "8 GB", "setting"),
    # arithmetic about a design
    ("Per host: ~200 GB cgroup + ~180 GB pinned = ~380 GB in all.\n", "~380 GB", "design_arithmetic"),
    ("For four replicas: 4 × 60 GB → 60 GB total.\n", "60 GB", "design_arithmetic"),
    ("Every request will use roughly 150MB of KV cache on the node.\n", "roughly 150MB", "design_arithmetic"),
    ("At that rate a 16 GiB cache segment can be fetched in about 80 ms.\n", "16 GiB", "design_arithmetic"),
    ("One layer of the big model requires about 5 TFlops for a 2K-token prompt.\n", "about 5 TFlops",
     "design_arithmetic"),
    ("One 4096×1024 image comes to about 4 MB when represented as a uint8 tensor.\n", "about 4 MB",
     "design_arithmetic"),
    ("### Extrapolation to 300 GB\n", "300 GB", "design_arithmetic"),
    ("The weights fill 50 GB of each card, leaving just 8 GB of headroom.\n", "8 GB", "design_arithmetic"),
    ("Memory topped out at 90 GB, although the model itself is only 30 GB.\n", "30 GB", "model_size"),
    ("For example, in the two-node case, 80 GB/s of it is local traffic.\n", "80 GB/s", "example"),
    # an earlier figure, a cited one
    ("The 120 GB baseline splits into page cache and runtime buffers.\n", "120 GB", "baseline"),
    ("That still trails the 600 TFLOPS peak of our previous dense kernel.\n", "600 TFLOPS", "baseline"),
    ("On the new part the kernel hits up to 1200 TFlops, as reported by the vendor.\n", "up to 1200 TFlops",
     "cited"),
])
def test_a_size_compute_or_bandwidth_figure_is_set_aside_with_its_reason(text: str, quote: str,
                                                                         reason: str) -> None:
    aside, claimed = _decided(text)
    assert quote in aside, (aside, claimed)
    assert aside[quote][0] == reason, aside[quote]
    assert quote not in claimed


@pytest.mark.parametrize("text,quote", [
    # measured results keep their claim: the rules above never take a figure a claim covers
    ("Our kernel sustained 180 GB/s on H100 in the copy test.\n", "180 GB/s"),
    ("In compute-bound runs our kernel hits up to 610 TFlops on an L40S.\n", "up to 610 TFlops"),
    ("In our runs the model used 41 GB of GPU memory at batch 8.\n", "41 GB"),
])
def test_a_measured_size_or_rate_stays_a_claim(text: str, quote: str) -> None:
    aside, claimed = _decided(text)
    assert quote in claimed, (aside, claimed)
    assert quote not in aside


@pytest.mark.parametrize("text,quote", [
    # no words that make the figure something else: it is no setting, datasheet or model size
    ("The copy moved 12 GB between the tiers before the timer stopped.\n", "12 GB"),
    ("That still trails the 600 TFLOPS peak of the next kernel.\n", "600 TFLOPS"),
    ("The kernel achieves up to 1200 TFlops on the new part, as we measured.\n", None),
])
def test_a_size_without_such_words_is_not_set_aside(text: str, quote: str | None) -> None:
    aside, claimed = _decided(text)
    if quote is not None:
        assert quote not in aside, aside
    assert not any(r == "cited" for r, _ in aside.values())


def test_negative_forms_of_the_new_rules() -> None:
    # a precision after a size names no device ("124 GB in BF16" is no datasheet figure of a "BF16" card)
    aside, _ = _decided("Two cards are needed for the big one (40B parameters, 80 GB in BF16).\n")
    assert aside["80 GB"][0] == "model_size"
    # a block size in parentheses after "model" is a setting, not the model's size
    aside, _ = _decided("The test model has a tiny (0.125 MB) physical block size.\n")
    assert aside["0.125 MB"][0] == "setting"
    # "model" far before "is" does not make the figure a model's size
    aside, _ = _decided("For the vision model, one 512×512 photo in memory is around 3 MB.\n")
    assert aside.get("around 3 MB", ("", ""))[0] != "model_size"
    # a run's usage is no datasheet figure ("using only 14GB VRAM")
    aside, _ = _decided("Serving the 4-bit build on one desktop, using only 14GB VRAM.\n")
    assert aside.get("14GB", ("", ""))[0] != "datasheet"


def test_a_size_under_a_measured_section_title_is_a_memory_claim() -> None:
    text = "## Memory consumption\n\n- Two sockets: 768GB of host RAM plus at least 12GB VRAM\n"
    record = extract_text(text, "t.md")
    assert {(c.metric, c.quote) for c in record.claims} >= {("memory", "at least 12GB")}
    # the same line under a setup heading is the machine's datasheet
    record = extract_text(text.replace("Memory consumption", "Machine"), "t.md")
    assert not record.claims
    assert {a.quote: a.reason for a in record.set_aside}.get("at least 12GB") == "datasheet"


def test_prefixed_flops_spellings_are_compute_rates() -> None:
    record = extract_text("The kernel reached 640 TFlops in our runs. Another one reached 225 TFLOPs/sec.\n", "t.md")
    units = {c.quote: c.unit for c in record.claims}
    assert units.get("640 TFlops") == "teraFLOPS"
    assert units.get("225 TFLOPs/sec") == "teraFLOPS"


def test_a_rate_of_bytes_per_minute_is_a_bandwidth() -> None:
    assert unit_class("tebibyte / minute") == "bandwidth"
    assert unit_class("gigabyte / second") == "bandwidth"
    assert unit_class("gigabyte") == "memory"


def test_a_count_per_second_in_a_progress_bar_is_set_aside() -> None:
    aside, _ = _decided("Evaluating: 100%|██████████| 8/8 [00:05<00:00,  1.52it/s]\n")
    assert aside.get("1.52it/s", ("", ""))[0] == "log_or_error"


# ---- measured sizes and bandwidths that no measurement verb introduces

@pytest.mark.parametrize("text,quote,metric", [
    ("The copy path kept 180 GB/s average over the fleet and 230 GB/s P99 on its worst day.\n", "230 GB/s",
     "bandwidth"),
    ("For the 8-rank job the resident peak was 96 GB on every host.\n", "96 GB", "memory"),
    ("On the larger model, peak HBM grows about 15% from 20.5 GB to 23.6 GB.\n", "23.6 GB", "memory"),
    ("It runs the 4-bit variant using only 12GB VRAM on one desktop.\n", "12GB", "memory"),
    ("- 5.1 TiB/s combined read throughput over 120 nodes\n", "5.1 TiB/s", "bandwidth"),
    ("Sorting finished at 2.4 TiB/min throughput on the test cluster.\n", "2.4 TiB/min", "bandwidth"),
    ("It keeps its speed while using only 35% of the other engine's HBM (18.0 GiB vs 51.2 GiB).\n", "51.2 GiB", "memory"),
    ("On the phone, decoding reaches over 3 GB of peak memory.\n", "over 3 GB", "memory"),
])
def test_a_measured_size_or_bandwidth_with_a_statistic_or_a_change_is_a_claim(text: str, quote: str,
                                                                             metric: str) -> None:
    record = extract_text(text, "t.md")
    assert (metric, quote) in {(c.metric, c.quote) for c in record.claims}, record.claims


@pytest.mark.parametrize("text,quote", [
    ("* **A laptop (M3 Max, 48 GB unified memory)**\n", "48 GB"),          # "Max" names a chip, after a comma
    ("In the copy test we tried block sizes ranging from 16KB to 32MB.\n", "32MB"),   # a span of settings
    ("The older card has 64 GB HBM (against 32 GB for the V100).\n", "32 GB"),
    ("At the measured rate a 16 GiB cache segment can be fetched in about 80 ms.\n", "16 GiB"),
    ("With activations, the weights exceed a single A10's 24 GB capacity.\n", "24 GB"),
])
def test_a_device_size_a_setting_or_an_estimate_is_no_claim(text: str, quote: str) -> None:
    record = extract_text(text, "t.md")
    assert quote not in {c.quote for c in record.claims}
    assert quote in {a.quote for a in record.set_aside}


def test_a_bandwidth_carries_its_stated_statistic() -> None:
    record = extract_text("The copy path kept 180 GB/s average over the fleet and 230 GB/s P99 on its worst "
                          "day.\n", "t.md")
    assert {c.quote: c.statistic for c in record.claims} == {"180 GB/s": "mean", "230 GB/s": "p99"}
