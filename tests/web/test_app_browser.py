"""A player's app in real Chromium at a desktop size (1280x860) and a phone size (390x844): a full game by
clicks, jumping in the move list and playing on, the review of a finished game with a known mistake, a
transcript set-up that keeps its moves, the board editor, a clock running out.  The real engine analyses.
Screenshots of every screen at both sizes go to test-artifacts/web/app-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from plies.games import OthelloState

from .conftest import SIZES, fits, shot_at, sized_page, start, start_screen
from .test_app_api import known_mistake_game, transcript

pytestmark = pytest.mark.slow  # a real browser

@pytest.fixture
def textbook_only() -> None:
    """The real engine analyses here (this overrides the conftest's fixture of the same name)."""


@pytest.fixture(params=list(SIZES))
def view(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> Iterator[Any]:
    """A page at one of the two sizes; ``view.size`` names it; JavaScript errors are collected."""
    with sized_page(browser, live_server.url, request.param) as pg:
        yield pg


def shot(page: Any, name: str) -> None:
    shot_at(page, f"app-{name}-{page.size}")


def tap(page: Any, selector: str) -> None:
    if page.size == "phone":
        page.locator(selector).first.tap()
    else:
        page.locator(selector).first.click()


def listed(page: Any) -> list[str]:
    return page.locator("#movelist .mv:not(.start) .mv-move").all_inner_texts()


def wait_listed(page: Any, n: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#movelist .mv:not(.start)').length === {n}")


def discs(page: Any) -> tuple[int, int]:
    return page.locator("#board .disc.black").count(), page.locator("#board .disc.white").count()


def test_a_full_game_by_clicks(view: Any) -> None:
    page = view
    start(page, mode="first", level=1)
    shot(page, "board")
    fits(page)
    tap(page, '#board rect[data-square="d4"]')  # an occupied square: told why nothing happens
    page.wait_for_function("document.querySelector('#game-error').textContent.includes('d4 is not a legal move')")
    while page.locator("#end").is_hidden():
        page.wait_for_function("document.querySelector('#turn').textContent.includes('your turn') || "
                               "!document.querySelector('#end').hidden")
        if not page.locator("#end").is_hidden():
            break
        n = len(listed(page))  # the computer has replied: the list is what the board shows
        square = page.locator("#board rect.cell.legal").first.get_attribute("data-square")
        tap(page, f'#board rect[data-square="{square}"]')
        page.wait_for_function(f"document.querySelectorAll('#movelist .mv:not(.start)').length > {n}")
        assert listed(page)[n] == square  # the tap landed on the square tapped
    page.wait_for_selector("#end", state="visible")
    moves = [m for m in listed(page) if m != "pass"]
    final = OthelloState.from_transcript("".join(moves))
    assert final.is_over()
    b, w = final.counts()
    assert page.inner_text("#end-score") == f"Black {b} – {w} White"
    assert page.inner_text("#end-title").startswith("You win" if b > w else "You lose" if w > b else "Draw")
    shot(page, "end")
    fits(page)
    page.click("#btn-look")
    assert discs(page) == (b, w)
    assert page.errors == []


def test_jumping_in_the_move_list_and_playing_on(view: Any) -> None:
    page = view
    line = "f5d6c3d3c4f4f6f3e6e7"
    start(page, mode="people", position=line)
    wait_listed(page, 10)
    page.click('#movelist .mv[data-ply="3"]')
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '3 / 10'")
    page.wait_for_function("document.querySelectorAll('#board .disc').length === 7")
    assert discs(page) == OthelloState.from_transcript("f5d6c3").counts()
    assert page.locator('#movelist .mv[data-ply="3"]').get_attribute("class").count("current") == 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '2 / 10'")
    page.keyboard.press("End")
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '10 / 10'")
    assert page.evaluate("""() => {  // the current move is scrolled into the list's view
        const list = document.querySelector('#movelist'), cur = list.querySelector('.mv.current');
        const a = list.getBoundingClientRect(), b = cur.getBoundingClientRect();
        return cur.dataset.ply === '10' && b.top >= a.top - 1 && b.bottom <= a.bottom + 1; }""")
    page.keyboard.press("Home")
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '0 / 10'")
    page.click("#nav-next")
    page.click("#nav-next")
    page.click("#nav-next")
    page.click("#nav-next")  # after move 4 (d3), Black to move: play on from there
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '4 / 10'")
    page.wait_for_selector("#view-note:not([hidden])")
    at4 = OthelloState.from_transcript("f5d6c3d3")
    page.check("#opt-values")
    page.wait_for_function(f"document.querySelectorAll('#board .value-text').length === {len(at4.legal_moves())}")
    assert page.locator("#board .value-text.best").count() >= 1
    shot(page, "jump")
    fits(page)
    other = next(at4.move_str(m) for m in at4.legal_moves() if at4.move_str(m) != "c4")
    tap(page, f'#board rect[data-square="{other}"]')
    wait_listed(page, 5)
    assert listed(page) == ["f5", "d6", "c3", "d3", other]
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '5 / 5'")
    page.click("#btn-undo")
    wait_listed(page, 4)
    page.click("#btn-redo")
    wait_listed(page, 5)
    page.uncheck("#opt-values")
    assert page.errors == []


def your_turn(page: Any) -> None:
    page.wait_for_function("document.querySelector('#turn').textContent.includes('your turn')")


def test_playing_on_from_an_earlier_move_against_the_computer(view: Any) -> None:
    """Going back and playing another move: the computer's reply (pushed at once) is not overwritten by the
    answer to the move, which can arrive after it; the page comes back to your turn."""
    page = view
    start(page, mode="first", level=1)
    for n in range(4):
        your_turn(page)
        square = page.locator("#board rect.cell.legal").first.get_attribute("data-square")
        tap(page, f'#board rect[data-square="{square}"]')
        wait_listed(page, 2 * n + 2)
    your_turn(page)
    played = listed(page)
    page.click('#movelist .mv[data-ply="4"]')
    page.wait_for_function("document.querySelector('#nav-pos').textContent === '4 / 8'")
    at4 = OthelloState.from_transcript("".join(played[:4]))
    page.wait_for_function(f"document.querySelectorAll('#board rect.cell.legal').length === {len(at4.legal_moves())}")
    other = next((at4.move_str(m) for m in at4.legal_moves() if at4.move_str(m) != played[4]), played[4])
    tap(page, f'#board rect[data-square="{other}"]')
    wait_listed(page, 6)
    your_turn(page)
    assert listed(page)[:5] == [*played[:4], other]
    assert page.errors == []


def finished_for_review(page: Any, names: list[str]) -> None:
    """The game of ``names`` played to its end on one screen (its last move tapped), then reviewed."""
    start(page, mode="people", position=transcript(names[:-1]))
    wait_listed(page, len(names) - 1)
    tap(page, f'#board rect[data-square="{names[-1]}"]')
    page.wait_for_selector("#end", state="visible")
    page.click("#btn-end-review")
    page.wait_for_selector("#review-summary table", timeout=240_000)


def test_review_of_a_finished_game_finds_a_known_mistake(view: Any) -> None:
    page = view
    names, ply, loss, best = known_mistake_game()
    finished_for_review(page, names)
    item = page.locator(f'#review-mistakes li[data-ply="{ply}"]')
    assert f"−{loss} discs (exact)" in item.inner_text() and f"best {best}" in item.inner_text()
    assert "mistake" in page.locator(f'#movelist .mv[data-ply="{ply}"]').get_attribute("class")
    side = 0 if ply % 2 else 1  # no pass before the mistake in this game: Black plays the odd moves
    assert names[: ply - 1].count("pass") == 0
    row = page.locator(f'#review-summary tr[data-side="{side}"]')
    assert int(row.locator("td.num").first.inner_text()) >= 1
    number, colour = (ply + 1) // 2, ("Black", "White")[side]  # numbered as the move list numbers it
    assert item.locator("button").inner_text() == f"{number}. {colour} {names[ply - 1]}"
    assert page.locator(f'#movelist .mv[data-ply="{ply}"]').locator("xpath=..").locator(".mv-num").inner_text() \
        == f"{number}."
    item.locator("button").click()
    page.wait_for_function(f"document.querySelector('#nav-pos').textContent.startsWith('{ply - 1} /')")
    note = page.inner_text("#move-note")
    assert note.startswith(f"{number}. {colour} played {names[ply - 1]}")
    assert "a mistake" in note and f"{loss} discs below {best}" in note
    page.wait_for_selector("#board .best-ring")  # the board of an earlier position comes from the server
    assert page.locator("#board .best-ring").count() == 1
    assert page.evaluate("""() => {  // the move list scrolled to the position shown
        const list = document.querySelector('#movelist'), cur = list.querySelector('.mv.current');
        const a = list.getBoundingClientRect(), b = cur.getBoundingClientRect();
        return b.top >= a.top - 1 && b.bottom <= a.bottom + 1; }""")
    assert "current" in page.locator(f'#review-mistakes li[data-ply="{ply}"]').get_attribute("class")
    assert "Evaluation in discs" in page.inner_text("#graph-label")
    shot(page, "review")
    fits(page)
    assert page.errors == []


def test_a_transcript_set_up_keeps_its_moves(view: Any) -> None:
    page = view
    start_screen(page, "people")
    page.click("#start-position summary")
    page.fill("#opt-position", "f5d6c3d9")
    page.click("#btn-start")
    page.wait_for_function("document.querySelector('#start-error').textContent.includes('move 4 (d9')")
    shot(page, "setup-error")
    fits(page)
    page.fill("#opt-position", "f5d6c3d3c4")
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    wait_listed(page, 5)
    assert listed(page) == ["f5", "d6", "c3", "d3", "c4"]
    page.click("#btn-export")
    assert page.input_value("#export-text") == "f5d6c3d3c4"
    shot(page, "setup")
    page.click("#btn-undo")
    wait_listed(page, 4)
    page.wait_for_function("document.querySelector('#export-text').value === 'f5d6c3d3'")
    page.click("#nav-new")
    page.wait_for_selector("#screen-start:not([hidden])")
    assert page.input_value("#opt-position") == ""  # the next game starts from the start
    assert page.errors == []


def test_the_board_editor(view: Any) -> None:
    page = view
    start_screen(page, "people")                  # the editor's game takes its players from the start screen
    page.click("#nav-editor")
    page.wait_for_selector("#editor-board svg")
    shot(page, "editor")
    fits(page)
    page.click("#ed-clear")
    page.click("#ed-play")
    page.wait_for_function("document.querySelector('#ed-error').textContent.includes('finished')")
    page.check("input[name=ed-tool][value=X]")
    for sq in ("d4", "e4", "e5"):
        tap(page, f'#editor-board rect[data-square="{sq}"]')
    page.check("input[name=ed-tool][value=O]")
    tap(page, '#editor-board rect[data-square="f4"]')
    page.check("input[name=ed-side][value=O]")
    text = page.input_value("#ed-text")
    state = OthelloState.from_text(text)
    assert state.counts() == (3, 1) and state.to_move == 1
    page.click("#ed-play")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")
    assert discs(page) == (3, 1)
    page.wait_for_function(f"document.querySelectorAll('#board .legal-mark').length === {len(state.legal_moves())}")
    assert "White to move" in page.inner_text("#turn")
    assert page.errors == []


def test_the_editor_starts_another_game_against_the_computer(view: Any) -> None:
    """The start screen's evaluation is Othello's: a tic-tac-toe or HexThello game from the editor plays with
    its own game's default instead of being refused."""
    page = view
    start_screen(page)
    page.select_option("#opt-game", "tictactoe")  # the high levels say what they are for each game
    assert page.locator('#opt-level option[value="8"]').inner_text() == "8: alpha-beta"
    page.select_option("#opt-game", "othello")
    assert page.locator('#opt-level option[value="8"]').inner_text() == "8: fast engine"
    page.check("input[name=mode][value=first]")
    page.click("#nav-editor")
    page.wait_for_selector("#editor-board svg")
    games = page.locator("#ed-game option").evaluate_all("os => os.map((o) => o.value)")
    for game in [g for g in ("tictactoe", "hexthello") if g in games]:
        page.click("#nav-editor")
        page.wait_for_selector("#editor-board svg")
        page.select_option("#ed-game", game)
        page.click("#ed-play")
        page.wait_for_url("**/#/game/*")
        page.wait_for_selector("#board svg")
        your_turn(page)
        assert page.inner_text("#ed-error") == ""
    assert page.errors == []


def test_a_clock_running_out(view: Any) -> None:
    page = view
    start(page, mode="first", level=1, minutes="0.03")
    page.wait_for_selector(".player .clock.running")
    page.wait_for_selector("#end", state="visible", timeout=30_000)
    assert page.inner_text("#end-title") == "You lose: White wins on time"
    assert "Black's time ran out" in page.inner_text("#end-detail")
    page.click("#btn-look")
    assert page.inner_text('.player[data-player="0"] .clock') == "0:00.0"
    assert "flagged" in page.locator('.player[data-player="0"] .clock').get_attribute("class")
    shot(page, "clock")
    fits(page)
    page.click("#nav-history")
    page.wait_for_selector("#history-rows tr")
    assert "White wins on time" in page.inner_text("#history-rows tr >> nth=0")
    shot(page, "history")
    fits(page)
    start_screen(page)
    shot(page, "start")
    fits(page)
    assert page.errors == []
