"""The whole suite: plies speaks English in it whatever the machine's locale (the Greek tests ask for Greek); the
browser tests' headless Chromium."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["PLIES_LANG"] = "en"  # read by the commands, and by the programs the tests start
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    """Every test starts, and leaves the next one, in English (a command run with --lang el chooses Greek)."""
    from plies import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture
def disk_limit() -> Iterator[dict[str, Path | None]]:
    """While ``limit["path"]`` is set, every new SQLAlchemy connection to that file may not grow it (SQLite's own
    SQLITE_FULL "database or disk is full", as on a full disk)."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    limit: dict[str, Path | None] = {"path": None}

    def connect(conn: Any, _record: Any) -> None:
        path = limit["path"]
        if path is not None and str(path.resolve()) in [row[2] for row in conn.execute("PRAGMA database_list")]:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages}")

    event.listen(Engine, "connect", connect)
    try:
        yield limit
    finally:
        event.remove(Engine, "connect", connect)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's /usr/bin/chromium, headless, through Playwright (the app's and the Learn page's browser tests);
    skips without it."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium); end-to-end tests need a real browser")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
