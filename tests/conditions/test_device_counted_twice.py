"""One device counted two ways in one place, for no model ("1xL40S = TP1, 4xL40S = best TP/PP config" under a
chart): the place names two runs of that device. The device is stated, its count and the single-device layout are
not, unless the claim's table row counts it ("GPUs | 1"). Counts each paired with a model, or with a model's size
written between them ("Model-A 7B on 1xL40S and 34B on 4xL40S"), keep their own reading."""
from __future__ import annotations

from tests.claim_checks import claim_in, claims_in, stated, unrecoverable

LEGEND = """# Faster decode kernels

## Orca-34B decode up to 2.2x the old kernels

Our new kernels decode up to **2.2x** faster than the old ones, at over 2,100 tok/s/gpu.

<img src="chart.png" alt="decode throughput chart" width="600">

|Model     |GPUs | Output Length | Throughput (out tok/s/GPU)|
|:---------|:----|:--------------|:------|
|Orca-34B  |   1 |           256 | 2,140 |
|          |   4 |               | 1,905 |

<sup>Preliminary measured performance, subject to change. </sup>
<sup>
Engine v2.3 |
Orca-34B |
1xL40S = TP1, 4xL40S = best TP/PP config |
FP8
</sup>
"""


def test_a_legend_of_two_counts_states_the_device_without_a_count():
    c = claim_in(LEGEND, 2.2)   # a figure in prose near the chart: which of the two runs is not said
    hardware = stated(c, "hardware")
    assert hardware.value == "L40S" and hardware.count is None
    unrecoverable(c, "parallelism")
    unrecoverable(c, "gpu_count")


def test_the_rows_count_picks_its_run_of_the_legend():
    one = next(c for c in claims_in(LEGEND) if c.value == 2140 and c.context.block == "table")
    assert stated(one, "hardware").value == "1x L40S"
    assert "single GPU" in stated(one, "parallelism").value
    four = claim_in(LEGEND, 1905)
    assert stated(four, "hardware").value == "4x L40S"
    unrecoverable(four, "parallelism")


ONE_COUNT = LEGEND.replace("1xL40S = TP1, 4xL40S = best TP/PP config", "1xL40S TP1")


def test_one_count_in_the_caption_is_still_the_runs_device():
    c = claim_in(ONE_COUNT, 2.2)
    assert stated(c, "hardware").value == "1x L40S"
    assert "single GPU" in stated(c, "parallelism").value


SIZES_BETWEEN = """# Decode on L40S

**Summary:** our engine serves 3.1x more tokens per second on Orca 7B than the reference server.

<p align="center">
<img src="a.png" width="42%"><img src="b.png" width="42%"><br>
Throughput of Orca 7B on 1xL40S and 34B on 4xL40S with the chat dataset.
</p>
"""


def test_counts_with_a_models_size_between_them_stay_paired():
    c = claim_in(SIZES_BETWEEN, 3.1)
    assert stated(c, "hardware").value == "1x L40S"
