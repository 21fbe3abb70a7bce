"""``plies review GAME``: every move against the best move in discs, the mistakes and a sum per player; any
transcript or file; ``--json``; a progress bar on stderr; bad input as one line.  Also ``plies analyse`` and
``plies bench midgame`` print values in discs with one decimal at most."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from plies.cli import main
from plies.game import WIN
from plies.games import OthelloState
from plies.heuristics import get
from plies.search import alphabeta


def mistake_game(seed: int = 11, empties: int = 7) -> tuple[str, int, int]:
    """(a whole game as a transcript, the number of a move that loses a known number of discs, that number):
    random moves, except that with ``empties`` empty squares the mover plays its worst move (found by the
    textbook alpha-beta to the end)."""
    discs = get("othello", "discs")
    for k in range(100):
        rng = random.Random(seed * 100 + k)
        s, names, known = OthelloState.start(), [], None
        while not s.is_over():
            moves = s.legal_moves()
            m = rng.choice(moves)
            if known is None and s.empties() == empties and len(moves) >= 2:
                values = {}
                for x in moves:
                    c = s.play(x)
                    r = alphabeta(c, 2 * c.empties() + 2, discs).value if not c.is_over() else None
                    v = (c.score() if s.to_move == 0 else -c.score()) if r is None else \
                        (r if c.to_move == s.to_move else -r)
                    values[x] = int(v - WIN) if v >= WIN else int(v + WIN) if v <= -WIN else int(v)
                lo, hi = min(values.values()), max(values.values())
                if hi - lo >= 4:
                    m = min(values, key=values.get)
                    known = (len(names) + 1, hi - lo)
            names.append(s.move_str(m))
            s = s.play(m)
        if known is not None:
            return "".join(n for n in names if n != "pass"), names.index(names[known[0] - 1]) + 1, known[1]
    raise AssertionError("no game found")


def test_review_json_finds_the_known_mistake(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game, ply, loss = mistake_game()
    path = tmp_path / "game.txt"
    path.write_text(game + "\n")
    assert main(["review", str(path), "--level", "6", "--json"]) == 0
    captured = capsys.readouterr()
    r = json.loads(captured.out)
    row = next(m for m in r["moves"] if m["ply"] == ply)
    assert row["mistake"] and row["exact"] and row["loss"] == loss and r["unit"] == "discs"
    assert {p["name"] for p in r["players"]} == {"Black", "White"} and r["over"] is True
    assert sum(p["moves"] for p in r["players"]) == sum(1 for m in r["moves"] if not m.get("forced"))


def test_review_text_in_discs_from_the_chosen_view(capsys: pytest.CaptureFixture[str]) -> None:
    game, ply, loss = mistake_game()
    assert main(["review", game, "--level", "6", "--view", "white"]) == 0
    out = capsys.readouterr().out
    assert "from White's point of view" in out and "Mistakes" in out
    line = next(x for x in out.splitlines() if x.strip().startswith(f"{ply}. "))
    assert f"lost {loss} (exact)" in line
    assert re.search(r"^Black: \d+ moves, \d+ mistakes?, [\d.]+ discs lost", out, re.M)
    assert not re.search(r"\d\.\d\d", out)  # one decimal at most


def test_review_reads_ggf_and_other_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from plies.formats.ggf import write_ggf_games
    from plies.formats.transcript import read_transcript

    game, _, _ = mistake_game()
    ggf = tmp_path / "g.ggf"
    ggf.write_text(write_ggf_games([read_transcript(game)]))
    assert main(["review", f"@{ggf}", "--level", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "othello"
    assert main(["review", "a1 b2 a2 a3 c1 b1 c3 c2", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["game"] == "tictactoe" and r["unit"] == "result" and any(m["mistake"] for m in r["moves"])


@pytest.mark.parametrize(("argv", "says"), [
    (["review", "f5d6c3d9"], "d9"),
    (["review", "othello"], "no moves to review"),
    (["review", "@/no/such/file"], "no such file: /no/such/file"),
    (["review", "f5d6", "--level", "0"], "--level"),
    (["review", "no-such-game.ggf"], "no such file: no-such-game.ggf"),
    (["review", "."], "is a directory"),
])
def test_review_bad_input_is_one_line(argv: list[str], says: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("plies: error:") and err.count("\n") == 1 and says in err


def test_analyse_and_bench_print_discs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "f5d6c3", "--depth", "6", "--multipv", "2"]) == 0
    out = capsys.readouterr().out
    values = re.findall(r"([+-]?\d+(?:\.\d+)?) discs", out)  # the values only: the times are the clock's
    assert values and all("." not in v or len(v.split(".")[1]) == 1 for v in values), out
    assert re.search(r"[+-]\d+(\.\d)? discs", out)
    assert main(["analyse", "f5d6c3", "--depth", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unit"] == "discs" and isinstance(data["value"], float | int)
    assert main(["analyse", "f5d6c3", "--depth", "4", "--eval", "handmade"]) == 0
    assert "handmade units" in capsys.readouterr().out
    assert main(["bench", "midgame", "--depth", "4", "--positions", "2"]) == 0
    out = capsys.readouterr().out
    table = out.split("total")[0]
    values = re.findall(r"│ ([+-]?\d+(?:\.\d+)?)\s+│ [a-h]\d", table)
    assert values and all(len(v.split(".")[-1]) == 1 or "." not in v for v in values), table


def test_analyse_times_the_search_alone(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The evaluation's tables are loaded before the search (and its clock) starts, so "N nodes in T s" is the
    search's time, not the program's start-up."""
    import plies.engine

    seen: dict[str, bool] = {}
    real = plies.engine.Engine.analyse

    def analyse(self: Any, *args: Any, **kwargs: Any) -> Any:
        seen["weights"] = self._weights is not None
        return real(self, *args, **kwargs)

    monkeypatch.setattr(plies.engine.Engine, "analyse", analyse)
    assert main(["analyse", "f5d6c3", "--depth", "3"]) == 0
    assert seen == {"weights": True}
    capsys.readouterr()


def test_review_on_two_threads_gives_the_same_review(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """``--threads`` reaches the engine (the machine's cores by default), and two threads give every move the
    exact values one thread gives, and midgame values within a disc (the lines and the selective search's
    cut-offs follow the table, which the threads fill in any order)."""
    import plies.engine
    from plies.engine.api import default_threads

    made: list[int] = []

    class Spy(plies.engine.Engine):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            made.append(self.threads)

    monkeypatch.setattr(plies.engine, "Engine", Spy)
    game, _, _ = mistake_game()
    out = []
    for threads in (["--threads", "1"], ["--threads", "2"], []):
        assert main(["review", game, "--level", "6", *threads, "--json"]) == 0
        out.append(json.loads(capsys.readouterr().out))
    assert made == [1, 2, default_threads()]
    def values(review: dict[str, Any], exact: bool) -> list[tuple[Any, ...]]:
        return [(m["ply"], m["move"], m["value"], m["best_value"], m["loss"])
                for m in review["moves"] if m["exact"] == exact]

    assert values(out[0], True) == values(out[1], True) and len(values(out[0], True)) >= 10
    for a, b in zip(values(out[0], False), values(out[1], False), strict=True):
        assert a[:2] == b[:2] and abs(a[2] - b[2]) <= 1.0 and abs(a[3] - b[3]) <= 1.0


def test_review_and_hints_at_level_1(capsys: pytest.CaptureFixture[str]) -> None:
    """Level 1 searches one ply: its horizon moves to two plies where one would fall on White to move (the
    review keeps it on Black), never to zero."""
    from plies.analysis.position import leaf_depth

    assert [leaf_depth(1, side) for side in (0, 1)] == [2, 1]
    assert main(["review", "f5d6c3", "--level", "1", "--json", "--threads", "1"]) == 0
    assert len(json.loads(capsys.readouterr().out)["moves"]) == 3
