"""A live game as JSON, as the page draws it: the whole game (``view``), one position of its move list
(``frame``), its result and its sides."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plies.analysis.openings import openings
from plies.analysis.position import Analysis
from plies.game import PASS, PliesError, State
from plies.games.record import RESIGNED, TIMEOUT
from plies.i18n import N_, _
from plies.web import boards

if TYPE_CHECKING:
    from plies.web.sessions import GameSession, Side


def summary(a: Analysis) -> dict[str, Any]:
    """What the graph needs of an analysis: the position's value from Black's view, exact or not, its unit."""
    return {"value": a["value"], "exact": a["exact"], "unit": a["unit"], "depth": a["depth"]}


def side_view(side: Side, colour: str, viewer: str | None = None) -> dict[str, Any]:
    """One side: a person (``friend``: on another browser; ``joined``: it has taken its seat), or the computer
    with its level and the words for it.  A person called "You" is "You" only to its own browser (``viewer``; no
    viewer: the stored name)."""
    d: dict[str, Any] = {"colour": colour, "kind": side.kind, "name": side.name or colour, "friend": side.friend,
                         "joined": side.token is not None}
    if viewer is not None and side.name == "You" and side.token != viewer:
        d["name"] = N_("Player")  # (a watcher is not the one who plays)
    if side.computer is not None:
        c = side.computer.difficulty
        d.update(level=c.level, label=c.label, backend=c.backend, name=side.name or N_("Computer"),
                 short=f"computer, level {c.level}")
    else:
        d.update(label="", name=d["name"] if side.name else N_("Person"), short=side.name or "person")
    return d


def notice(session: GameSession) -> str:
    """The session's notice in the language in force (the names in it too, where they are words: "White")."""
    message, names = session.said
    if not message or message.format(**names) != session.notice:
        return session.notice  # (set as plain text)
    return _(message).format(**{k: _(v) if v else v for k, v in names.items()})


def result(session: GameSession) -> dict[str, Any] | None:
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


def frame(session: GameSession, ply: int) -> dict[str, Any]:
    """The position after ``ply`` moves as the page draws it (cells, legal moves, last move, flips)."""
    game = session.game
    if not 0 <= ply < len(game.states):
        raise PliesError(f"no position {ply}: the game has {len(game.moves)} moves")
    st = game.states[ply]
    cells = boards.cells(st)
    last = next((i for i in range(ply - 1, -1, -1) if game.moves[i] != PASS), None)
    last_move = flipped = None
    if last is not None:
        before, move = game.states[last], game.moves[last]
        last_move = {"index": boards.cell_of(before, move), "move": before.move_str(move), "side": before.to_move,
                     "ply": last + 1}
        flipped = boards.changed(boards.cells(before), boards.cells(game.states[last + 1]))
    over = game.over if ply == len(game.moves) else st.is_over()
    return {"ply": ply, "cells": cells, "counts": boards.counts(cells), "to_move": None if over else st.to_move,
            "legal": [] if over else boards.legal(st), "last_move": last_move, "flipped": flipped or [],
            "position": st.to_text(), "over": over, "eval": session.evals.of(st), "highlight": boards.highlight(st)}


def view(session: GameSession, viewer: str | None = None) -> dict[str, Any]:
    """Everything the page needs to draw the game, as JSON, for the browser with token ``viewer``: whether it
    created the game (``owner``), the sides it plays (``you``), whether it only watches; the players of a game
    between two browsers also get its invite code."""
    g, st = session.game, session.state
    now = frame(session, len(g.moves))
    moves = [{"ply": i + 1, "move": name, "side": s.to_move,  # values from player 0's view
              "value": None if n.value is None else round(n.value if s.to_move == 0 else -n.value, 2)}
             for i, (name, s, n) in enumerate(zip(g.names(), g.states, g.notes, strict=False))]
    people = session.has_human and session.clock is None and not session.with_friend
    owner, you = viewer is not None and viewer == session.owner, session.seats_of(viewer)
    return {
        "id": session.id, "game": st.game, "version": session.version, "ply": len(g.moves),
        "layout": boards.layout(st), "side_names": list(st.player_names),
        "players": [side_view(session.sides[p], st.player_names[p], viewer or "") for p in (0, 1)],
        **{k: now[k] for k in ("cells", "counts", "to_move", "legal", "last_move", "flipped", "highlight")},
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


def named(states: list[State]) -> list[dict[str, Any]]:
    """The named openings a game went through: each one's ``ply`` and ``name`` (8x8 Othello; none elsewhere)."""
    return [{"ply": o.ply, "name": o.name} for o in openings(states)]


def _diff(state: State) -> int:
    """The disc difference (X - O) of a position, for the graph."""
    c = boards.counts(boards.cells(state))
    return c["X"] - c["O"]
