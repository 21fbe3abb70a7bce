"""Player kinds for HexThello's compiled searchers (registered on import):

- ``hexengine:depth=N`` or ``hexengine:time=S``: the PVS engine at a fixed depth or about S seconds a move,
  with ``eval=learned`` (default) or ``eval=classic``, ``weights=FILE`` (weights of ``plies train
  hexthello-fit`` instead of the shipped ones) and ``threads=N`` (default: the machine's cores, or
  ``$PLIES_ENGINE_THREADS``, which match workers set to 1);
- ``doc004:depth=N[,pruning=off]``: document 004's student agent (alpha-beta, 10/5/3 evaluation).
"""

from __future__ import annotations

from plies import players
from plies.game import Move, ParseError, State
from plies.games.hexthello import HexThelloState
from plies.heuristics import hexthello as _heuristics  # noqa: F401  (registers the hexthello heuristics)
from plies.hexsearch.engine import EVALUATIONS, HexEngine, doc004_move
from plies.players.engine import player_threads
from plies.search.result import SearchResult, Stats


def _hex(state: State) -> HexThelloState:
    if not isinstance(state, HexThelloState):
        raise ParseError("this player plays HexThello only")
    return state


class HexEnginePlayer(players.Player):
    """The compiled engine at a depth or under a clock; keeps its tables for the whole game."""

    def __init__(self, depth: int | None = None, seconds: float | None = None, evaluation: str = "learned",
                 weights: str | None = None, threads: int | None = None) -> None:
        if depth is None and seconds is None:
            seconds = 1.0
        if depth is not None and depth < 1:
            raise ParseError("depth must be at least 1")
        if seconds is not None and not seconds > 0:
            raise ParseError("time must be positive")
        if evaluation not in EVALUATIONS:
            raise ParseError(f"eval must be {' or '.join(EVALUATIONS)}, not {evaluation!r}")
        if threads is not None and not 1 <= threads <= 256:
            raise ParseError("threads must be 1..256")
        self.depth, self.seconds = depth, seconds
        self.engine = HexEngine(evaluation=evaluation, weights=weights,
                                threads=threads if threads is not None else player_threads())
        parts = [f"depth={depth}" if depth is not None else f"time={seconds:g}"]
        if evaluation != "learned":
            parts.append(f"eval={evaluation}")
        if weights is not None:
            parts.append(f"weights={weights}")
        if threads is not None:
            parts.append(f"threads={threads}")
        self.name = "hexengine:" + ",".join(parts)

    def new_game(self, state: State) -> None:
        self.engine.new_game()

    def choose(self, state: State) -> Move:
        report = self.engine.search(_hex(state), depth=self.depth, seconds=self.seconds)
        self.last_result = report.to_result(self.name)
        return report.move


class Doc004Player(players.Player):
    """Document 004's agent: minimax with alpha-beta (``pruning=off`` for plain minimax) at a fixed depth."""

    def __init__(self, depth: int = 4, pruning: bool = True) -> None:
        if depth < 1:
            raise ParseError("depth must be at least 1")
        self.depth, self.pruning = depth, pruning
        self.name = f"doc004:depth={depth}" + ("" if pruning else ",pruning=off")

    def choose(self, state: State) -> Move:
        move, value, nodes = doc004_move(_hex(state), self.depth, self.pruning)
        self.last_result = SearchResult(value, move, [move], Stats(nodes=nodes, depth=self.depth),
                                        "doc004", "doc004")
        return move


def _engine_factory(game: str, params: dict[str, str], raw: str) -> players.Player:
    depth = players.number(params, "depth", int)
    seconds = players.number(params, "time", float)
    threads = players.number(params, "threads", int)
    evaluation = params.pop("eval", "learned")
    weights = params.pop("weights", None)
    if params:
        raise ParseError(f"unknown option(s) for hexengine: {', '.join(params)} "
                         "(use depth=N or time=S, eval=learned|classic, weights=FILE, threads=N)")
    return HexEnginePlayer(depth, seconds, evaluation, weights, threads)


def _doc004_factory(game: str, params: dict[str, str], raw: str) -> players.Player:
    depth = players.number(params, "depth", int) or 4
    pruning = params.pop("pruning", "on").lower() not in ("off", "no", "false", "0")
    if params:
        raise ParseError(f"unknown option(s) for doc004: {', '.join(params)} (use depth=N, pruning=off)")
    return Doc004Player(depth, pruning)


players.register("hexengine", _engine_factory)
players.register("doc004", _doc004_factory)

__all__ = ["Doc004Player", "HexEnginePlayer"]
