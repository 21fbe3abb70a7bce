"""Game files in real Chromium: a GGF game pasted or opened from a file starts with its players' names, and the
game is saved (downloaded) as a transcript and as GGF, which open again.
Screenshots: test-artifacts/web/files-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies.formats.ggf import read_ggf

from .conftest import ARTIFACTS, SIZES, sized_page, start_screen
from .test_files_api import first_moves_game, ggf_of

pytestmark = pytest.mark.slow  # a real browser

@pytest.fixture(params=list(SIZES))
def view(request: pytest.FixtureRequest, browser: Any, live_server: Any) -> Iterator[Any]:
    with sized_page(browser, live_server.url, request.param, accept_downloads=True) as pg:
        yield pg


def start_with(page: Any, text: str | None = None, file: Path | None = None) -> None:
    start_screen(page, "first")
    page.click("#start-position summary")
    if file is not None:
        page.set_input_files("#opt-file", str(file))
        page.wait_for_function("document.querySelector('#opt-position').value.startsWith('(;')")
    else:
        page.fill("#opt-position", text or "")
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")


def download(page: Any, button: str, tmp_path: Path) -> str:
    with page.expect_download() as info:
        page.click(button)
    target = tmp_path / info.value.suggested_filename
    info.value.save_as(target)
    return target.read_text()


def test_open_a_ggf_game_and_save_it_again(view: Any, tmp_path: Path) -> None:
    game = first_moves_game()
    start_with(view, ggf_of(game, "Ann Abel", "Bob Bell"))
    players = view.inner_text("#players")
    assert "Ann Abel" in players and "Bob Bell" in players and "You" not in players and "omputer" not in players
    assert view.locator("#movelist .mv:not(.start)").count() == len(game.moves)
    assert view.locator("#end").is_hidden()  # a finished game opened for review, not just ended here
    view.click("#btn-export")
    view.wait_for_selector("#btn-save-ggf:not([hidden])")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / f"files-opened-{view.size}.png"), full_page=True)
    saved = download(view, "#btn-save-ggf", tmp_path)
    back = read_ggf(saved)
    assert back.moves == game.moves and (back.black, back.white) == ("Ann Abel", "Bob Bell")
    assert download(view, "#btn-save-transcript", tmp_path) == game.transcript() + "\n"
    # the saved file opens again from the start screen's file picker
    path = tmp_path / "again.ggf"
    path.write_text(saved)
    start_with(view, file=path)
    assert "Ann Abel" in view.inner_text("#players")
    assert view.errors == []


def test_a_bad_ggf_paste_says_where(view: Any) -> None:
    start_screen(view)
    view.click("#start-position summary")
    view.fill("#opt-position", "(;GM[Othello]B[F5]W[Z9];)")
    view.click("#btn-start")
    view.wait_for_function("document.querySelector('#start-error').textContent.includes('line 1, column')")
    assert "character 1" not in view.inner_text("#start-error")
    assert view.errors == []


def test_a_file_of_several_games_offers_a_choice(view: Any, tmp_path: Path) -> None:
    games = [ggf_of(first_moves_game(n), f"Black {n}", f"White {n}") for n in (4, 10, 20)]
    path = tmp_path / "three.ggf"
    path.write_text("\n".join(games) + "\n")
    start_screen(view, "people")
    view.click("#start-position summary")
    view.set_input_files("#opt-file", str(path))
    view.wait_for_selector("#file-game-box:not([hidden])")
    assert view.locator("#opt-file-game option").all_inner_texts()[1] == "2. Black 10 – White 10 (10 moves)"
    view.select_option("#opt-file-game", "2")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    view.screenshot(path=str(ARTIFACTS / f"files-pick-{view.size}.png"), full_page=True)
    view.click("#btn-start")
    view.wait_for_url("**/#/game/*")
    view.wait_for_selector("#board svg")
    assert "Black 10" in view.inner_text("#players") and "White 10" in view.inner_text("#players")
    assert view.locator("#movelist .mv:not(.start)").count() == 10
    assert view.inner_text("#notice") == "Game 2 of the 3 in the file."
    assert view.errors == []
