"""The Learn page in real headless Chromium: load, step forward and back, α/β change, edit a leaf."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "teach"

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason="needs Debian chromium at /usr/bin/chromium")


@pytest.fixture(scope="module")
def page(live_server):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run"],
        )
        pg = browser.new_page(viewport={"width": 1280, "height": 1000})
        errors: list[str] = []
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(live_server + "/learn")
        pg.wait_for_selector("#tree-svg g.node")
        pg.errors = errors
        yield pg
        browser.close()


def text(page, sel: str) -> str:
    return page.locator(sel).inner_text().strip()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_page_steps_forward_and_back(page) -> None:
    assert page.locator("#tree-svg g.node").count() == 13           # document 000: A, B, C, D + 9 leaves
    assert text(page, "#step-count").startswith("0 /")
    page.wait_for_timeout(300)
    assert text(page, "#step-count").startswith("0 /")                   # no autoplay
    total = int(text(page, "#step-count").split("/")[1])
    # forward to document 000's cut-off at C: the condition appears, 2 leaves are marked pruned
    for _ in range(9):
        page.click("#step-next")
    assert "α cut-off at C: 2 ≤ α=3" in text(page, "#condition")
    assert text(page, "#alpha") == "3" and text(page, "#beta") == "+∞"
    assert page.locator("#tree-svg g.node.pruned").count() == 2
    assert page.locator("#tree-svg g.edge.pruned text.cross").count() == 2
    shot(page, "learn-cutoff.png")
    # back: entering C with α=3; A after B returned 3; B after its last leaf (β has dropped to 3)
    page.click("#step-prev")
    page.click("#step-prev")
    assert text(page, "#step-count") == f"7 / {total}"
    assert text(page, "#current").startswith("C") and text(page, "#alpha") == "3"
    page.click("#step-prev")
    assert text(page, "#alpha") == "3" and text(page, "#beta") == "+∞"
    page.click("#step-prev")
    assert text(page, "#alpha") == "−∞" and text(page, "#beta") == "3"
    assert page.locator("#tree-svg g.node.pruned").count() == 0
    assert text(page, "#condition") == "—"
    # the slider jumps to the end: the principal path is highlighted
    page.click("#step-last")
    assert text(page, "#step-count") == f"{total} / {total}"
    assert page.locator("#tree-svg g.node.pv").count() == 3                # A, B, B's first leaf
    assert "MAX chooses B" in text(page, "#answer")
    shot(page, "learn-doc000-end.png")
    assert not page.errors


def test_edit_leaf_changes_answer(page) -> None:
    page.select_option("#preset", "doc000")
    page.wait_for_function("document.getElementById('step-count').textContent.startsWith('0 /')")
    assert "value 3, MAX chooses B" in text(page, "#answer")
    # make D's middle leaf 9 and its last 7: D = 7 > 3, so MAX now chooses D
    page.fill("#leaf-r\\.2\\.1", "9")
    page.press("#leaf-r\\.2\\.1", "Enter")
    page.fill("#leaf-r\\.2\\.2", "7")
    page.press("#leaf-r\\.2\\.2", "Enter")
    page.wait_for_function("document.getElementById('answer').textContent.includes('value 7')")
    assert "MAX chooses D" in text(page, "#answer")
    page.click("#step-last")
    assert page.locator("#tree-svg g.node.pv").count() == 3
    shot(page, "learn-edited.png")
    assert not page.errors


def test_greek_exercise_and_minimax(page) -> None:
    page.select_option("#preset", "doc002")
    page.wait_for_function("document.getElementById('answer').textContent.includes('δ')")
    assert page.locator("#tree-svg g.node").count() == 19
    page.click("#step-last")
    assert page.locator("#tree-svg g.node.pruned").count() == 4          # ιδ, and η with ιστ and ιζ
    shot(page, "learn-doc002.png")
    page.select_option("#algo", "minimax")
    page.wait_for_function("document.getElementById('answer').textContent.startsWith('minimax')")
    page.click("#step-last")
    assert page.locator("#tree-svg g.node.pruned").count() == 0
    assert text(page, "#alpha") == "—"
    assert not page.errors


def test_own_tree_and_bad_input(page) -> None:
    page.select_option("#algo", "alphabeta")
    page.wait_for_function("document.getElementById('answer').textContent.startsWith('alpha-beta')")
    page.click("details summary")
    page.fill("#tree-json", "[[1, 2], [")
    page.click("#tree-load")
    assert page.locator("#error").is_visible() and "not JSON" in text(page, "#error")
    page.fill("#tree-json", '{"label": "ρίζα", "children": [[4, 10, 7], [5, -1, 6]]}')
    page.click("#tree-load")
    page.wait_for_function("document.getElementById('answer').textContent.includes('value 4')")
    assert not page.locator("#error").is_visible()
    assert page.locator("#tree-svg g.node").count() == 9
    page.click("#step-last")
    assert page.locator("#tree-svg g.node.pruned").count() == 1                  # the slide's third leaf
    shot(page, "learn-own-tree.png")
    assert not page.errors
