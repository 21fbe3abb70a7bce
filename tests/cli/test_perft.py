"""``plies perft``: 8x8 Othello counted by the compiled engine (what ``plies bench perft`` measures), every other
game and ``--rules`` by the Python rules; the same counts either way."""

from __future__ import annotations

import json

import pytest

from plies.cli import main


def perft(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["perft", *args, "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def test_othello_is_counted_by_the_compiled_engine(capsys: pytest.CaptureFixture[str]) -> None:
    out = perft(capsys, "--depth", "10")
    assert out["nodes"] == 24_571_284 and out["counter"] == "compiled"


def test_both_counters_agree(capsys: pytest.CaptureFixture[str]) -> None:
    for position in ("othello", "f5d6c3"):
        fast = perft(capsys, position, "--depth", "6", "--divide")
        rules = perft(capsys, position, "--depth", "6", "--divide", "--rules")
        assert (fast["counter"], rules["counter"]) == ("compiled", "rules")
        assert fast["nodes"] == rules["nodes"] and fast["divide"] == rules["divide"]


def test_other_games_use_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert perft(capsys, "othello6", "--depth", "5")["counter"] == "rules"
    assert perft(capsys, "tictactoe", "--depth", "9")["nodes"] == 255_168
    assert main(["perft", "--depth", "4"]) == 0
    assert "compiled engine" in capsys.readouterr().out
