"""Hooks a search calls as it walks the tree, so teaching views can replay it step by step."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Tracer:
    """Receives the walk of a search; the default does nothing.  Subclass or use ``RecordingTracer``."""

    def enter(self, node: Any, alpha: float, beta: float) -> None:
        """An inner node is opened with window (alpha, beta)."""

    def leaf(self, node: Any, value: float) -> None:
        """A leaf (finished game or depth limit) is evaluated."""

    def cutoff(self, node: Any, kind: str, value: float, alpha: float, beta: float, skipped: list[Any]) -> None:
        """``kind`` is 'alpha' or 'beta'; ``skipped`` are the moves of ``node`` never searched."""

    def exit(self, node: Any, value: float) -> None:
        """An inner node's value is final."""

    def table(self, node: Any, value: float, flag: str) -> None:
        """A transposition table gives ``node``'s value (``flag``: 'exact', 'lower' or 'upper' bound) without a
        search below it."""

    def stand(self, node: Any, value: float) -> None:
        """A quiescence search at ``node`` (already entered) takes its static value as a first best: the side to
        move may stand pat instead of playing a noisy move."""


@dataclass
class Event:
    kind: str
    node: Any
    value: float | None = None
    alpha: float | None = None
    beta: float | None = None
    skipped: list[Any] = field(default_factory=list)


class RecordingTracer(Tracer):
    """Keeps every event in order in ``events``."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def enter(self, node: Any, alpha: float, beta: float) -> None:
        self.events.append(Event("enter", node, alpha=alpha, beta=beta))

    def leaf(self, node: Any, value: float) -> None:
        self.events.append(Event("leaf", node, value=value))

    def cutoff(self, node: Any, kind: str, value: float, alpha: float, beta: float, skipped: list[Any]) -> None:
        self.events.append(Event(kind + "-cutoff", node, value, alpha, beta, list(skipped)))

    def exit(self, node: Any, value: float) -> None:
        self.events.append(Event("exit", node, value=value))

    def table(self, node: Any, value: float, flag: str) -> None:
        self.events.append(Event("table-" + flag, node, value=value))

    def stand(self, node: Any, value: float) -> None:
        self.events.append(Event("stand", node, value=value))

    def leaves(self) -> list[Any]:
        """The evaluated leaves, in order."""
        return [e.node for e in self.events if e.kind == "leaf"]
