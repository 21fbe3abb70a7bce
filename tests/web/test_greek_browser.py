"""The app in Greek, in real Chromium: a browser whose language is Greek (el-GR) gets the page in Greek at a desktop
size (1280x860) and a phone size (390x844); a game against the computer starts, a move is played, the labels,
the status and the server's refusals are Greek, no control's words are cut off and nothing scrolls sideways;
the EL/EN switch turns the page (the game going on) to English and back, and the choice is kept for the Learn
page too.  Screenshots go to test-artifacts/web/greek-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from . import conftest
from .conftest import SIZES, shot_at, sized_page

pytestmark = pytest.mark.slow  # a real browser

OVERFLOW = """() => {
  const out = [];
  for (const e of document.querySelectorAll("button, a, label, legend, summary, select, th, .turn, h1, h2")) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest("[hidden]")) continue;           // not shown
    const clips = e.tagName === "BUTTON" || getComputedStyle(e).overflowX !== "visible";
    if (clips && e.scrollWidth > e.clientWidth + 1) out.push(e.outerHTML.slice(0, 80));
    if (r.right > document.documentElement.clientWidth + 1) out.push("off screen: " + e.outerHTML.slice(0, 80));
  }
  return out;
}"""


@pytest.fixture(params=list(SIZES))
def greek(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> Iterator[Any]:
    """A page of a browser set to Greek at one of the two sizes; ``size`` names it; JavaScript errors collected."""
    with sized_page(browser, live_server.url, request.param, locale="el-GR") as pg:
        yield pg


def shot(page: Any, name: str) -> None:
    shot_at(page, f"greek-{name}-{page.size}")


def fits(page: Any) -> None:
    """Nothing sticks out sideways, and no control's words are cut off."""
    conftest.fits(page)
    assert page.evaluate(OVERFLOW) == []


def text(page: Any, selector: str) -> str:
    return page.locator(selector).first.inner_text().strip()


def test_the_app_in_greek_then_english(greek: Any) -> None:
    page = greek
    page.goto(page.url0 + "/")
    page.wait_for_selector("#opt-game option", state="attached")
    # the start screen in Greek: the browser's language, nothing chosen before
    assert page.evaluate("document.documentElement.lang") == "el"
    assert text(page, "#screen-start h1") == "Νέο παιχνίδι"
    assert text(page, "#nav-history") == "Ιστορικό"
    assert text(page, "#btn-start") == "Έναρξη"
    assert "εναντίον του υπολογιστή" in text(page, "label:has(input[value=first])")
    assert text(page, "label:has(input[value=first]) [data-side]") == "Μαύρα"
    assert "αναζήτηση του βιβλίου" in text(page, "#level-note")
    assert page.locator(".lang-switch button[data-lang=el]").get_attribute("aria-pressed") == "true"
    fits(page)
    shot(page, "start")
    # a game against the computer (level 1, alpha-beta): Greek status, a move played
    page.check("input[name=mode][value=first]")
    page.select_option("#opt-game", "othello")
    page.select_option("#opt-level", "1")
    page.locator("#btn-start").click()
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.querySelector('#turn').textContent.includes('η σειρά σου')")
    assert text(page, "#turn") == "Σειρά: Μαύρα — η σειρά σου (4 επιτρεπτές κινήσεις)"
    assert text(page, "#btn-hint") == "Υπόδειξη" and text(page, "#btn-review") == "Ανάλυση"
    # a click on a square that is no legal move: said in Greek
    page.locator("#board [data-square='a1']").first.click()
    page.wait_for_function("document.querySelector('#game-error').textContent.length > 0")
    assert "δεν είναι επιτρεπτή κίνηση" in text(page, "#game-error")
    page.fill("#move-input", "d3")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelectorAll('#movelist .mv[data-ply]').length >= 2")  # the reply too
    page.wait_for_function("document.querySelector('#turn').textContent.includes('η σειρά σου')")
    assert "Αξιολόγηση" in text(page, "#graph-label")
    # a move the server refuses (typed, not a legal one): the server's words in Greek
    page.fill("#move-input", "a1")
    page.press("#move-input", "Enter")
    page.wait_for_function("/πούλι|επιτρεπτή/.test(document.querySelector('#game-error').textContent)")
    fits(page)
    shot(page, "game")
    # EL -> EN: the same game, its words in English
    moves = page.locator("#movelist .mv[data-ply]").count()
    game_url = page.url
    page.locator(".lang-switch button[data-lang=en]").click()
    page.wait_for_function("document.documentElement.lang === 'en'")
    page.wait_for_function("document.querySelector('#turn').textContent.includes('your turn')")
    assert text(page, "#turn").startswith("Black to move — your turn")
    assert text(page, "#btn-hint") == "Hint" and text(page, "#nav-new") == "New game"
    assert page.url == game_url and page.locator("#movelist .mv[data-ply]").count() == moves
    assert page.evaluate("localStorage.getItem('plies.lang')") == "en"
    fits(page)
    shot(page, "game-english")
    # the choice holds on the next visit, and for the Learn page (the same key)
    page.goto(page.url0 + "/learn")
    page.wait_for_selector("#tree-svg g.node")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.locator(".lang-switch button[data-lang=el]").click()
    page.wait_for_function("document.documentElement.lang === 'el'")
    page.goto(game_url)
    page.wait_for_function("document.querySelector('#turn').textContent.includes('η σειρά σου')")
    assert text(page, "#nav-new") == "Νέο παιχνίδι"
    # resign (twice): the end screen in Greek
    page.locator("#btn-resign").click()
    assert text(page, "#btn-resign") == "Παραίτηση; Πάτησε ξανά"
    page.locator("#btn-resign").click()
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_function("document.querySelector('#end-title').textContent.includes('Έχασες')")
    assert "παραιτήθηκε" in text(page, "#end-title")
    assert text(page, "#btn-back") == "Πίσω στην αρχή"
    fits(page)
    shot(page, "end")
    # the history and the editor in Greek
    page.locator("#btn-back").click()
    page.locator("#nav-history").click()
    page.wait_for_selector("#history-rows tr")
    assert text(page, "#screen-history h1") == "Ιστορικό"
    assert "παιχνίδι" in text(page, "#history-count")
    fits(page)
    shot(page, "history")
    page.locator("#nav-editor").click()
    page.wait_for_selector("#editor-board svg")
    assert text(page, "#ed-play") == "Παίξε από αυτή τη θέση"
    fits(page)
    shot(page, "editor")
    assert page.errors == []
