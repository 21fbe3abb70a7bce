"""Opening names in real Chromium: the move list names the opening of the position shown (the last named one the
game went through) and marks the moves that reached a name.  Screenshots: test-artifacts/web/opening-*.png."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import ARTIFACTS
from .test_files_browser import start_with, view  # noqa: F401  (the fixture: a page at each size)

pytestmark = pytest.mark.slow  # a real browser


def test_the_move_list_names_the_opening(view: Any) -> None:  # noqa: F811
    start_with(view, "f5d6c3d3c4f4f6f3")
    box = view.locator("#opening-name")
    assert box.inner_text() == "Opening: Stephenson (move 4; by way of Perpendicular, Tiger)"
    assert view.locator("#movelist .mv.named").count() == 3
    assert view.locator("#movelist .mv[data-ply='5']").get_attribute("title") == "Tiger opening"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view.wait_for_timeout(650)
    view.screenshot(path=str(ARTIFACTS / f"opening-{view.size}.png"), full_page=True)
    view.click("#movelist .mv[data-ply='5']")  # back to the Tiger's position
    view.wait_for_function("document.querySelector('#opening-name').textContent.startsWith('Opening: Tiger')")
    view.click("#nav-first")
    assert box.is_hidden()
    assert view.errors == []
