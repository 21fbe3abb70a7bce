"""What the training commands ask of a searcher: a move at a depth, an exact endgame solve, all moves' values.

``engine`` is plies' compiled engine (``plies.engine.Engine``), the one that makes the real data and books;
``python`` is the textbook alpha-beta of ``plies.search`` (slow, for tests and small trials).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from plies.game import PASS, WIN, PliesError, State
from plies.games.othello import OthelloState
from plies.heuristics import get as get_heuristic
from plies.search import alphabeta

if TYPE_CHECKING:
    from plies.engine.api import Engine

BACKENDS = ("engine", "python")


class Backend(Protocol):
    """A searcher for self-play and books; values are from the side to move's view."""

    name: str

    def new_game(self) -> None:
        """Forget everything from earlier searches, so a game's moves depend only on the game."""

    def move(self, state: State, depth: int) -> int:
        """Best move at ``depth`` plies (a legal move; PASS when that is the only one)."""

    def search(self, state: State, depth: int) -> tuple[int, float]:
        """(best move, value) at ``depth`` plies, searched even when the move is forced; the engine's value in
        discs (a won or lost end: its margin), the textbook search's in its heuristic's units."""

    def solve(self, state: State) -> tuple[int, list[int]]:
        """(exact final disc difference for the side to move, principal variation) with perfect play."""

    def analyse(self, state: State, depth: int) -> list[tuple[int, float]]:
        """(move, value) of every legal move at ``depth``, best first."""

    def weights(self) -> str | None:
        """Digest of the learned weights its searches evaluate with (None for another evaluation): search values
        of runs made with other weights are other labels."""


def _exact_from_value(value: float) -> int:
    """Disc difference of a ``terminal_value`` (±WIN + margin, 0 for a draw)."""
    if value >= WIN:
        return round(value - WIN)
    if value <= -WIN:
        return round(value + WIN)
    return round(value)


class PythonBackend:
    """``plies.search.alphabeta`` with a seed heuristic: slow, needs no compiled engine."""

    name = "python"

    def __init__(self, evaluation: str | None = None) -> None:
        self.evaluation = evaluation
        self.heuristic = get_heuristic("othello", None if evaluation in (None, "default") else evaluation)

    def weights(self) -> str | None:
        return _shipped_digest() if self.evaluation == "learned" else None

    def new_game(self) -> None:
        pass

    def move(self, state: State, depth: int) -> int:
        moves = state.legal_moves()
        if len(moves) == 1:
            return int(moves[0])
        return int(alphabeta(state, max(1, depth), self.heuristic).move)

    def search(self, state: State, depth: int) -> tuple[int, float]:
        r = alphabeta(state, max(1, depth), self.heuristic)
        return int(r.move), float(r.value)

    def solve(self, state: State) -> tuple[int, list[int]]:
        if not isinstance(state, OthelloState):
            raise PliesError("the training backends play Othello only")
        empties = state.empties()
        r = alphabeta(state, 2 * empties + 2, self.heuristic)
        return _exact_from_value(r.value), [int(m) for m in r.pv]

    def analyse(self, state: State, depth: int) -> list[tuple[int, float]]:
        out = []
        for m in state.legal_moves():
            child = state.play(m)
            if child.is_over():
                v = child.utility(state.to_move)
            else:
                v = -alphabeta(child, max(0, depth - 1), self.heuristic).value
            out.append((int(m), float(v)))
        out.sort(key=lambda mv: -mv[1])
        return out


class EngineBackend:
    """The compiled engine: ``Engine.search`` for moves and exact solves, ``Engine.analyse`` for books."""

    name = "engine"

    def __init__(self, evaluation: str | None = None, hash_mb: int = 16, selective: bool = True,
                 weights: str | None = None, statistics: str | None = None) -> None:
        self.evaluation = evaluation or "default"
        self.hash_mb = hash_mb
        self.selective = selective
        self.weights_file = weights
        self.statistics = statistics
        self.engine: Any = self._new()

    def _new(self) -> Engine:
        kind = _engine_class()
        if self.selective:
            return kind(hash_mb=self.hash_mb, evaluation=self.evaluation, weights=self.weights_file,
                        statistics=self.statistics)
        return kind(hash_mb=self.hash_mb, evaluation=self.evaluation, weights=self.weights_file, probcut=None)

    def weights(self) -> str | None:
        from plies.engine.eval import LEARNED
        from plies.engine.probcut import weights_digest

        if self.engine.eval_id != LEARNED:
            return None
        return weights_digest(self.weights_file) if self.weights_file else _shipped_digest()

    def new_game(self) -> None:
        """A fresh engine (empty hash tables): what a game plays must not depend on the games before it."""
        self.engine = self._new()

    def move(self, state: State, depth: int) -> int:
        moves = state.legal_moves()
        if len(moves) == 1:
            return int(moves[0])
        return int(self.engine.search(state, depth=depth).move)

    def search(self, state: State, depth: int) -> tuple[int, float]:
        from plies.train.label import disc_value

        if state.legal_moves() == [PASS]:
            child = state.play(PASS)
            if child.is_over():
                return PASS, -disc_value(float(child.utility(child.to_move)))
            return PASS, -disc_value(float(self.engine.search(child, depth=max(1, depth - 1)).value))
        r = self.engine.search(state, depth=depth)
        return int(r.move), disc_value(float(r.value))

    def solve(self, state: State) -> tuple[int, list[int]]:
        r = self.engine.search(state, exact=True)
        return round(r.value), [int(m) for m in (r.pv or [r.move])]

    def analyse(self, state: State, depth: int) -> list[tuple[int, float]]:
        moves = state.legal_moves()
        if moves == [PASS]:
            child = state.play(PASS)
            if child.is_over():
                return [(PASS, float(-child.utility(child.to_move)))]
            r = self.engine.search(child, depth=max(1, depth - 1))
            return [(PASS, -float(r.value))]
        results = self.engine.analyse(state, depth=depth, multipv=len(moves))
        out = [(int(r.move), float(r.value)) for r in results]
        out.sort(key=lambda mv: -mv[1])
        return out


def get_backend(name: str, evaluation: str | None = None, selective: bool = True, weights: str | None = None,
                statistics: str | None = None) -> Backend:
    """A backend by name (``engine`` or ``python``); PliesError for an unknown name or a missing engine.
    ``selective`` False: the engine's midgame search without probcut (every move to the full depth).  ``weights``
    and ``statistics``: the engine's learned weights and probcut statistics files (None: the shipped ones)."""
    if name == "engine":
        if statistics:
            _check_statistics_match(statistics, weights)
        return EngineBackend(evaluation, selective=selective, weights=weights, statistics=statistics)
    if name == "python":
        if weights or statistics:
            raise PliesError("--weights and --stats need the engine backend")
        return PythonBackend(evaluation)
    raise PliesError(f"unknown backend {name!r}; choose from: {', '.join(BACKENDS)}")


def _check_statistics_match(statistics: str, weights: str | None) -> None:
    """PliesError when the statistics file was measured with other weights than ``weights`` (None: the shipped
    ones), before any game is played (the engine checks the same when it loads them)."""
    from plies.engine.probcut import check_measured_with, load_statistics

    check_measured_with(load_statistics(statistics), weights)


def _shipped_digest() -> str:
    """Digest of the shipped weights (the only ones self-play evaluates with)."""
    from plies.engine.probcut import weights_digest
    from plies.engine.weights import DEFAULT_WEIGHTS

    return weights_digest(DEFAULT_WEIGHTS)


def _engine_class() -> type[Engine]:
    """``plies.engine.Engine``; PliesError when the compiled core is not built."""
    try:
        from plies.engine import Engine

        return Engine
    except ImportError as e:
        raise PliesError(f"the compiled engine is not available ({e}); use --backend python") from None


def engine_available() -> bool:
    """Whether the engine can be imported (False where plies was installed without a C compiler)."""
    try:
        _engine_class()
    except PliesError:
        return False
    return True
