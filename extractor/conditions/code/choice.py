"""Which of several named values the run's code settles: a passage that names two models (a draft and a target,
two checkpoints compared) while the run's code loads one of them states that one for the run's results; and the
model the run's code loads by its repository id where the prose around the claim names a model loosely."""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from extractor.conditions.readings import Mention

CODE_SCOPE = "code"
RUN_SCOPES = (CODE_SCOPE, "command_line")   # the rungs of the run's code and commands
_REPOSITORY_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def settled_by_code(picked: Sequence[Mention], usable: Sequence[tuple[str, dict]], name: str,
                    key: Callable[[Mention], str]) -> Mention | None:
    """The one of `picked` (the several values a rung states for condition `name`) that the run's code (the rung of
    scope `code` in `usable`, a claim's rungs by condition) states as its only value; None otherwise."""
    code = [x.m for scope, by_name in usable if scope == CODE_SCOPE for x in by_name.get(name, ())]
    values = {key(m) for m in code}
    if len(values) != 1:
        return None
    value = values.pop()
    same = [m for m in picked if key(m) == value]
    return same[0] if len({key(m) for m in same}) == 1 and same else None


def loaded_by_code(usable: Sequence[tuple[str, dict]], name: str) -> tuple[Mention, str] | None:
    """The one repository id (`org/name`) the run's code and commands load for condition `name`, with its scope;
    None when they load none, several, or name it otherwise."""
    found = [(x.m, scope) for scope, by_name in usable if scope in RUN_SCOPES for x in by_name.get(name, ())
             if x.usable]
    ids = {str(m.value).strip() for m, _ in found}
    if len(ids) != 1 or not _REPOSITORY_ID.match(next(iter(ids))):
        return None
    return found[0]
