"""Difficulty levels, hints and the evaluation graph: which search the page asks for, and how.

Levels 1-5 are document 001's difficulty = search depth, with the textbook search the user picks (minimax or
alpha-beta) and a named heuristic.  Higher levels use the fast engine (``engine:level=N``) on 8x8 Othello, and
``plies.search.alphabeta`` in the other games and where plies was installed without its compiled core (no C
compiler); every answer says which.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from plies import heuristics
from plies.game import ParseError, State
from plies.games import TYPES, type_of
from plies.heuristics import Heuristic
from plies.players import Player, SearchPlayer, parse_player
from plies.search import alphabeta, minimax

log = logging.getLogger("plies.web")

TEACHING_MAX = 5
"""Levels 1..TEACHING_MAX are the textbook searches at that depth."""
MAX_LEVEL = 11
"""Highest level offered (the engine's table goes to 11; without the engine the top levels all play alike)."""
FALLBACK_MAX_DEPTH = 6
"""Depth cap of the alpha-beta that stands in for the engine when it is missing (pure Python is slow)."""
ALGORITHMS = ("alphabeta", "minimax")


@lru_cache(maxsize=1)
def engine_status() -> tuple[bool, str]:
    """(is the fast engine usable, a sentence saying which search the high levels use)."""
    try:
        import plies.players.engine  # noqa: F401  (the engine and its player kind)
    except ImportError as e:  # plies installed without its compiled core: the page still works
        return False, f"fast engine not available ({e}); levels above 5 use plies.search.alphabeta"
    return True, "levels above 5 use the fast engine (plies.engine)"


_ENGINE_READY = threading.Event()


def warm_engine() -> None:
    """Import the engine and read its learned weights before the first game needs them (run in a worker at
    start-up; a fraction of a second: the compiled core is built at install)."""
    try:
        if engine_status()[0]:
            from plies.engine.eval import LEARNED, weights_for

            weights_for(LEARNED)
    finally:
        _ENGINE_READY.set()


def engine_applies(state: State) -> bool:
    """Whether the fast engine plays this position (its game's type says so: 8x8 Othello) and loads here."""
    t = type_of(state)
    return t is not None and t.engine(state) == "engine" and engine_status()[0]


@dataclass
class Computer:
    """A computer side as the page describes it: a Player plus the words and backend name for the UI."""

    player: Player
    level: int
    label: str
    backend: str  # "minimax" | "alphabeta" | "engine" | "alphabeta-fallback"
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    """Held while this player searches: a new search waits for a stopped one to return (the engine allows one
    search at a time)."""

    @property
    def heavy(self) -> bool:
        """Worth a trip to a worker process: minimax, or alpha-beta 3 plies deep or more (Othello)."""
        return self.backend == "minimax" or self.level >= 3


def default_heuristic(game: str) -> str | None:
    return heuristics.DEFAULTS.get(game)


def order_for(state: State) -> Any:
    """The cheap move order of ``state``'s game for the textbook alpha-beta (its type's ``order``: Othello's best
    squares of the weighted-squares table first), None for a game without one."""
    t = type_of(state)
    return t.order if t is not None else None


def evaluation_for(game: str, name: str | None = None) -> Heuristic:
    """The named heuristic of ``game`` (its default without a name); a game with none registered (one a plug-in
    adds) is evaluated by its running score (disc difference), so the computer can still play it."""
    if heuristics.HEURISTICS.get(game):
        return heuristics.get(game, name)
    if name:
        raise ParseError(f"{game} has no named heuristics; leave the heuristic empty")
    return Heuristic("disc-difference", game, _score_eval, "running disc difference (no heuristic registered)")


def _score_eval(state: Any, player: int) -> float:
    s = float(state.score())
    return s if player == 0 else -s


class WebSearchPlayer(SearchPlayer):
    """``SearchPlayer`` built from a Heuristic object, with optional move ordering (same values, faster)."""

    def __init__(self, algorithm: str, depth: int, heuristic: Heuristic, ordered: bool = False) -> None:
        if algorithm not in ALGORITHMS:
            raise ParseError(f"unknown algorithm {algorithm!r}; choose {' or '.join(ALGORITHMS)}")
        self.algorithm = algorithm
        self.depth = depth
        self.heuristic = heuristic
        self.pruning = True
        self.ordered = ordered
        self.name = f"{algorithm}:depth={depth},eval={heuristic.name}"

    def search(self, state: State) -> Any:
        if self.algorithm == "minimax":
            result = minimax(state, self.depth, self.heuristic)
        else:
            order = order_for(state) if self.ordered else None
            result = alphabeta(state, self.depth, self.heuristic, order=order)
        result.evaluation = self.heuristic.name
        return result


def make_computer(state: State, level: int, algorithm: str = "alphabeta", heuristic: str | None = None) -> Computer:
    """The computer player for ``level`` in ``state``'s game; ParseError for a bad level/algorithm/heuristic."""
    if not 1 <= level <= MAX_LEVEL:
        raise ParseError(f"level must be 1 to {MAX_LEVEL}, not {level}")
    game = state.game
    if level <= TEACHING_MAX:
        textbook = WebSearchPlayer(algorithm, level, evaluation_for(game, heuristic or None))
        name = "alpha-beta" if algorithm == "alphabeta" else "minimax"
        return Computer(textbook, level, f"level {level}: {name}, depth {level}, {textbook.heuristic.name}",
                        algorithm)
    if engine_applies(state):
        engine = parse_player(f"engine:level={level}", game)
        row = _engine_level(level)
        detail = f"depth {row.depth}, exact from {row.exact_empties} empties" if row is not None else "full strength"
        return Computer(engine, level, f"level {level}: fast engine, {detail}", "engine")
    t = TYPES.get(game)
    depth = t.solved_depth if t is not None and t.solved_depth else min(level, FALLBACK_MAX_DEPTH)
    player = WebSearchPlayer("alphabeta", depth, evaluation_for(game, heuristic or None), ordered=True)
    why = f"engine plays {engine_games()} only" if engine_status()[0] else "engine not available"
    return Computer(player, level, f"level {level}: alpha-beta depth {depth} ({why})", "alphabeta-fallback")


def _engine_level(level: int) -> Any:
    """The engine's row for ``level`` (``plies.engine.levels.LEVELS``), None without the engine."""
    if not engine_status()[0]:
        return None
    from plies.engine.levels import LEVELS

    return LEVELS.get(level)


def stop(player: Player) -> None:
    """Ask a searching player to stop early, where it can (the engine); textbook searches just finish."""
    for target in (player, getattr(player, "engine", None)):
        fn = getattr(target, "stop", None)
        if callable(fn):
            try:
                fn()
            except Exception:  # stopping is best effort: the search ends by itself; the log says why
                log.exception("could not stop %s", player.name)
            return


def engine_games() -> str:
    """The boards the fast engine plays, for a label: ``8x8 Othello``."""
    names = []
    for t in TYPES.values():
        boards = [t.start(n, "standard") for n in (None, *t.sizes)]
        for b in boards:
            if t.engine(b) == "engine":
                n = t.board_size(b)
                names.append(f"{n}x{n} {t.title}" if n else t.title)
    return " and ".join(names) or "no game here"


def hint_depth(state: State) -> int:
    """How deep the textbook hint search looks (its type's ``hint_depth``: the whole game for tic-tac-toe, 3 plies
    below each move on 8x8 Othello); 3 for a game without a type."""
    t = type_of(state)
    return t.hint_depth(state) if t is not None else 3


def hints(state: State, count: int = 3, use_engine: bool | None = None, level: int | None = None) -> dict[str, Any]:
    """The best ``count`` moves of ``state``, best first: ``value`` from the mover's view in ``unit`` (``discs``
    with the engine, ``result`` in tic-tac-toe, else the heuristic's name), ``value_text`` as a person reads
    it, ``exact``, ``pv`` (the line from the move on) and ``then`` (the line after the move); ``source`` says
    which search.  The same analysis as the graph and the review (``plies.web.analysis``).

    ``use_engine`` (default: whether the engine applies here) is decided by the caller when this runs in a
    worker process, so the server's view of the engine holds there too."""
    from plies.web.analysis import analyse_position, final_unit, value_text

    if not state.legal_moves():
        return {"hints": [], "source": "game over", "unit": ""}
    if use_engine is None:
        use_engine = engine_applies(state)
    try:
        a = analyse_position(state, level, use_engine)
        note = ""
    except Exception as e:  # a request must be answered: the textbook search answers, the log keeps the failure
        log.exception("the engine's hint search failed")
        a = analyse_position(state, level, False)
        note = f" (engine failed: {type(e).__name__})"
    rows = []
    for r in a["moves"][: max(1, count)]:
        # a proven value under a heuristic is the final score: a win, draw or loss, or discs
        unit = final_unit(state) if r["exact"] and a["unit"] not in ("discs", "result") else a["unit"]
        rows.append({"move": r["move"], "value": r["value"], "exact": r["exact"], "unit": unit,
                     "value_text": value_text(r["value"], unit, r["exact"]), "pv": r["pv"], "then": r["pv"][1:]})
    return {"hints": rows, "source": a["source"] + note, "unit": a["unit"]}


def info() -> dict[str, Any]:
    """What the start screen offers: the games (each described by its ``GameType``), levels, algorithms,
    heuristics per game, engine availability."""
    ok, text = engine_status()
    notes: dict[int, str] = {}
    analysis: dict[int, str] = {}
    if ok:
        from plies.engine.levels import LEVELS

        notes = {lv: row.summary for lv, row in LEVELS.items() if lv > TEACHING_MAX}
        analysis = {lv: f"depth {row.depth}, exact from {row.exact_empties} empties" for lv, row in LEVELS.items()}
    return {
        "games": game_entries(),
        "levels": {"teaching": [1, TEACHING_MAX], "max": MAX_LEVEL},
        "algorithms": list(ALGORITHMS),
        "engine": {"available": ok, "text": text, "levels": notes, "warm": _ENGINE_READY.is_set()},
        "analysis": {"levels": analysis, "default": _default_analysis_level()},
    }


def game_entries() -> list[dict[str, Any]]:
    """Every game the page offers, from its ``GameType``: its variants (board sizes) with their start boards,
    the sides' names and symbols, how its results count, a move for the help, whether the engine plays it."""
    from plies.games import GAMES, TYPES
    from plies.web import boards

    out = []
    for name in GAMES:
        t = TYPES.get(name)
        start = GAMES[name]()
        default = t.board_size(start) if t is not None else None
        # the usual board first (the start screen's default), then the other sizes
        sizes = [default, *sorted(set(t.sizes) - {default})] if t is not None and t.sizes and default else [None]
        variants = []
        for size in sizes:
            s = start if size in (None, default) else t.start(size, "standard")  # type: ignore[union-attr]
            variants.append({
                "name": name if size in (None, default) else f"{name}{size}",
                "label": (t.title if t else name) + (f" {size}×{size}" if size else ""), "size": size,
                "engine": bool(t is not None and t.engine(s) == "engine" and engine_status()[0]),  # the levels' engine
                "layout": boards.layout(s), "start": boards.cells(s),
            })
        legal = start.legal_moves()
        out.append({
            "name": name, "title": t.title if t else name, "variants": variants,
            "sides": list(start.player_names), "symbols": list(getattr(start, "symbols", ("X", "O"))),
            "result": t.result if t else "discs", "line": t.line if t else "",
            "separator": t.separator if t else " ",
            "example": t.move_example if t and t.move_example else start.move_str(legal[0]) if legal else "",
            "heuristics": heuristics.names(name) if name in heuristics.HEURISTICS else [],
            "default_heuristic": default_heuristic(name),
        })
    return out


def _default_analysis_level() -> int:
    from plies.web.analysis import DEFAULT_ANALYSIS_LEVEL

    return DEFAULT_ANALYSIS_LEVEL
