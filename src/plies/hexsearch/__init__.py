"""A compiled searcher for HexThello (C kernels in ``plies.core``): PVS alpha-beta with a transposition table
under a clock, and document 004's fixed-depth alpha-beta as a course-style opponent.
``plies.players.hexthello`` registers the player kinds ``hexengine`` and ``doc004``.
"""

from __future__ import annotations

from plies.hexsearch.engine import EngineReport, HexEngine, compiled_perft, doc004_move, doc004_value

__all__ = ["EngineReport", "HexEngine", "compiled_perft", "doc004_move", "doc004_value"]
