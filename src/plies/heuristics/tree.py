"""Explicit trees are searched to their leaves; this 'heuristic' only serves depth-limited runs on them."""

from __future__ import annotations

from plies.games.tree import TreeState
from plies.heuristics import Heuristic, register


def leaf_or_zero(state: TreeState, player: int) -> float:
    """A leaf's value; 0 for an inner node cut off by the depth limit."""
    v = float(state.node.value or 0) if state.node.is_leaf else 0.0
    return v if player == 0 else -v


register(Heuristic("leaf", "tree", leaf_or_zero, "the leaf's own value (0 at a cut-off inner node)"))
