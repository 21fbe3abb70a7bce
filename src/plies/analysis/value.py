"""A value as front-ends show it: a number in its unit, exact or searched to a depth, that prints itself.

Units: ``discs`` (a predicted or, exact, the proven final disc difference), ``result`` (a win, draw or loss game
solved to the end: +1 win, 0 draw, -1 loss), or a heuristic's own units (``weighted-squares heuristic``), which
are *not* discs and are named where shown.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from plies.game import WIN, State
from plies.games import type_of
from plies.heuristics import Heuristic
from plies.i18n import _

DISCS, RESULT = "discs", "result"


def discs_text(value: float) -> str:
    """A number as people read a value: a sign, one decimal at most (``+3.5``, ``-2``, ``0``)."""
    r = round(float(value), 1)
    if r == 0:
        return "0"
    text = f"{r:+.1f}"
    return text[:-2] if text.endswith(".0") else text


def from_search(value: float, exact: bool) -> tuple[float, bool]:
    """A search value (side to move's view) as (discs or heuristic units, proven exact): a finished game inside
    the horizon is worth ±(WIN + disc difference) and becomes that disc difference, exact."""
    v = float(value)
    if abs(v) >= WIN:
        return v - math.copysign(WIN, v), True
    if math.isnan(v) or math.isinf(v):
        return 0.0, False
    return v, exact


def final_unit(state: State) -> str:
    """The unit of a final score: ``result`` (+1/0/-1) in a win, draw or loss game, else ``discs``."""
    t = type_of(state)
    return RESULT if t is not None and t.result == RESULT else DISCS


def heuristic_unit(h: Heuristic) -> str:
    """The unit of a heuristic's values: ``weighted-squares heuristic`` (never just ``discs``: the ``discs``
    heuristic counts the discs on the board now, not the final margin)."""
    return f"{h.name} heuristic"


@dataclass(frozen=True)
class Value:
    """A value: ``number`` in ``unit`` (``discs``, ``result``, a heuristic's or an evaluation's units), proven
    ``exact`` or searched ``depth`` plies; ``str`` gives ``+3.5 discs``, ``+4 discs (exact)``, ``win``,
    ``weighted-squares heuristic +24`` or ``+23 handmade units``."""

    number: float
    unit: str = DISCS
    exact: bool = False
    depth: int | None = None

    def __str__(self) -> str:
        return self.text()

    def __neg__(self) -> Value:
        return replace(self, number=-self.number)

    def seen_by(self, mover: int, side: int) -> Value:
        """This value of ``mover``'s from ``side``'s point of view."""
        return self if mover == side else -self

    def short(self) -> str:
        """The number alone: ``+3.5``, or ``win``/``draw``/``loss`` for a result."""
        if self.unit == RESULT:
            return _("win") if self.number > 0 else _("loss") if self.number < 0 else _("draw")
        return discs_text(self.number)

    def text(self, side: str = "") -> str:
        """The value with its unit, ``for`` a ``side`` when one is named: ``-1.5 discs for Black (exact)``."""
        whose = _(" for {side}").format(side=side) if side else ""
        if self.unit == DISCS:
            return _("{value} discs{whose}").format(value=self.short(), whose=whose) + (
                _(" (exact)") if self.exact else "")
        if self.unit == RESULT:
            return self.short() + whose
        if self.unit.endswith(" heuristic"):
            return _("{name} heuristic {value}{whose}").format(
                name=self.unit.removesuffix(" heuristic"), value=self.short(), whose=whose)
        return f"{self.short()} {self.unit}{whose}"


__all__ = ["DISCS", "RESULT", "Value", "discs_text", "final_unit", "from_search", "heuristic_unit"]
