"""What every search returns: value, best move, principal variation and statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NotRequired, TypedDict

from plies.game import State, describe_value

if TYPE_CHECKING:
    from plies.search.mcts import MCTNode


@dataclass(slots=True)
class Stats:
    """Counters of one search.  ``alpha_cutoffs`` happen at MIN nodes (value <= α), ``beta_cutoffs`` at MAX
    nodes (value >= β); both stay 0 for minimax and for alpha-beta with pruning off."""

    nodes: int = 0
    leaves: int = 0
    alpha_cutoffs: int = 0
    beta_cutoffs: int = 0
    seconds: float = 0.0
    depth: int = 0

    @property
    def cutoffs(self) -> int:
        return self.alpha_cutoffs + self.beta_cutoffs

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class StatsDict(TypedDict):
    nodes: int
    leaves: int
    alpha_cutoffs: int
    beta_cutoffs: int
    seconds: float
    depth: int
    nodes_per_second: int


class ResultDict(TypedDict):
    """``SearchResult.to_dict``: moves as the game writes them when the root state is known."""

    algorithm: str
    evaluation: str
    value: float
    value_text: str
    move: object
    pv: list[object]
    stats: StatsDict
    selectivity: NotRequired[float]


@dataclass
class SearchResult:
    """Outcome of a search from the root player's view: ``value``, best ``move`` (None at a finished game),
    principal variation ``pv`` (moves from the root), ``stats``, and the algorithm that produced it."""

    value: float
    move: Any
    pv: list[Any] = field(default_factory=list)
    stats: Stats = field(default_factory=Stats)
    algorithm: str = ""
    evaluation: str = ""
    exact: bool = False
    selectivity: float | None = None
    """For a selective endgame search (probcut), the chance in percent that each of its cut-offs is right, as
    Edax's ``@95%`` (``depth_text``); None for every other search."""
    tree: MCTNode | None = field(default=None, repr=False, compare=False)
    """For Monte Carlo tree search, the tree it grew (``plies.search.mcts.MCTNode``: visits and results)."""

    def describe(self) -> str:
        return describe_value(self.value)

    def depth_text(self, whole_percent: bool = False) -> str:
        """The depth as engines print it: ``26`` or, for a selective endgame search, ``26@95%`` (``26@99.9%``;
        ``26@99%`` with ``whole_percent``, as Edax sends it to NBoard)."""
        if self.selectivity is None:
            return str(self.stats.depth)
        percent = int(self.selectivity) if whole_percent else self.selectivity
        return f"{self.stats.depth}@{percent:g}%"

    def _repr_html_(self) -> str:
        """A small table for notebooks: value, move, principal variation and the counters."""
        from html import escape

        s = self.stats
        rows = [("algorithm", self.algorithm + (f" ({self.evaluation})" if self.evaluation else "")),
                ("value", self.describe()), ("move", "—" if self.move is None else str(self.move)),
                ("principal variation", " ".join(map(str, self.pv)) or "—"), ("depth", str(s.depth)),
                ("nodes", f"{s.nodes:,}"), ("leaves", f"{s.leaves:,}"),
                ("cut-offs", f"{s.cutoffs:,} (α {s.alpha_cutoffs:,}, β {s.beta_cutoffs:,})")]
        body = "".join(f'<tr><th style="text-align:left">{escape(k)}</th><td style="text-align:left">{escape(v)}'
                       f"</td></tr>" for k, v in rows)
        return f'<table class="plies-search-result">{body}</table>'

    def to_dict(self, state: State | None = None) -> ResultDict:
        """JSON-ready form; with the root ``state``, moves are written in the game's notation."""
        moves: list[object] = list(self.pv)
        move: object = self.move
        if state is not None:
            from plies.games.record import move_names

            moves = list(move_names(state, self.pv))
            move = state.move_str(self.move) if self.move is not None else None
        s = self.stats
        d = StatsDict(nodes=s.nodes, leaves=s.leaves, alpha_cutoffs=s.alpha_cutoffs, beta_cutoffs=s.beta_cutoffs,
                      seconds=s.seconds, depth=s.depth, nodes_per_second=round(s.nodes_per_second))
        out: ResultDict = {
            "algorithm": self.algorithm,
            "evaluation": self.evaluation,
            "value": self.value,
            "value_text": self.describe(),
            "move": move,
            "pv": moves,
            "stats": d,
        }
        if self.selectivity is not None:
            out["selectivity"] = self.selectivity
        return out
