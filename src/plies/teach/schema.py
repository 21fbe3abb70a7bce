"""The JSON the teaching tools write and read: traces, exercises, worksheets, notebooks, the node-count study."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

JNum = float | str | None
"""A value as ``trace.jnum`` writes it: a number, ``"inf"`` / ``"-inf"``, or None (no value yet)."""


class NodeDict(TypedDict):
    id: str
    path: list[int]
    label: str
    move: str | None
    edge: str
    kind: str
    leaf: bool
    value: JNum
    value_text: str
    bound: str
    alpha: JNum
    beta: JNum
    entry_alpha: JNum
    entry_beta: JNum
    visit: int | None
    pruned: bool
    under_pruned: bool
    cutoff: str | None
    best_child: int | None
    on_pv: bool
    given: JNum
    named: bool
    table: str | None
    stand: JNum
    hint: bool


class StepDict(TypedDict):
    kind: str
    id: str
    path: list[int]
    text: str
    value: JNum
    alpha: JNum
    beta: JNum
    parent: str | None
    parent_best: JNum
    parent_alpha: JNum
    parent_beta: JNum
    pruned: list[str]


class TraceDict(TypedDict):
    """``Trace.to_dict``; the terminal's ``--json`` adds the position and evaluation, and each step's sentence
    alone as ``steps``."""

    algorithm: str
    order: str
    depth: int
    value: JNum
    value_text: str
    best: str | int | None
    best_index: int | None
    best_text: str
    pruned: list[list[int]]
    leaves_evaluated: int
    nodes_visited: int
    alpha_cutoffs: int
    beta_cutoffs: int
    pv: list[list[int]]
    visit_order: list[str]
    nodes: list[NodeDict]
    steps: NotRequired[list[StepDict] | list[str]]
    position: NotRequired[str]
    evaluation: NotRequired[str]


class Box(TypedDict):
    x: float
    y: float
    w: float
    h: float


class Layout(TypedDict):
    """Node positions of plies' tidy layout: the picture's size and each node's centre and shape size."""

    width: float
    height: float
    nodes: dict[str, Box]


class TracePayload(TraceDict):
    """What the Learn page gets for one tree: the trace with its steps, and the tree, layout and picture."""

    summary: str
    tree: object
    layout: Layout
    svg: str


class TreeDict(TypedDict):
    """An explicit tree's labelled form: an inner node has ``children``, a leaf a ``value``."""

    label: str
    children: NotRequired[list[TreeDict]]
    value: NotRequired[float]


class QuestionDict(TypedDict):
    kind: str
    prompt: str
    answer: NotRequired[str]


class ResultDict(TypedDict):
    kind: str
    given: str
    correct: bool
    expected: NotRequired[str]
    feedback: str


class QuizDict(TypedDict):
    """``Quiz.to_dict``; the terminal adds the results of the answers it was given, the Learn page writes
    ``values`` as ``LO..HI``."""

    seed: int
    shape: str
    values: list[int] | str
    algorithm: str
    tree: TreeDict
    text: str
    questions: list[QuestionDict]
    results: NotRequired[list[ResultDict]]


class CheckDict(TypedDict):
    seed: int
    results: list[ResultDict]
    all_correct: bool


class ItemDict(TypedDict):
    id: str
    kind: str
    prompt: str
    any_order: bool
    answer: NotRequired[str]


class Spec(TypedDict, total=False):
    """A worksheet exercise's spec: a tree exercise's quiz (seed, shape, values, algorithm) or a position."""

    seed: int
    shape: str
    values: list[int]
    algorithm: str
    position: str


class ExerciseDict(TypedDict):
    number: int
    kind: str
    title: str
    spec: Spec
    items: list[ItemDict]


class SheetDict(TypedDict):
    student: str
    class_seed: int
    seed: int
    exercises: list[ExerciseDict]
    file: NotRequired[str]


class Key(TypedDict):
    """A class's answer key (``key.json``): every student's sheet with its answers and file name."""

    class_seed: int
    sheets: list[SheetDict]


class HandIn(TypedDict):
    """What a student hands in: their name and question id -> answer."""

    student: str
    answers: dict[str, str]


class NodeStudy(TypedDict):
    """``study.node_study``: per depth a row of counts keyed by the algorithms' names (``alphabeta+order``) and
    the reference sizes (``b^d``), numbers or per-algorithm dicts of numbers as the row's key says."""

    positions: int
    branching: float
    evaluation: str
    rows: list[dict[str, Any]]
    values_agree: bool


class RemedyDict(TypedDict):
    name: str
    move: str
    value: float
    move_deep_value: float
    nodes: int
    fixes: bool


class HorizonDict(TypedDict):
    """``study.HorizonCase.to_dict``: moves in the game's notation, the line as one string."""

    position: str
    depth: int
    deeper: int
    evaluation: str
    short_move: str
    short_value: float
    short_move_deep_value: float
    short_nodes: int
    line: str
    corner_plies: list[int]
    first_ply_beyond: int | None
    deep_move: str
    deep_value: float
    deep_nodes: int
    remedies: list[RemedyDict]


class Preset(TypedDict):
    """A tree the Learn page and ``plies tree solve`` offer by name: its title, the tree, a note on it."""

    title: str
    tree: object
    note: str


class Messages(TypedDict):
    """A page's words in one language (``GET /api/messages``, ``/api/learn/messages``): its code, the languages
    offered, English -> translation."""

    lang: str
    languages: dict[str, str]
    messages: dict[str, str]


class NodeViewDict(TypedDict):
    value: str
    alpha: JNum
    beta: JNum
    visited: bool
    pruned: bool


class SnapshotDict(TypedDict):
    """``stepper.Snapshot.to_dict``: the search after ``k`` of ``total`` steps, nodes by id."""

    k: int
    total: int
    done: bool
    text: str
    current: str | None
    alpha: JNum
    beta: JNum
    condition: str | None
    cutoffs: list[str]
    nodes: dict[str, NodeViewDict]


class CellPlies(TypedDict, total=False):
    """A source cell's ``plies`` metadata: the answers it computes, those whose order does not count, and the
    exercise's own stub in place of the generated one."""

    answers: dict[str, object]
    any_order: list[str]
    stub: str


class CellMetadata(TypedDict, total=False):
    tags: list[str]
    plies: CellPlies


class Cell(TypedDict, total=False):
    """A notebook cell (nbformat 4) as far as plies reads and writes it."""

    cell_type: str
    id: str
    metadata: CellMetadata
    source: str | list[str]
    outputs: list[object]
    execution_count: int | None


class NotebookMetadata(TypedDict, total=False):
    plies: dict[str, str]


class Notebook(TypedDict, total=False):
    """A notebook (nbformat 4 JSON) as far as plies reads and writes it; other keys pass through unread."""

    cells: list[Cell]
    metadata: NotebookMetadata
    nbformat: int
    nbformat_minor: int
