"""The games plies knows, each described once by its ``GameType``, and one parser that turns any position argument
into a State.

A position argument is a game name for its start position (``othello``, ``othello6``, ``tictactoe``,
``connect4``), a board with the side to move (what ``State.to_text`` writes: 64 characters + ``X``/``O`` for
Othello, 9 + 1 for tic-tac-toe, 42 + 1 for Connect Four, 169 + 1 for HexThello), a transcript from the start
(``f5d6c3``), or an explicit tree (``[[3,12,8],[2,4,6],[14,5,2]]``).  A game registers its type with
``register_type``; every front-end asks ``game_type(name or state)`` what it needs to know.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from plies.game import GameType, ParseError, State
from plies.games import connect4, othello, tictactoe
from plies.games.othello import BOARD_SQUARES, OthelloState
from plies.games.tictactoe import TicTacToeState
from plies.games.tree import TreeState, parse_tree

TYPES: dict[str, GameType] = {}
"""Game name -> its type, in the order the games were registered (the order menus list them in)."""

GAMES: dict[str, Callable[[], State]] = {}
"""Game name -> start position (``TYPES``' starts, for callers that only need a position)."""

ALIASES: dict[str, str] = {}
"""Other names of the games -> their name."""


def register_type(t: GameType) -> GameType:
    """Make a game reachable by name from every command and page."""
    TYPES[t.name] = t
    GAMES[t.name] = lambda: t.start(None, "standard")
    for a in t.aliases:
        ALIASES[a] = t.name
    return t


def register(name: str, start: Callable[[], State]) -> None:
    """Make a game without a type of its own reachable by name (a plug-in's quick start: its positions are
    drawn from ``to_text``)."""
    GAMES[name] = start


def game_type(game: str | State) -> GameType:
    """The type of a game name (or alias, or ``othello6``) or of a state's game; ParseError naming the known ones."""
    name = game.game if isinstance(game, State) else _key(game)[0]
    found = TYPES.get(name)
    if found is None:
        raise ParseError(f"unknown game {game if isinstance(game, str) else name!r}; known: {', '.join(TYPES)}")
    return found


def type_of(state: State) -> GameType | None:
    """The type of a state's game; None for a game without one (an explicit tree, a plug-in's quick ``register``),
    which the front-ends treat with their plain defaults."""
    return TYPES.get(getattr(state, "game", ""))


def _key(name: str) -> tuple[str, int | None]:
    """(game name, board size or None) of a name such as ``Reversi``, ``othello6`` or ``othello:10``."""
    low = name.strip().lower()
    low = ALIASES.get(low, low)
    if low in TYPES or low in GAMES:
        return low, None
    m = re.fullmatch(r"([a-z][a-z-]*?)[:x]?(\d+)", low)
    if m:
        base = ALIASES.get(m.group(1), m.group(1))
        if base in TYPES:
            return base, int(m.group(2))
    return low, None


def start_position(name: str, layout: str = "standard") -> State:
    """The start position of the game called ``name`` (``othello6`` = Othello on 6x6; ``layout`` for Othello)."""
    key, size = _key(name)
    t = TYPES.get(key)
    if t is not None:
        if size is not None and size not in (*t.sizes, _default_size(t)):
            if not t.sizes:
                raise ParseError(f"{t.title} has one board: {name!r} names a size it does not have")
            raise ParseError(f"{t.title} is played on {_sizes_text(t)}, not {size}")
        if layout not in t.layouts:
            raise ParseError(f"unknown layout {layout!r}; use one of: {', '.join(t.layouts)}")
        return t.start(size, layout)
    if key in GAMES and size is None:
        return GAMES[key]()
    sized = []
    for n, t in TYPES.items():
        ks = _sizes(t) if t.sizes else []
        if len(ks) >= 3:
            sized.append(f"{n}{ks[0]}, {n}{ks[1]} ... {n}{ks[-1]}: {t.title} on another board size")
    raise ParseError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}"
                     + (f" (and {'; '.join(sized)})" if sized else ""))


def _default_size(t: GameType) -> int | None:
    s = t.start(None, "standard")
    return getattr(s, "n", None)


def _sizes(t: GameType) -> list[int]:
    """Every board size a game is played on, its usual one included."""
    default = _default_size(t)
    return sorted({*t.sizes, *([default] if default else [])})


def _sizes_text(t: GameType) -> str:
    sizes = _sizes(t)
    return ", ".join(f"{n}x{n}" for n in sizes)


def is_game_name(text: str) -> bool:
    """Whether ``text`` names a game (or a sized one such as ``othello6``)."""
    key, size = _key(text)
    return key in TYPES if size is not None else key in GAMES


HEX_BOARD_TEXT = 170  # a HexThello board's 169 cells and the side to move


def parse_position(text: str, game: str | None = None, layout: str = "standard") -> State:
    """Turn one position argument into a State (see the module doc); ParseError says what is wrong."""
    t = text.strip()
    if not t:
        raise ParseError("empty position")
    if game is None and t.startswith(("[", "{")):
        return TreeState(parse_tree(t))
    if game is None and is_game_name(t):
        return start_position(t, layout)
    if game is not None:
        gt = TYPES.get(_key(game)[0])
        if gt is None:
            if game in GAMES:
                parser = getattr(GAMES[game](), "from_text", None)
                if parser is not None:
                    return parser(t)
            raise ParseError(f"unknown game {game!r}; known: {', '.join(TYPES)}")
        return _parse_for(gt, t, layout)
    for gt in TYPES.values():  # a board of some game, as its to_text writes it
        if gt.looks_like(t):
            return gt.parse(t)
    othello.board_side_error(t)
    if _OTHELLO_TRANSCRIPT.fullmatch(t):
        return OthelloState.from_transcript(t, layout=layout)
    raise ParseError(_unreadable(text))


_OTHELLO_TRANSCRIPT = re.compile(r"[\sA-Ja-j0-9.,;\-@]*|.*pass.*", flags=re.IGNORECASE)


def _unreadable(text: str) -> str:
    return f"cannot read position {text[:40]!r}: give a game name, a board plus side to move, or a transcript"


def _parse_for(gt: GameType, t: str, layout: str) -> State:
    """A position of a known game: its board text, else a transcript from its start."""
    if gt.looks_like(t):
        return gt.parse(t)
    if gt.name == "othello":
        othello.board_side_error(t)
        if not _OTHELLO_TRANSCRIPT.fullmatch(t):
            return gt.parse(t)  # neither moves nor a board: the board reader says what a position needs
    return gt.transcript(t, None, layout)


register_type(othello.TYPE)
register_type(tictactoe.TYPE)
register_type(connect4.TYPE)

__all__ = ["ALIASES", "BOARD_SQUARES", "GAMES", "TYPES", "OthelloState", "TicTacToeState", "TreeState", "game_type",
           "is_game_name", "parse_position", "register", "register_type", "start_position", "type_of"]

from plies.games import hexthello as _hexthello  # noqa: E402,F401  (registers "hexthello")
