"""One Player interface for everything that picks moves: people, random, greedy, the textbook searches,
the engine, external programs.  A player spec string (``alphabeta:depth=5,eval=doc001``) builds any of them.
"""

from __future__ import annotations

import random as _random
from abc import ABC, abstractmethod
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import TypeVar

from plies import heuristics
from plies.game import Move, ParseError, State
from plies.games import type_of
from plies.search import SearchResult, alphabeta, minimax


class Player(ABC):
    """Chooses a move for the side to move: what every player can do, whoever drives it (the play loop, the
    browser's computer turns).  ``last_result`` holds the search behind the last choice, if any: its value,
    depth and line."""

    name: str = "player"
    last_result: SearchResult | None = None
    on_progress: Callable[[SearchResult], None] | None = None
    """Called by a player whose search deepens step by step (the engine) with its best result after each
    completed depth, from the searching thread: a front-end's live "thinking" line."""

    @abstractmethod
    def choose(self, state: State) -> Move:
        """A legal move of ``state`` (which is not over)."""

    def take_side(self, side: int) -> None:
        """Called by the play loop before ``new_game`` with the side this player has in the game (0 Black, who
        moves first; 1 White): for a protocol that announces the colours first (the HexThello course's 102/103)."""

    def decide(self, state: State, seconds: float | None = None) -> tuple[Move, SearchResult | None]:
        """A move and the search behind it (None without one); a player that keeps to a time budget (the engine)
        searches about ``seconds`` (a game clock's share), the others ignore it."""
        move = self.choose(state)
        return move, self.last_result

    def stop(self) -> None:
        """Ask a search in progress to return soon, where the player can (the engine); the others finish theirs.
        Called from another thread than the search's."""

    def new_game(self, state: State) -> None:
        """Called once before a game starts from ``state``."""

    def close(self) -> None:
        """Release what the player holds (processes, connections)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class HumanPlayer(Player):
    """A person: ``ask(state)`` returns the move (front-ends inject it; tests feed scripted answers)."""

    def __init__(self, ask: Callable[[State], Move] | None = None, name: str = "human") -> None:
        self.ask = ask or _console_ask
        self.name = name

    def choose(self, state: State) -> Move:
        return self.ask(state)


def _console_ask(state: State) -> Move:
    while True:
        text = input(f"{state.player_names[state.to_move]} to move: ")
        try:
            return state.parse_move(text)
        except ParseError as e:
            print(e)
        except ValueError as e:
            print(e)


class RandomPlayer(Player):
    """Uniformly random legal moves from its own seeded generator (reproducible)."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = _random.Random(seed)
        self.name = "random" if seed is None else f"random:seed={seed}"

    def choose(self, state: State) -> Move:
        return self.rng.choice(state.legal_moves())


class GreedyPlayer(Player):
    """Document 000's heuristic player: the move after which it has the most discs (first such move on ties).

    For games without discs it takes the best move by the game's default evaluation one ply ahead.
    """

    name = "greedy"

    def __init__(self, verbose: Callable[[State, list[tuple[Move, float]]], None] | None = None) -> None:
        self.verbose = verbose

    def values(self, state: State) -> list[tuple[Move, float]]:
        me = state.to_move
        out = []
        for move in state.legal_moves():
            child = state.play(move)
            mine: int | None = getattr(child, "black" if me == 0 else "white", None)
            if mine is not None:
                v = float(mine.bit_count())
            else:
                v = heuristics.get(state.game)(child, me)
            out.append((move, v))
        return out

    def choose(self, state: State) -> Move:
        values = self.values(state)
        if self.verbose:
            self.verbose(state, values)
        best = max(v for _, v in values)
        return next(m for m, v in values if v == best)


class SearchPlayer(Player):
    """Minimax or alpha-beta at a fixed depth with a named heuristic (pruning switchable, document 004; alpha-beta
    ``ordered`` tries the game type's likely best moves first: the same value, fewer nodes)."""

    def __init__(self, algorithm: str, depth: int, evaluation: str | None, game: str, pruning: bool = True,
                 ordered: bool = False) -> None:
        if algorithm not in ("minimax", "alphabeta"):
            raise ParseError(f"unknown algorithm {algorithm!r}")
        if depth < 1:
            raise ParseError("depth must be at least 1")
        self.algorithm = algorithm
        self.depth = depth
        self.heuristic = heuristics.evaluation(game, evaluation)
        self.pruning = pruning
        self.ordered = ordered and algorithm == "alphabeta"
        extra = ("" if pruning or algorithm == "minimax" else ",pruning=off") + (",order=on" if self.ordered else "")
        self.name = f"{algorithm}:depth={depth},eval={self.heuristic.name}{extra}"

    def search(self, state: State) -> SearchResult:
        if self.algorithm == "minimax":
            result = minimax(state, self.depth, self.heuristic)
        else:
            t = type_of(state) if self.ordered else None
            result = alphabeta(state, self.depth, self.heuristic, pruning=self.pruning,
                               order=t.order if t is not None else None)
        result.evaluation = self.heuristic.name
        return result

    def choose(self, state: State) -> Move:
        self.last_result = self.search(state)
        return self.last_result.move


def parse_params(text: str) -> dict[str, str]:
    """``depth=5,eval=doc001`` -> {'depth': '5', 'eval': 'doc001'}."""
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise ParseError(f"player option {part!r} should be key=value")
        k, v = part.split("=", 1)
        params[k.strip().lower()] = v.strip()
    return params


N = TypeVar("N", int, float)


def number(params: dict[str, str], key: str, kind: Callable[[str], N], default: N | None = None) -> N | None:
    """The option ``key`` taken out of a player spec's ``params`` as ``kind`` (int or float), ``default`` when it
    is not there; a clear error when it is not a number of that kind."""
    if key not in params:
        return default
    try:
        return kind(params.pop(key))
    except ValueError:
        raise ParseError(f"{key} must be {'a whole number' if kind is int else 'a number'}") from None


PlayerFactory = Callable[[str, dict[str, str], str], Player]
"""(game, params, raw argument after the colon) -> Player."""

FACTORIES: dict[str, PlayerFactory] = {}


def register(kind: str, factory: PlayerFactory) -> None:
    """Make ``kind:...`` specs build players with ``factory`` (the engine and protocol clients use this)."""
    FACTORIES[kind] = factory


def _search_factory(algorithm: str) -> PlayerFactory:
    def make(game: str, params: dict[str, str], raw: str) -> Player:
        depth = number(params, "depth", int, 3)
        assert depth is not None
        evaluation = params.pop("eval", None)
        pruning = params.pop("pruning", "on").lower() not in ("off", "no", "false", "0")
        ordered = params.pop("order", "off").lower() in ("on", "yes", "true", "1")
        _no_more(params, algorithm)
        return SearchPlayer(algorithm, depth, evaluation, game, pruning, ordered)

    return make


def _no_more(params: dict[str, str], kind: str) -> None:
    if params:
        raise ParseError(f"unknown option(s) for {kind}: {', '.join(params)}")


def _random_factory(game: str, params: dict[str, str], raw: str) -> Player:
    seed = number(params, "seed", int)
    _no_more(params, "random")
    return RandomPlayer(seed)


def _greedy_factory(game: str, params: dict[str, str], raw: str) -> Player:
    _no_more(params, "greedy")
    return GreedyPlayer()


def _human_factory(game: str, params: dict[str, str], raw: str) -> Player:
    name = params.pop("name", "human")
    _no_more(params, "human")
    return HumanPlayer(name=name)


register("human", _human_factory)
register("random", _random_factory)
register("greedy", _greedy_factory)
register("minimax", _search_factory("minimax"))
register("alphabeta", _search_factory("alphabeta"))

COMMAND_KINDS = ("nboard", "course")
"""Kinds whose spec, after the colon, is a command line (leading ``key=value`` words are options), not options."""

BUILT_IN = ("engine", "hexengine", "doc004", "clio", "mcts")
"""Built-in kinds whose module registers them on first use (the compiled core, cli-othello: importing players
stays light)."""


def _load(kind: str) -> None:
    """Import the module that registers ``kind``: a built-in one, or one declared as an entry point of the group
    ``plies.players`` (the kinds defined above this layer, NBoard engines and the learned players, and plug-ins')."""
    if kind == "engine":
        try:
            from plies.players import engine  # noqa: F401
        except ImportError:
            from plies.players import engine_fallback

            if engine_fallback.core_error() is None:  # the core loads: something else is missing
                raise
            engine_fallback.register_fallback()
    elif kind in ("hexengine", "doc004"):
        from plies.players import hexthello  # noqa: F401
    elif kind == "clio":
        from plies.players import clio  # noqa: F401
    elif kind == "mcts":
        from plies.players import mcts  # noqa: F401
    for ep in entry_points(group="plies.players", name=kind):
        ep.load()


def parse_player(spec: str, game: str = "othello") -> Player:
    """Build a player from a spec: ``human``, ``random:seed=1``, ``greedy``, ``minimax:depth=3,eval=NAME``,
    ``alphabeta:depth=5,eval=NAME,pruning=off``, ``engine:level=7`` ...; ParseError explains a bad spec."""
    spec = spec.strip()
    kind, _, raw = spec.partition(":")
    kind = kind.lower()
    if kind not in FACTORIES:
        try:
            _load(kind)
        except ImportError as e:
            raise ParseError(f"player kind {kind!r} is not available: {e}") from None
    if kind not in FACTORIES:
        kinds = set(FACTORIES) | set(BUILT_IN) | {ep.name for ep in entry_points(group="plies.players")}
        raise ParseError(f"unknown player {spec!r}; kinds: {', '.join(sorted(kinds))}")
    params = parse_params(raw) if kind not in COMMAND_KINDS else {}
    return FACTORIES[kind](game, params, raw)


__all__ = [
    "BUILT_IN", "COMMAND_KINDS", "FACTORIES", "GreedyPlayer", "HumanPlayer", "Player", "RandomPlayer", "SearchPlayer",
    "parse_params", "parse_player", "register",
]
