"""Hooks a search calls as it walks the tree, so teaching views can replay it step by step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, Self, TypeVar

from plies.game import Move


class SearchNode(Protocol):
    """What the textbook searches need of a position: ``plies.game.State`` has it, and so has a teaching view's
    wrapper around one (``plies.teach.trace.Tracked``)."""

    @property
    def to_move(self) -> int: ...

    def legal_moves(self) -> list[Any]: ...

    def play(self, move: Any) -> Self: ...

    def is_over(self) -> bool: ...

    def utility(self, player: int) -> float: ...


N = TypeVar("N", bound=SearchNode)
"""The kind of node one search walks and its tracer receives."""


class Tracer(Generic[N]):
    """Receives the walk of a search; the default does nothing.  Subclass or use ``RecordingTracer``."""

    def enter(self, node: N, alpha: float, beta: float) -> None:
        """An inner node is opened with window (alpha, beta)."""

    def leaf(self, node: N, value: float) -> None:
        """A leaf (finished game or depth limit) is evaluated."""

    def cutoff(self, node: N, kind: str, value: float, alpha: float, beta: float, skipped: list[Move]) -> None:
        """``kind`` is 'alpha' or 'beta'; ``skipped`` are the moves of ``node`` never searched."""

    def exit(self, node: N, value: float) -> None:
        """An inner node's value is final."""

    def table(self, node: N, value: float, flag: str) -> None:
        """A transposition table gives ``node``'s value (``flag``: 'exact', 'lower' or 'upper' bound) without a
        search below it."""

    def stand(self, node: N, value: float) -> None:
        """A quiescence search at ``node`` (already entered) takes its static value as a first best: the side to
        move may stand pat instead of playing a noisy move."""


@dataclass
class Event(Generic[N]):
    kind: str
    node: N
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    skipped: list[Move] = field(default_factory=list)


class RecordingTracer(Tracer[N]):
    """Keeps every event in order in ``events``."""

    def __init__(self) -> None:
        self.events: list[Event[N]] = []

    def enter(self, node: N, alpha: float, beta: float) -> None:
        self.events.append(Event("enter", node, alpha=alpha, beta=beta))

    def leaf(self, node: N, value: float) -> None:
        self.events.append(Event("leaf", node, value=value))

    def cutoff(self, node: N, kind: str, value: float, alpha: float, beta: float, skipped: list[Move]) -> None:
        self.events.append(Event(kind + "-cutoff", node, value, alpha, beta, list(skipped)))

    def exit(self, node: N, value: float) -> None:
        self.events.append(Event("exit", node, value=value))

    def table(self, node: N, value: float, flag: str) -> None:
        self.events.append(Event("table-" + flag, node, value=value))

    def stand(self, node: N, value: float) -> None:
        self.events.append(Event("stand", node, value=value))

    def leaves(self) -> list[N]:
        """The evaluated leaves, in order."""
        return [e.node for e in self.events if e.kind == "leaf"]
