"""Step through a recorded search forward and back, as the Learn page does: what the tree looks like after k
steps (values found so far, α and β, the current node, the cut-offs so far), as data and as a picture.

``Stepper(trace)`` holds a position ``k`` (0 = nothing done, ``len(trace.steps)`` = the end) and moves it with
``forward``, ``back``, ``first``, ``last``, ``go``; ``snapshot()`` is the state of the search after k steps;
``_repr_svg_`` draws it, so a notebook cell showing a stepper shows the picture.  ``widget()`` wraps it in
ipywidgets buttons and a slider (the optional ``notebook`` extra: ``pip install 'plies[notebook]'``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any

from plies.extras import optional_import
from plies.teach.schema import SnapshotDict
from plies.teach.trace import Path, Trace

if TYPE_CHECKING:
    from ipywidgets import VBox

    from plies.draw import Scene


@dataclass
class NodeView:
    """One node as it looks after k steps."""

    value: str = ""
    alpha: float | None = None
    beta: float | None = None
    visited: bool = False
    pruned: bool = False            # inside a subtree a cut-off has skipped (so far)


@dataclass
class Snapshot:
    """The search after ``k`` of ``total`` steps."""

    k: int
    total: int
    nodes: dict[Path, NodeView]
    current: Path | None = None      # the node of the last step
    window: Path | None = None       # the node whose α/β the panel shows
    alpha: float | None = None
    beta: float | None = None
    text: str = "Press forward to start the search."
    condition: str | None = None     # the cut-off of this step, as a sentence
    cutoffs: list[str] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.k == self.total

    def to_dict(self) -> SnapshotDict:
        from plies.teach.trace import jnum, path_id

        return {"k": self.k, "total": self.total, "done": self.done, "text": self.text,
                "current": None if self.current is None else path_id(self.current),
                "alpha": jnum(self.alpha), "beta": jnum(self.beta), "condition": self.condition,
                "cutoffs": list(self.cutoffs),
                "nodes": {path_id(p): {"value": v.value, "alpha": jnum(v.alpha), "beta": jnum(v.beta),
                                       "visited": v.visited, "pruned": v.pruned} for p, v in self.nodes.items()}}


def snapshot(trace: Trace, k: int) -> Snapshot:
    """Replay the first ``k`` steps of ``trace`` (the same rules as the Learn page's script)."""
    steps = trace.steps
    k = max(0, min(len(steps), k))
    nodes = {p: NodeView() for p in trace.nodes}
    snap = Snapshot(k, len(steps), nodes)
    for s in steps[:k]:
        n = nodes[s.path]
        snap.current = s.path
        snap.condition = None
        if s.kind == "enter":
            n.visited, n.alpha, n.beta, n.value = True, s.alpha, s.beta, ""
            snap.window = s.path
        elif s.kind == "stand":                             # a quiescence node's static value: a first bound
            is_max = trace.nodes[s.path].kind == "max"
            n.value = ("≥" if is_max else "≤") + trace.fmt(s.parent_best)
            n.alpha, n.beta = s.parent_alpha, s.parent_beta
            snap.window = s.path
        elif s.kind in ("leaf", "table", "exit"):
            n.visited = True
            n.value = trace.fmt(s.value) if s.kind == "leaf" else trace.nodes[s.path].value_text()
            if s.kind != "exit":
                n.alpha, n.beta = s.alpha, s.beta
            if s.parent is not None:
                p = nodes[s.parent]
                is_max = trace.nodes[s.parent].kind == "max"
                p.value = ("≥" if is_max else "≤") + trace.fmt(s.parent_best)
                if s.parent_alpha is not None:
                    p.alpha, p.beta = s.parent_alpha, s.parent_beta
                snap.window = s.parent
            else:
                snap.window = s.path
        else:                                               # alpha-cutoff / beta-cutoff
            snap.condition = s.text
            snap.cutoffs.append(s.text)
            for top in s.pruned:
                for q in nodes:
                    if q[: len(top)] == top:
                        nodes[q].pruned = True
            snap.window = s.path
            n.alpha, n.beta = s.alpha, s.beta
    if snap.window is not None:
        w = nodes[snap.window]
        snap.alpha, snap.beta = w.alpha, w.beta
    if k:
        snap.text = steps[k - 1].text
    return snap


class Stepper:
    """A search to step through: ``forward()``, ``back()``, ``first()``, ``last()``, ``go(k)``."""

    def __init__(self, trace: Trace, k: int = 0) -> None:
        self.trace = trace
        self.k = 0
        self.go(k)

    @property
    def total(self) -> int:
        return len(self.trace.steps)

    def go(self, k: int) -> Snapshot:
        self.k = max(0, min(self.total, int(k)))
        return self.snapshot()

    def forward(self) -> Snapshot:
        return self.go(self.k + 1)

    def back(self) -> Snapshot:
        return self.go(self.k - 1)

    def first(self) -> Snapshot:
        return self.go(0)

    def last(self) -> Snapshot:
        return self.go(self.total)

    def snapshot(self) -> Snapshot:
        return snapshot(self.trace, self.k)

    def scene(self, thumbnails: bool | None = None) -> Scene:
        from plies.teach import draw

        return draw.scene(self.trace, thumbnails=thumbnails, view=self.snapshot())

    def svg(self, thumbnails: bool | None = None) -> str:
        return str(self.scene(thumbnails).to_svg())

    def status(self) -> str:
        """One line for the panel: step k / n, the current node, α and β."""
        s = self.snapshot()
        cur = self.trace.nodes[s.current].label if s.current is not None else "—"
        line = f"step {s.k} / {s.total} · node {cur}"
        if self.trace.windowed:
            line += f" · α = {self.trace.fmt(s.alpha) if s.alpha is not None else '—'}"
            line += f" · β = {self.trace.fmt(s.beta) if s.beta is not None else '—'}"
        return line

    def _repr_svg_(self) -> str:
        return self.svg()

    def widget(self) -> VBox:
        """Buttons (first, back, forward, last), a slider, the picture and the panel, as one ipywidgets box."""
        return stepper_widget(self)


def _require_ipywidgets() -> ModuleType:
    return optional_import("ipywidgets", "notebook", "the stepper widget")


def _panel_html(st: Stepper) -> str:
    from html import escape

    s = st.snapshot()
    cond = (f'<div style="color:#c62828;font-weight:bold">{escape(s.condition)}</div>' if s.condition else "")
    answer = ""
    if s.done:
        from plies.teach.draw import summary

        answer = f"<div><b>Answer:</b> {escape(summary(st.trace))}</div>"
    return (f'<div style="font-family:DejaVu Sans,sans-serif">'
            f"<div><b>{escape(st.status())}</b></div><div>{escape(s.text)}</div>{cond}{answer}</div>")


def stepper_widget(st: Stepper) -> VBox:
    """The ipywidgets form of a ``Stepper`` (the logic stays in the Stepper; the widget only shows it)."""
    w = _require_ipywidgets()
    buttons = {name: w.Button(description=text, layout=w.Layout(width="auto"))
               for name, text in (("first", "« first"), ("back", "◀ back"), ("forward", "forward ▶"),
                                  ("last", "last »"))}
    slider = w.IntSlider(value=st.k, min=0, max=st.total, description="step", continuous_update=True)
    picture = w.HTML()
    panel = w.HTML()

    def refresh(*_: object) -> None:
        slider.value = st.k
        picture.value = st.svg()
        panel.value = _panel_html(st)
        buttons["first"].disabled = buttons["back"].disabled = st.k == 0
        buttons["last"].disabled = buttons["forward"].disabled = st.k == st.total

    def on(action: str) -> Callable[[object], None]:
        def handler(_: object) -> None:
            getattr(st, action)()
            refresh()
        return handler

    for name, b in buttons.items():
        b.on_click(on(name))

    def on_slide(change: dict[str, Any]) -> None:
        if change["new"] != st.k:
            st.go(change["new"])
            refresh()

    slider.observe(on_slide, names="value")
    refresh()
    box = w.VBox([w.HBox([*buttons.values(), slider]), panel, picture])
    box.stepper = st          # for scripts and tests: the logic behind the buttons
    box.buttons = buttons
    box.slider = slider
    box.picture = picture
    box.panel = panel
    return box


__all__ = ["NodeView", "Snapshot", "Stepper", "snapshot", "stepper_widget"]
