"""Short runs of the repository's fuzz, kill and load scripts for HexThello (their full runs' figures are in
docs/hexthello.md): the server survives, the records hold, and memory stays bounded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import fuzz_hexthello  # noqa: E402
import kill_records  # noqa: E402
import load_hardening  # noqa: E402

pytestmark = [pytest.mark.timeout(300), pytest.mark.skipif(sys.platform == "win32", reason="uses kill -9")]


def test_fuzz_short() -> None:
    report = fuzz_hexthello.run(connections=45, seed=3)
    assert report["problems"] == [], report["problems"][:5]
    assert report["messages"] > 100 and report["games"] > 0 and report["records_checked"] == report["games"]


def test_kill_short() -> None:
    report = kill_records.hexthello(kills=2, seed=2)
    assert report["problems"] == [], report["problems"][:5]
    assert report["games"] >= 3 and report["moves_forwarded"] > 0


def test_load_short() -> None:
    report = load_hardening.silent(count=3, games=2)
    assert report["seconds_alone"] > 0 and report["seconds_with_silent"] > 0
    seen = load_hardening.viewers(count=2, games=2)
    assert seen["rss_kb_after"] is None or seen["rss_kb_after"] > 0
    drawn = load_hardening.names(2000)
    assert drawn["names"] == 2000
