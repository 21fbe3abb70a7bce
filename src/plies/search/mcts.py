"""Monte Carlo tree search with UCT, as aima-python's games module writes it: select, expand, simulate,
back-propagate.

Each iteration walks down the tree from the root, at every node taking the child with the highest upper
confidence bound (UCB1: its mean result plus ``c·√(ln N(parent) / N(child))``, infinite for a child never
visited); a node reached for the first time is played out from itself (one random game to the end), a leaf
reached again gets all its children and is played out from the first of them; the result is added to every
node on the path: ``U`` counts 1 for a win and ½ for a draw of the player who made the move into the node,
``N`` counts the visits.  So a node's visits are its own first playout plus its children's.  After the
iterations the root's most visited child is the move.

No evaluation is needed: only the rules and random games.  The value reported is the chosen move's mean
result for the player to move at the root, written −1..+1 (the slides' utilities: +1 a win, −1 a loss), so
it reads beside a minimax value of the win-loss evaluation.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from plies.game import Move, State
from plies.search.result import SearchResult, Stats

C = math.sqrt(2)
"""The exploration constant of UCB1 (Kocsis & Szepesvári): larger looks at more moves, smaller plays the best
one found so far more often."""


@dataclass(eq=False)
class MCTNode:
    """A node of the search tree: its ``state``, the ``move`` that led to it from ``parent``, ``U`` (the results
    of its playouts for the player who made that move: win 1, draw ½) and ``N`` (its visits)."""

    state: State
    parent: MCTNode | None = None
    move: Move | None = None
    U: float = 0.0
    N: int = 0
    children: dict[Move, MCTNode] = field(default_factory=dict)

    @property
    def mover(self) -> int:
        """The player who made the move into this node (the root: the player who moved before it)."""
        return self.parent.state.to_move if self.parent is not None else 1 - self.state.to_move

    def mean(self) -> float:
        """The mean result for ``mover``, 0 (always lost) .. 1 (always won); 0.5 before any visit."""
        return self.U / self.N if self.N else 0.5

    def best_child(self) -> MCTNode | None:
        """The most visited child (the move MCTS plays), None at a leaf."""
        return max(self.children.values(), key=lambda n: n.N) if self.children else None

    def size(self) -> int:
        return 1 + sum(c.size() for c in self.children.values())

    def height(self) -> int:
        return 1 + max((c.height() for c in self.children.values()), default=-1)

    def walk(self) -> Iterator[MCTNode]:
        yield self
        for c in self.children.values():
            yield from c.walk()

    def _repr_svg_(self) -> str:
        """The top of the tree as a notebook shows it: visits and wins at each node (``plies.draw.tree``)."""
        from plies.draw.tree import mcts_scene

        return mcts_scene(self).to_svg()


def ucb(n: MCTNode, c: float = C) -> float:
    """UCB1 of child ``n``: its mean result for the player choosing it, plus the exploration term."""
    if n.N == 0:
        return math.inf
    assert n.parent is not None
    return n.U / n.N + c * math.sqrt(math.log(n.parent.N) / n.N)


def mcts(state: State, iterations: int = 1000, c: float = C, seed: int | None = None,
         rng: random.Random | None = None) -> SearchResult:
    """``iterations`` rounds of select, expand, simulate and back-propagate from ``state``; the result's
    ``move`` is the root's most visited child, ``value`` its mean result −1..+1 for the player to move,
    ``tree`` the root ``MCTNode`` (its visit counts), ``stats.nodes`` the tree's size and ``stats.leaves`` the
    playouts."""
    if iterations < 1:
        raise ValueError("MCTS needs at least one iteration")
    if not c >= 0 or math.isinf(c):
        raise ValueError("the exploration constant c must be a number of at least 0")
    rng = rng if rng is not None else random.Random(seed)

    def select(n: MCTNode) -> MCTNode:
        """Down the tree by the highest UCB while the node has children."""
        while n.children:
            n = max(n.children.values(), key=lambda child: ucb(child, c))
        return n

    def expand(n: MCTNode) -> MCTNode:
        """A leaf played out before (and the root at once) gets all its children, and the playout starts from
        the first of them; a leaf never visited is played out from itself."""
        if (n.N > 0 or n.parent is None) and not n.state.is_over():
            n.children = {m: MCTNode(n.state.play(m), n, m) for m in n.state.legal_moves()}
            return next(iter(n.children.values()))
        return n

    def simulate(s: State) -> int | None:
        """A random game from ``s`` to its end: the winner (0 or 1), None for a draw."""
        while not s.is_over():
            s = s.play(rng.choice(s.legal_moves()))
        score = s.score()
        return 0 if score > 0 else 1 if score < 0 else None

    def backprop(n: MCTNode | None, winner: int | None) -> None:
        """Add the playout's result to every node from ``n`` up to the root."""
        while n is not None:
            n.N += 1
            n.U += 0.5 if winner is None else 1.0 if winner == n.mover else 0.0
            n = n.parent

    t0 = time.perf_counter()
    root = MCTNode(state)
    for _ in range(iterations):
        leaf = select(root)
        child = expand(leaf)
        result = simulate(child.state)
        backprop(child, result)
    stats = Stats(nodes=root.size(), leaves=iterations, depth=root.height(), seconds=time.perf_counter() - t0)
    best = root.best_child()
    pv: list[Move] = []
    n = root
    while (nxt := n.best_child()) is not None and nxt.N > 0 and nxt.move is not None:
        pv.append(nxt.move)
        n = nxt
    value = 2 * best.mean() - 1 if best is not None else 0.0
    return SearchResult(value, best.move if best is not None else None, pv, stats, "mcts", tree=root)


__all__ = ["C", "MCTNode", "mcts", "ucb"]
