"""The stepper's logic without a browser: forward, back, α, β and each cut-off, checked against the textbook
search's own steps; and the ipywidgets form driven by its buttons (no notebook front-end needed)."""

from __future__ import annotations

import math
import sys

import pytest

from plies.teach import solve_tree
from plies.teach.examples import DOC000_EXAMPLE, DOC002_EXERCISE
from plies.teach.stepper import Stepper, snapshot


def test_doc000_step_by_step() -> None:
    t = solve_tree(DOC000_EXAMPLE)
    st = Stepper(t)
    s = st.snapshot()
    assert (s.k, s.total, s.current, s.alpha, s.beta) == (0, 17, None, None, None)
    assert s.text.startswith("Press forward") and not s.done
    s = st.forward()                                     # enter A
    assert s.current == () and (s.alpha, s.beta) == (-math.inf, math.inf)
    for _ in range(8):
        s = st.forward()
    assert st.k == 9 and s.condition.startswith("α cut-off at C: α=3 ≥ β=2")   # document 000's cut-off
    assert (s.alpha, s.beta) == (3, 2) and s.current == (1,)            # β fell to 2 first, then α ≥ β
    assert {p for p, v in s.nodes.items() if v.pruned} == {(1, 1), (1, 2)}
    assert s.nodes[(1,)].value == "≤2"
    s = st.back()
    s = st.back()                                        # 7: entering C with α=3
    assert st.k == 7 and s.current == (1,) and s.alpha == 3 and s.condition is None
    assert not any(v.pruned for v in s.nodes.values())
    s = st.back()                                        # A after B returned 3
    assert (s.alpha, s.beta) == (3, math.inf) and s.nodes[()].value == "≥3"
    s = st.back()                                        # B after its last leaf: β has dropped to 3
    assert (s.alpha, s.beta) == (-math.inf, 3)
    s = st.last()
    assert s.done and s.nodes[()].value == "3" and s.text.endswith("MAX chooses B (move a1)")
    assert len(s.cutoffs) == 2
    assert st.forward().k == 17 and st.first().k == 0 and st.back().k == 0      # clamped at both ends
    assert st.go(99).k == 17 and st.go(-5).k == 0


def test_snapshots_follow_the_search_steps() -> None:
    """At every k, the panel's α/β is the window the search itself reported at that step."""
    t = solve_tree(DOC002_EXERCISE)
    for k, step in enumerate(t.steps, 1):
        s = snapshot(t, k)
        assert s.text == step.text
        if step.kind == "enter" or step.kind.endswith("cutoff"):
            assert (s.alpha, s.beta) == (step.alpha, step.beta)
        elif step.parent is not None:
            assert (s.alpha, s.beta) == (step.parent_alpha, step.parent_beta)
    final = snapshot(t, len(t.steps))
    for p, info in t.nodes.items():                      # at the end every visited node shows its final value
        if info.visited:
            assert final.nodes[p].value == info.value_text()
        assert final.nodes[p].pruned == (info.pruned or info.under_pruned)


def test_minimax_has_no_window() -> None:
    st = Stepper(solve_tree(DOC000_EXAMPLE, "minimax"))
    st.last()
    assert "α" not in st.status() and st.snapshot().cutoffs == []


def test_snapshot_to_dict() -> None:
    d = Stepper(solve_tree(DOC000_EXAMPLE), 9).snapshot().to_dict()
    assert d["k"] == 9 and d["current"] == "r.1" and d["alpha"] == 3 and d["beta"] == 2
    assert d["nodes"]["r.1.1"]["pruned"] and d["condition"].startswith("α cut-off")


def test_widget_buttons_drive_the_stepper() -> None:
    pytest.importorskip("ipywidgets")
    st = solve_tree(DOC000_EXAMPLE).stepper()
    box = st.widget()
    assert box.buttons["back"].disabled and not box.buttons["forward"].disabled
    for _ in range(9):
        box.buttons["forward"].click()
    assert st.k == 9 and box.slider.value == 9
    assert "α cut-off at C" in box.panel.value and "α = 3" in box.panel.value
    assert 'class="node min cut current' in box.picture.value or "current" in box.picture.value
    box.buttons["back"].click()
    assert st.k == 8 and box.slider.value == 8
    box.slider.value = 3
    assert st.k == 3
    box.buttons["last"].click()
    assert st.k == st.total and box.buttons["forward"].disabled and "Answer:" in box.panel.value
    box.buttons["first"].click()
    assert st.k == 0 and "Press forward" in box.panel.value


def test_widget_without_ipywidgets(monkeypatch) -> None:
    from plies.game import PliesError

    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # makes ``import ipywidgets`` fail
    with pytest.raises(PliesError, match=r"pip install 'plies\[notebook\]'"):
        solve_tree(DOC000_EXAMPLE).stepper().widget()
