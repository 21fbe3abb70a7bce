"""The ``learned`` heuristic lives in the engine (``plies.engine.learned``); this name stays for old imports."""

from plies.engine.learned import LEARNED, learned

__all__ = ["LEARNED", "learned"]
