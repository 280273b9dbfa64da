"""Names flowing between the Python cells of a post: a notebook-style post loads its model in one cell
("Loading the model"), defines the timed function in another and calls it in a third, often under other
headings. The cells a run's cells read names from (transitively: the function they call reads the model its
cell loaded) are the run's code too, wherever they sit; the latest earlier cell that binds a name is the one
read, as when the notebook runs top to bottom."""
from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


@dataclass(frozen=True, slots=True)
class CellNames:
    """The names a cell binds at its top level, and those it reads that it has not bound before reading them
    (its functions' bodies read the names they do not bind themselves)."""

    binds: frozenset[str]
    free: frozenset[str]
    imports: frozenset[str] = frozenset()   # the names of `binds` it binds by importing a module


def cell_names(tree: ast.Module) -> CellNames:
    """What a parsed cell binds and reads from the cells before it."""
    binds: dict[str, int] = {}   # name -> the first line that binds it at the top level
    reads: list[tuple[str, int]] = []
    local_reads: list[tuple[str, frozenset[str]]] = []
    _top(tree, binds, reads, local_reads)
    free = {n for n, line in reads if n not in binds or line <= binds[n]}
    free |= {n for n, local in local_reads if n not in local and n not in binds}
    imports = {(a.asname or a.name).split(".", 1)[0] for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))
               for a in n.names}
    return CellNames(frozenset(binds), frozenset(free), frozenset(imports))


def _top(node: ast.AST, binds: dict[str, int], reads: list, local_reads: list) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, _SCOPES):
            if not isinstance(child, ast.Lambda):
                binds.setdefault(child.name, child.lineno)
            local = _locals(child)
            local_reads.extend((n.id, local) for n in ast.walk(child)
                               if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
            continue
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            for alias in child.names:
                binds.setdefault((alias.asname or alias.name).split(".", 1)[0], child.lineno)
        elif isinstance(child, ast.Name):
            if isinstance(child.ctx, ast.Load):
                reads.append((child.id, child.lineno))
            else:
                binds.setdefault(child.id, child.lineno)
        _top(child, binds, reads, local_reads)


def _locals(scope: ast.AST) -> frozenset[str]:
    """The names a function, lambda or class binds inside itself (its parameters included)."""
    names = {n.id for n in ast.walk(scope) if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)}
    args = getattr(scope, "args", None)
    if isinstance(args, ast.arguments):
        names |= {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a}
    return frozenset(names)


def feeding(cells: Mapping[int, CellNames], run: set[int]) -> dict[int, set[int]]:
    """For each run cell (of `cells`, keyed by block index in text order), the earlier cells it reads names
    from, directly or through the cells those read from; run cells feed one another too. A module a cell
    imports is no data of the run: the cell that imports it is not followed for it."""
    binders: dict[str, list[int]] = {}
    for i in sorted(cells):
        for name in cells[i].binds - cells[i].imports:
            binders.setdefault(name, []).append(i)
    out: dict[int, set[int]] = {}
    for start in sorted(run):
        got: set[int] = set()
        todo = [start]
        while todo:
            i = todo.pop()
            for name in sorted(cells[i].free):
                found = binders.get(name)
                k = bisect_left(found, i) if found else 0
                if k and (j := found[k - 1]) not in got and j != start:
                    got.add(j)
                    todo.append(j)
        out[start] = got
    return out
