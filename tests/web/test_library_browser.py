"""The game library and the OBF and WTHOR uploads in real Chromium at 1280x860 and 390x844: the Library screen
reached from the start screen lists the games, searches them by player, opening and position (typed, or the one
on the board), opens one for replay and reviews it; an OBF file's position and a WTHOR file's game (named from its
WTHOR.JOU) open from the start screen's file picker.  Screenshots: test-artifacts/web/library-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies.formats.model import OthelloGame
from plies.games import OthelloState
from plies.games.record import Game

from .conftest import SIZES, LiveServer, fits, shot_at, sized_page, start_screen
from .test_library_api import random_games, write_ggf_file, write_wthor
from .test_uploads_api import obf_text

pytestmark = pytest.mark.slow  # a real browser

def short_game() -> OthelloGame:
    """Eight moves, each side playing its first legal move: quick to review."""
    game = Game(OthelloState.start())
    while len(game.moves) < 8:
        game.play(game.state.legal_moves()[0])
    return OthelloGame(game.start, list(game.moves), "Quick Quentin", "Rapid Rita", date="2023-05-06")


GAMES = [short_game(), *random_games(70, 21)]


@pytest.fixture(scope="module")
def library_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from plies.web import create_app

    tmp = tmp_path_factory.mktemp("library")
    app = create_app(tmp / "history.sqlite", library_path=write_ggf_file(tmp / "games.ggf", GAMES))
    with LiveServer(app) as server:
        assert app.state.library.wait(60)
        yield server


@pytest.fixture(params=list(SIZES))
def view(request: pytest.FixtureRequest, browser: Any, library_server: LiveServer) -> Iterator[Any]:
    with sized_page(browser, library_server.url, request.param) as pg:
        yield pg


def shot(page: Any, name: str) -> None:
    shot_at(page, f"library-{name}-{page.size}", settle=600)


def listed_ids(page: Any) -> list[int]:
    return [int(x) for x in page.eval_on_selector_all("#library-rows tr", "rows => rows.map(r => r.dataset.id)")]


def search(page: Any, player: str = "", opening: str = "", position: str = "") -> list[int]:
    page.fill("#lib-player", player)
    page.fill("#lib-opening", opening)
    page.fill("#lib-position", position)
    page.click("#lib-search")
    wait_for_list(page, _hash(player, opening, position))
    assert "found" in page.inner_text("#library-count")
    return listed_ids(page)


def wait_for_list(page: Any, asked: str | None = None) -> None:
    """Until the list answers the address ``asked`` (default: the page's own), not the search before it (whose
    rows and count stay on screen while the new one is fetched), and holds every match, not those found so far."""
    page.wait_for_function("(h) => document.querySelector('#library-rows').dataset.shown === (h || location.hash)"
                           " && !document.querySelector('#library-count').textContent.includes('(so far)')",
                           arg=asked)


def _hash(player: str, opening: str, position: str) -> str:
    from urllib.parse import urlencode

    q = urlencode({k: v for k, v in (("player", player), ("opening", opening), ("position", position)) if v})
    return f"#/library?{q}" if q else "#/library"


def test_the_library_lists_searches_and_pages(view: Any) -> None:
    page = view
    page.goto(page.url0 + "/#/")
    page.wait_for_selector("#start-library:not([hidden])")
    page.click("#start-library")
    page.wait_for_selector("#library-rows tr")
    assert listed_ids(page) == list(range(50))
    assert "Games 1–50 of 71" in page.inner_text("#library-count")
    assert "2 games skipped" in page.inner_text("#library-note")
    fits(page)
    shot(page, "list")
    page.click("#lib-next")
    page.wait_for_function("document.querySelector('#library-count').textContent.includes('51–71')")
    assert listed_ids(page) == list(range(50, 71))
    rita = search(page, player="rapid")
    assert rita == [0]
    opening = "".join(GAMES[5].move_names()[:4])
    from plies.web.library import openings

    expected = [k for k, g in enumerate(GAMES) if any(bytes(g.moves[:4]) == p for p in openings(opening))]
    assert search(page, opening=opening) == expected and 5 in expected
    target = GAMES[9].states()[6]
    expected = [k for k, g in enumerate(GAMES) if target in g.states()]
    assert search(page, position=target.to_text().replace(" ", "")) == expected and 9 in expected
    fits(page)
    shot(page, "search")
    page.fill("#lib-opening", "f5 zz")
    page.click("#lib-search")
    page.wait_for_function("document.querySelector('#library-error').textContent.includes('an opening is moves')")
    assert page.errors == []


def test_a_game_opens_on_the_board_is_reviewed_and_its_position_found(view: Any) -> None:
    page = view
    page.goto(page.url0 + "/#/")
    page.evaluate("""async () => {  // the lowest analysis level: a quick review
      const info = await (await fetch('/api/info')).json();
      const level = Math.min(...Object.keys(info.analysis.levels).map(Number));
      localStorage.setItem('plies.settings', JSON.stringify({ analysis: level }));
    }""")
    page.goto(page.url0 + "/#/library?player=quentin")
    page.reload()
    page.wait_for_selector('#library-rows tr[data-id="0"] a.library-open')
    page.click('#library-rows tr[data-id="0"] a.library-open')
    page.wait_for_url("**/#/library/0")
    page.wait_for_selector("#board svg")
    assert "Quick Quentin – Rapid Rita" in page.inner_text("#replay-title")
    players = page.inner_text("#players")
    assert "Quick Quentin" in players and "Rapid Rita" in players
    assert page.locator("#movelist .mv:not(.start)").count() == 8
    for _ in range(3):
        page.click("#nav-next")
    page.wait_for_function("document.querySelector('#nav-pos').textContent.trim().startsWith('3')")
    shot(page, "replay")
    page.click("#btn-review")
    page.wait_for_selector("#review-summary table", timeout=300_000)
    assert "Quick Quentin" in page.inner_text("#review-summary")
    page.click("#btn-find-position")
    page.wait_for_function("location.hash.startsWith('#/library?position=')")
    wait_for_list(page)
    target = GAMES[0].states()[3]
    assert listed_ids(page) == [k for k, g in enumerate(GAMES) if target in g.states()]
    link = page.locator('#library-rows tr[data-id="0"] a.library-open')
    assert link.inner_text() == "Open at move 3"
    link.click()
    page.wait_for_function("document.querySelector('#nav-pos').textContent.trim().startsWith('3')")
    fits(page)
    assert page.errors == []


def pick_files(page: Any, files: list[Path]) -> None:
    start_screen(page)
    page.click("#start-position summary")
    page.set_input_files("#opt-file", [str(f) for f in files])


def test_an_obf_position_opens_from_the_file_picker(view: Any, tmp_path: Path) -> None:
    page = view
    text, states = obf_text()
    path = tmp_path / "three.obf"
    path.write_text(text)
    pick_files(page, [path])
    page.wait_for_selector("#file-game-box:not([hidden])")
    assert page.locator("#opt-file-game option").count() == 3
    page.select_option("#opt-file-game", "3")
    page.check("input[name=mode][value=people]")
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")
    discs = states[2].counts()
    page.wait_for_function(f"document.querySelectorAll('#board .disc').length === {sum(discs)}")
    assert page.errors == []


def test_a_wthor_game_opens_with_its_players_names(view: Any, tmp_path: Path) -> None:
    page = view
    names = ["Tamenori Hideshi", "Brian Rose", "Imre Leader"]
    games = [g for g in random_games(10, 4) if g.final.is_over()]
    wtb = write_wthor(tmp_path, games, names)
    pick_files(page, [wtb, tmp_path / "WTHOR.JOU"])
    page.wait_for_selector("#file-game-box:not([hidden])")
    options = page.eval_on_selector_all("#opt-file-game option", "os => os.map(o => o.textContent)")
    assert len(options) == len(games) and options[1].startswith("2. Brian Rose – Imre Leader")
    page.select_option("#opt-file-game", "2")
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")
    page.wait_for_function("document.querySelector('#players').textContent.includes('Imre Leader')")
    assert "Brian Rose" in page.inner_text("#players")
    assert page.locator("#movelist .mv:not(.start)").count() == len(games[1].moves)
    shot(page, "wthor")
    bad = tmp_path / "bad.wtb"
    bad.write_bytes(wtb.read_bytes()[:-7])
    pick_files(page, [bad])
    page.wait_for_function("document.querySelector('#start-error').textContent.includes('68-byte games')")
    assert page.errors == []
