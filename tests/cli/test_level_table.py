"""One measured table of the engine levels' times: ``plies levels``, the README, the terminal's start screen and
the browser's start screen all show ``plies.engine.levels.LEVELS``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from plies.cli import main
from plies.engine.levels import LEVELS, seconds_text

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_shows_the_table_times() -> None:
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| (\d+) \| [^|]+ \| ([^|]+) \|", README.read_text(),
                                                             re.M)}
    assert set(rows) >= set(LEVELS)
    for lv, row in LEVELS.items():
        assert rows[lv].strip() == f"{seconds_text(row.seconds)} ({seconds_text(row.p95)})", lv


def test_plies_levels_prints_the_table_times(capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    for columns in ("80", "140"):  # narrow: the notes go under the table, whole
        monkeypatch.setenv("COLUMNS", columns)
        assert main(["levels"]) == 0
        out = capsys.readouterr().out
        for row in LEVELS.values():
            assert seconds_text(row.seconds) in out and seconds_text(row.p95) in out
            assert not row.note or row.note in out, (columns, row.note)


def test_the_browsers_start_screen_gets_the_table() -> None:
    from plies.web.info import info

    notes = info()["engine"]["levels"]
    if notes:  # with the engine
        assert all(notes[lv] == LEVELS[lv].summary for lv in notes)
        assert LEVELS[8].time_text in notes[8]


def test_times_grow_with_the_level() -> None:
    full = [LEVELS[lv].seconds for lv in range(6, max(LEVELS) + 1)]
    assert full == sorted(full) and all(row.p95 >= row.seconds for row in LEVELS.values())
