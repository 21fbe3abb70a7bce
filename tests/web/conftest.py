"""Fixtures for the browser app: an app on a temporary database, a live server on a free loopback port, and
pages of the suite's headless Chromium (``browser``)."""

from __future__ import annotations

import contextlib
import random
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from plies.game import PASS
from plies.games import OthelloState

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "web"


@pytest.fixture(autouse=True)
def textbook_only(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the fast engine out of ordinary tests: they check the textbook levels and the fallback that plays
    where there is no engine.  Tests marked ``engine`` use the real engine (where plies has its compiled core)."""
    if request.node.get_closest_marker("engine") is None:
        from plies.analysis import levels

        monkeypatch.setattr(levels, "engine_status", lambda: (False, "fast engine switched off for this test"))


@pytest.fixture
def app(tmp_path: Path) -> Any:
    from plies.web import create_app

    return create_app(tmp_path / "history.sqlite")


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    with TestClient(app, base_url="http://localhost") as c:
        yield c


def another_browser(client: Any, base_url: str = "http://localhost") -> Any:
    """A second browser (cookies of its own) on the app ``client`` serves, on the same event loop: the server runs
    one loop, as uvicorn does; a TestClient of its own would run each request on a loop of its own, and a move
    made on one loop cannot wake a WebSocket waiting on another."""
    from fastapi.testclient import TestClient

    other = TestClient(client.app, base_url=base_url)
    other.portal = client.portal
    return other


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """uvicorn serving the app in a background thread on 127.0.0.1, with plies web's settings (``settings``:
    ``server_settings``' arguments)."""

    def __init__(self, app: Any, **settings: Any) -> None:
        import uvicorn

        from plies.web.serving import server_settings

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                                    **server_settings(**settings)))  # as plies web serves
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    from plies.web import create_app

    app = create_app(tmp_path_factory.mktemp("web") / "history.sqlite")
    with LiveServer(app) as server:
        yield server


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    context = browser.new_context(viewport={"width": 1200, "height": 820})
    pg = context.new_page()
    pg.errors = []  # JavaScript errors seen on the page; tests assert there are none
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.set_default_timeout(20_000)
    pg.url0 = live_server.url
    yield pg
    context.close()


SIZES = {"desktop": (1280, 860), "phone": (390, 844)}
"""The two sizes every screen is checked at: a laptop's window and a phone (mobile, touch)."""


def open_sized(browser: Any, url: str, size: str = "desktop", **options: Any) -> Any:
    """A page in a browser context of its own (its own cookies) at one of ``SIZES``, with more context
    ``options`` (``locale``, ``color_scheme``, ``accept_downloads``): ``pg.size`` names the size, ``pg.url0`` is
    the server's address, ``pg.errors`` collects the page's JavaScript errors.  The caller closes
    ``pg.context``."""
    w, h = SIZES[size]
    phone = size == "phone"
    context = browser.new_context(viewport={"width": w, "height": h}, is_mobile=phone, has_touch=phone, **options)
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.set_default_timeout(30_000)
    pg.size = size
    pg.url0 = url
    return pg


@contextlib.contextmanager
def sized_page(browser: Any, url: str, size: str = "desktop", **options: Any) -> Iterator[Any]:
    """``open_sized``'s page, its context closed at the end."""
    pg = open_sized(browser, url, size, **options)
    try:
        yield pg
    finally:
        pg.context.close()


def shot_at(page: Any, name: str, settle: int = 650) -> None:
    """A full-page screenshot ``test-artifacts/web/NAME.png`` for a person to look at, once the flips settle."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(settle)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def fits(page: Any) -> None:
    """Nothing sticks out sideways: the page is no wider than the screen."""
    wide = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert wide <= 0, f"the page is {wide} px wider than the screen"


def start_screen(page: Any, mode: str | None = None) -> None:
    """The start screen, its games listed; with ``mode`` (``first``, ``people``, ``watch``...) chosen."""
    page.goto(page.url0 + "/#/")
    page.wait_for_selector("#opt-game option", state="attached")
    if mode is not None:
        page.check(f"input[name=mode][value={mode}]")


def start(page: Any, mode: str = "first", level: int = 1, position: str = "", minutes: str = "",
          game: str = "othello") -> str:
    """Fill the start screen and start; returns the new game's id."""
    start_screen(page)
    page.select_option("#opt-game", game)
    page.check(f"input[name=mode][value={mode}]")
    if mode != "people":
        page.select_option("#opt-level", str(level))
    page.fill("#opt-minutes", minutes)
    if position:
        page.click("#start-position summary")
        page.fill("#opt-position", position)
    page.click("#btn-start")
    page.wait_for_url("**/#/game/*")
    page.wait_for_selector("#board svg")
    return page.url.rsplit("/", 1)[-1]


def save_shot(page: Any, name: str) -> None:
    """Save a screenshot into test-artifacts/web/ for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(700)  # let the flip animation finish so the picture shows the settled board
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.fixture
def shot() -> Any:
    """``shot(page, name)`` saves a screenshot into test-artifacts/web/."""
    return save_shot


# --- positions the tests set up, found by seeded random play through the rules (never typed in by hand) ---


def _playouts(seed: int, games: int = 400):
    rng = random.Random(seed)
    for _ in range(games):
        s = OthelloState.start()
        while not s.is_over():
            yield s
            s = s.play(rng.choice(s.legal_moves()))


def pass_position(seed: int = 1) -> tuple[OthelloState, str]:
    """(Black to move, a Black move after which White must pass and Black can move again)."""
    for s in _playouts(seed):
        if s.to_move != 0 or s.legal_moves() == [PASS]:
            continue
        for m in s.legal_moves():
            after = s.play(m)
            if after.legal_moves() == [PASS] and not after.play(PASS).is_over():
                return s, s.move_str(m)
    raise AssertionError("no pass position found")


def final_position(seed: int = 2) -> tuple[OthelloState, str]:
    """(Black to move, a Black move that ends the game at once)."""
    for s in _playouts(seed):
        if s.to_move != 0 or s.legal_moves() == [PASS]:
            continue
        for m in s.legal_moves():
            if s.play(m).is_over():
                return s, s.move_str(m)
    raise AssertionError("no final position found")


@pytest.fixture(scope="session")
def pass_pos() -> tuple[OthelloState, str]:
    return pass_position()


@pytest.fixture(scope="session")
def final_pos() -> tuple[OthelloState, str]:
    return final_position()
