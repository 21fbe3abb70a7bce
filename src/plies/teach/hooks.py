"""Students' code in the commands: ``--load MODULE`` imports a module (by name, or a ``.py`` file by its path)
before the command runs, so a heuristic it registers (``plies.heuristics.register``) can be named in ``--eval``.

A name is looked up in the current directory first (where a student keeps ``my_eval.py``), then on the usual
module path.  Whatever goes wrong — no such module, a syntax error, an exception while it runs — is one line
that names the module and the line of the student's file, never a traceback.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import click

from plies.game import PliesError


def load_module(spec: str) -> ModuleType:
    """Import ``spec``: a module name (``my_eval``, ``course.heuristics``) or a path to a ``.py`` file."""
    text = spec.strip()
    if not text:
        raise PliesError("--load needs a module name or a .py file")
    path = Path(text)
    try:
        if text.endswith(".py") or "/" in text or "\\" in text:
            if not path.is_file():
                raise PliesError(f"cannot load {text}: no such file")
            name = path.stem
            module_spec = importlib.util.spec_from_file_location(name, path)
            if module_spec is None or module_spec.loader is None:
                raise PliesError(f"cannot load {text}: not a Python file")
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[name] = module
            module_spec.loader.exec_module(module)
            return module
        here = str(Path.cwd())
        if here not in sys.path:
            sys.path.insert(0, here)
        return importlib.import_module(text)
    except PliesError:
        raise
    except ModuleNotFoundError as e:
        if e.name and text.split(".")[0] == e.name.split(".")[0]:
            raise PliesError(f"cannot load {text}: no module {e.name!r} here or on the module path "
                             "(give the file, like --load my_eval.py)") from None
        raise PliesError(f"cannot load {text}: {e}") from None
    except SyntaxError as e:
        raise PliesError(f"cannot load {text}: {e.msg} ({Path(e.filename or text).name}, line {e.lineno})") from None
    except Exception as e:  # the student's module raised while it ran: name it and its line
        where = ""
        frames = [f for f in traceback.extract_tb(e.__traceback__) if "importlib" not in f.filename]
        if frames:
            where = f" ({Path(frames[-1].filename).name}, line {frames[-1].lineno})"
        raise PliesError(f"cannot load {text}: {type(e).__name__}: {e}{where}") from None


def load_modules(specs: Iterable[str]) -> list[ModuleType]:
    return [load_module(s) for s in specs]


load_option = click.option(
    "--load", "modules", multiple=True, metavar="MODULE",
    help="Import MODULE (a name, or a .py file) first: a heuristic it registers can be named in --eval.")
"""The ``--load`` option of ``plies search``, ``study`` and ``tree`` (repeatable)."""


__all__ = ["load_module", "load_modules", "load_option"]
