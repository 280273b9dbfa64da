"""Load conditions of each claim: read from the scope ladder (rules/scopes.yaml `ladder`, most specific
rung first; ladder.py), decided by the resolution policy (policy.py: most specific stated rung wins, two
values there are ambiguous), written as the record's conditions (statement.py); a condition the text
does not tie to the claim is unrecoverable with a where-note (where.py), never filled in by a guess."""
from __future__ import annotations

import re
from bisect import bisect_left
from pathlib import Path

from extractor.claims.output_blocks import OutputBlocks
from extractor.conditions.bindings import SettingBinder, mode_setting
from extractor.conditions.output_setup import OutputSetup
from extractor.conditions.code.reader import CodeReader
from extractor.conditions.context import NUMERIC_KINDS, DocContext, DocumentReader, flat_prose
from extractor.conditions.figures import document_figures
from extractor.conditions.ladder import ScopeLadder
from extractor.conditions.ties import ClaimSite
from extractor.conditions.mentions import Mention, MentionFinder, covering
from extractor.conditions.mentions_merge import MentionMerger
from extractor.conditions.places import Places
from extractor.conditions.policy import ColumnCell, EngineVersion, Parts, Pick, Policy, Scopes, Unstated
from extractor.conditions.restatements import fill_from_restatements
from extractor.conditions.scan import finditer_from_starts, fold
from extractor.conditions.rules import load_scope_rules, load_where_rules
from extractor.conditions.sharing import ConditionPool
from extractor.conditions.statement import Statements
from extractor.conditions.where import Reason, WhereNotes
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import CONDITIONS, Claim, Condition
from extractor.spans import overlaps_near

_COUNTED = re.compile(r"^\d+x\s+|\s+\(\d+ nodes x \d+\)$")   # the count a hardware value is written with


class ConditionResolver:
    """Attaches the checklist conditions to claims: `mentions` and `context` once per document, then
    `attach` for its claims."""

    def __init__(self, rules_dir: Path):
        self.scopes = load_scope_rules(rules_dir)
        self.finder = MentionFinder(rules_dir)
        self.code = CodeReader(rules_dir, self.finder)
        self.places = Places(rules_dir, self.scopes)
        self.reader = DocumentReader(self.scopes, self.places.family_cues)
        self.where = WhereNotes(load_where_rules(rules_dir))
        self.ladder = ScopeLadder(self.scopes, self.places)
        self._scope_rank = self.scopes.scope_rank()   # a scope's place on the ladder: lower is more specific
        self.binder = SettingBinder(self.scopes, self.places.family_cues)
        self._devices: dict[str, frozenset[str]] = {}   # baseline -> the devices it names
        self.policy = Policy(self.scopes)
        self.statements = Statements(self.scopes, self.where)
        self.bare_version = re.compile(self.scopes.bare_version)
        self.bare_commit = re.compile(self.scopes.bare_commit, re.I)
        self.merger = MentionMerger(self.scopes, self.where.where.sweep_note_no_figure)
        self.output = OutputSetup(OutputBlocks.from_rules(rules_dir))

    # -- per document --------------------------------------------------------------
    def mentions(self, d: Document) -> list[Mention]:
        """Every condition mention of a document: its view, front matter and (HTML) title."""
        flat = flat_prose(d)
        k_base = self.finder.infer_k_base(flat)  # this resolver's rules; the same text lets find() reuse its scan
        found = self.finder.find(flat, k_base=k_base)
        if d.meta_span:
            lo, hi = d.meta_span
            found += self.finder.find(d.text[lo:hi], lo, k_base=k_base)
        if d.title_span and not d.view[d.title_span[0]:d.title_span[1]].strip():
            lo, hi = d.title_span
            found += self.finder.find(d.text[lo:hi], lo, k_base=k_base)
        found += self.output.models(d, found)
        bare = self._bare_versions(d, found)
        if bare:   # the phrasings that make a version no run's (a minimum, an upcoming release) hold for these too
            bare = [m for m in self.finder.drop_not_conditions(flat, bare) if m.version]
        return self.code.replace(d, found + bare)

    def _bare_versions(self, d: Document, found: list[Mention]) -> list[Mention]:
        """A version or commit written without its engine ("the v0.9.1 image", "(commit 1a2b3c4d)") is the
        version of the one serving engine the post is about; in a post about several, of the one engine its
        own sentence names ("SGLang (v0.4.1): ... commit: 1a2b3c4d")."""
        named = sorted((m.span, m.canonical or str(m.value)) for m in found
                       if m.kind == "engine" and not self.policy.is_supporting(m))
        engines = {name for _, name in named}
        if not engines:
            return []
        starts = [span[0] for span, _ in named]
        taken = sorted(m.span for m in found if m.kind == "engine")
        out = []
        folded = fold(d.view)
        for rx, group, rule in ((self.bare_version, "v", "bare_version"), (self.bare_commit, "c", "bare_commit")):
            for m in finditer_from_starts(rx, d.view, folded):
                span = (m.start(group), m.end(group))
                if overlaps_near(taken, *span):
                    continue
                if len(engines) == 1:
                    engine = next(iter(engines))
                else:
                    lo, hi = covering(d.view, span[0], span[1], "sentence")
                    here = {name for _, name in named[bisect_left(starts, lo):bisect_left(starts, hi)]}
                    if len(here) != 1:
                        continue
                    engine = here.pop()
                out.append(Mention(kind="engine", value=engine, canonical=engine, version=m.group(group),
                                   quote=d.text[span[0]:span[1]], span=span, rule=f"scopes.yaml:{rule}"))
        return sorted(out, key=lambda x: x.span)

    def context(self, d: Document, found: list[Mention], claims: list[Claim] = ()) -> DocContext:
        """What resolution needs of the document; a number that states a claim ("14.8k output tokens per
        second") is not also a condition."""
        claimed = sorted(c.span for c in claims)
        found = [m for m in found if not _numeric(m) or not overlaps_near(claimed, *m.span)]
        ctx = self.reader.context(d, found, self.where.offers(d, found), document_figures(d), self.output.printed(d))
        self.binder.bind(d, ctx.mentions)
        ctx.set_claims(claimed)
        return ctx

    # -- per claim -------------------------------------------------------------
    def attach(self, ctx: DocContext, placed: list[tuple[Claim, Passage]], leads: set[int] = frozenset()
               ) -> list[Claim]:
        """Set the conditions of each claim (with the passage it was read from); merge the mentions of
        one figure for one setup into one claim (mentions_merge.py; `leads`: ids of the claims in a
        headline position); then fill a headline's unstated conditions from a restatement of its
        figure that did not merge (a rounded form). Returns the claims."""
        reasons, unclear = [], []
        pool = ConditionPool()   # a long table's claims share most conditions: one object each (sharing.py)
        for claim, passage in placed:
            unclear.append({})
            conditions, why = self.resolve(ctx, claim, passage, unclear[-1])
            claim.conditions = pool.share(conditions)
            reasons.append(why)
        ctx.rungs.clear()   # the shared rungs and what was derived from them: no longer needed, memory freed
        claims, reasons = self.merger.merge(
            ctx.d, placed, reasons, unclear, leads,
            lambda claim, name, values: self.where.unrecoverable(ctx, claim, name, "ambiguous", values=values))
        fill_from_restatements(claims, [{n for n, r in why.items() if r == "ambiguous"} for why in reasons])
        for claim in claims:   # a figure quoted from another party is not what the post leads with
            if claim.cited_from:
                claim.headline = False
        return claims

    def resolve(self, ctx: DocContext, claim: Claim, passage: Passage, ambiguous_at: dict[str, str] | None = None
                ) -> tuple[dict[str, Condition], dict[str, Reason]]:
        """The claim's conditions, and the reason of each unrecoverable one; `ambiguous_at` (when given)
        gets the scope that states several values of each ambiguous condition."""
        linked = self.places.linked_section(ctx, claim, passage)
        site = ClaimSite(ctx, claim, passage, linked)
        site.baseline_devices = self._devices_of(claim.baseline) if claim.baseline else frozenset()
        levels = self.ladder.levels(site)
        source = self.places.external_source(ctx, claim, passage, linked)
        claim.cited_from = self.places.cited_from(ctx, claim, passage, source)
        if source:
            # a result the post cites from elsewhere: only what its own sentence says is stated here
            levels = [level for level in levels if level.scope == "sentence"]
        scopes = Scopes(levels)
        out: dict[str, Condition] = {}
        reasons: dict[str, Reason] = {}
        for name in CONDITIONS:
            out[name], reason = self._condition(ctx, claim, name, scopes, ambiguous_at)
            if reason == "absent" and not source and (mode := self._mode_setting(ctx, site, name)) is not None:
                out[name], reason = mode, None
            if reason is not None:
                reasons[name] = reason
            if source and out[name].status == "unrecoverable":
                out[name], reasons[name] = self.where.external(source), "external"
        hw = out["hardware"]
        if out["gpu_count"].status == "unrecoverable" and hw.status == "stated" and hw.count:
            out["gpu_count"] = Condition(status="stated", value=hw.count, quote=hw.quote, span=hw.span,
                                         scope=hw.scope)
            reasons.pop("gpu_count", None)
        elif out["gpu_count"].status == "stated" and hw.status == "stated" and hw.count \
                and isinstance(out["gpu_count"].value, int) and out["gpu_count"].value != hw.count:
            self._reconcile_counts(ctx, claim, out, reasons)
        for name, cond in out.items():  # provenance: quote the original text (mentions are found in the masked view)
            if cond.span is not None and cond.quote != (quote := ctx.d.text[cond.span[0]:cond.span[1]]):
                out[name] = cond.model_copy(update={"quote": quote})
        return out, reasons

    def _reconcile_counts(self, ctx: DocContext, claim: Claim, out: dict[str, Condition],
                          reasons: dict[str, Reason]) -> None:
        """A hardware count and a device count that disagree ("a single Gaudi 2 card" in one sentence, "on 8
        cards" in another): the more specific scope's count stands; at one scope the post is ambiguous about
        both (and about the single-device layout the hardware's count gave)."""
        hw, n = out["hardware"], out["gpu_count"]
        rank = self._scope_rank
        single = out["parallelism"].status == "stated" and out["parallelism"].span == hw.span
        if rank.get(hw.scope, len(rank)) < rank.get(n.scope, len(rank)):
            out["gpu_count"] = Condition(status="stated", value=hw.count, quote=hw.quote, span=hw.span,
                                         scope=hw.scope)
            return
        if rank.get(n.scope, len(rank)) < rank.get(hw.scope, len(rank)):
            name = _COUNTED.sub("", hw.value) if isinstance(hw.value, str) else hw.value
            out["hardware"] = hw.model_copy(update={"value": name, "count": None})
            changed = ["parallelism"] if single else []
        else:
            changed = ["hardware", "gpu_count"] + (["parallelism"] if single else [])
        values = f"{hw.value}, {n.quote}"
        for name in changed:
            out[name] = self.where.unrecoverable(ctx, claim, name, "ambiguous", values=values)
            reasons[name] = "ambiguous"

    def _devices_of(self, name: str) -> frozenset[str]:
        """The devices a baseline names ("the A100" -> NVIDIA A100), by the hardware gazetteer (memoised)."""
        if name not in self._devices:
            self._devices[name] = frozenset(m.canonical or str(m.value) for m in self.finder.find(name)
                                            if m.kind == "hardware")
        return self._devices[name]

    def _mode_setting(self, ctx: DocContext, site: ClaimSite, name: str) -> Condition | None:
        """The setting the post gives the one mode the claim's clause names ("13% faster at min-latency",
        where the post says "the min-latency scenario, i.e. concurrency 8"), for a condition no place around
        the claim states."""
        if len(site.modes) != 1 or name not in self.binder.kinds:
            return None
        mode = next(iter(site.modes))
        m = mode_setting(ctx, mode, name)
        if m is None:
            return None
        cond = self.statements.stated(ctx, site.claim, name, m, "document")
        note = f"the post gives the {mode} mode this setting ('{' '.join(m.quote.split())}')"
        return cond.model_copy(update={"note": "; ".join(x for x in (cond.note, note) if x)})

    def _condition(self, ctx: DocContext, claim: Claim, name: str, scopes: Scopes,
                   ambiguous_at: dict[str, str] | None = None) -> tuple[Condition, Reason | None]:
        decision = self.policy.decide(ctx, name, scopes)
        if isinstance(decision, ColumnCell):
            cell = self.statements.column_value(ctx, claim, name)
            if cell is not None:
                return cell, None
            decision = decision.fallback or Unstated("absent")
        if isinstance(decision, Pick):
            cond = self.statements.stated(ctx, claim, name, decision.mention, decision.scope)
            if decision.note:
                cond = cond.model_copy(update={"note": "; ".join(x for x in (cond.note, decision.note) if x)})
            return cond, None
        if isinstance(decision, Parts):
            return self.statements.parts(decision.mentions, decision.scope), None
        if isinstance(decision, EngineVersion):
            return self.statements.engine_version(ctx, decision), None
        if (several := self.policy.several(name, decision, claim.qualifier, claim.headline, scopes)) is not None:
            return self.statements.several(ctx, claim, name, several, decision.scope), None
        cond = self.where.unrecoverable(ctx, claim, name, decision.reason, values=decision.values,
                                        engine=decision.engine)
        if decision.reason in ("no_version", "partial", "variants"):
            cond = cond.model_copy(update={"value_partial": decision.engine})
        if decision.scope and ambiguous_at is not None:
            ambiguous_at[name] = decision.scope
        return cond, decision.reason


def _numeric(m: Mention) -> bool:
    """A mention that is a number: a length, a load, a count, or a scenario given by its rate ("24 QPS")."""
    return m.kind in NUMERIC_KINDS or m.kind == "scenario" and any(ch.isdigit() for ch in m.quote)
