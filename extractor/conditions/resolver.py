"""Load conditions of each claim: read from the scope ladder (rules/scopes.yaml `ladder`, most specific
rung first; ladder.py), decided by the resolution policy (policy.py: most specific stated rung wins, two
values there are ambiguous), written as the record's conditions (statement.py); a condition the text
does not tie to the claim is unrecoverable with a where-note (where.py), never filled in by a guess."""
from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass
from pathlib import Path

from extractor.claims.output_blocks import OutputBlocks
from extractor.conditions._internals.sharing import ConditionPool
from extractor.conditions.bindings import ModeSettings
from extractor.conditions.code.reader import CodeReader
from extractor.conditions.context import DocContext, flat_prose
from extractor.conditions.decisions import ColumnCell, EngineVersion, Parts, Pick, Scopes, Unstated
from extractor.conditions.document_reader import DocumentReader
from extractor.conditions.figures import document_figures
from extractor.conditions.ladder import LadderReading, ScopeLadder
from extractor.conditions.located import NUMERIC_KINDS, Located
from extractor.conditions.machine_counts import machines_of_another_device, machines_only_broader, parts_of_the_machine
from extractor.conditions.mentions import Mention, MentionFinder, covering
from extractor.conditions.mentions_merge import MentionMerger
from extractor.conditions.output_setup import OutputSetup
from extractor.conditions.places import DocumentPlaces, Places
from extractor.claims.rules import load_claim_rules
from extractor.conditions.policy import DocumentPolicy, Policy
from extractor.conditions.prompt_quotes import PromptQuotes
from extractor.conditions.restatements import (fill_from_printed, fill_from_range_ends, fill_from_restatements,
                                               fill_from_sentence_figures, fill_from_table_rows)
from extractor.conditions.rules import SCOPES_FILE, load_scope_rules
from extractor.conditions.scan import finditer_from_starts, fold, prepare_starts
from extractor.conditions.size_names import size_references
from extractor.conditions.statement import DocumentStatements, Statements
from extractor.conditions.ties import ClaimSite
from extractor.conditions.where import DocumentWhere, Reason, WhereNotes
from extractor.conditions.where_rules import load_where_rules
from extractor.ingest import Document
from extractor.ingest.segment import Passage
from extractor.records import CONDITIONS, Claim, Condition
from extractor.rules_io import RuleError
from extractor.spans import overlaps_near


@dataclass(slots=True)
class DocumentConditions:
    """One document's condition resolution: the context every reader shares, and each reader's own per-document
    state (made once, in `ConditionResolver.context`)."""

    ctx: DocContext
    where: DocumentWhere
    places: DocumentPlaces
    ladder: LadderReading | None   # (its shared rungs and memos are dropped once the claims are resolved)
    policy: DocumentPolicy
    statements: DocumentStatements
    modes: ModeSettings

    @property
    def mentions(self) -> list[Located]:
        return self.ctx.mentions


def _check_pattern_names(rules_dir: Path, names: list[str], finder: MentionFinder) -> None:
    """scopes.yaml `own_sentence_only` names patterns of conditions.yaml: a name that is none (a typo) would
    silently let its phrasing through every rung."""
    unknown = sorted(set(names) - {p.entry.name for p in finder.rules.patterns})
    if unknown:
        raise RuleError(Path(rules_dir) / SCOPES_FILE, "own_sentence_only",
                        f"no pattern of conditions.yaml is named {', '.join(map(repr, unknown))}")


class ConditionResolver:
    """Attaches the checklist conditions to claims: `mentions` and `context` once per document, then
    `attach` for its claims."""

    def __init__(self, rules_dir: Path):
        self.scopes = load_scope_rules(rules_dir)
        self.finder = MentionFinder(rules_dir)
        _check_pattern_names(rules_dir, self.scopes.own_sentence_only, self.finder)
        self.code = CodeReader(rules_dir, self.finder)
        self.places = Places(rules_dir, self.scopes)
        self.reader = DocumentReader(self.scopes, self.places.family_cues)
        self.where = WhereNotes(load_where_rules(rules_dir))
        abbreviations = frozenset(a.lower() for a in load_claim_rules(rules_dir).abbreviations)
        self.ladder = ScopeLadder(self.scopes, self.places, abbreviations)
        self._scope_rank = self.scopes.scope_rank()   # a scope's place on the ladder: lower is more specific
        self._devices: dict[str, frozenset[str]] = {}   # baseline -> the devices it names
        self.policy = Policy(self.scopes, self.finder.rules.conditions.hardware_count.single_device)
        self.statements = Statements(self.scopes)
        self.bare_version = re.compile(self.scopes.bare_version)
        self.bare_commit = re.compile(self.scopes.bare_commit, re.I)
        self.commit_owner = re.compile(self.scopes.commit_owner, re.I)
        self.size_reference = re.compile(self.scopes.size_reference, re.I)
        self.version_owner = re.compile(self.scopes.version_owner_before)
        prepare_starts(self.bare_version, self.bare_commit)
        self.merger = MentionMerger(self.scopes, self.where.where.sweep_note_no_figure)
        self.output = OutputSetup(OutputBlocks.from_rules(rules_dir))
        self.prompts = PromptQuotes(self.scopes)
        self.single_device = self.finder.rules.conditions.hardware_count.single_device

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
        found += self.prompts.mentions(d)
        bare = self._bare_versions(d, found)
        if bare:   # the phrasings that make a version no run's (a minimum, an upcoming release) hold for these too
            bare = [m for m in self.finder.drop_not_conditions(flat, bare) if m.version]
        return self.code.replace(d, _same_build_once(found + bare))

    def _bare_versions(self, d: Document, found: list[Mention]) -> list[Mention]:
        """A version or commit written without its engine ("the v0.9.1 image", "(commit 1a2b3c4d)") is the
        version of the one serving engine the post is about; in a post about several, of the one engine its
        own sentence names ("SGLang (v0.4.1): ... commit: 1a2b3c4d"). A version right after another product's name
        is that product's (`version_owner_before`: "TileRT v0.1.5")."""
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
                if group == "v" and self.version_owner.search(d.text, max(0, span[0] - 48), span[0]):
                    continue   # another product's version ("TileRT v0.1.5"), not the engine's
                if len(engines) == 1:
                    engine = next(iter(engines))
                else:
                    lo, hi = covering(d.view, span[0], span[1], "sentence")
                    here = {name for _, name in named[bisect_left(starts, lo):bisect_left(starts, hi)]}
                    if len(here) != 1:
                        continue
                    engine = here.pop()
                if group == "c" and self._not_the_engine_s(d.view, m, engine):
                    continue
                out.append(Mention(kind="engine", value=engine, canonical=engine, version=m.group(group),
                                   quote=d.text[span[0]:span[1]], span=span, rule=f"scopes.yaml:{rule}"))
        return sorted(out, key=lambda x: x.span)

    def _not_the_engine_s(self, view: str, m: re.Match[str], engine: str) -> bool:
        """A bare commit that the text before it on its line gives to another component (`commit_owner`: "using
        MORI commit 1a2b3c4d")."""
        line = view.rfind("\n", 0, m.start()) + 1
        owner = self.commit_owner.search(view, max(line, m.start() - 80), m.start())
        return owner is not None and owner["owner"].lower() != engine.lower()

    def context(self, d: Document, found: list[Mention], claims: list[Claim] = ()) -> DocumentConditions:
        """What resolution needs of the document: its context and each reader's state for it; a number that
        states a claim ("14.8k output tokens per second") is not also a condition."""
        claimed = sorted(c.span for c in claims)
        found = [m for m in found if not _numeric(m) or not overlaps_near(claimed, *m.span)]
        found = sorted(found + size_references(d.view, found, self.size_reference), key=lambda m: m.span)
        ctx = self.reader.context(d, found, claimed, self.output.printed(d), self.code.feeds(d))
        where = self.where.reading(ctx, self.where.offers(d, found), document_figures(d))
        places = self.places.reading(ctx)
        return DocumentConditions(ctx, where, places, self.ladder.reading(ctx, places), self.policy.reading(ctx),
                                  self.statements.reading(ctx, where), ModeSettings(ctx))

    # -- per claim -------------------------------------------------------------
    def attach(self, doc: DocumentConditions, placed: list[tuple[Claim, Passage]], leads: set[int] = frozenset()
               ) -> list[Claim]:
        """Set the conditions of each claim (with the passage it was read from); merge the mentions of
        one figure for one setup into one claim (mentions_merge.py; `leads`: ids of the claims in a
        headline position); then fill a headline's unstated conditions from a restatement of its
        figure that did not merge (a rounded form). Returns the claims."""
        reasons, unclear = [], []
        pool = ConditionPool()   # a long table's claims share most conditions: one object each (_internals/sharing.py)
        for claim, passage in placed:
            unclear.append({})
            conditions, why = self.resolve(doc, claim, passage, unclear[-1])
            claim.conditions = pool.share(conditions)
            reasons.append(why)
        doc.ladder = None   # the shared rungs and what was derived from them: no longer needed, memory freed
        claims, reasons = self.merger.merge(
            doc.ctx.d, placed, reasons, unclear, leads,
            lambda claim, name, values: doc.where.unrecoverable(claim, name, "ambiguous", values=values))
        ambiguous = [{n for n, r in why.items() if r == "ambiguous"} for why in reasons]
        fill_from_restatements(claims, ambiguous)
        fill_from_range_ends(claims, ambiguous, self.scopes.range_top_conditions)
        fill_from_sentence_figures(claims, ambiguous, self.scopes.range_top_conditions, doc.ctx.d.view)
        fill_from_printed(claims, ambiguous)
        fill_from_table_rows(claims, ambiguous)
        parts_of_the_machine(claims, doc.ctx.d, lambda claim, name, values: doc.where.unrecoverable(
            claim, name, "ambiguous", values=values), lambda claim, span: _int_value(doc.statements.column_value(
                claim.model_copy(update={"span": span}), "gpu_count")))
        for claim in claims:   # a figure quoted from another party is not what the post leads with
            if claim.cited_from:
                claim.headline = False
        return claims

    @staticmethod
    def credited_elsewhere(doc: DocumentConditions, claims: list[Claim]) -> tuple[list[Claim], list[tuple[Claim, str]]]:
        """(the claims of the post, the claims its text credits to another party with the rule that credits each):
        a study's, a paper's or a compared model's own report's figure is no claim of the post (set aside `cited`).
        A credit by a link alone, or to the post's own PR or issue, keeps the claim with `cited_from`."""
        credited = doc.places.credits.credited
        kept, aside = [], []
        for claim in claims:
            rule = credited.get((claim.span[0], claim.span[1])) if claim.cited_from else None
            if rule is None:
                kept.append(claim)
            else:
                aside.append((claim, rule))
        return kept, aside

    def resolve(self, doc: DocumentConditions, claim: Claim, passage: Passage,
                ambiguous_at: dict[str, str] | None = None) -> tuple[dict[str, Condition], dict[str, Reason]]:
        """The claim's conditions, and the reason of each unrecoverable one; `ambiguous_at` (when given)
        gets the scope that states several values of each ambiguous condition."""
        linked = doc.places.linked_section(claim, passage)
        baseline_devices = self._devices_of(claim.baseline) if claim.baseline else frozenset()
        levels, site = doc.ladder.levels(doc.ladder.site(claim, passage, linked, baseline_devices))
        source = doc.places.external_source(claim, passage, linked)
        claim.cited_from = doc.places.cited_from(claim, passage, source)
        if source:
            # a result the post cites from elsewhere: only what its own sentence says is stated here
            levels = [level for level in levels if level.scope == "sentence"]
        scopes = Scopes(levels)
        if claim.context.block == "table":   # a device count in the claim's row settles a place that counts two ways
            row = doc.statements.column_value(claim, "gpu_count")
            scopes.row_count = row.value if row is not None and type(row.value) is int else None
        out: dict[str, Condition] = {}
        reasons: dict[str, Reason] = {}
        stated_by: dict[str, Mention] = {}   # the mention that states a condition alone
        for name in CONDITIONS:
            out[name], reason, by = self._condition(doc, claim, name, scopes, ambiguous_at)
            if reason == "absent" and not source and (mode := self._mode_setting(doc, site, name)) is not None:
                (out[name], by), reason = mode, None
            if by is not None:
                stated_by[name] = by
            if reason is not None:
                reasons[name] = reason
            if source and out[name].status == "unrecoverable":
                out[name], reasons[name] = self.where.external(source), "external"
        hw = out["hardware"]
        if hw.status == "stated" and hw.note == UNCOUNTED and out["gpu_count"].status == "stated" \
                and self._scope_rank.get(out["gpu_count"].scope, 0) >= self._scope_rank.get(hw.scope, 0):
            # the place that counts the device two ways (or a broader one) gives no count of this claim's run
            out["gpu_count"] = doc.where.unrecoverable(claim, "gpu_count", "ambiguous", values=hw.value)
            reasons["gpu_count"] = "ambiguous"
        if hw.status == "stated" and hw.count and (out["gpu_count"].status == "unrecoverable"
                                                   or machines_only_broader(out["gpu_count"], hw, self._scope_rank)):
            out["gpu_count"] = Condition(status="stated", value=hw.count, quote=hw.quote, span=hw.span,
                                         scope=hw.scope)
            reasons.pop("gpu_count", None)
        elif out["gpu_count"].status == "stated" and hw.status == "stated" and hw.count \
                and isinstance(out["gpu_count"].value, int) and out["gpu_count"].value != hw.count:
            self._reconcile_counts(doc, claim, out, reasons, stated_by["hardware"])
        self._one_device_of_several(doc, claim, out, reasons)
        if machines_of_another_device(out["gpu_count"], hw, self.finder):
            out["gpu_count"] = doc.where.unrecoverable(claim, "gpu_count", "ambiguous", values=out["gpu_count"].quote)
            reasons["gpu_count"] = "ambiguous"
        for name, cond in out.items():  # provenance: quote the original text (mentions are found in the masked view)
            if cond.span is not None and cond.quote != (quote := doc.ctx.d.text[cond.span[0]:cond.span[1]]):
                out[name] = cond.model_copy(update={"quote": quote})
        return out, reasons

    def _reconcile_counts(self, doc: DocumentConditions, claim: Claim, out: dict[str, Condition],
                          reasons: dict[str, Reason], device: Mention) -> None:
        """A hardware count and a device count that disagree ("a single Gaudi 2 card" in one sentence, "on 8
        cards" in another): the more specific scope's count stands; at one scope the post is ambiguous about
        both (and about the single-device layout the hardware's count gave). `device`: the hardware's mention."""
        hw, n = out["hardware"], out["gpu_count"]
        rank = self._scope_rank
        single = out["parallelism"].status == "stated" and out["parallelism"].span == hw.span
        if rank.get(hw.scope, len(rank)) < rank.get(n.scope, len(rank)):
            out["gpu_count"] = Condition(status="stated", value=hw.count, quote=hw.quote, span=hw.span,
                                         scope=hw.scope)
            return
        if rank.get(n.scope, len(rank)) < rank.get(hw.scope, len(rank)):
            out["hardware"] = hw.model_copy(update={"value": self.statements.device(device).name, "count": None})
            changed = ["parallelism"] if single else []
        else:
            changed = ["hardware", "gpu_count"] + (["parallelism"] if single else [])
        values = f"{hw.value}, {n.quote}"
        for name in changed:
            out[name] = doc.where.unrecoverable(claim, name, "ambiguous", values=values)
            reasons[name] = "ambiguous"

    def _one_device_of_several(self, doc: DocumentConditions, claim: Claim, out: dict[str, Condition],
                               reasons: dict[str, Reason]) -> None:
        """A single-device layout read from another place than the claim's hardware, no more specific than a
        place that counts several devices ("4x GB200" in the claim's sentence, "a single GB200" in its section
        about another run): the post is ambiguous about the layout, not a single device."""
        par, hw, n = out["parallelism"], out["hardware"], out["gpu_count"]
        if par.status != "stated" or self.single_device not in str(par.value).split(", ") or par.span == hw.span:
            return
        rank = self._scope_rank
        several = [c for c, count in ((hw, hw.count if hw.status == "stated" else None),
                                      (n, n.value if n.status == "stated" and isinstance(n.value, int) else None))
                   if count and count > 1 and rank.get(c.scope, len(rank)) <= rank.get(par.scope, len(rank))]
        if several:
            out["parallelism"] = doc.where.unrecoverable(claim, "parallelism", "ambiguous",
                                                         values=f"{par.quote}, {several[0].quote}")
            reasons["parallelism"] = "ambiguous"

    def _devices_of(self, name: str) -> frozenset[str]:
        """The devices a baseline names ("the A100" -> NVIDIA A100), by the hardware gazetteer (memoised)."""
        if name not in self._devices:
            self._devices[name] = frozenset(m.canonical or str(m.value) for m in self.finder.find(name)
                                            if m.kind == "hardware")
        return self._devices[name]

    def _mode_setting(self, doc: DocumentConditions, site: ClaimSite, name: str
                      ) -> tuple[Condition, Mention] | None:
        """The setting the post gives the one mode the claim's clause names ("13% faster at min-latency",
        where the post says "the min-latency scenario, i.e. concurrency 8"), for a condition no place around
        the claim states; with the mention that states it."""
        if len(site.modes) != 1 or name not in self.reader.binder.kinds:
            return None
        mode = next(iter(site.modes))
        m = doc.modes(mode, name)
        if m is None:
            return None
        cond = doc.statements.stated(site.claim, name, m, "document")
        note = f"the post gives the {mode} mode this setting ('{' '.join(m.quote.split())}')"
        return cond.model_copy(update={"note": "; ".join(x for x in (cond.note, note) if x)}), m

    def _condition(self, doc: DocumentConditions, claim: Claim, name: str, scopes: Scopes,
                   ambiguous_at: dict[str, str] | None = None) -> tuple[Condition, Reason | None, Mention | None]:
        """Condition `name` of the claim, the reason when it is unrecoverable, and the mention that states it
        when one does alone."""
        decision = doc.policy.decide(name, scopes)
        if isinstance(decision, ColumnCell):
            cell = doc.statements.column_value(claim, name)
            if cell is not None:
                return cell, None, None
            decision = decision.fallback or Unstated("absent")
        if isinstance(decision, Pick):
            cond = doc.statements.stated(claim, name, decision.mention, decision.scope)
            if decision.note:
                cond = cond.model_copy(update={"note": "; ".join(x for x in (cond.note, decision.note) if x)})
            if decision.uncounted:
                cond = cond.model_copy(update={
                    "value": self.statements.device(decision.mention).name, "count": None,
                    "note": UNCOUNTED})
            return cond, None, decision.mention
        if isinstance(decision, Parts):
            return self.statements.parts(decision.mentions, decision.scope), None, None
        if isinstance(decision, EngineVersion):
            return doc.statements.engine_version(decision), None, None
        if (several := self.policy.several(name, decision, claim.qualifier, claim.headline, scopes,
                                                doc.ctx.d.view)) is not None:
            return doc.statements.several(claim, name, several, decision.scope), None, None
        cond = doc.where.unrecoverable(claim, name, decision.reason, values=decision.values, engine=decision.engine)
        if decision.reason in ("no_version", "partial", "variants"):
            cond = cond.model_copy(update={"value_partial": decision.engine})
        if decision.scope and ambiguous_at is not None:
            ambiguous_at[name] = decision.scope
        return cond, decision.reason, None


UNCOUNTED = "the post counts this device two ways here (two runs); the count of this claim's run is not stated"
_COMMIT = re.compile(r"^[0-9a-f]{7,40}$", re.I)


def _same_build_once(found: list[Mention]) -> list[Mention]:
    """`found` without an engine's commit that another version of the same engine holds ("0.9.0.dev1+g1a2b3c4d"
    and "commit 1a2b3c4d": one build, written twice, not two values)."""
    versions: dict[str, set[str]] = {}
    for m in found:
        if m.kind == "engine" and m.version:
            versions.setdefault(m.canonical or str(m.value), set()).add(m.version.lower())
    if not any(len(v) > 1 for v in versions.values()):
        return found
    return [m for m in found if not (m.kind == "engine" and m.version and _COMMIT.match(m.version)
                                     and any(v != m.version.lower() and m.version.lower() in v
                                             for v in versions.get(m.canonical or str(m.value), ())))]


def _numeric(m: Mention) -> bool:
    """A mention that is a number: a length, a load, a count, or a scenario given by its rate ("24 QPS")."""
    return m.kind in NUMERIC_KINDS or m.kind == "scenario" and any(ch.isdigit() for ch in m.quote)


def _int_value(cond: Condition | None) -> int | None:
    return cond.value if cond is not None and type(cond.value) is int else None
