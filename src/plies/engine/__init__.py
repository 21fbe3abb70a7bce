"""The fast Othello engine (8x8): compiled bitboards, PVS search, exact endgame solver, levels.

``Engine`` is the entry point (``search``, ``analyse``, ``stop``); the ``engine`` player kind lives in
``plies.players.engine``.  Modules, one job each: ``bitboard`` (kernels), ``perft``, ``eval`` (evaluations),
``hashtable`` (transposition table), ``midgame`` (PVS), ``endgame`` (exact solver), ``levels``, ``api``.
``Engine`` is imported on first use, so the modules that need no compiled core (``levels``, ``weights``, the
plain-Python ``learned`` evaluation) load where plies was installed without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from plies.engine.levels import LEVELS, Level

if TYPE_CHECKING:
    from plies.engine.api import Engine


def __getattr__(name: str) -> type[Engine]:
    if name == "Engine":  # needs the compiled core: ImportError where it is not built
        from plies.engine.api import Engine

        return Engine
    raise AttributeError(f"module 'plies.engine' has no attribute {name!r}")


__all__ = ["LEVELS", "Engine", "Level"]
