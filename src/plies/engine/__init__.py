"""The fast Othello engine (8x8): compiled bitboards, PVS search, exact endgame solver, levels.

``Engine`` is the entry point (``search``, ``analyse``, ``stop``); the ``engine`` player kind lives in
``plies.players.engine``.  Modules, one job each: ``bitboard`` (kernels), ``perft``, ``eval`` (evaluations),
``hashtable`` (transposition table), ``midgame`` (PVS), ``endgame`` (exact solver), ``levels``, ``api``.
"""

from plies.engine.api import Engine
from plies.engine.levels import LEVELS, Level

__all__ = ["LEVELS", "Engine", "Level"]
