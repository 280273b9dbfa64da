"""The audit report of one record written out as text or Markdown (or JSON): `render_audit`."""
from __future__ import annotations

import json
import re
from typing import Iterable

from extractor.audit.checklist import (CLOSING, LABELS, NOT_IN_RECORD, AbsentCondition, AuditReport, Format,
                                       StatedCondition, build_audit, stated_times)
from extractor.records import CONDITIONS, DocumentRecord, Note


def render_audit(record: DocumentRecord, fmt: Format = "text", claim_id: str | None = None) -> str:
    """The audit of a record (of its claim `claim_id`, else its headline) as 'text', 'markdown' or 'json'."""
    report = build_audit(record, claim_id)
    if fmt == "json":
        return json.dumps(report.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    if fmt == "markdown":
        return _markdown(report)
    if fmt == "text":
        return _text(report)
    raise ValueError(f"unknown audit format {fmt!r}: use text, markdown or json")


def _title_line(r: AuditReport) -> str:
    assert r.figure is not None
    who = r.engine or "engine not stated"
    model = r.model or "model not stated"
    hw = r.hardware or "hardware not stated"
    return f"{who}: {model} on {hw}, {r.figure.text}"


def _cond_sentence(c: StatedCondition) -> str:
    s = f"{c.label[0].upper()}{c.label[1:]}: {c.text}"
    if c.note:
        s += f" - {c.note}"
    return s


def _absent_line(a: AbsentCondition) -> str:
    if not a.in_record:
        return f"- {a.label}: {NOT_IN_RECORD}"
    said = ((a.value_partial, "(only '{}' is named)"), (a.where, "- where: {}"), (a.why, "(why: {})"),
            (a.note, "[{}]"))
    return " ".join([f"- {a.label}: unrecoverable", *(form.format(value) for value, form in said if value)])


_URL = re.compile(r"\s*\(?https?://[^\s)]+\)?")


def _once(lines: Iterable[str], seen: set[str]) -> list[str]:
    """The lines with each URL written out only the first time (later: "(link above)")."""
    out = []
    for line in lines:
        def shorten(m: re.Match[str]) -> str:
            url = m.group(0).strip().strip("()")
            if url in seen:
                return " (link above)"
            seen.add(url)
            return m.group(0)
        out.append(_URL.sub(shorten, line))
    return out


def _checked_header(r: AuditReport, label: str = "ABSENT CONDITIONS") -> str:
    names = ", ".join(LABELS[n] for n in r.checklist)
    return f"{label} ({len(r.absent)} of {len(r.checklist)} checked: {names}):"


def _notes_sentences(r: AuditReport) -> list[str]:
    out = []
    if r.authorship:
        out.append(f"Authorship: {r.authorship}.")
    out += _grouped(r.provenance)
    out += _grouped([n for n in r.caveats if n.kind != "no-scenario"])
    if r.token_scopes:
        out.append(r.token_scopes)
    return list(dict.fromkeys(out))      # the same note once


def _template(n: Note) -> tuple[str, str] | None:
    """A note's kind and message with its quote taken out (notes differing only by quote group)."""
    if not n.quote or n.quote not in n.message:
        return None
    return n.kind, n.message.replace(n.quote, "")


def _grouped(notes: list[Note]) -> list[str]:
    """One sentence per run of notes of a kind: the first message, then the other quotes."""
    out: list[str] = []
    i = 0
    while i < len(notes):
        j = i + 1
        while j < len(notes) and _template(notes[j]) == _template(notes[i]) is not None:
            j += 1
        s = _sentence(notes[i].message)
        if j - i > 1:
            s = s[:-1] + f" (also: {'; '.join(n.quote for n in notes[i + 1:j] if n.quote)})."
        out.append(s)
        i = j
    return out


def _sentence(s: str) -> str:
    s = s.strip()
    return (s[0].upper() + s[1:] + ("" if s.endswith(".") else ".")) if s else s


def _text(r: AuditReport) -> str:
    head = r.title or r.doc
    if not r.has_claims:
        return (f"{head}\n\nNo performance claims were found in {r.doc}: there is nothing to audit.\n"
                + "".join(line + "\n" for line in ([""] if r.set_aside else []) + _set_aside_lines(r)))
    lines = [_title_line(r), ""]
    if r.chosen:
        lines += [f"(Audit of claim {r.claim_id}, chosen with --claim.)", ""]
    elif not r.headline_marked:
        lines += ["(No claim is marked as the headline; the first claim in the document is audited.)", ""]
    for f in r.other_headlines:
        lines.append(f"Other headline figure: {f.text} - \"{f.quote}\"" + (f" ({stated_times(f)})" if stated_times(f)
                                                                           else ""))
    if r.other_headlines:
        lines.append("")
    quotes = "; ".join(f"\"{q}\"" for q in ([r.figure.quote] if r.figure else []) + r.same_figure_quotes)
    lines.append(f"Headline as written: {quotes}.")
    if r.figure and stated_times(r.figure):
        text = stated_times(r.figure)
        lines.append(f"{text[0].upper()}{text[1:]} (one claim, audited once).")
    lines.append(" ".join(_cond_sentence(c) + "." for c in r.conditions) or "No condition of this claim is stated.")
    lines.append("")
    notes = _notes_sentences(r)
    if notes:
        lines += [" ".join(notes), ""]
    lines.append(f"LOAD-CONDITION AUDIT ({r.doc}{', ' + r.date if r.date else ''}).")
    lines.append(f"SCENARIO: {r.scenario}" + (f" (\"{r.scenario_quote}\")" if r.scenario_quote else ""))
    for n in r.caveats:
        if n.kind == "no-scenario":
            lines.append(_sentence(n.message))
    lines.append(_checked_header(r))
    seen: set[str] = set()
    lines += _once(map(_absent_line, r.absent), seen) or ["- none: every checklist condition is stated"]
    if r.absent_secondary:
        lines.append("Other conditions not stated:")
        lines += _once(map(_absent_line, r.absent_secondary), seen)
    if r.absent or r.absent_secondary:
        lines.append(CLOSING)
    if r.set_aside:
        lines += [""] + _set_aside_lines(r)
    return "\n".join(lines) + "\n"


def _set_aside_lines(r: AuditReport, bullet: str = "- ") -> list[str]:
    """The post's set-aside figures, apart from its claims: one line per reason, its quotes in text order."""
    if not r.set_aside:
        return []
    by_reason: dict[str, list[str]] = {}
    for a in r.set_aside:
        by_reason.setdefault(a.reason, []).append(f'"{clip_quote(a.quote)}"')
    n = len(r.set_aside)
    head = f"SET ASIDE ({n} figure{'s' if n != 1 else ''} with a performance unit, not claims; by reason):"
    return [head] + [f"{bullet}{reason} ({len(qs)}): {', '.join(qs[:12])}" + (f", ... {len(qs) - 12} more"
                                                                               if len(qs) > 12 else "")
                     for reason, qs in sorted(by_reason.items())]


def clip_quote(quote: str, width: int = 40) -> str:
    q = " ".join(quote.split())
    return q if len(q) <= width else q[:width - 1] + "…"


def _markdown(r: AuditReport) -> str:
    head = r.title or r.doc
    if not r.has_claims:
        return f"# {head}\n\nNo performance claims were found in `{r.doc}`: there is nothing to audit.\n"
    out = [f"# {_title_line(r)}", "", f"Load-condition audit of `{r.doc}`" + (f" ({r.date})" if r.date else ""), ""]
    if not r.headline_marked:
        out += ["_No claim is marked as the headline; the first claim in the document is audited._", ""]
    out += ["## Headline", "", f"- {r.figure.text}: \"{r.figure.quote}\"" if r.figure else ""]
    out += [f"- also written as \"{q}\"" for q in r.same_figure_quotes]
    if r.figure and stated_times(r.figure):
        out.append(f"- {stated_times(r.figure)}")
    out += [f"- {f.text}: \"{f.quote}\"" + (f" ({stated_times(f)})" if stated_times(f) else "")
            for f in r.other_headlines]
    out += ["", "## Conditions", ""]
    out += [f"- **{c.label}**: {c.text}" + (f" - {c.note}" if c.note else "") for c in r.conditions] or ["- none stated"]
    out += ["", "## Provenance", ""]
    if r.authorship:
        out.append(f"- **authorship**: {r.authorship}")
    out += [f"- {n.message}" for n in r.provenance] or ["- none"]
    out += ["", "## Caveats", ""]
    out += [f"- {n.message}" for n in r.caveats] or ["- none"]
    if r.token_scopes:
        out.append(f"- {r.token_scopes}")
    out += ["", "## Scenario", "", f"- {r.scenario}" + (f" (\"{r.scenario_quote}\")" if r.scenario_quote else "")]
    out += ["", f"## {_checked_header(r, 'Absent conditions').rstrip(':')}", ""]
    seen: set[str] = set()
    out += _once(map(_absent_line, r.absent), seen) or ["- none: every checklist condition is stated"]
    if r.absent_secondary:
        out += ["", "## Other conditions not stated", ""]
        out += _once(map(_absent_line, r.absent_secondary), seen)
    if r.absent or r.absent_secondary:
        out += ["", CLOSING]
    if r.set_aside:
        out += ["", f"## Set aside ({len(r.set_aside)})", ""] + _set_aside_lines(r)[1:]
    return "\n".join(out) + "\n"
