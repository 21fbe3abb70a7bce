"""The ``engine`` player kind: ``engine``, ``engine:level=7``, ``engine:time=1``, ``engine:depth=8,eval=NAME``,
``engine:exact=12`` (solve from 12 empties), ``engine:hash=128`` (megabytes)."""

from __future__ import annotations

from typing import Any

from plies import players
from plies.engine.api import Engine
from plies.engine.levels import DEFAULT_LEVEL, get_level
from plies.game import ParseError, State


class EnginePlayer(players.Player):
    """Plays with the compiled engine at a level, a fixed depth or a time per move."""

    def __init__(self, level: int | None = None, depth: int | None = None, time: float | None = None,
                 evaluation: str = "default", exact_empties: int | None = None, hash_mb: int = 64) -> None:
        if level is None and depth is None and time is None:
            level = DEFAULT_LEVEL
        if level is not None:
            get_level(level)
        self.level = level
        self.depth = depth
        self.time = time
        self.exact_empties = exact_empties
        self.engine = Engine(hash_mb=hash_mb, evaluation=evaluation)
        parts = []
        if level is not None:
            parts.append(f"level={level}")
        if depth is not None:
            parts.append(f"depth={depth}")
        if time is not None:
            parts.append(f"time={time:g}")
        if evaluation != "default":
            parts.append(f"eval={self.engine.evaluation}")
        if exact_empties is not None:
            parts.append(f"exact={exact_empties}")
        self.name = "engine:" + ",".join(parts)

    def choose(self, state: State) -> Any:
        if state.game != "othello" or getattr(state, "n", 8) != 8:
            raise ParseError("the engine plays 8x8 Othello only")
        exact = self.exact_empties is not None and state.empties() <= self.exact_empties  # type: ignore[attr-defined]
        result = self.engine.search(state, depth=self.depth, time=self.time, level=self.level,  # type: ignore[arg-type]
                                    exact=exact)
        self.last_result = result
        return result.move

    def close(self) -> None:
        self.engine.stop()


def _number(params: dict[str, str], key: str, kind: type) -> Any:
    if key not in params:
        return None
    raw = params.pop(key)
    try:
        value = kind(raw)
    except ValueError:
        raise ParseError(f"engine option {key} must be a number, not {raw!r}") from None
    if value <= 0:
        raise ParseError(f"engine option {key} must be positive")
    return value


def _factory(game: str, params: dict[str, str], raw: str) -> players.Player:
    if game != "othello":
        raise ParseError(f"the engine plays Othello only, not {game}")
    level = _number(params, "level", int)
    depth = _number(params, "depth", int)
    time = _number(params, "time", float)
    exact = _number(params, "exact", int)
    hash_mb = _number(params, "hash", int) or 64
    evaluation = params.pop("eval", "default")
    if params:
        raise ParseError(f"unknown option(s) for engine: {', '.join(params)} "
                         "(use level, depth, time, eval, exact, hash)")
    return EnginePlayer(level=level, depth=depth, time=time, evaluation=evaluation, exact_empties=exact,
                        hash_mb=hash_mb)


players.register("engine", _factory)
