"""The eval report as text (a table per document and the total, then what went wrong) or JSON."""
from __future__ import annotations

from extractor.evaluation.score import DocumentScore, EvalReport, Score

COLUMNS = (("gold", "gold_claims"), ("pred", "predicted_claims"), ("match", "matched"),
           ("recall", "claim_recall"), ("precision", "claim_precision"), ("headline", "headline_recall"),
           ("metric", "metric_accuracy"), ("conditions", "condition_accuracy"), ("guessed", "guessed_conditions"))


def _cell(score: Score, field: str) -> str:
    value = getattr(score, field)
    if value is None:
        return "-"
    return f"{value:.3f}" if isinstance(value, float) else str(value)


def render_text(report: EvalReport, detail: bool = False) -> str:
    """An aligned table, one line per document and a total line; with `detail`, the misses."""
    rows = [["document"] + [label for label, _ in COLUMNS]]
    for d in report.documents:
        rows.append([d.doc + ("" if d.complete else " *")] + [_cell(d.score, f) for _, f in COLUMNS])
    rows.append(["TOTAL"] + [_cell(report.total, f) for _, f in COLUMNS])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
             for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(len(lines) - 1, lines[1])
    t = report.total
    lines.append(f"conditions scored {t.conditions_scored}: {t.conditions_right} right, {t.guessed_conditions} "
                 f"guessed, {t.missed_conditions} missed, {t.wrong_values} with another value")
    if any(not d.complete for d in report.documents):
        lines.append("* gold lists only some claims: precision not scored")
    if detail:
        for d in report.documents:
            lines += _detail(d)
    return "\n".join(lines) + "\n"


def _detail(d: DocumentScore) -> list[str]:
    out = []
    out += [f"  missed claim: {q!r}" for q in d.missed_claims]
    if d.complete:
        out += [f"  extra claim: {q!r}" for q in d.extra_claims]
    out += [f"  metric: {m}" for m in d.wrong_metric]
    out += [f"  {m.kind} {m.name} at {m.quote!r}: gold {m.gold}, got {m.got}" for m in d.condition_misses]
    return [f"\n{d.doc}:"] + out if out else []


def render(report: EvalReport, fmt: str, detail: bool = False) -> str:
    """`text` or `json` (the whole report, with every miss)."""
    if fmt == "json":
        return report.model_dump_json(indent=2) + "\n"
    return render_text(report, detail)
