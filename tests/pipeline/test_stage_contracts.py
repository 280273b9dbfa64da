"""Each stage sets only the claim fields its contract declares (`assigns`) and reads only those it declares
(`requires`, or its own `assigns`): the stages are run over the corpus posts with every claim traced."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from extractor import pipeline
from extractor.claims import classify
from extractor.claims.headlines import HeadlineMarker
from extractor.claims.reading import ClaimStage, ReadClaims
from extractor.claims.script_output import ScriptOutputReader
from extractor.claims.sentences import SentenceReader
from extractor.claims.set_aside import FigureDecider
from extractor.claims.tables import TableReader
from extractor.conditions.resolver import ConditionResolver
from extractor.contracts import CLAIM_FIELDS, StageContract
from extractor.notes.caveats import CaveatReader
from extractor.records import Claim

CORPUS = Path(__file__).resolve().parents[2] / "corpus"
FIELDS = frozenset(CLAIM_FIELDS)
_current: list[str] = []                 # the stage running now (innermost last; "" while the test reads)
_reads: dict[str, set[str]] = {}         # stage -> the claim fields it read


@contextmanager
def _stage(name: str) -> Iterator[None]:
    _current.append(name)
    try:
        yield
    finally:
        _current.pop()


class TracedClaim(Claim):
    """A claim that notes which of its fields the running stage reads."""

    def __getattribute__(self, name: str) -> Any:
        if _current and _current[-1] and name in FIELDS:
            _reads.setdefault(_current[-1], set()).add(name)
        return super().__getattribute__(name)


def _fields(c: Claim) -> dict[str, Any]:
    return {f: getattr(c, f) for f in CLAIM_FIELDS}


def _changed(before: dict[str, Any], after: Claim) -> set[str]:
    now = _fields(after)
    return {f for f in CLAIM_FIELDS if now[f] != before[f]}


def _claims_in(value: Any) -> list[Claim]:
    """The claims of an argument or a result: a claim, a list of claims or of (claim, passage), a ReadClaims."""
    if isinstance(value, Claim):
        return [value]
    if isinstance(value, ReadClaims):
        return _claims_in(value.placed)
    if isinstance(value, (list, tuple)):
        return [c for v in value for c in (_claims_in(v) if isinstance(v, (Claim, tuple)) else [])]
    return []


class Run:
    """What the traced stages did over the corpus: fields set beyond each contract, fields read beyond it."""

    def __init__(self) -> None:
        self.set_beyond: dict[str, set[str]] = {}
        self.stages_run: set[str] = set()

    def wrap(self, contract: StageContract, owner: Any, name: str) -> Callable:
        original = getattr(owner, name)

        def traced(*args, **kwargs):
            with _stage(""):
                inputs = [c for a in list(args) + list(kwargs.values()) for c in _claims_in(a)]
                before = {id(c): (c, _fields(c)) for c in inputs}
            with _stage(contract.stage):
                result = original(*args, **kwargs)
            with _stage(""):
                self.check(contract, before, result)
            return result
        return traced

    def check(self, contract: StageContract, before: dict[int, tuple[Claim, dict[str, Any]]], result: Any) -> None:
        """Notes the fields the stage set beyond its contract, on its input claims and on the claims it returns."""
        self.stages_run.add(contract.stage)
        set_here: set[str] = set()
        for c, fields in before.values():          # changed in place
            set_here |= _changed(fields, c)
        for c in _claims_in(result):
            if id(c) in before:
                continue
            if contract.creates:                   # a new claim: every field off its default is set here
                set_here |= {f for f in CLAIM_FIELDS
                             if getattr(c, f) != Claim.model_fields[f].get_default(call_default_factory=True)}
            elif before:                           # a copy of an input: the fields that differ from it
                set_here |= min((_changed(fields, c) for _, fields in before.values()), key=len)
        if extra := set_here - set(contract.assigns):
            self.set_beyond.setdefault(contract.stage, set()).update(extra)


STAGE_ENTRIES: list[tuple[StageContract, Any, str]] = [
    (SentenceReader.contract, SentenceReader, "claims"),
    (TableReader.contract, TableReader, "claims"),
    (ScriptOutputReader.contract, ScriptOutputReader, "claims"),
    (ClaimStage.contract, ClaimStage, "read"),
    (HeadlineMarker.contract, HeadlineMarker, "mark"),
    (pipeline.CONDITIONS, ConditionResolver, "attach"),
    (pipeline.IDS, pipeline, "assign_ids"),
    (FigureDecider.contract, FigureDecider, "decide"),
    (CaveatReader.contract, CaveatReader, "read"),
]


@contextmanager
def traced_stages() -> Iterator[Run]:
    run = Run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(classify, "Claim", TracedClaim)     # every claim a reader creates is traced
        for contract, owner, name in STAGE_ENTRIES:
            mp.setattr(owner, name, run.wrap(contract, owner, name))
        _reads.clear()
        yield run


@pytest.fixture(scope="module")
def corpus_run() -> Run:
    posts = sorted(p for p in CORPUS.iterdir() if p.suffix in (".md", ".html", ".txt"))
    assert posts
    with traced_stages() as run:
        x = pipeline.Extractor.from_rules()
        for p in posts:
            fmt = {".md": "markdown", ".html": "html"}.get(p.suffix, "text")
            x.extract(p.read_text(encoding="utf-8"), doc=p.name, fmt=fmt, path=None, sha256="0")
    return run


def test_every_stage_that_touches_a_claim_has_its_entry_traced():
    assert [c.stage for c, *_ in STAGE_ENTRIES] == [c.stage for c in pipeline.STAGES]


def test_every_stage_runs_on_the_corpus(corpus_run: Run):
    assert corpus_run.stages_run == {c.stage for c in pipeline.STAGES}


def test_no_stage_sets_a_claim_field_it_does_not_declare(corpus_run: Run):
    assert corpus_run.set_beyond == {}


def test_no_stage_reads_a_claim_field_it_does_not_declare(corpus_run: Run):
    beyond = {}
    for contract in pipeline.STAGES:
        extra = _reads.get(contract.stage, set()) - set(contract.requires) - set(contract.assigns)
        if extra:
            beyond[contract.stage] = sorted(extra)
    assert beyond == {}


def test_a_stage_requires_only_fields_an_earlier_stage_sets():
    assigned: set[str] = set()
    for contract in pipeline.STAGES:
        assert set(contract.requires) <= assigned | set(contract.assigns), contract.stage
        assigned |= set(contract.assigns)


def test_the_check_fails_on_a_stage_that_sets_an_undeclared_field():
    """The tracer itself: a headline marker that also rewrites the unit is caught."""
    def mark_and_rewrite(self, d, claims):
        for c in claims:
            c.headline, c.unit = True, "x"
        return claims

    contract = StageContract("headlines", "test", assigns=("headline",), requires=("span",))
    run = Run()
    claim = Claim(metric="speedup", value=2.0, unit="x", quote="2x", span=(0, 2))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(HeadlineMarker, "mark", mark_and_rewrite)
        run.wrap(contract, HeadlineMarker, "mark")(None, None, [claim.model_copy(update={"unit": "percent"})])
    assert run.set_beyond == {"headlines": {"unit"}}


def test_a_contract_naming_no_claim_field_is_refused():
    with pytest.raises(ValueError, match="speed"):
        StageContract("x", "test", assigns=("speed",))
