"""Two browsers play each other in real Chromium over loopback: the host (1280x860) starts a game with a friend,
the friend (a phone, 390x844) opens the invite link and joins, they play a whole 6x6 Othello game by clicks (each
plays the first legal move on its turn) while a third browser watches and is told it is watching; the game goes to
the history; a rematch swaps the colours and ends by resignation.  Screenshots: test-artifacts/web/friend-*.png."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import open_sized, shot_at, start, start_screen

pytestmark = pytest.mark.slow  # real browsers

ROLES = {"host": "desktop", "friend": "phone", "watcher": "desktop"}


@pytest.fixture
def pages(browser: Any, live_server: Any) -> Iterator[dict[str, Any]]:
    """Three browsers (contexts: their own cookies and tokens); JavaScript errors are collected."""
    out = {who: open_sized(browser, live_server.url, size) for who, size in ROLES.items()}
    yield out
    for pg in out.values():
        pg.context.close()


def shot(page: Any, name: str) -> None:
    shot_at(page, f"friend-{name}")


def plies(page: Any) -> int:
    return int(page.locator("#movelist .mv:not(.start)").count())


def turn(page: Any) -> str:
    return str(page.inner_text("#turn"))


def settle(players: list[Any], after: int) -> int:
    """Wait until both pages show the same game, past ``after`` moves, with one of them to move or the game over;
    the number of moves (passes included)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        counts = {plies(p) for p in players}
        texts = [turn(p) for p in players]
        if len(counts) == 1 and counts.pop() > after - 1 and (
                any("your turn" in t for t in texts) or all("wins" in t or t == "Draw" for t in texts)):
            return plies(players[0])
        players[0].wait_for_timeout(50)
    raise AssertionError(f"the two pages did not agree: {[turn(p) for p in players]}")


def test_two_browsers_play_a_game_and_a_third_watches(pages: dict[str, Any], live_server: Any) -> None:
    host, friend, watcher = pages["host"], pages["friend"], pages["watcher"]
    start_screen(host)
    host.select_option("#opt-game", "othello6")
    host.check("input[name=mode][value=friend]")
    assert host.locator("#opt-name").is_visible() and not host.locator("#opt-level").is_visible()
    host.fill("#opt-name", "Hana")
    host.fill("#opt-minutes", "")
    host.click("#btn-start")
    host.wait_for_url("**/#/game/*")
    host.wait_for_selector("#invite:not([hidden])")
    link = host.input_value("#invite-link")
    code = host.inner_text("#invite-code")
    assert link.endswith(f"/#/join/{code}") and len(code) == 9
    assert "waiting for your friend to join" in host.inner_text("#players")
    shot(host, "host-invites")

    friend.goto(link)
    friend.wait_for_selector("#join-form")
    assert friend.input_value("#join-code") == code and not friend.locator("#start-form").is_visible()
    friend.wait_for_function("document.querySelector('#join-about').textContent === 'You play White.'")
    assert friend.inner_text("#join-title") == "Hana invites you to a game of Othello 6×6"
    friend.fill("#join-name", "Felix")
    shot(friend, "friend-joins")
    friend.tap("#btn-join")
    friend.wait_for_url("**/#/game/*")
    friend.wait_for_selector("#board svg")
    host.wait_for_selector("#invite", state="hidden")
    assert "Felix" in host.inner_text("#players")
    assert "(you)" in friend.inner_text("#players")

    watcher.goto(link)  # both seats are taken: the invite lets it watch
    watcher.wait_for_selector("#join-form")
    watcher.wait_for_function("document.querySelector('#btn-join').textContent === 'Watch'")
    assert "Both seats are taken" in watcher.inner_text("#join-about")
    watcher.click("#btn-join")
    watcher.wait_for_url("**/#/game/*")
    watcher.wait_for_selector("#watching:not([hidden])")
    assert "You are watching" in watcher.inner_text("#watching")
    watcher.locator("#board rect.cell.legal").first.click()  # the server refuses, and the page says so
    watcher.wait_for_function("document.querySelector('#game-error').textContent.includes('watching')")
    assert watcher.locator("#btn-resign").is_disabled() and watcher.locator("#btn-hint").is_disabled()
    shot(watcher, "watcher")

    players, done = [host, friend], 0
    assert friend.locator("#btn-hint").is_disabled()  # no engine help between two people
    while True:
        done = settle(players, done + 1 if done else 0)
        if all("wins" in turn(p) or turn(p) == "Draw" for p in players):
            break
        mover = next(p for p in players if "your turn" in turn(p))
        other = friend if mover is host else host
        assert "waiting for" in turn(other)
        if done == 0:  # the waiting player's click is refused with the reason
            other.locator("#board rect.cell.legal").first.click()
            other.wait_for_function("document.querySelector('#game-error').textContent.includes('wait for')")
        square = mover.locator("#board rect.cell.legal").first
        if mover is friend:
            square.tap()
        else:
            square.click()
        if done == 6:
            shot(friend, "friend-plays")
    result = turn(host)
    assert done >= 20 and result == turn(friend)
    watcher.wait_for_function(f"document.querySelector('#turn').textContent === {result!r}")
    for p in players:
        p.wait_for_selector("#end:not([hidden])")
    titles = {host.inner_text("#end-title"), friend.inner_text("#end-title")}
    if result != "Draw":
        assert any(t.startswith("You win") for t in titles) and any(t.startswith("You lose") for t in titles)
    shot(host, "host-end")
    shot(friend, "friend-end")

    host.goto(live_server.url + "/#/history")  # the finished game, both names
    host.wait_for_selector("#history-rows tr")
    first = host.inner_text("#history-rows tr >> nth=0")
    assert "Hana" in first and "Felix" in first

    # the rematch: the colours swapped, the friend follows, the watcher is moved along too
    host.go_back()
    host.wait_for_selector("#end:not([hidden])")
    host.click("#btn-rematch")
    host.wait_for_function("document.querySelector('#turn').textContent.includes('waiting for Felix')")
    friend.wait_for_function("document.querySelector('#btn-rematch').textContent === 'Go to the rematch'")
    friend.tap("#btn-rematch")
    friend.wait_for_function("document.querySelector('#turn').textContent.includes('your turn')")
    assert "Black" in friend.inner_text("#players .player.to-move")
    friend.tap("#btn-resign")
    friend.tap("#btn-resign")  # the second tap confirms
    for p in players:
        p.wait_for_function("document.querySelector('#turn').textContent === 'White wins by resignation'")
    host.wait_for_selector("#end:not([hidden])")
    assert host.inner_text("#end-title") == "You win: White wins by resignation"
    assert "Black resigns." in host.inner_text("#end-detail")
    friend.wait_for_selector("#end:not([hidden])")
    assert friend.inner_text("#end-title") == "You lose: White wins by resignation"
    shot(friend, "friend-resigned")
    for p in (host, friend, watcher):
        assert p.errors == []


def test_a_second_browser_on_a_game_against_the_computer_is_told_it_watches(pages: dict[str, Any]) -> None:
    """The second browser on a game's address sees the legal moves, and its click is answered with the server's
    refusal instead of nothing."""
    host, other = pages["host"], pages["friend"]
    start(host, mode="first", level=1)
    assert host.locator("#watching").is_hidden() and host.locator("#invite").is_hidden()
    other.goto(host.url)
    other.wait_for_selector("#watching:not([hidden])")
    assert "Black to move" in other.inner_text("#turn") and "your turn" not in other.inner_text("#turn")
    other.locator("#board rect.cell.legal").first.tap()
    other.wait_for_function("document.querySelector('#game-error').textContent.includes('you are watching')")
    shot(other, "watcher-phone")
    assert other.locator("#movelist .mv:not(.start)").count() == 0  # nothing was played
    assert host.errors == [] and other.errors == []


def test_a_take_back_asked_in_one_browser_is_agreed_in_the_other(pages: dict[str, Any]) -> None:
    host, friend = pages["host"], pages["friend"]
    start_screen(host)
    host.select_option("#opt-game", "othello")
    host.check("input[name=mode][value=friend]")
    host.fill("#opt-minutes", "")
    host.click("#btn-start")
    host.wait_for_selector("#invite:not([hidden])")
    friend.goto(host.input_value("#invite-link"))
    friend.wait_for_selector("#join-form")
    friend.tap("#btn-join")
    friend.wait_for_selector("#board svg")
    host.wait_for_selector("#invite", state="hidden")
    assert host.locator("#btn-undo").is_disabled()  # nothing of Black's to take back yet
    host.locator("#board rect.cell.legal").first.click()
    friend.wait_for_function("document.querySelectorAll('#movelist .mv:not(.start)').length === 1")
    host.wait_for_function("!document.querySelector('#btn-undo').disabled")
    host.click("#btn-undo")  # Black asks
    friend.wait_for_function("document.querySelector('#btn-undo').textContent === 'Agree to take back'")
    assert friend.locator("#btn-decline").is_visible() and "asks to take back" in friend.inner_text("#notice")
    assert host.inner_text("#btn-undo") == "Take-back asked…" and host.locator("#btn-undo").is_disabled()
    shot(friend, "friend-take-back")
    friend.tap("#btn-undo")  # White agrees: both boards are back at the start
    for p in (host, friend):
        p.wait_for_function("document.querySelectorAll('#movelist .mv:not(.start)').length === 0")
    assert "your turn" in host.inner_text("#turn") and friend.locator("#btn-decline").is_hidden()
    assert host.errors == [] and friend.errors == []
