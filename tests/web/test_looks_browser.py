"""The app's looks in real Chromium: dark colours that follow the system or the ☀ ◐ ☾ switch, a phone (390x844)
where the board comes back into view and nothing is cut (the opponent's label, the Learn page's tree, the board's
coordinates), games nobody finished in the history, and small things: the editor's own clock, one numbering of
the moves, the review's mistakes in full, no dots for a side the person does not play, the default difficulty.
Screenshots go to test-artifacts/web/looks-*.png."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from plies.games import OthelloState

from .conftest import open_sized, shot_at, start, start_screen
from .test_app_api import known_mistake_game, transcript
from .test_app_browser import finished_for_review, listed, tap, wait_listed

pytestmark = pytest.mark.slow  # a real browser

PHONE, DESKTOP = (390, 844), (1280, 860)


@pytest.fixture
def textbook_only() -> None:
    """The real engine analyses here (this overrides the conftest's fixture of the same name)."""


def open_page(browser: Any, live_server: Any, size: tuple[int, int], scheme: str = "light") -> Any:
    return open_sized(browser, live_server.url, "phone" if size == PHONE else "desktop", color_scheme=scheme)


@pytest.fixture
def phone(browser: Any, live_server: Any) -> Iterator[Any]:
    pg = open_page(browser, live_server, PHONE)
    yield pg
    pg.context.close()


@pytest.fixture
def desktop(browser: Any, live_server: Any) -> Iterator[Any]:
    pg = open_page(browser, live_server, DESKTOP)
    yield pg
    pg.context.close()


def shot(page: Any, name: str) -> None:
    shot_at(page, f"looks-{name}-{page.size}")


def rgb(page: Any, selector: str, prop: str) -> tuple[int, int, int]:
    """A computed colour of the first element matching ``selector`` (asked again while the page redraws it: a
    detached element has no computed colour)."""
    text = page.wait_for_function(
        f"() => {{ const e = document.querySelector({json.dumps(selector)});"
        f" const v = e && e.isConnected ? getComputedStyle(e).{prop} : ''; return v.includes('(') ? v : null; }}"
    ).json_value()
    parts = text[text.index("(") + 1:text.index(")")].replace(",", " ").split()
    r, g, b = (round(float(x)) for x in parts[:3])
    return r, g, b


def light(colour: tuple[int, int, int]) -> float:
    """Relative luminance, 0 (black) to 1 (white)."""
    def lin(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    hi, lo = sorted((light(a), light(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def is_dark(page: Any) -> bool:
    return light(rgb(page, "body", "backgroundColor")) < 0.1


def random_game(seed: int) -> list[str]:
    """A whole game of seeded random moves (passes named), full of mistakes for a review to find."""
    rng = random.Random(seed)
    s, names = OthelloState.start(), []
    while not s.is_over():
        m = rng.choice(s.legal_moves())
        names.append(s.move_str(m))
        s = s.play(m)
    return names


def in_view(page: Any, selector: str) -> bool:
    return page.locator(selector).first.evaluate(
        "(e) => { const r = e.getBoundingClientRect(); return r.top >= -1 && r.bottom <= innerHeight + 1 "
        "&& r.left >= -1 && r.right <= innerWidth + 1; }")


def scroll_to(page: Any, selector: str) -> None:
    """Scroll the first element matching ``selector`` into view, found and scrolled in one step: the move list
    may be drawn anew (its buttons replaced) between a locator's look-up and its scroll."""
    page.wait_for_function("(s) => { const e = document.querySelector(s); if (!e) return false; "
                           "e.scrollIntoView({block: 'nearest'}); return true; }", arg=selector)


def wait_in_view(page: Any, selector: str) -> None:
    page.wait_for_function(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect(); "
        "return r.top >= -1 && r.bottom <= innerHeight + 1; }", arg=selector)


# --------------------------------------------------------------------------------------------- dark colours
@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_dark_colours_follow_the_system(browser: Any, live_server: Any, size: tuple[int, int]) -> None:
    page = open_page(browser, live_server, size, scheme="dark")
    names = known_mistake_game()[0]
    start(page, mode="people", position=transcript(names[:30]))
    wait_listed(page, 30)
    assert is_dark(page)
    ink, bg = rgb(page, "body", "color"), rgb(page, "body", "backgroundColor")
    assert contrast(ink, bg) > 7
    panel = rgb(page, ".player", "backgroundColor")
    assert light(panel) < 0.1 and contrast(rgb(page, ".player .colour", "color"), panel) > 7
    assert contrast(rgb(page, "#board .coord", "fill"), bg) > 4.5            # the coordinates round the board
    assert contrast(rgb(page, "#board .disc.white", "fill"), rgb(page, "#board .cell", "fill")) > 3
    assert contrast(rgb(page, "#board .disc.black", "fill"), rgb(page, "#board .cell", "fill")) > 2
    page.wait_for_selector("#board .legal-mark")
    assert contrast(rgb(page, "#graph .axis", "fill"), rgb(page, ".graph-box", "backgroundColor")) > 4.5
    page.wait_for_selector("#graph .eval")
    assert contrast(rgb(page, "#graph .eval", "stroke"), rgb(page, ".graph-box", "backgroundColor")) > 3
    page.check("#opt-values")
    page.wait_for_selector("#board .value-text")
    assert contrast(rgb(page, "#board .value-text", "fill"), rgb(page, "#board .cell", "fill")) > 3
    assert contrast(rgb(page, "#movelist .mv-move", "color"), rgb(page, "#movelist", "backgroundColor")) > 7
    assert contrast(rgb(page, "#move-input", "color"), rgb(page, "#move-input", "backgroundColor")) > 4.5
    shot(page, "dark-game")
    page.click("#nav-editor")
    page.wait_for_selector("#editor-board svg")
    panel = rgb(page, "#screen-editor .panel", "backgroundColor")
    assert contrast(rgb(page, "#screen-editor .panel", "color"), panel) > 7
    shot(page, "dark-editor")
    page.click("#nav-history")
    page.wait_for_selector("#history-count:not(:empty)")
    assert contrast(rgb(page, "table.history", "color"), rgb(page, "table.history", "backgroundColor")) > 7
    page.goto(page.url0 + "/learn")
    page.wait_for_selector("#tree-svg .node")
    assert is_dark(page)
    tree = rgb(page, "#picture", "backgroundColor")
    assert light(tree) < 0.1 and contrast(rgb(page, "#tree-svg .node text", "fill"), tree) > 3
    page.click("#step-last")
    page.wait_for_selector("#tree-svg .node.visited")
    node = rgb(page, "#tree-svg .node.visited .shape", "fill")
    assert contrast(rgb(page, "#tree-svg .node.visited text", "fill"), node) > 7
    assert contrast(rgb(page, "#tree-svg .edge line", "stroke"), tree) > 4.5
    shot(page, "dark-learn")
    assert page.errors == []
    page.context.close()


def test_the_colours_switch_is_remembered(browser: Any, live_server: Any) -> None:
    page = open_page(browser, live_server, DESKTOP, scheme="dark")
    start_screen(page)
    assert is_dark(page) and page.get_attribute('[data-set-theme="system"]', "aria-pressed") == "true"
    page.click('[data-set-theme="light"]')
    assert not is_dark(page) and page.get_attribute('[data-set-theme="light"]', "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#opt-game option", state="attached")
    assert not is_dark(page)                                          # remembered on this browser
    page.goto(page.url0 + "/learn")
    page.wait_for_selector("#tree-svg .node")
    assert not is_dark(page)                                          # and on the Learn page
    page.click('[data-set-theme="system"]')
    assert is_dark(page)
    page.context.close()
    page = open_page(browser, live_server, DESKTOP, scheme="light")
    start_screen(page)
    assert not is_dark(page)
    page.click('[data-set-theme="dark"]')
    assert is_dark(page)
    page.reload()
    page.wait_for_selector("#opt-game option", state="attached")
    assert is_dark(page) and page.get_attribute('[data-set-theme="dark"]', "aria-pressed") == "true"
    assert page.errors == []
    page.context.close()


# --------------------------------------------------------------------------------------------- the phone
def test_a_move_chosen_below_the_board_brings_the_board_back_into_view(phone: Any) -> None:
    page = phone
    names = known_mistake_game()[0]
    start(page, mode="people", position=transcript(names[:40]))
    wait_listed(page, 40)
    scroll_to(page, '#movelist .mv[data-ply="3"]')
    assert not in_view(page, "#board")
    tap(page, '#movelist .mv[data-ply="3"]')
    page.wait_for_function("document.querySelector('#nav-pos').textContent.startsWith('3 /')")
    wait_in_view(page, "#board")
    assert page.errors == []


def test_a_mistake_chosen_in_the_review_brings_the_board_back_into_view(phone: Any) -> None:
    page = phone
    names, ply, _, _ = known_mistake_game()
    finished_for_review(page, names)
    link = f'#review-mistakes li[data-ply="{ply}"] button'
    scroll_to(page, link)
    page.evaluate("window.scrollBy(0, 400)")  # the board well out of view
    assert not in_view(page, "#board")
    scroll_to(page, link)
    tap(page, link)
    page.wait_for_function(f"document.querySelector('#nav-pos').textContent.startsWith('{ply - 1} /')")
    wait_in_view(page, "#board")
    assert page.errors == []


def test_the_learn_tree_fits_a_phone(phone: Any) -> None:
    page = phone
    page.goto(page.url0 + "/learn")
    page.wait_for_selector("#tree-svg .node")
    box = page.locator("#picture").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE[0]
    for node in page.locator("#tree-svg .node .shape").all():
        b = node.bounding_box()
        assert box["x"] <= b["x"] and b["x"] + b["width"] <= box["x"] + box["width"], "a node is cut off"
    labels = page.locator("#tree-svg .node text").evaluate_all("(ts) => ts.map((t) => t.textContent)")
    assert {"A", "B", "C", "D"} <= set(labels)
    size = page.locator("#tree-svg .node text").first.evaluate(
        "(t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getBoundingClientRect().width"
        " / t.ownerSVGElement.viewBox.baseVal.width")
    assert size >= 9.5                                                # the names stay readable
    shot(page, "learn")
    assert page.errors == []


def coord_px(page: Any, board: str) -> float:
    """The height on the screen of the board's coordinates' letters, in CSS pixels."""
    return page.locator(f"{board} .coord").first.evaluate(
        "(t) => parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getBoundingClientRect().width"
        " / t.ownerSVGElement.viewBox.baseVal.width")


def test_the_opponents_label_and_the_coordinates_are_whole_on_a_phone(phone: Any) -> None:
    page = phone
    start(page, mode="first", level=3)
    label = page.locator('.player[data-player="1"] .who small')
    assert "weighted-squares" in label.inner_text()   # its whole label: "alpha-beta, depth 3, weighted-squares"
    assert label.evaluate("(e) => e.scrollWidth <= e.clientWidth && getComputedStyle(e).textOverflow !== 'ellipsis'")
    b, row = label.bounding_box(), page.locator('.player[data-player="1"]').bounding_box()
    assert b["x"] + b["width"] <= row["x"] + row["width"] <= PHONE[0]
    assert coord_px(page, "#board") >= 11
    for c in page.locator("#board .coord").all():
        r = c.bounding_box()
        assert r["x"] >= 0 and r["x"] + r["width"] <= PHONE[0]
    shot(page, "game")
    page.click("#nav-editor")
    page.wait_for_selector("#editor-board svg")
    assert coord_px(page, "#editor-board") >= 11
    assert page.errors == []


def test_the_coordinates_stay_as_they_were_on_a_desktop(desktop: Any) -> None:
    start(desktop, mode="people")
    assert 14 <= coord_px(desktop, "#board") <= 20


# --------------------------------------------------------------------------------------------- history
def test_an_abandoned_game_is_unfinished_in_the_history(desktop: Any) -> None:
    page = desktop
    start(page, mode="first", level=1, minutes="0.05")               # 3 s each: it would run out on its own
    tap(page, "#board rect.cell.legal")
    wait_listed(page, 2)                                              # the computer replied
    gid = page.url.rsplit("/", 1)[1]
    start(page, mode="first", level=1, minutes="0.02")                # a new game replaces it, at once
    fresh = page.url.rsplit("/", 1)[1]
    start(page, mode="people")                                        # and this one, with no move
    page.wait_for_timeout(3500)                                       # past both clocks
    page.click("#nav-history")
    row = page.locator(f'#history-rows tr[data-id="{gid}"]')
    row.wait_for()
    assert row.locator(".h-result").inner_text() == "Unfinished (abandoned)"
    assert row.locator(".h-moves").inner_text() == "2 moves"
    assert page.locator(f'#history-rows tr[data-id="{fresh}"]').count() == 0  # no move: not kept
    assert "on time" not in page.inner_text("#history-rows")
    shot(page, "history")
    row.locator("a.replay-link").click()
    page.wait_for_selector("#board svg")
    assert page.inner_text("#replay-result") == "Unfinished (abandoned)"
    page.click("#nav-last")
    assert page.inner_text("#turn").startswith("After 1. White ")
    assert page.errors == []


# --------------------------------------------------------------------------------------------- small things
def test_the_editor_says_which_clock_it_plays_with(desktop: Any) -> None:
    page = desktop
    start_screen(page, "people")
    page.fill("#opt-minutes", "7")
    page.click("#nav-editor")
    page.wait_for_selector("#editor-board svg")
    assert page.input_value("#ed-minutes") == "7"                    # the start screen's clock, shown
    assert "clock" in page.inner_text("#screen-editor .panel")
    page.fill("#ed-minutes", "")                                      # and changed here: no clock
    page.click("#ed-play")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")
    assert page.locator(".player .clock").count() == 0
    page.click("#nav-editor")
    page.wait_for_selector("#editor-board svg")
    page.fill("#ed-minutes", "2")
    page.click("#ed-play")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector(".player .clock")
    assert page.locator(".player .clock").first.inner_text() in ("2:00", "1:59")
    assert page.errors == []


def test_the_review_lists_every_mistake_and_numbers_moves_one_way(desktop: Any) -> None:
    page = desktop
    names = random_game(5)
    finished_for_review(page, names)
    mistakes = page.locator("#review-mistakes li")
    assert mistakes.count() >= 6
    assert page.locator("#review-mistakes").evaluate("(e) => e.scrollHeight <= e.clientHeight + 1")  # no inner box
    last = mistakes.nth(mistakes.count() - 1).bounding_box()
    box = page.locator("#review-box").bounding_box()
    assert last["y"] + last["height"] <= box["y"] + box["height"]
    first = mistakes.first
    name = first.locator("button").inner_text()                       # "5. Black b1"
    ply = int(first.get_attribute("data-ply"))
    first.locator("button").click()
    page.wait_for_function(f"document.querySelector('#nav-pos').textContent.startsWith('{ply - 1} /')")
    note = page.inner_text("#view-note")
    assert " of " not in note and "move " not in note.split(".")[0]   # not "Position after move 8 of 61"
    before = page.locator(f'#movelist .mv[data-ply="{ply - 1}"]')
    number = before.locator("xpath=..").locator(".mv-num").inner_text()  # the move list's number, "4."
    assert note.startswith(f"Position after {number} ") and before.locator(".mv-move").inner_text() in note
    assert page.inner_text("#move-note").startswith(name.split(" ")[0])
    shot(page, "review")
    assert page.errors == []


def test_values_on_the_board_say_that_they_mark_the_moves(desktop: Any) -> None:
    page = desktop
    start(page, mode="people")
    page.check("#opt-values")
    page.wait_for_selector("#board .value-text")
    assert page.locator("#board .legal-mark").count() == 0            # the values stand where the dots were
    tap(page, '#board rect[data-square="a1"]')
    page.wait_for_function("document.querySelector('#game-error').textContent.includes('a1 is not a legal move')")
    assert "values mark yours" in page.inner_text("#game-error") and "dots" not in page.inner_text("#game-error")
    page.uncheck("#opt-values")
    page.wait_for_selector("#board .legal-mark")
    tap(page, '#board rect[data-square="a1"]')
    page.wait_for_function("document.querySelector('#game-error').textContent.includes('dots mark yours')")
    assert page.errors == []


def test_no_dots_for_a_side_the_person_does_not_play(desktop: Any) -> None:
    page = desktop
    start_screen(page, "watch")                                      # both sides the computer's
    page.select_option("#opt-level", "1")
    page.select_option("#opt-level2", "1")
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")
    for n in (1, 3, 5):
        wait_listed_at_least(page, n)
        assert page.locator("#board .legal-mark").count() == 0
    assert page.errors == []


def wait_listed_at_least(page: Any, n: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#movelist .mv:not(.start)').length >= {n}")


def test_the_browser_and_the_terminal_start_at_the_same_difficulty(desktop: Any) -> None:
    from plies.analysis.levels import DEFAULT_LEVEL

    page = desktop
    start_screen(page)
    assert page.input_value("#opt-level") == str(DEFAULT_LEVEL)
    assert len(listed(page)) == 0
