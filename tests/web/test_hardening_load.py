"""The short run of tools/load_hardening.py's flood (full figures in docs/web.md): one client starting games
with a new token each time keeps only its own last ones; another client's game lives on."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import load_hardening  # noqa: E402

pytestmark = pytest.mark.timeout(120)


def test_flood_short() -> None:
    report = load_hardening.flood(posts=300, per_address=20)
    assert report["statuses"] == {200: 300}
    assert report["other_clients_game_alive"] is True and report["flooder_keeps"] == 20
