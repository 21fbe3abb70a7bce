"""The analysis controls in real Chromium at 1280x860 and 390x844: the opening book's moves marked on the board
with their values, the review's "book", a think whose live line deepens and then answers, Stop and leaving the
position, the exact solver (checked against the engine's own exact search) and its refusal of a position with too
many empties.  Screenshots go to test-artifacts/web/analysis-*.png."""

from __future__ import annotations

import math
from typing import Any

import pytest

from plies.analysis.book import book_moves, in_book
from plies.games import OthelloState
from plies.web import thinker

from . import test_app_browser
from .conftest import start
from .test_analysis_api import position_with
from .test_app_browser import shot, tap

pytestmark = [pytest.mark.slow, pytest.mark.engine]


@pytest.fixture
def textbook_only() -> None:
    """The real engine analyses here (this overrides the conftest's fixture of the same name)."""


view = test_app_browser.view  # the fixture: a page at 1280x860 and at 390x844


def discs(v: float) -> str:
    """A value as the page prints it bare (values.js ``discs``): +1.1, −2, 0."""
    r = math.floor(v * 10 + 0.5) / 10  # JavaScript's Math.round: halves up
    if r == 0:
        return "0"
    text = f"{abs(r):.1f}".removesuffix(".0")
    return ("+" if r > 0 else "−") + text


SERVER_STOPPED = """async () => {
    const id = location.hash.split('/')[2];
    return (await (await fetch(`/api/games/${id}/job`)).json()).status === 'stopped';
}"""
"""A page function: whether the server says the game's search has stopped."""


def engine_here(page: Any) -> None:
    if not page.evaluate("fetch('/api/info').then(r => r.json()).then(i => i.engine.available)"):
        pytest.skip("the compiled engine is not available")


def test_book_marks_on_the_start_position(view: Any) -> None:
    page = view
    start(page, mode="people")
    page.check("#opt-book")
    page.wait_for_function("document.querySelectorAll('#board [data-book]').length === 4")
    book = book_moves(OthelloState.start())
    marked = page.eval_on_selector_all("#board [data-book]", "els => els.map(e => e.dataset.book)")
    assert sorted(marked) == sorted(b["move"] for b in book) == ["c4", "d3", "e6", "f5"]
    for b in book:  # Black to move, values from Black's view: the book's own values
        assert page.text_content(f'#board [data-book-value="{b["move"]}"]') == discs(b["value"])
    shot(page, "analysis-book")
    tap(page, '#board rect[data-square="f5"]')
    page.wait_for_function("document.querySelector('#nav-pos').textContent.startsWith('1 /')")
    after = OthelloState.start().play(OthelloState.start().parse_move("f5"))
    book = book_moves(after)
    names = ",".join(sorted(b["move"] for b in book))
    page.wait_for_function(f"[...document.querySelectorAll('#board [data-book]')].map(e => e.dataset.book).sort()"
                           f".join(',') === '{names}'")
    for b in book:  # White to move: from Black's view the values change sign
        assert page.text_content(f'#board [data-book-value="{b["move"]}"]') == discs(-b["value"])
    page.uncheck("#opt-book")
    assert page.locator("#board [data-book]").count() == 0
    assert page.errors == []


def test_the_review_says_book(view: Any) -> None:
    page = view
    s, line = OthelloState.start(), []
    while all(in_book(s, m) for m in s.legal_moves()):
        line.append(book_moves(s)[0]["move"])
        s = s.play(s.parse_move(line[-1]))
    off = next(m for m in s.legal_moves() if not in_book(s, m))
    start(page, mode="people", position="".join([*line, s.move_str(off)]))
    page.click("#btn-review")
    page.wait_for_selector("#review-summary table", timeout=300_000)
    plies = page.eval_on_selector_all("#movelist .mv.book", "els => els.map(e => +e.dataset.ply)")
    assert plies == list(range(1, len(line) + 1))
    assert page.locator(f'#movelist .mv[data-ply="{len(line) + 1}"]').get_attribute("class").count("book") == 0
    assert page.get_attribute('#movelist .mv[data-ply="1"]', "title") == "a book move (the opening book plays it)"
    counts = page.eval_on_selector_all(".book-count", "els => els.map(e => +e.textContent)")
    assert sum(counts) == len(line)
    page.click("#nav-first")
    page.wait_for_function("document.querySelector('#move-note').textContent.includes('book')")
    shot(page, "analysis-review-book")
    assert page.errors == []


def test_a_think_deepens_then_answers_and_stop_stops(view: Any) -> None:
    page = view
    start(page, mode="people", position="f5d6c3d3c4")
    engine_here(page)
    page.wait_for_selector("#think-box:not([hidden]) #btn-think")
    page.fill("#think-seconds", "4")
    page.select_option("#think-lines", "2")
    page.click("#btn-think")
    depths = page.evaluate("""() => new Promise((done) => {
        const seen = [];
        const t = setInterval(() => {
            const s = document.querySelector('#think-status');
            if (s.dataset.status === 'running') seen.push(+s.dataset.depth);
            else if (s.dataset.status === 'done') { clearInterval(t); done(seen); }
        }, 40);
    })""")
    live = [d for d in depths if d > 0]
    assert live == sorted(live) and len(set(live)) >= 2, depths  # the live line deepens
    final = int(page.get_attribute("#think-status", "data-depth"))
    assert final >= live[-1]
    assert page.locator("#think-result li").count() == 2
    assert page.inner_text("#think-status").startswith("Done: depth")
    shot(page, "analysis-think")
    # Stop: a long think stops at once and keeps its line
    page.fill("#think-seconds", "60")
    page.click("#btn-think")
    page.wait_for_function("document.querySelector('#think-status').dataset.status === 'running' && "
                           "+document.querySelector('#think-status').dataset.depth >= 2")
    shot(page, "analysis-thinking")
    page.click("#btn-think-stop")
    page.wait_for_function("document.querySelector('#think-status').dataset.status === 'stopped'")
    page.wait_for_function(SERVER_STOPPED, polling=200)  # the server's search winds down in its own time
    assert page.locator("#think-result li").count() >= 1
    # leaving the position stops the search too
    page.click("#btn-think")
    page.wait_for_function("document.querySelector('#think-status').dataset.status === 'running'")
    page.click("#nav-prev")
    page.wait_for_function(SERVER_STOPPED, polling=200)
    assert page.errors == []


def test_solve_matches_the_engine_and_refuses_too_many_empties(view: Any) -> None:
    from plies.engine import Engine

    page = view
    s = position_with(14, seed=11)
    start(page, mode="people", position=s.to_text())
    engine_here(page)
    page.wait_for_selector("#think-box:not([hidden]) #btn-solve")
    page.click("#btn-solve")
    page.wait_for_function("document.querySelector('#think-status').dataset.status === 'done'")
    exact = Engine(hash_mb=16).analyse(s, exact=True)[0].value
    assert float(page.get_attribute("#think-result li", "data-value")) == exact
    side = "Black" if s.to_move == 0 else "White"
    text = page.inner_text("#think-status")
    if exact == 0:
        assert text.startswith("Draw with perfect play (exact)")
    else:
        assert text.startswith(f"{side} {'wins' if exact > 0 else 'loses'} by {abs(exact)} discs (exact)"), text
    shot(page, "analysis-solve")
    start(page, mode="people", position="f5d6c3")
    page.wait_for_selector("#think-box:not([hidden]) #btn-solve")
    page.click("#btn-solve")
    page.wait_for_function("document.querySelector('#think-status').dataset.status === 'refused'")
    assert (f"57 empty squares: an exact solve takes on at most {thinker.SOLVE_MAX_EMPTIES}"
            in page.inner_text("#think-status"))
    assert page.locator("#think-result li").count() == 0
    shot(page, "analysis-solve-refused")
    assert page.errors == []
