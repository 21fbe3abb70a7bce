"""Exercises that check answers: a random game tree of a chosen shape, the questions of document 002's exercise
(the root's value, MAX's choice, the order the leaves are examined, the leaves alpha-beta never examines), and
a checker that says what is right and what is missing.

A shape is ``BxD`` (branching B at every inner node, depth D: ``3x2`` is document 000's tree) or ``LO-HIxD``
(each inner node draws LO..HI children).  Nodes are named A, B, C, ... level by level (after Z: AA, AB, ...),
leaf values are drawn from ``values`` (default -9..9).  The same seed gives the same tree and questions, so a
teacher can hand out a reproducible worksheet (``plies tree quiz --seed 7``).  For alpha-beta the tree is drawn
again (with the same generator) until at least one branch is pruned, so every exercise has something to prune.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field

from plies.game import ParseError
from plies.i18n import N_, _, ngettext
from plies.teach.schema import QuestionDict, QuizDict, ResultDict, TreeDict
from plies.teach.trace import NodeInfo, Trace, fmt, solve_tree

KINDS = ("value", "move", "order", "pruned")
PROMPTS = {
    "value": N_("What is the value of the root {root} (MAX)?"),
    "move": N_("Which child of {root} does MAX choose?"),
    "order": N_("In which order does {algo} evaluate the leaves? (list their names)"),
    "pruned": N_("Which leaves does alpha-beta never evaluate? (list their names, or 'none')"),
}
MAX_NODES = 200
SHAPE_RE = re.compile(r"^\s*(\d+)(?:\s*-\s*(\d+))?\s*[xX×]\s*(\d+)\s*$")


@dataclass(frozen=True)
class Shape:
    """Children per inner node (``low``..``high``) and the depth of the tree."""

    low: int
    high: int
    depth: int

    @property
    def text(self) -> str:
        b = str(self.low) if self.low == self.high else f"{self.low}-{self.high}"
        return f"{b}x{self.depth}"


def parse_shape(text: str) -> Shape:
    """``3x2`` or ``2-4x3``; ParseError with the accepted forms otherwise."""
    m = SHAPE_RE.match(text or "")
    if not m:
        raise ParseError(_("not a tree shape: {text} (write BRANCHINGxDEPTH like 3x2, or 2-3x3)").format(
            text=repr(text)))
    low = int(m.group(1))
    high = int(m.group(2) or low)
    depth = int(m.group(3))
    if not 1 <= low <= high <= 6:
        raise ParseError(_("the branching must be between 1 and 6 (like 3x2, or 2-4x3)"))
    if not 1 <= depth <= 5:
        raise ParseError(_("the depth must be between 1 and 5"))
    if low == 1 and high == 1:
        raise ParseError(_("a tree with one child per node has nothing to choose: use a branching of 2 or more"))
    if sum(high ** d for d in range(depth + 1)) > MAX_NODES:
        raise ParseError(_("that tree has more than {n} nodes: choose a smaller branching or depth").format(
            n=MAX_NODES))
    return shape_of(low, high, depth)


def shape_of(low: int, high: int, depth: int) -> Shape:
    return Shape(low, high, depth)


def parse_values(text: str) -> tuple[int, int]:
    """``-9..9`` (or ``-9:9``, ``0-20``): the range leaf values are drawn from."""
    m = re.fullmatch(r"\s*(-?\d+)\s*(?:\.\.|:|,|(?<=\d)-)\s*(-?\d+)\s*", text or "")
    if not m:
        raise ParseError(f"not a range of values: {text!r} (write LOW..HIGH like -9..9)")
    lo, hi = int(m.group(1)), int(m.group(2))
    if lo >= hi:
        raise ParseError(f"the lowest value must be below the highest, not {lo}..{hi}")
    if hi - lo > 10_000:
        raise ParseError("keep the values within 10,000 of each other (exercises are done by hand)")
    return lo, hi


def name(k: int) -> str:
    """A, B, ..., Z, AA, AB, ...: the k-th node's name (0-based)."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(65 + r) + out
    return out


def _random_tree(rng: random.Random, shape: Shape, values: tuple[int, int]) -> TreeDict:
    """The labelled dict form, names given level by level (breadth first)."""
    root: TreeDict = {"label": ""}
    level = [root]
    for d in range(shape.depth + 1):
        nxt: list[TreeDict] = []
        for node in level:
            if d == shape.depth:
                node["value"] = rng.randint(*values)
            else:
                node["children"] = [{"label": ""} for _child in range(rng.randint(shape.low, shape.high))]
                nxt += node["children"]
        level = nxt
    k = 0
    level = [root]
    while level:
        nxt = []
        for node in level:
            node["label"] = name(k)
            k += 1
            nxt += node.get("children", [])
        level = nxt
    return _ordered(root)


def _ordered(node: TreeDict) -> TreeDict:
    """Keys in the usual order (label first) for readable JSON."""
    if "children" in node:
        return {"label": node["label"], "children": [_ordered(c) for c in node["children"]]}
    return {"label": node["label"], "value": node["value"]}


@dataclass
class Question:
    kind: str
    prompt: str
    answer: str                       # the expected answer as text

    def to_dict(self) -> QuestionDict:
        return {"kind": self.kind, "prompt": self.prompt, "answer": self.answer}


@dataclass
class Result:
    """The check of one answer: right or not, what was expected, and a sentence saying why."""

    kind: str
    given: str
    correct: bool
    expected: str
    feedback: str

    def to_dict(self) -> ResultDict:
        return {"kind": self.kind, "given": self.given, "correct": self.correct, "expected": self.expected,
                "feedback": self.feedback}


@dataclass
class Quiz:
    """One exercise: its tree (labelled dict form), the search's trace, the questions."""

    seed: int
    shape: Shape
    values: tuple[int, int]
    algorithm: str
    tree: TreeDict
    trace: Trace
    questions: list[Question] = field(default_factory=list)

    @property
    def leaves(self) -> dict[str, NodeInfo]:
        """Leaf name -> NodeInfo, left to right."""
        return {n.label: n for n in sorted(self.trace.nodes.values(), key=lambda n: n.path) if n.leaf}

    def question(self, kind: str) -> Question:
        for q in self.questions:
            if q.kind == kind:
                return q
        raise ParseError(f"this exercise asks no {kind!r} question; it asks: "
                         f"{', '.join(q.kind for q in self.questions)}")

    def check(self, kind: str, text: str) -> Result:
        """Check the answer ``text`` to the ``kind`` question."""
        return check(self, kind, text)

    def text_tree(self) -> str:
        """The tree as indented text with the leaf values (what the terminal shows)."""
        lines: list[str] = []

        def walk(node: TreeDict, prefix: str, last: bool, depth: int, top: bool) -> None:
            who = "MAX" if depth % 2 == 0 else "MIN"
            text = f"{node['label']} = {node['value']:g}" if "value" in node else f"{node['label']} ({who})"
            lines.append(text if top else prefix + ("└── " if last else "├── ") + text)
            kids = node.get("children", [])
            inner = "" if top else prefix + ("    " if last else "│   ")
            for i, c in enumerate(kids):
                walk(c, inner, i == len(kids) - 1, depth + 1, False)

        walk(self.tree, "", True, 0, True)
        return "\n".join(lines)

    def to_dict(self, answers: bool = True) -> QuizDict:
        return {"seed": self.seed, "shape": self.shape.text, "values": list(self.values),
                "algorithm": self.algorithm, "tree": self.tree, "text": self.text_tree(),
                "questions": [q.to_dict() if answers else {"kind": q.kind, "prompt": q.prompt}
                              for q in self.questions]}


def make_quiz(seed: int | None = None, shape: str | Shape = "3x2", values: tuple[int, int] = (-9, 9),
              algorithm: str = "alphabeta", ask: tuple[str, ...] | list[str] = KINDS) -> Quiz:
    """A random exercise (reproducible with ``seed``; without one a seed is drawn and recorded)."""
    if algorithm not in ("alphabeta", "minimax"):
        raise ParseError(f"unknown algorithm {algorithm!r}; choose from: alphabeta, minimax")
    sh = shape if isinstance(shape, Shape) else parse_shape(shape)
    kinds = [k for k in KINDS if k in ask]
    unknown = [k for k in ask if k not in KINDS]
    if unknown or not kinds:
        raise ParseError(f"unknown question {', '.join(unknown) or '(none)'}; choose from: {', '.join(KINDS)}")
    if algorithm == "minimax" and "pruned" in kinds:
        kinds.remove("pruned")                       # minimax prunes nothing: no such question
        if not kinds:
            raise ParseError("minimax prunes nothing: ask value, move or order")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    rng = random.Random(seed)
    for _attempt in range(60):
        tree = _random_tree(rng, sh, values)
        trace = solve_tree(tree, algorithm)
        if algorithm == "minimax" or trace.pruned:
            break
    root = tree["label"]
    algo = _("alpha-beta") if algorithm == "alphabeta" else "minimax"
    quiz = Quiz(seed, sh, values, algorithm, tree, trace)
    for kind in kinds:
        quiz.questions.append(Question(kind, _(PROMPTS[kind]).format(root=root, algo=algo), _expected(quiz, kind)))
    return quiz


def _evaluated(quiz: Quiz) -> list[str]:
    return [n.label for n in quiz.trace.visit_order() if n.leaf]


def _never(quiz: Quiz) -> list[str]:
    seen = set(_evaluated(quiz))
    return [label for label in quiz.leaves if label not in seen]


def _expected(quiz: Quiz, kind: str) -> str:
    t = quiz.trace
    if kind == "value":
        return fmt(t.value)
    if kind == "move":
        return str(t.best)
    if kind == "order":
        return " ".join(_evaluated(quiz))
    return " ".join(_never(quiz)) or "none"


def _names(text: str, known: list[str]) -> list[str]:
    """Node names in an answer: separated by spaces, commas, arrows...; ``EFG`` run together when every name
    is one letter."""
    tokens = [t for t in re.split(r"[^A-Za-z0-9]+", text.upper()) if t]
    if (len(tokens) == 1 and len(tokens[0]) > 1 and all(len(k) == 1 for k in known)
            and all(ch in known for ch in tokens[0])):
        tokens = list(tokens[0])
    return tokens


def _number(text: str) -> float | None:
    t = text.strip().replace("−", "-").replace("+", "").replace(",", ".")
    try:
        v = float(t)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def check(quiz: Quiz, kind: str, text: str) -> Result:
    """Right or wrong, with the expected answer and a sentence that helps (what is missing, what is extra)."""
    q = quiz.question(kind)
    given = (text or "").strip()
    t = quiz.trace
    if kind == "value":
        v = _number(given)
        if v is None:
            return Result(kind, given, False, q.answer,
                          _("write a number; the root's value is {answer}").format(answer=q.answer))
        ok = v == t.value
        kids = ", ".join(f"{t.nodes[(i,)].label} {t.nodes[(i,)].value_text()}"
                         for i in range(len(quiz.tree["children"])))
        why = (f"{quiz.tree['label']} = {q.answer}" if ok else
               _("the root's value is {answer}, not {given}: MAX takes the largest of its children's values "
                 "({children})").format(answer=q.answer, given=fmt(v), children=kids))
        return Result(kind, given, ok, q.answer, why)
    if kind == "move":
        children = [c["label"] for c in quiz.tree["children"]]
        got = given.upper()
        ok = got == q.answer.upper()
        if not ok and got not in (c.upper() for c in children):
            return Result(kind, given, False, q.answer, _("answer with a child of {root}: {children}; MAX chooses "
                                                           "{answer}").format(root=quiz.tree["label"],
                                                                              children=", ".join(children),
                                                                              answer=q.answer))
        why = (_("MAX chooses {answer}, the child worth the root's value {value}") if ok
               else _("MAX chooses {answer} (value {value}), not {given}")).format(
            answer=q.answer, value=fmt(t.value), given=given)
        return Result(kind, given, ok, q.answer, why)
    known = list(quiz.leaves)
    empty = kind == "pruned" and given.lower() in ("", "none", "-", "nothing", "no", "0")
    names = [] if empty else _names(given, known)
    unknown = list(dict.fromkeys(n for n in names if n not in known))
    if unknown:
        return Result(kind, given, False, q.answer, ngettext(
            "{names} is not a leaf; the leaves are {leaves}", "{names} are not leaves; the leaves are {leaves}",
            len(unknown)).format(names=", ".join(unknown), leaves=", ".join(known)))
    if kind == "order":
        want = _evaluated(quiz)
        ok = names == want
        if ok:
            why = ngettext("{n} leaf evaluated, in this order", "{n} leaves evaluated, in this order",
                           len(want)).format(n=len(want))
        else:
            missing = [n for n in want if n not in names]
            extra = [n for n in names if n not in want]
            parts = []
            if missing:
                parts.append(_("missing {names}").format(names=", ".join(missing)))
            if extra:
                parts.append(ngettext("{names} is never evaluated", "{names} are never evaluated",
                                      len(extra)).format(names=", ".join(extra)))
            if not parts:
                parts.append(_("the right leaves in the wrong order"))
            why = "; ".join(parts) + _(" — the order is {order}").format(order=" ".join(want))
        return Result(kind, given, ok, q.answer, why)
    # pruned
    want_set = set(_never(quiz))
    got_set = set(names)
    ok = got_set == want_set
    if ok:
        why = (_("{n} of {total} leaves never evaluated").format(n=len(want_set), total=len(known)) if want_set
               else _("alpha-beta evaluates every leaf of this tree"))
    else:
        missing = sorted(want_set - got_set, key=known.index)
        extra = sorted(got_set - want_set, key=known.index)
        parts = []
        if missing:
            parts.append(ngettext("{names} is pruned too", "{names} are pruned too", len(missing)).format(
                names=", ".join(missing)))
        if extra:
            parts.append(ngettext("{names} is evaluated", "{names} are evaluated", len(extra)).format(
                names=", ".join(extra)))
        cut = [s.text for s in t.steps if s.kind.endswith("cutoff") and s.pruned]
        why = "; ".join(parts) + (f" — {cut[0]}" if cut else "")
    return Result(kind, given, ok, q.answer, why)


__all__ = ["KINDS", "Question", "Quiz", "Result", "Shape", "check", "make_quiz", "name", "parse_shape",
           "parse_values"]
