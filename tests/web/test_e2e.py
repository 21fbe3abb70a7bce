"""End to end: the page in real headless Chromium (Debian's /usr/bin/chromium via Playwright) against a live
server on a free loopback port.  Screenshots go to test-artifacts/web/ for a person to look at."""

from __future__ import annotations

from typing import Any

import pytest

from plies.games import OthelloState

from .conftest import start

pytestmark = pytest.mark.slow  # a real browser


def discs(page: Any) -> tuple[int, int]:
    return page.locator("#board .disc.black").count(), page.locator("#board .disc.white").count()


def moves_listed(page: Any) -> list[str]:
    return page.locator("#movelist .mv:not(.start) .mv-move").all_inner_texts()


def wait_moves(page: Any, n: int) -> None:
    page.wait_for_function(f"document.querySelectorAll('#movelist .mv:not(.start)').length === {n}")
    page.wait_for_selector("#thinking", state="hidden")


def test_start_screen_offers_the_choices(page: Any, live_server: Any, shot: Any) -> None:
    page.goto(live_server.url)
    page.wait_for_selector("#opt-game option", state="attached")
    games = page.locator("#opt-game option").all_inner_texts()
    assert any("Othello" in g for g in games) and any("Tic-tac-toe" in g for g in games)
    assert page.locator("#opt-level option").count() >= 5
    assert "alpha-beta" in page.inner_text("#opt-algorithm")
    shot(page, "01-start")
    assert page.errors == []


def test_play_see_reply_and_undo(page: Any, live_server: Any, shot: Any) -> None:
    start(page, mode="first", level=1)
    assert discs(page) == (2, 2)
    assert page.locator("#board rect.cell.legal").count() == 4
    shot(page, "02-board-start")
    page.click('#board rect[data-square="d3"]')
    wait_moves(page, 2)
    assert moves_listed(page)[0] == "d3"
    black, white = discs(page)
    assert black + white == 6  # two moves, one disc each
    reply = moves_listed(page)[1]
    after = OthelloState.start().play(19)
    assert reply in [after.move_str(m) for m in after.legal_moves()]
    assert page.locator("#board .last-mark").count() == 1
    assert "your turn" in page.inner_text("#turn")
    page.click('#board rect.cell.legal >> nth=0')
    wait_moves(page, 4)
    shot(page, "03-after-moves")
    page.click("#btn-undo")
    wait_moves(page, 2)
    page.click("#btn-undo")
    wait_moves(page, 0)
    assert discs(page) == (2, 2)
    assert page.is_enabled("#btn-redo")
    page.click("#btn-redo")
    wait_moves(page, 2)
    assert moves_listed(page)[:2] == ["d3", reply]
    assert page.errors == []


def test_keyboard_entry_hint_and_export(page: Any, live_server: Any, shot: Any) -> None:
    start(page, mode="people")
    page.keyboard.press("f")  # a letter jumps into the move box
    page.keyboard.type("5")
    page.keyboard.press("Enter")
    wait_moves(page, 1)
    page.fill("#move-input", "zz")
    page.press("#move-input", "Enter")
    page.wait_for_function("document.querySelector('#game-error').textContent.includes('not a move')")
    page.click("#btn-hint")
    page.wait_for_selector("#hints li")
    assert page.locator("#hints li").count() == 3
    page.wait_for_function("document.querySelectorAll('#board .hint-mark').length === 3")
    shot(page, "04-hint")
    page.click("#btn-export")
    assert page.input_value("#export-text") == "f5"
    page.locator("#turn").click()  # out of the text boxes: Ctrl+Z is the game's undo
    page.keyboard.press("Control+z")
    wait_moves(page, 0)
    page.keyboard.press("Control+y")
    wait_moves(page, 1)
    assert page.errors == []


def test_pass_is_shown_as_a_message(page: Any, live_server: Any, shot: Any, pass_pos: Any) -> None:
    pos, move = pass_pos
    start(page, mode="first", level=1, position=pos.to_text())
    page.click(f'#board rect[data-square="{move}"]')
    page.wait_for_function("document.querySelector('#notice').textContent.includes('passes')")
    assert page.inner_text("#notice") == "White has no legal move and passes."
    assert moves_listed(page) == [move, "pass"]
    assert "Black to move" in page.inner_text("#turn")
    shot(page, "05-pass")
    assert page.errors == []


def test_end_screen_then_replay_from_history(page: Any, live_server: Any, shot: Any, final_pos: Any) -> None:
    pos, move = final_pos
    gid = start(page, mode="first", level=1, position=pos.to_text())
    page.click(f'#board rect[data-square="{move}"]')
    page.wait_for_selector("#end", state="visible")
    final = pos.play(pos.parse_move(move))
    b, w = final.counts()
    assert page.inner_text("#end-score") == f"Black {b} – {w} White"
    title = "You win: Black wins" if final.score() > 0 else "You lose: White wins" if final.score() < 0 else "Draw"
    assert page.inner_text("#end-title").startswith(title)
    shot(page, "06-end")
    page.click("#btn-back")
    page.wait_for_selector("#screen-start", state="visible")
    page.click("#nav-history")
    row = page.locator(f'#history-rows tr[data-id="{gid}"]')
    row.wait_for()
    assert "wins" in row.inner_text() or "Draw" in row.inner_text()
    shot(page, "07-history")
    row.locator("a.replay-link").click()
    page.wait_for_selector("#board svg")
    assert page.inner_text("#turn").startswith("Start position")
    start_discs = page.locator("#board .disc").count()
    page.click("#nav-next")
    page.wait_for_function("document.querySelector('#turn').textContent.startsWith('After 1. Black ')")
    assert page.locator("#board .disc").count() == start_discs + 1
    assert page.locator("#board .disc.black").count() == b
    page.click("#nav-first")
    assert page.inner_text("#nav-pos") == "0 / 1"
    page.keyboard.press("End")
    assert page.inner_text("#nav-pos") == "1 / 1"
    shot(page, "08-replay")
    assert page.errors == []


def test_tictactoe_against_the_computer(page: Any, live_server: Any, shot: Any) -> None:
    start(page, game="tictactoe", mode="first", level=5)
    assert page.get_attribute("#move-input", "placeholder") == "type a move, e.g. b2"
    page.click('#board rect[data-square="b2"]')
    wait_moves(page, 2)
    assert page.locator("#board .mark-x").count() == 2  # one X = two strokes
    assert page.locator("#board .mark-o").count() == 1
    assert page.locator("#board .win-line").count() == 0
    shot(page, "09-tictactoe")
    assert page.errors == []


def test_tictactoe_marks_the_winning_line(page: Any, live_server: Any) -> None:
    start(page, game="tictactoe", mode="people", position="a1 a2 b1 b2")
    page.click('#board rect[data-square="c1"]')
    page.wait_for_selector("#board .win-line", state="attached")
    assert page.locator("#board .win-line").count() == 1
    page.wait_for_selector("#end", state="visible")
    assert page.inner_text("#end-title") == "X wins"
    assert page.errors == []


def test_hexthello_board_is_a_hexagon(page: Any, live_server: Any, shot: Any) -> None:
    page.goto(live_server.url)
    page.wait_for_selector("#opt-game option", state="attached")
    start(page, game="hexthello", mode="people")
    assert page.locator("#board polygon.cell").count() == 169
    coords = page.eval_on_selector_all("#board text.hex-coord", "els => els.map((e) => e.textContent)")
    assert sorted(coords, key=int) == sorted([str(i) for i in range(15)] * 2, key=int)  # rows and columns
    assert page.get_attribute("#move-input", "placeholder") == "type a move, e.g. 7 3"
    legal = page.locator("#board polygon.cell.legal")
    assert legal.count() > 0
    legal.first.click()
    wait_moves(page, 1)
    shot(page, "10-hexthello")
    assert page.errors == []


def test_watch_computer_against_computer(page: Any, live_server: Any, shot: Any) -> None:
    start(page, game="tictactoe", mode="watch", level=1)
    page.wait_for_selector("#end", state="visible", timeout=60_000)
    assert page.locator("#movelist .mv:not(.start)").count() >= 5  # the shortest tic-tac-toe game
    shot(page, "11-watch-end")
    assert page.errors == []


def test_leaving_a_watched_game_stops_it(page: Any, live_server: Any) -> None:
    gid = start(page, game="othello", mode="watch", level=1)
    page.wait_for_function("document.querySelectorAll('#movelist .mv:not(.start)').length >= 2")
    page.click("#nav-history")
    page.wait_for_selector("#screen-history:not([hidden])")
    first = page.request.get(f"{live_server.url}/api/games/{gid}?wait=true").json()["ply"]
    page.wait_for_timeout(1500)  # the computers move every 0.4 s while the game is watched
    assert page.request.get(f"{live_server.url}/api/games/{gid}").json()["ply"] == first
    assert page.errors == []
