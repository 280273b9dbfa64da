"""What the scope ladder keeps of one document so that many claims do not read the same places anew: the
shared rungs (`SharedRung`, built once per stretch of the post), the rungs of a table read once for all its
cells, the statements of universal scope, and the verdicts on a mention or a sentence that do not depend on
the claim. `RungMemo` holds them; `kept_key` is the memo key of what a shared rung keeps for a kind of claim."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from extractor.conditions._internals.shared_rungs import SharedRung, summary
from extractor.conditions.located import MEASURED_KINDS, Located
from extractor.ingest import Document
from extractor.records import Claim


class Site(Protocol):
    """What the memo keys read of a claim's site (ties.py `ClaimSite`)."""

    d: Document
    claim: Claim
    family: str | None
    own: dict[str, set[str]]
    modes: set[str]
    devices: set[str]
    models: set[str]
    baseline_devices: frozenset[str]
    own_loads: set[str]


@dataclass(slots=True)
class RungMemo:
    """One document's memos of the ladder (dropped with the ladder's reading when its claims are resolved)."""

    rungs: dict[object, SharedRung] = field(default_factory=dict)   # setup sections, introduction, front matter
    table_lead_ins: dict[int, list[Located]] = field(default_factory=dict)
    table_footnotes: dict[int, list[Located]] = field(default_factory=dict)
    footnote_tables: dict[int, int] | None = None   # block -> the table it is a footnote of (every table's)
    # mentions of the post's statements of universal scope, each with the offset the claims it covers start before
    universal: list[tuple[Located, int]] | None = None
    universal_reaches: list[int] = field(default_factory=list)   # their distinct reaches, sorted
    first_code: dict[int | None, int] | None = None   # section -> the start of its first code block
    other_run: dict[int, bool] = field(default_factory=dict)   # id(mention) -> its sentence describes another run
    settings_of: dict[tuple[int, int], list[tuple[str, str]]] = field(default_factory=dict)   # sentence -> settings
    # sentence -> the claims' figures that start in it, and the hardware and models it names (rungs_local.py)
    systems_of: dict[tuple[int, int], tuple[list, set[str], set[str]]] = field(default_factory=dict)
    # offset -> where the sentence holding it ends in the view (rungs_local.py `_nearer_result`)
    sentence_ends: dict[int, int] = field(default_factory=dict)
    # (text read, sentence start, end) -> its clauses (clauses.py `ClauseScope.own_clause`)
    clauses_of: dict[tuple, list] = field(default_factory=dict)
    # (pattern, sentence) -> whether the sentence pairs its figures with a list in order (ties.py `paired_in_order`)
    respectively: dict[tuple[object, int, int], bool] = field(default_factory=dict)
    # section -> the spans of its subsections that hold a claim's figure (rungs_document.py `_other_cases`)
    result_subsections: dict[int | None, list[tuple[int, tuple[int, int]]]] | None = None
    code_runs: dict[tuple[int, int], bool] = field(default_factory=dict)   # sentence -> it says what code above runs
    setup_models: dict[int, frozenset[str]] | None = None   # setup section -> the models its heading names (if any)


def claim_kind(site: Site) -> tuple:
    """What, besides its place, decides which mentions of a rung fit a claim (`ScopeLadder._kept`)."""
    return (tuple(sorted((name, tuple(sorted(values))) for name, values in site.own.items())),
            frozenset(site.modes), frozenset(site.devices), frozenset(site.models),
            site.baseline_devices, frozenset(site.own_loads))


def kept_key(site: Site, kind: tuple, tier: SharedRung, scope: str) -> tuple:
    """The memo key of the mentions of a shared rung that fit a claim the rung does not touch: what decides is the
    claim's metric family, whether it is an accuracy figure, and of its kind (the settings of its own sentence,
    its modes, devices, models, the devices it is compared with, its sentence's load kinds) only what the rung's
    mentions can be bound to (most rungs hold no setting bound to a mode or device)."""
    asks = summary(tier, "asks", lambda xs: _asks(site.d, xs), _either)
    return ("kept", scope, (site.family, site.claim.metric == "accuracy", *(k if a else None for k, a in zip(kind, asks))))


def _either(first: tuple[bool, ...], then: tuple[bool, ...]) -> tuple[bool, ...]:
    return tuple(a or b for a, b in zip(first, then))


def _asks(d: Document, located: list[Located]) -> tuple[bool, bool, bool, bool, bool, bool]:
    """Which parts of a claim's kind can decide whether these mentions fit it: its own sentence's loads (a mention
    in a sentence), its modes, devices, models (a setting bound to one), the devices it is compared with (bound to
    a device, or a load in a caption), its sentence's load kinds (a setting bound to a metric family)."""
    sentence = mode = device = model = family = baseline = False
    for x in located:
        sentence |= x.sentence is not None
        mode |= x.for_mode is not None
        device |= x.for_device is not None
        model |= x.for_model is not None
        family |= x.for_family is not None
        baseline |= x.name in MEASURED_KINDS and x.block >= 0 and d.blocks[x.block].kind == "caption"
    return sentence, mode, device, model, device or baseline, family
