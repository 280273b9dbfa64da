#!/usr/bin/env python3
"""Draw a random sample of claims and set-aside figures from a batch's JSON Lines, for a precision check by hand.

    python scripts/sample_records.py --jsonl WIDE.jsonl --seed 7 --claims 40 --set-aside 40 [--docs DIR]
        [--markdown] [--context 120]

Each drawn claim is printed with its quote, the sentence around it (with `--docs`, the folder of the posts) and
the fields a reviewer judges (metric, value, unit, qualifier, tokens, per, direction, baseline, statistic, and
`cited_from` when the post credits the figure to another party); each
set-aside figure with its quote, context, reason and rule. The draw is uniform over all claims (resp. all
set-aside figures) of all records, and deterministic for a seed. `--markdown` prints a table with an empty
verdict column, ready to be filled in (docs/sample-check.md is one).

`--conditions N` draws N claims for a check of their conditions instead (docs/conditions-sample-check.md): posts
with claims are drawn uniformly (a post's large table would otherwise fill the draw), then one claim in each;
`--skip-prefix` leaves out posts whose name starts with a prefix (the dev set's writers). Each stated condition
is printed with its value, scope, quote and the text around its quote; the unrecoverable ones by name.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from extractor.api import universal_newlines, read_document

CLAIM_FIELDS = ("metric", "value", "value_max", "unit", "qualifier", "tokens", "per", "direction", "baseline",
                "statistic", "cited_from")


def load(path: Path) -> list[dict]:
    """The document records of a JSON Lines file, in file order (broken lines are reported and skipped)."""
    records = []
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as e:
                print(f"{path}:{n}: skipped, not JSON ({e})", file=sys.stderr)
    return records


def draw(records: list[dict], key: str, n: int, rng: random.Random) -> list[tuple[dict, dict]]:
    """`n` (record, item) pairs drawn without replacement from the `key` lists of all records, in draw order."""
    pool = [(r, item) for r in records for item in r.get(key) or []]
    return rng.sample(pool, min(n, len(pool)))


def context(docs: Path | None, record: dict, span: list[int], width: int) -> str:
    """The text around `span` in the record's post, the figure marked [[...]], on one line ('' without docs)."""
    if docs is None:
        return ""
    name = Path(record.get("doc") or record.get("path") or "").name
    path = docs / name
    if not path.is_file():
        return ""
    text = universal_newlines(read_document(path)[0])   # as the batch read it: CRLF and CR read as LF
    a, b = span
    lo, hi = max(0, a - width), min(len(text), b + width)
    return " ".join((text[lo:a] + "[[" + text[a:b] + "]]" + text[b:hi]).split())


def claim_fields(c: dict) -> str:
    return ", ".join(f"{k}={c.get(k)}" for k in CLAIM_FIELDS if c.get(k) is not None)


def cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def draw_per_post(records: list[dict], n: int, rng: random.Random, skip: tuple[str, ...]) -> list[tuple[dict, dict]]:
    """One claim from each of `n` posts drawn uniformly among the posts with claims (names not starting with `skip`)."""
    posts = [r for r in records if r.get("claims") and not Path(r.get("doc") or "").name.startswith(skip)]
    return [(r, rng.choice(r["claims"])) for r in rng.sample(posts, min(n, len(posts)))]


def print_conditions(docs: Path | None, pairs: list[tuple[dict, dict]], width: int) -> None:
    """Each drawn claim with its stated conditions (value, scope, quote in context) and its unrecoverable ones."""
    for i, (r, c) in enumerate(pairs, 1):
        doc = Path(r.get("doc") or "").name
        print(f"\n## {i}. {doc} @{(c.get('span') or [0])[0]} `{c.get('quote')}` ({claim_fields(c)})\n"
              f"   claim: {context(docs, r, c.get('span') or [0, 0], width)}")
        missing = []
        for name, cond in (c.get("conditions") or {}).items():
            if cond.get("status") != "stated":
                missing.append(name)
                continue
            where = context(docs, r, cond["span"], width // 2) if cond.get("span") else ""
            print(f"   - {name} = {cond.get('value')!r} [{cond.get('scope')}] {where}")
        print(f"   unrecoverable: {', '.join(missing)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jsonl", required=True, type=Path, help="records of a batch (benchclaims batch --jsonl)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--claims", type=int, default=40, help="claims to draw")
    ap.add_argument("--set-aside", type=int, default=40, dest="set_aside", help="set-aside figures to draw")
    ap.add_argument("--docs", type=Path, help="folder of the posts, to print each figure's context")
    ap.add_argument("--context", type=int, default=120, help="characters of context on each side")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table with a verdict column")
    ap.add_argument("--conditions", type=int, default=0, help="claims to draw for a check of their conditions")
    ap.add_argument("--skip-prefix", action="append", default=[], dest="skip",
                    help="with --conditions: leave out posts whose name starts with this (repeatable)")
    a = ap.parse_args(argv)
    records = load(a.jsonl)
    rng = random.Random(a.seed)
    if a.conditions:
        print_conditions(a.docs, draw_per_post(records, a.conditions, rng, tuple(a.skip)), a.context)
        return 0
    claims = draw(records, "claims", a.claims, rng)
    asides = draw(records, "set_aside", a.set_aside, rng)
    n_claims = sum(len(r.get("claims") or []) for r in records)
    n_asides = sum(len(r.get("set_aside") or []) for r in records)
    print(f"# seed {a.seed}: {len(claims)} of {n_claims} claims, {len(asides)} of {n_asides} set-aside figures, "
          f"{len(records)} records")
    rows = [("claim", r, c, claim_fields(c)) for r, c in claims] + \
           [("set aside", r, s, f"reason={s.get('reason')}, rule={s.get('rule')}") for r, s in asides]
    if a.markdown:
        print("\n| # | kind | doc | quote | fields / reason | context | verdict |\n|---|---|---|---|---|---|---|")
    for i, (kind, r, item, fields) in enumerate(rows, 1):
        ctx = context(a.docs, r, item.get("span") or [0, 0], a.context)
        doc = Path(r.get("doc") or "").name
        if a.markdown:
            print(f"| {i} | {kind} | {cell(doc)} | `{cell(item.get('quote') or '')}` | {cell(fields)} | {cell(ctx)} | |")
        else:
            print(f"\n{i:>3}. {kind:<9} {doc} @{(item.get('span') or [0])[0]}\n     quote: {item.get('quote')!r}\n"
                  f"     {fields}" + (f"\n     context: {ctx}" if ctx else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
