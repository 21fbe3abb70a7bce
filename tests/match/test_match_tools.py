"""The short run of tools/kill_records.py for matches and tournaments (full figures in docs/tournament.md):
kill -9 with workers, then --resume; every planned game stored once, nothing changed, no orphan workers."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import kill_records  # noqa: E402

pytestmark = pytest.mark.timeout(400)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.isdir("/proc"), reason="looks for worker processes in /proc")
def test_kill_and_resume_short() -> None:
    report = kill_records.matches(kills=2, seed=4, games=8)
    assert report["problems"] == [], report["problems"]
    assert report["orphans"] == 0 and report["records_checked"] > 8
