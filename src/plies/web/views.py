"""A live game as JSON, as the page draws it: the whole game (``view``), one position of its move list
(``frame``), its result and its sides; and the shapes (TypedDicts) of the app's JSON answers."""

from __future__ import annotations

from typing import TYPE_CHECKING, NotRequired, TypedDict

from plies.analysis.book import BookMove
from plies.analysis.openings import openings
from plies.analysis.position import Analysis, Hint, Hints
from plies.analysis.review import Review
from plies.game import PASS, PliesError, State
from plies.games.record import RESIGNED, TIMEOUT
from plies.i18n import N_, _
from plies.web import boards

if TYPE_CHECKING:
    from plies.web.sessions import GameSession, Side


class Summary(TypedDict):
    """A position's value for the graph (``summary``)."""

    value: float
    exact: bool
    unit: str
    depth: int


class Layout(TypedDict):
    """The board's shape and looks (``boards.layout``); ``cells_on_board``: the cells that exist, where not all."""

    kind: str
    rows: int
    cols: int
    files: list[str]
    ranks: list[str]
    pieces: list[str]
    surface: str
    stars: list[list[int]]
    cells_on_board: NotRequired[list[int]]


class Legal(TypedDict):
    """A cell a click plays a move on, and the move's name."""

    index: int
    move: str


class Opening(TypedDict):
    ply: int
    name: str


class SideView(TypedDict):
    """One side (``side_view``); a computer's has its ``level`` and ``backend``."""

    colour: str
    kind: str
    name: str
    friend: bool
    joined: bool
    label: str
    short: str
    level: NotRequired[int]
    backend: NotRequired[str]


class Result(TypedDict):
    winner: int | None
    score: float
    reason: str
    text: str
    winner_name: str


class LastMove(TypedDict):
    index: int | None
    move: str
    side: int
    ply: int


class Board(TypedDict):
    """A position of a live game as the page draws it: what ``frame`` and ``view`` share."""

    ply: int
    cells: list[str]
    counts: dict[str, int]
    to_move: int | None
    legal: list[Legal]
    last_move: LastMove | None
    flipped: list[int]
    highlight: list[int]
    position: str
    over: bool


class Frame(Board):
    eval: Summary | None


class PositionView(Frame):
    """A frame and the game's version (``GET /api/games/{id}/positions/{ply}``)."""

    version: int


class Message(TypedDict):
    """A message queued for a game's WebSocket: ``state`` (the game changed), ``eval`` (a position's value arrived),
    ``hint`` (a ``HintView``'s keys), ``error`` and ``closed`` (``message``), ``pong``."""

    type: str
    ply: NotRequired[int | None]
    eval: NotRequired[Summary]
    message: NotRequired[str]
    hints: NotRequired[list[Hint]]
    source: NotRequired[str]
    unit: NotRequired[str]


class HintView(Hints):
    """A live game's hints and the ply they are for (None: the game moved on meanwhile)."""

    ply: int | None


class AnalysisView(Analysis):
    """A position of a live game valued, which one (``ply``) and the game's version."""

    ply: int
    version: int


class BookView(TypedDict):
    """The opening book's moves of a position (``ply``: of a live game)."""

    ply: NotRequired[int]
    unit: str
    to_move: int | None
    moves: list[BookMove]


class ReviewView(TypedDict):
    """A review's progress (``done`` of ``total`` positions), then the review or the error."""

    id: str
    status: str
    done: int
    total: int
    level: int
    review: NotRequired[Review]
    error: NotRequired[str]


class JoinView(TypedDict):
    """What an invite code opens (``GET /api/join/{code}``)."""

    id: str
    game: str
    layout: Layout
    host: str
    open: bool
    seat: str | None
    over: bool


class TranscriptView(TypedDict):
    """A live game's moves and the game as files (``GET /api/games/{id}/transcript``)."""

    game: str
    start: str
    transcript: str
    moves: list[str]
    position: str
    file: str
    ggf: str | None


class ListedGame(TypedDict):
    """A game of a file, to pick it (``index`` from 1); ``result`` Black's disc difference (+12)."""

    index: int
    black: str
    white: str
    moves: int
    result: str | None
    date: str


class ListedPosition(TypedDict):
    """A position of an OBF file, to pick it: ``label`` the side to move, the empty squares, the comment."""

    index: int
    label: str


class FileGames(TypedDict):
    """The games of a file (``POST /api/files/games``, ``/api/files/wthor``): the first ones, and how many;
    ``named``: whether a WTHOR file's players have names."""

    format: str | None
    total: int
    games: list[ListedGame] | list[ListedPosition]
    named: NotRequired[bool]


class WthorGame(TypedDict):
    """The game picked from a WTHOR file, as GGF."""

    format: str
    index: int
    ggf: str


class Stored(TypedDict):
    """A finished game of the history as its list shows it (``History.list`` adds ``plies``)."""

    id: str
    game: str
    start: str
    players: list[str]
    winner: int | None
    score: float
    result: str
    final: str
    started_at: str
    finished_at: str


class HistoryEntry(Stored):
    plies: int


class HistoryPage(TypedDict):
    total: int
    games: list[HistoryEntry]


class StoredGame(Stored):
    """A finished game of the history with its moves and the graph's value after each."""

    moves: list[str]
    values: list[float | None]


class ReplayFrame(TypedDict):
    """One position of a finished game, for replay; ``side`` the mover of ``move``; ``position``: the library's."""

    ply: int
    cells: list[str]
    last_move: int | None
    move: str | None
    counts: dict[str, int]
    to_move: int | None
    highlight: list[int]
    side: NotRequired[int]
    position: NotRequired[str]


class Replay(StoredGame):
    """A finished game with every position, its openings and its files (``GET /api/history/{id}``)."""

    frames: list[ReplayFrame]
    openings: list[Opening]
    file: str
    ggf: str | None
    layout: Layout
    side_names: list[str]


class LibraryGame(Replay):
    """A game of the library as a ``Replay`` (``GET /api/library/games/{n}``): its number, file, passes."""

    library: int
    source: str
    passes: int


class Variant(TypedDict):
    """A game on one of its boards, as the start screen offers it."""

    name: str
    label: str
    size: int | None
    engine: bool
    layout: Layout
    start: list[str]


class GameEntry(TypedDict):
    """A game the start screen offers (``info.game_entries``)."""

    name: str
    title: str
    variants: list[Variant]
    sides: list[str]
    symbols: list[str]
    result: str
    line: str
    separator: str
    example: str
    heuristics: list[str]
    default_heuristic: str | None


class Levels(TypedDict):
    teaching: list[int]
    max: int
    default: int


class EngineInfo(TypedDict):
    available: bool
    text: str
    levels: dict[int, str]
    warm: bool


class AnalysisLevels(TypedDict):
    levels: dict[int, str]
    default: int


class Info(TypedDict):
    """What the start screen offers (``info.info``)."""

    games: list[GameEntry]
    levels: Levels
    algorithms: list[str]
    engine: EngineInfo
    analysis: AnalysisLevels


class AppInfo(Info):
    """``GET /api/info``: ``Info``, the Learn pages, the LAN hosts an invite names, whether there is a library."""

    learn: bool
    hosts: list[str]
    library: bool


class MoveRow(TypedDict):
    ply: int
    move: str
    side: int
    value: float | None


class Invite(TypedDict):
    code: str
    open: bool


class GameView(Board):
    """The whole game (``view``), what every answer about a live game sends."""

    id: str
    game: str
    version: int
    layout: Layout
    side_names: list[str]
    players: list[SideView]
    result: Result | None
    notice: str
    error: str
    thinking: int | None
    can_undo: bool
    undo_offer: int | None
    can_redo: bool
    can_branch: bool
    moves: list[MoveRow]
    transcript: str
    start: str
    custom_start: bool
    setup_moves: int
    evals: list[Summary | None]
    analysis_level: int
    disc_diff: list[int]
    clock: dict[str, float | int | list[float] | None] | None
    openings: list[Opening]
    saved: bool | None
    owner: bool
    you: list[int]
    watching: bool
    friend: bool
    rematch: str | None
    invite: Invite | None


def summary(a: Analysis) -> Summary:
    """What the graph needs of an analysis: the position's value from Black's view, exact or not, its unit."""
    return {"value": a["value"], "exact": a["exact"], "unit": a["unit"], "depth": a["depth"]}


def side_view(side: Side, colour: str, viewer: str | None = None) -> SideView:
    """One side: a person (``friend``: on another browser; ``joined``: it has taken its seat), or the computer
    with its level and the words for it.  A person called "You" is "You" only to its own browser (``viewer``; no
    viewer: the stored name)."""
    c = side.computer.difficulty if side.computer is not None else None
    if c is not None:
        name = side.name or N_("Computer")
    elif viewer is not None and side.name == "You" and side.token != viewer:
        name = N_("Player")  # (a watcher is not the one who plays)
    else:
        name = side.name or N_("Person")
    d: SideView = {"colour": colour, "kind": side.kind, "name": name, "friend": side.friend,
                   "joined": side.token is not None, "label": "", "short": side.name or "person"}
    if c is not None:
        d.update({"level": c.level, "label": c.label, "backend": c.backend, "short": f"computer, level {c.level}"})
    return d


def notice(session: GameSession) -> str:
    """The session's notice in the language in force (the names in it too, where they are words: "White")."""
    message, names = session.said
    if not message or message.format(**names) != session.notice:
        return session.notice  # (set as plain text)
    return _(message).format(**{k: _(v) if v else v for k, v in names.items()})


def result(session: GameSession) -> Result | None:
    """The end of the game as the page shows it (None while it goes on): on time, or by the rules."""
    out = session.game.outcome()
    if out is None:
        return None
    if out.winner is None:
        return {"winner": None, "score": out.score, "reason": "end", "text": _("Draw"), "winner_name": ""}
    name, t = _(session.state.player_names[out.winner]), session.game.type
    if session.game.termination == TIMEOUT:
        text, reason = _("{name} wins on time").format(name=name), "time"
    elif session.game.termination == RESIGNED:
        text, reason = _("{name} wins by resignation").format(name=name), "resign"
    elif t is None or t.result == "discs":
        text, reason = _("{name} wins by {margin}").format(name=name, margin=f"{abs(out.score):g}"), "end"
    else:  # a win, draw or loss game has no margin to tell
        text, reason = _("{name} wins").format(name=name), "end"
    return {"winner": out.winner, "score": out.score, "reason": reason, "text": text,
            "winner_name": _who(session, out.winner)}


def _who(session: GameSession, player: int) -> str:
    """``you``, ``the computer`` or the side's name, for the end screen."""
    side = session.sides[player]
    if side.kind == "human":
        return "you" if side.name == "You" else side.name or session.state.player_names[player]
    return f"the computer (level {side.computer.difficulty.level})" if side.computer else "the computer"


def frame(session: GameSession, ply: int) -> Frame:
    """The position after ``ply`` moves as the page draws it (cells, legal moves, last move, flips)."""
    game = session.game
    if not 0 <= ply < len(game.states):
        raise PliesError(f"no position {ply}: the game has {len(game.moves)} moves")
    st = game.states[ply]
    cells = boards.cells(st)
    last = next((i for i in range(ply - 1, -1, -1) if game.moves[i] != PASS), None)
    last_move: LastMove | None = None
    flipped: list[int] = []
    if last is not None:
        before, move = game.states[last], game.moves[last]
        last_move = {"index": boards.cell_of(before, move), "move": before.move_str(move), "side": before.to_move,
                     "ply": last + 1}
        flipped = boards.changed(boards.cells(before), boards.cells(game.states[last + 1]))
    over = game.over if ply == len(game.moves) else st.is_over()
    return {"ply": ply, "cells": cells, "counts": boards.counts(cells), "to_move": None if over else st.to_move,
            "legal": [] if over else boards.legal(st), "last_move": last_move, "flipped": flipped,
            "position": st.to_text(), "over": over, "eval": session.evals.of(st), "highlight": boards.highlight(st)}


def view(session: GameSession, viewer: str | None = None) -> GameView:
    """Everything the page needs to draw the game, as JSON, for the browser with token ``viewer``: whether it
    created the game (``owner``), the sides it plays (``you``), whether it only watches; the players of a game
    between two browsers also get its invite code."""
    g, st = session.game, session.state
    now = frame(session, len(g.moves))
    moves: list[MoveRow] = [{"ply": i + 1, "move": name, "side": s.to_move,  # values from player 0's view
              "value": None if n.value is None else round(n.value if s.to_move == 0 else -n.value, 2)}
             for i, (name, s, n) in enumerate(zip(g.names(), g.states, g.notes, strict=False))]
    people = session.has_human and session.clock is None and not session.with_friend
    owner, you = viewer is not None and viewer == session.owner, session.seats_of(viewer)
    return {
        "id": session.id, "game": st.game, "version": session.version, "ply": len(g.moves),
        "layout": boards.layout(st), "side_names": list(st.player_names),
        "players": [side_view(session.sides[p], st.player_names[p], viewer or "") for p in (0, 1)],
        "cells": now["cells"], "counts": now["counts"], "to_move": now["to_move"], "legal": now["legal"],
        "last_move": now["last_move"], "flipped": now["flipped"], "highlight": now["highlight"],
        "over": g.over, "result": result(session), "notice": notice(session), "error": session.error,
        "thinking": session.thinking, "can_undo": people and session.undo_target() is not None
        or _can_take_back(session, you), "undo_offer": session.undo_offer,
        "can_redo": people and bool(g.undone), "can_branch": people, "moves": moves, "transcript": g.transcript(),
        "start": g.start.to_text(), "custom_start": session.custom_start, "setup_moves": session.setup_moves,
        "position": st.to_text(), "evals": session.evals.line(g.states), "analysis_level": session.evals.level,
        "disc_diff": [_diff(s) for s in g.states], "clock": session.clock.view() if session.clock else None,
        "openings": named(g.states), "saved": session.saved, "owner": owner, "you": you,
        "watching": not you and not owner, "friend": session.with_friend, "rematch": session.rematch,
        "invite": ({"code": session.code, "open": session.open_seat() is not None}
                   if session.code is not None and you else None),
    }


def _can_take_back(session: GameSession, you: list[int]) -> bool:
    """Whether this browser may ask to take back its last move, or agree to the other player's asking."""
    if not session.with_friend or len(you) != 1 or session.clock is not None or session.game.over:
        return False
    if session.undo_offer is not None:
        return session.undo_offer != you[0]
    return session.game.turn_before({you[0]}) is not None


def named(states: list[State]) -> list[Opening]:
    """The named openings a game went through: each one's ``ply`` and ``name`` (8x8 Othello; none elsewhere)."""
    return [{"ply": o.ply, "name": o.name} for o in openings(states)]


def _diff(state: State) -> int:
    """The disc difference (X - O) of a position, for the graph."""
    c = boards.counts(boards.cells(state))
    return c["X"] - c["O"]
