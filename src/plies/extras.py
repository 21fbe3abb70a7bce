"""The optional parts of plies and the packages each needs (``pip install 'plies[NAME]'``).

``pip install plies`` gives the terminal game, the engine, the textbook searches, matches and tournaments, the
network protocols and the teaching pictures as SVG.  The rest is in extras:

``web``       fastapi and uvicorn: ``plies web`` (the browser app) and ``plies hexthello server --web`` (its viewer)
``plots``     matplotlib: pictures as PNG or PDF (SVG needs nothing more)
``graphviz``  the graphviz package: ``--engine graphviz`` (with Graphviz's ``dot`` program)
``notebook``  ipywidgets: the step-through widget in Jupyter
``teach``     what a lab needs beyond the terminal: the Learn page and the browser app (fastapi, uvicorn,
              websockets) and the course's notebooks in Jupyter (ipykernel, ipywidgets); no compiler needed
``ray``       Ray: matches and self-play on a Ray cluster (``--ray``)
``all``       web, plots, graphviz and notebook
"""

from __future__ import annotations

import importlib
from types import ModuleType

from plies.game import PliesError

EXTRAS: dict[str, tuple[str, ...]] = {
    "web": ("fastapi", "uvicorn"),
    "plots": ("matplotlib",),
    "graphviz": ("graphviz",),
    "notebook": ("ipywidgets",),
    "teach": ("fastapi", "uvicorn", "ipykernel", "ipywidgets"),
    "ray": ("ray",),
}
"""Extra name -> the modules it installs (imported to check that the extra is there)."""


class MissingExtraError(PliesError):
    """A feature needs an optional package that is not installed; the message says which extra brings it."""

    def __init__(self, feature: str, extra: str, module: str, hint: str = "") -> None:
        super().__init__(f"{feature} needs {module}, which is not installed: pip install 'plies[{extra}]'"
                         + (f" ({hint})" if hint else ""))
        self.feature, self.extra, self.module = feature, extra, module


def require(extra: str, feature: str, hint: str = "") -> None:
    """Import the modules of ``extra``; MissingExtraError (one line naming the extra, then ``hint``) when one
    is missing."""
    for module in EXTRAS[extra]:
        optional_import(module, extra, feature, hint)


def optional_import(module: str, extra: str, feature: str, hint: str = "") -> ModuleType:
    """``module`` imported, or MissingExtraError naming ``extra`` (what ``pip install 'plies[extra]'`` adds)."""
    try:
        return importlib.import_module(module)
    except ImportError as e:  # the module, or a package it needs (e.name says which)
        raise MissingExtraError(feature, extra, e.name or module, hint) from None


__all__ = ["EXTRAS", "MissingExtraError", "optional_import", "require"]
