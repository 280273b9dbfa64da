"""Import spaCy without its command line: importing this module imports `spacy` (once per process).

`spacy/__init__.py` imports `spacy.cli.info` for the `spacy.info` function, and with it the whole of
`spacy.cli`: weasel, httpx, requests, typer's click and every command's module, about a quarter of spaCy's
import time and none of it used by extraction. While spaCy is imported here, `spacy.cli` and
`spacy.cli.info` are stand-ins (the package and the module giving `info`), removed from `sys.modules` as soon
as `spacy` is imported: a later `import spacy.cli` imports the real package, and `spacy.info(...)` imports
it and calls the real function. When `spacy` is already imported, nothing changes.

The modules of this package that import spaCy import this module first.
"""
from __future__ import annotations

import importlib
import sys
import types
from importlib.abc import Loader, MetaPathFinder
from importlib.machinery import ModuleSpec
from typing import Any

_CLI = "spacy.cli"
_INFO = "spacy.cli.info"


def info(*args: Any, **kwargs: Any) -> Any:
    """`spacy.info`: spaCy's own function, imported when it is called."""
    return importlib.import_module(_INFO).info(*args, **kwargs)


class _StandIns(MetaPathFinder, Loader):
    """Finds `spacy.cli` (an empty package) and `spacy.cli.info` (a module holding `info`) while spaCy imports."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        if fullname == _CLI:
            return ModuleSpec(fullname, self, is_package=True)
        if fullname == _INFO:
            return ModuleSpec(fullname, self)
        return None

    def create_module(self, spec: ModuleSpec) -> types.ModuleType | None:
        return None

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == _INFO:
            module.info = info  # type: ignore[attr-defined]


def _import_spacy() -> None:
    if "spacy" in sys.modules:
        return
    stand_ins = _StandIns()
    sys.meta_path.insert(0, stand_ins)
    try:
        import spacy  # noqa: F401
    except ImportError:  # a spaCy that needs more of its command line while importing: the ordinary way
        for name in [n for n in sys.modules if n == "spacy" or n.startswith("spacy.")]:
            del sys.modules[name]
        sys.meta_path.remove(stand_ins)
        import spacy  # noqa: F401, F811
        return
    sys.meta_path.remove(stand_ins)
    for name in (_INFO, _CLI):
        module = sys.modules.get(name)
        if module is not None and isinstance(getattr(module.__spec__, "loader", None), _StandIns):
            del sys.modules[name]
    package = sys.modules["spacy"]
    cli = getattr(package, "cli", None)
    if cli is not None and isinstance(getattr(cli.__spec__, "loader", None), _StandIns):
        delattr(package, "cli")


_import_spacy()
