"""Misbehaving test players, registered as kinds when imported (``--load match_plugin_players``)."""

from __future__ import annotations

import time

from plies import players
from plies.game import State
from plies.players import Player


class CrashPlayer(Player):
    """Raises after ``after`` good moves."""

    def __init__(self, after: int = 0) -> None:
        self.after = after
        self.name = f"crash:after={after}"
        self.count = 0

    def new_game(self, state: State) -> None:
        self.count = 0

    def choose(self, state: State) -> int:
        if self.count >= self.after:
            raise RuntimeError("boom")
        self.count += 1
        return state.legal_moves()[0]


class IllegalPlayer(Player):
    """Plays a square that is already taken (or 999 when none is)."""

    name = "illegal"

    def choose(self, state: State) -> int:
        occupied = [sq for sq in range(64) if (getattr(state, "black", 0) | getattr(state, "white", 0)) >> sq & 1]
        return occupied[0] if occupied else 999


class SlowPlayer(Player):
    """The first legal move after ``delay`` seconds."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.name = f"slow:delay={delay:g}"

    def choose(self, state: State) -> int:
        time.sleep(self.delay)
        return state.legal_moves()[0]


players.register("crash", lambda game, params, raw: CrashPlayer(int(params.get("after", 0))))
players.register("illegal", lambda game, params, raw: IllegalPlayer())
players.register("slow", lambda game, params, raw: SlowPlayer(float(params.get("delay", 0.01))))


class DyingPlayer(Player):
    """Ends its own process at its first move (as a Ray node or worker dies under a game): every time with
    ``marker`` empty, else only while the file ``marker`` does not exist yet (it is created first: the game
    played again then goes on).  Only for games in worker processes: it would end the caller's own process."""

    def __init__(self, marker: str = "") -> None:
        self.marker = marker
        self.name = "dying"

    def choose(self, state: State) -> int:
        import os

        if not self.marker or not os.path.exists(self.marker):
            if self.marker:
                with open(self.marker, "w") as f:
                    f.write(str(os.getpid()))
            os._exit(1)
        return state.legal_moves()[0]


players.register("dying", lambda game, params, raw: DyingPlayer(params.get("marker", "")))
