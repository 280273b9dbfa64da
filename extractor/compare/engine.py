"""Two claims side by side: every condition as a row (same, differs, unknown), values in one unit, the
caveats of each, and the verdict.

    result = compare(ClaimRef.of(rec_a, 0), ClaimRef.of(rec_b, 3))
    result.verdict_line       # 'comparable' | 'not comparable: hardware' | 'cannot tell: input_length'

The verdict follows rules/compare.yaml: a `required` condition that differs makes the claims not
comparable; one unrecoverable on either side makes it `cannot tell` (never a guess); `if_either`
conditions count only when one side states them; `shown` ones never weigh in.
"""
from __future__ import annotations

from pathlib import Path

from extractor.compare.model import ClaimRef, Comparison, Row, Side
from extractor.compare.rules import CompareRules, ConditionRule, load_compare_rules
from extractor.compare.values import Value, condition_value, device_count, field_value, match, same_baseline
from extractor.records import Claim

ENTITIES = ("gpu", "user", "node")


def entity(claim: Claim) -> str:
    """What the figure is counted per: gpu, user, node, or the whole system."""
    if claim.per:
        return claim.per
    words = claim.unit.replace("/", " ").split()
    return next((e for e in ENTITIES if e in words), "system")


def figure(claim: Claim) -> str:
    """The value and unit as the record gives them."""
    hi = f"-{claim.value_max:g}" if claim.value_max is not None else ""
    return f"{claim.value:g}{hi} {claim.unit}"


def claim_caveats(ref: ClaimRef, rules: CompareRules) -> list[str]:
    """The caveats shown beside a claim: its qualifier, a citation, a swept condition, and the post's caveats
    that apply to it (rules/compare.yaml `caveats`)."""
    c = ref.claim
    out: list[str] = []
    if c.qualifier in rules.qualifiers:
        out.append(rules.qualifiers[c.qualifier].format(value=figure(c)))
    if c.cited_from:
        out.append(f"cited from {c.cited_from}: not a measurement of this post")
    for name, cond in c.conditions.items():
        if cond.status == "stated" and cond.sweep:
            out.append(f"{name} is a sweep ({cond.quote}): the figure's own point is not stated")
    for note in ref.caveats:
        rule = rules.caveats.get(note.kind)
        if rule is None:
            continue
        if (rule.applies == "headline" and c.headline) or rule.applies == "all" or \
                (rule.applies == "metrics" and c.metric in rule.metrics):
            out.append(f"{note.kind}: {note.message}")
    return list(dict.fromkeys(out))


def _convert(a: Claim, b: Claim, rules: CompareRules, reg_dir: Path | None,
             values: bool = True) -> tuple[float | None, float | None, str | None, Row | None]:
    """B's value (and max) in A's unit, how it was converted, and the `per` row when A and B are counted per
    different things (per GPU vs per system converted only when both device counts are stated)."""
    from extractor.quantities.units import convert

    unit_b, factor, how, per_row = b.unit, 1.0, None, None
    ea, eb = entity(a), entity(b)
    if ea != eb:
        na, nb = device_count(a), device_count(b)
        pair = {ea, eb}
        text_a, text_b = f"per {ea}", f"per {eb}"
        if pair == {"gpu", "system"} and na and nb:
            if eb == "system":
                factor, unit_b, how = 1.0 / nb, f"({b.unit}) / gpu", f"B's system figure divided by its {nb} GPUs"
            else:
                factor, unit_b, how = float(nb), f"({b.unit}) * gpu", f"B's per-GPU figure times its {nb} GPUs"
            per_row = Row(name="per", role="required", status="same", a=text_a, b=text_b, note=how)
        elif pair == {"gpu", "system"}:
            per_row = Row(name="per", role="required", status="unknown", a=text_a, b=text_b, blocks=True,
                          note="per GPU vs per system: converted only when both sides state their device count")
        elif "user" not in pair:   # per node: the GPUs of a node are not recorded
            per_row = Row(name="per", role="required", status="unknown", a=text_a, b=text_b, blocks=True,
                          note=f"{text_a} vs {text_b}: not converted (how many GPUs a node holds is not recorded)")
        else:   # a per-user rate is what one request sees, not a share of the system's
            per_row = Row(name="per", role="required", status="differs", a=text_a, b=text_b, blocks=True)
            return None, None, None, per_row
    elif a.per or b.per:
        per_row = Row(name="per", role="required", status="same", a=f"per {ea}", b=f"per {eb}")
    if not values or (per_row is not None and per_row.status == "unknown"):
        return None, None, None, per_row
    units = [(unit_b, a.unit)]
    if a.metric in rules.per_token_metrics:   # ms and ms/token: one measure of a per-token time
        units += [(f"({unit_b}) * token", a.unit), (f"({unit_b}) / token", a.unit)]
    for src, dst in units:
        try:
            val = convert(b.value * factor, src, dst, reg_dir)
            hi = None if b.value_max is None else convert(b.value_max * factor, src, dst, reg_dir)
        except Exception:  # noqa: BLE001 - pint: incompatible or unknown units
            continue
        if src != b.unit or dst != b.unit:
            how = how or (None if b.unit == a.unit else f"{b.unit} -> {a.unit}")
        return val, hi, how, per_row
    unit_row = Row(name="unit", role="required", status="differs", a=a.unit, b=b.unit, blocks=True,
                   note="the units are of different kinds: no conversion")
    return None, None, None, unit_row


def _row(name: str, role: str, a: Value, b: Value, status: str, note: str | None) -> Row:
    blocks = role != "shown" and (status == "differs" or (status == "unknown" and (
        role == "required" or a.known or b.known)))
    return Row(name=name, role=role, status=status, a=a.text, b=b.text, blocks=blocks, note=note)


Profile = dict[str, Value]


def profile(claim: Claim, rules: CompareRules) -> Profile:
    """The values a comparison matches, once per claim: the claim fields and conditions of the rules."""
    out = {name: field_value(claim, name) for name in rules.claim_fields}
    out.update((name, condition_value(claim, name, rules)) for name in rules.conditions)
    return out


def rows_of(a: Claim, b: Claim, rules: CompareRules, pa: Profile | None = None,
            pb: Profile | None = None) -> list[Row]:
    """The rows of the claims' fields (metric, tokens, statistic, baseline) and conditions (`pa`, `pb`:
    their profiles, when already made)."""
    pa = pa if pa is not None else profile(a, rules)
    pb = pb if pb is not None else profile(b, rules)
    rows: list[Row] = []
    if a.metric != b.metric:
        rows.append(Row(name="metric", role="required", status="differs", a=a.metric, b=b.metric, blocks=True))
    for name, frule in rules.claim_fields.items():
        if frule.metrics and a.metric not in frule.metrics and b.metric not in frule.metrics:
            continue
        va, vb = pa[name], pb[name]
        status, note = match(va, vb, ConditionRule(role=frule.role))
        if status == "differs" and name == "baseline" and same_baseline(va, vb):
            status = "same"
        rows.append(_row(name, frule.role, va, vb, status, note))
    for name, crule in rules.conditions.items():
        va, vb = pa[name], pb[name]
        status, note = match(va, vb, crule)
        rows.append(_row(name, crule.role_for(a.metric), va, vb, status, note))
    return rows


def per_row(a: Claim, b: Claim, rules: CompareRules) -> Row | None:
    """The `per` row alone (what each figure is counted per), without converting the values."""
    return _convert(a, b, rules, None, values=False)[3]


def table_label_row(a: ClaimRef, b: ClaimRef, rows: list[Row], rules: CompareRules) -> Row | None:
    """Two claims of one table of one post, in different rows (or columns), that no row of the comparison
    tells apart: the label of the table row is a setting the records do not hold (a model size, a
    checkpoint), so the claims cannot be told comparable (rules/compare.yaml `table_labels`)."""
    ca, cb = a.claim.context, b.claim.context
    if a.key[0] != b.key[0] or ca.block != "table" or cb.block != "table" or ca.section != cb.section:
        return None
    if any(r.status == "differs" for r in rows):
        return None
    for what, la, lb in (("rows", ca.row_header, cb.row_header), ("columns", ca.column_header, cb.column_header)):
        if la and lb and la.strip().lower() != lb.strip().lower():
            role = rules.table_labels
            return Row(name=f"table {what[:-1]}", role=role, status="unknown", a=la, b=lb, blocks=role != "shown",
                       note=f"the claims sit in different {what} of one table ({la!r} / {lb!r}) and no condition "
                            "tells them apart: what the label names is not in the records")
    return None


def _side(ref: ClaimRef, rules: CompareRules) -> Side:
    c = ref.claim
    return Side(ref=ref.ref, id=c.id, doc=ref.doc, metric=c.metric, figure=figure(c), value=c.value,
                value_max=c.value_max, unit=c.unit, quote=c.quote, caveats=claim_caveats(ref, rules))


def compare(a: ClaimRef, b: ClaimRef, rules: CompareRules | None = None,
            rules_dir: str | Path | None = None) -> Comparison:
    """Compare two claims (see the module docstring)."""
    rules = rules or load_compare_rules(rules_dir)
    reg_dir = Path(rules_dir) if rules_dir else None
    rows = rows_of(a.claim, b.claim, rules)
    b_val = b_hi = how = None
    if a.claim.metric == b.claim.metric:
        b_val, b_hi, how, extra = _convert(a.claim, b.claim, rules, reg_dir)
        if extra is not None:
            rows.insert(0, extra)
    label = table_label_row(a, b, rows, rules)
    if label is not None:
        rows.append(label)
    differs = [r.name for r in rows if r.blocks and r.status == "differs"]
    unknown = [r.name for r in rows if r.blocks and r.status == "unknown"]
    unstated = [r.name for r in rows if r.role == "if_either" and r.status == "unknown" and not r.blocks]
    verdict = "not comparable" if differs else "cannot tell" if unknown else "comparable"
    ratio = a.claim.value / b_val if b_val else None
    return Comparison(a=_side(a, rules), b=_side(b, rules), unit=a.claim.unit if b_val is not None else None,
                      a_value=a.claim.value if b_val is not None else None, b_value=b_val, b_value_max=b_hi,
                      conversion=how, ratio=ratio, rows=rows, verdict=verdict,
                      reasons=differs or unknown, unstated=unstated)
