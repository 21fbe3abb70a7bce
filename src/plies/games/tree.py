"""Explicit game trees as a tiny game, so the searches can be checked on the seeds' worked examples.

A tree is a nested list whose leaves are numbers valued from MAX's (the root player's) view, e.g. document
000's ``[[3, 12, 8], [2, 4, 6], [14, 5, 2]]``; or a JSON-like dict form with labels,
``{"label": "A", "children": [{"label": "B", "children": [3, 12, 8]}, ...]}`` / ``{"label": "x", "value": 3}``.
The root player is MAX (player 0); levels alternate.  A move is the index of a child.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import ClassVar, TypeAlias

from plies.game import WIN, IllegalMoveError, ParseError, State
from plies.i18n import _

TreeData: TypeAlias = "float | list[TreeData] | dict[str, str | TreeData] | None"
"""A tree in its nested-list / labelled-dict form (what ``build`` reads and ``Node.to_data`` writes)."""


@dataclass(frozen=True)
class Node:
    """A node of an explicit tree: a leaf with a value, or an inner node with children; optional label."""

    label: str | None = None
    value: float | None = None
    children: tuple[Node, ...] = field(default=())

    @property
    def is_leaf(self) -> bool:
        return not self.children

    def to_data(self) -> TreeData:
        """Back to the nested-list (or labelled dict) form."""
        if self.is_leaf:
            return self.value if self.label is None else {"label": self.label, "value": self.value}
        kids = [c.to_data() for c in self.children]
        return kids if self.label is None else {"label": self.label, "children": kids}


def _leaf_value(value: object) -> float:
    """A leaf's value: a finite number smaller in size than WIN (the searches read WIN and beyond as won games)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ParseError(_("a leaf value must be a number, not {value}").format(value=repr(value)))
    if not math.isfinite(value) or abs(value) >= WIN:
        raise ParseError(_("a leaf value must be a finite number between {low} and {high}, not {value}").format(
            low=-WIN, high=WIN, value=repr(value)))
    return value


def build(data: object) -> Node:
    """Turn the nested-list / dict form into Nodes; ParseError on anything else."""
    if isinstance(data, bool):
        raise ParseError(_("a tree leaf must be a number, not a boolean"))
    if isinstance(data, (int, float)):
        return Node(value=_leaf_value(data))
    if isinstance(data, list):
        if not data:
            raise ParseError(_("a tree node needs at least one child"))
        return Node(children=tuple(build(d) for d in data))
    if isinstance(data, dict):
        label = data.get("label", data.get("name"))
        label = None if label is None else str(label)
        if "children" in data:
            if not isinstance(data["children"], list):
                raise ParseError(_("'children' must be a list, not {value}").format(value=repr(data["children"])))
            node = build(data["children"])
            return Node(label=label, children=node.children)
        if "value" in data:
            return Node(label=label, value=_leaf_value(data["value"]))
        raise ParseError(_("a tree node in dict form needs 'children' or 'value'"))
    raise ParseError(_("not a tree node: {value}").format(value=repr(data)))


def tree_height(node: Node) -> int:
    """Plies from ``node`` down to its deepest leaf."""
    return 0 if node.is_leaf else 1 + max(tree_height(c) for c in node.children)


def tree_size(node: Node) -> int:
    """Nodes of the tree under ``node``, itself included."""
    return 1 + sum(tree_size(c) for c in node.children)


def parse_tree(text: str) -> Node:
    """Read a tree from JSON text (nested lists or labelled dicts)."""
    try:
        data = json.loads(text)
        return build(data)
    except json.JSONDecodeError as e:
        raise ParseError(f"not a tree: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:
        raise ParseError("tree nested too deeply") from None


class TreeState(State):
    """A node of an explicit tree reached by ``path`` (child indices from the root)."""

    game: ClassVar[str] = "tree"
    player_names: ClassVar[tuple[str, str]] = ("MAX", "MIN")

    __slots__ = ("root", "path", "node")

    def __init__(self, root: object, path: tuple[int, ...] = ()) -> None:
        self.root = root if isinstance(root, Node) else build(root)
        self.path = path
        node = self.root
        for i in path:
            node = node.children[i]
        self.node = node

    @property
    def to_move(self) -> int:
        return len(self.path) % 2

    def legal_moves(self) -> list[int]:
        return list(range(len(self.node.children)))

    def play(self, move: int) -> TreeState:
        if not isinstance(move, int) or not 0 <= move < len(self.node.children):
            raise IllegalMoveError(f"no child {move!r} here")
        return TreeState(self.root, self.path + (move,))

    def score(self) -> float:
        if self.node.value is None:
            raise ValueError("an inner node has no value of its own")
        return self.node.value

    def utility(self, player: int) -> float:
        """Leaf values are used as they are (no win offset): the exercises' numbers come out unchanged."""
        v = self.score()
        return v if player == 0 else -v

    def label(self) -> str:
        """The node's label, or its path of child indices (``root`` for the root)."""
        if self.node.label is not None:
            return self.node.label
        return "root" if not self.path else ".".join(str(i) for i in self.path)

    def move_str(self, move: int) -> str:
        child = self.node.children[move]
        return child.label if child.label is not None else str(move)

    def parse_move(self, text: str) -> int:
        t = text.strip()
        for i, child in enumerate(self.node.children):
            if child.label == t:
                return i
        try:
            i = int(t)
        except ValueError:
            raise ParseError(f"not a child: {text!r}") from None
        self.play(i)
        return i

    def to_text(self) -> str:
        return json.dumps(self.root.to_data(), separators=(",", ":")) + (
            "@" + ".".join(map(str, self.path)) if self.path else ""
        )

    def __str__(self) -> str:
        return f"{self.label()} ({self.player_names[self.to_move]} to move)"

    def _repr_svg_(self) -> str:
        """The whole tree as a notebook shows it (plies' own SVG), this node highlighted."""
        from plies.draw.tree import explicit_tree_svg

        return explicit_tree_svg(self.root, self.path)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TreeState)
            and self.path == other.path
            and (self.root is other.root or self.root == other.root)
        )

    def __hash__(self) -> int:
        return hash((self.root, self.path))
