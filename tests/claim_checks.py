"""Checks shared by the claim and condition tests: find a claim by its value, and assert how one of its conditions
resolved (stated, or unrecoverable with a `where`), with messages that show what was found instead."""
from __future__ import annotations

from extractor.api import extract_text


def claims_in(text: str, doc: str = "t.md"):
    """The claims extracted from `text`."""
    return extract_text(text, doc=doc).claims


def claim_in(text: str, value: float):
    """The first claim of `text` whose value is `value` in magnitude (a reduction's sign aside)."""
    found = [c for c in claims_in(text) if abs(abs(c.value) - value) < 1e-9]
    assert found, f"no claim with value {value} in {[(c.metric, c.value, c.quote) for c in claims_in(text)]}"
    return found[0]


def claim(record, value, metric=None):
    found = [c for c in record.claims if abs(c.value - value) < 1e-6 and (metric is None or c.metric == metric)]
    assert found, f"no claim {value} {metric or ''} in {[(c.metric, c.value) for c in record.claims]}"
    return found[0]


def stated(c, name):
    cond = c.conditions[name]
    assert cond.status == "stated", f"{name} of {c.quote!r}: {cond.status} ({cond.why})"
    return cond


def unrecoverable(c, name):
    cond = c.conditions[name]
    assert cond.status == "unrecoverable", f"{name} of {c.quote!r} stated as {cond.value!r} ({cond.scope})"
    assert cond.where
    return cond


def claim_quoted(text: str, quote: str):
    """The first claim of `text` whose quote starts with `quote`, else None."""
    found = [c for c in extract_text(text, doc="t.md").claims if c.quote.startswith(quote)]
    return found[0] if found else None


def aside_of(text: str, quote: str) -> tuple[str, str] | None:
    """(reason, rule) of the set-aside figure of `text` quoted `quote`, else None."""
    found = [a for a in extract_text(text, doc="t.md").set_aside if a.quote == quote]
    return (found[0].reason, found[0].rule) if found else None


def credited_record(text: str, doc: str = "t.md", **_):
    """The record's claims as the credit readers leave them (`Extractor.credited_claims`), before the figures the
    text credits to another party leave the claims (set aside as `cited`): what each claim is credited to."""
    from types import SimpleNamespace

    from extractor import limits
    from extractor.api import detect_format, get_extractor
    from extractor.ingest import ingest
    from extractor.ingest.reading import universal_newlines

    text = universal_newlines(text)
    d = ingest(text, doc, detect_format(doc, text))
    return SimpleNamespace(claims=get_extractor(None).credited_claims(d, limits.max_claims(None))[2])


def command_settings(command: str) -> dict[str, str]:
    """What the harness table (rules/harnesses.yaml) reads from one shell command: condition -> value as written."""
    from extractor.conditions.code.harnesses import load_harnesses
    from extractor.conditions.code.shell import ShellReader
    from extractor.conditions.code.source import block_source

    text = f"```bash\n{command}\n```\n"
    src = block_source(text, 0, len(text), "bash")
    return {s.reading.condition: s.value for cmd in ShellReader(load_harnesses()).commands(src) for s in cmd.settings}
