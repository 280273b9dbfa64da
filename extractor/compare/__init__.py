"""Comparing claims: can two figures be put side by side? (rows same / differs / unknown, values in one
unit, caveats, a verdict), the comparable groups of a set of claims, and figures restated across posts.

    from extractor.compare import ClaimRef, compare
    result = compare(ClaimRef.of(record_a, 0), ClaimRef.of(record_b, 2))
    print(result.verdict_line)

What must match is data: rules/compare.yaml. This package reads records only; the store, the CLI and
the pages (corpus, audit) call it.
"""
from extractor.compare.engine import compare
from extractor.compare.model import ClaimRef, Comparison, Row
from extractor.compare.rules import CompareRules, load_compare_rules

__all__ = ["ClaimRef", "Comparison", "CompareRules", "Row", "compare", "load_compare_rules"]
