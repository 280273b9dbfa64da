"""Conditions: the load conditions of each claim, read from the places around it, never guessed.

Per document (`resolver.ConditionResolver`): `mentions` finds every condition mention (mentions.py with
patterns.py, canonical.py, readings.py; code/ reads benchmark commands and the run's Python); `context` places
them (document_reader.py builds the shared, read-only `context.DocContext` of `located.Located` mentions) and
makes each reader's own per-document object (`DocumentConditions`); `attach` resolves each claim:

- the scope ladder (ladder.py): the claim's site (ties.py `ClaimSite`), then its rungs in the order of
  rules/scopes.yaml `ladder`, each read by a reader registered by name (rungs.py; rungs_local.py,
  rungs_document.py, code/rungs.py), the mentions that fit the claim kept (ties.py);
- the policy (policy.py, decisions.py, refine.py): the most specific rung that states a condition wins;
- the record's `Condition`: stated (statement.py) or unrecoverable with a where-note (where.py);
- then one claim per figure restated for one setup (mentions_merge.py, restatements.py).

Speed-only machinery (shared rungs, memo keys, lookups, the pool of identical conditions) is in _internals/.
"""
