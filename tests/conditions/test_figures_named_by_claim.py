"""A result whose sentence names the figures that show it: "Figures 1 and 2 below show up to 4x" sums up the runs
of both figures, so their captions are its setup (what they share is stated, what differs is listed or
ambiguous); a sentence that names one figure ("... 3-7x over Y (Figure 2)") takes that figure's caption, though its
paragraph names another. An exact figure in a sentence about two figures still takes neither."""
from __future__ import annotations

from tests.claim_checks import claim_in, stated, unrecoverable

TWO_FIGURES = """# Structured decoding at speed

We run agent and chat workloads with the Orca-7B and Orca-47B models on L4 GPUs. Figures 1 and 2 below show
that our runtime reaches up to 4x higher throughput than the reference server.

<img src="a.png"></img>
<p style="color:gray; text-align: center;"> Figure 1: Throughput on agent and chat tasks (Orca-7B on L4, BF16, Tensor Parallelism=1) </p>

<img src="b.png"></img>
<p style="color:gray; text-align: center;"> Figure 2: Throughput on agent and chat tasks (Orca-47B on L4, BF16, Tensor Parallelism=4) </p>

## Design

The runtime keeps a prefix tree of cached states.
"""


def test_a_bound_over_the_figures_its_sentence_names_reads_their_captions():
    c = claim_in(TWO_FIGURES, 4)
    assert stated(c, "precision").value == "BF16"
    layout = stated(c, "parallelism")
    assert "Tensor Parallelism=1" in layout.value and "Tensor Parallelism=4" in layout.value


def test_an_exact_figure_over_two_figures_takes_neither_caption():
    text = TWO_FIGURES.replace("reaches up to 4x higher throughput than the reference server",
                               "serves 2,310 tokens per second")
    c = claim_in(text, 2310)
    unrecoverable(c, "parallelism")
    unrecoverable(c, "precision")


ONE_EACH = """# Training throughput

## Results

* Our trainer is over 9x faster than X on one GPU (Figure 1). On a node of eight GPUs it is 3-7x faster than Y
  (Figure 2).

<img src="a.png" width="600px" />

*Figure 1. Step throughput on a single Z100-40G GPU, BF16.*

<img src="b.png" width="600px" />

*Figure 2. Step throughput on one node with 8 Z100-40G GPUs, FP16.*
"""


def test_a_sentence_that_names_one_figure_takes_that_figures_caption():
    c = claim_in(ONE_EACH, 3)
    assert stated(c, "precision").value == "FP16"
