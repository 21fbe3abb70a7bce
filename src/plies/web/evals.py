"""The evaluation graph of a live game: every position analysed in the background by the shared ``Analyst`` at
the game's analysis level, newest first; the graph, the hints, the values on the board and the review read those
analyses."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from plies.analysis.position import clamp_level
from plies.game import PliesError, State
from plies.web.analyst import LIVE, Analyst
from plies.web.views import Summary, summary

log = logging.getLogger("plies.web")


class Evals:
    """Each position's analysis summary (``views.summary``) at ``level``, by position; ``on_eval(state, eval)``
    is called as each arrives."""

    def __init__(self, analyst: Analyst, level: int | None, on_eval: Callable[[State, Summary], None]) -> None:
        self.analyst = analyst
        self.level = clamp_level(level)
        self.on_eval = on_eval
        self.values: dict[State, Summary] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def of(self, state: State) -> Summary | None:
        return self.values.get(state)

    def line(self, states: Sequence[State]) -> list[Summary | None]:
        """The graph: each position's summary, None where it has not arrived."""
        return [self.values.get(s) for s in states]

    def schedule(self, states: Sequence[State]) -> None:
        """Analyse the positions not valued yet, the last first."""
        for state in reversed(states):
            if state not in self.values:
                task = asyncio.get_running_loop().create_task(self._run(state, self.level))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    def set_level(self, level: int, states: Sequence[State]) -> bool:
        """Analyse the game at another engine level (the graph is recomputed); False when it is the same."""
        level = clamp_level(level)
        if level == self.level:
            return False
        self.level = level
        self.values.clear()
        self.schedule(states)
        return True

    async def _run(self, state: State, level: int) -> None:
        try:
            a = await self.analyst.analyse(state, level, LIVE)
        except PliesError:  # the analysis queue is full: this point of the graph stays empty
            return
        except Exception:  # a background job: the game goes on, the log says why
            log.exception("analysis of %s failed", state.to_text())
            return
        if level == self.level:
            self.values[state] = ev = summary(a)
            self.on_eval(state, ev)
