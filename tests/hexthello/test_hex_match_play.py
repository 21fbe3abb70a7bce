"""plies' client in matches as the course plays them: several games in a row with colour swaps (-s) against a
scripted agent over real loopback sockets, on plies' server and on the course's C server written again; the
server's notes on repeated games and on move time.

The position is the one from which plies, playing White in the first game after the colours were swapped, was
wiped out by the course's baseline agent (depth 3, disc difference): it lived on a handful of discs, which its
evaluation valued for their mobility, until the greedy agent took them all.  Every game is checked against the
server's own record of it (``tools/soak_hexthello.py``, which runs the long version)."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from plies.cli import main
from plies.games.hexthello import HexThelloState
from plies.net.hexthello import protocol as P

from .netutil import TIMEOUT, RawAgent, b_never_moves, running_server

TOOLS = Path(__file__).resolve().parents[2] / "tools"
sys.path.insert(0, str(TOOLS))

import soak_hexthello as soak  # noqa: E402

pytestmark = pytest.mark.timeout(300)

WIPED_OUT = ("57 59 69 79 5a 47 37 75 85 95 84 58 49 39 3a 3b 2b 5b 5c 93 6a 4a 7a 2a 29 1c 0d 38 3c 6b 6c 8a "
             "9a")
"""The first 33 plies of that game (White to move, 5 discs against 35)."""
FEW_DISCS = 16.0
"""How far below a deeper search's best a move of plies may be valued (the learned evaluation predicts the
final disc difference of a 169-cell board; searches two plies apart differ by that much now and then)."""


def test_every_move_is_the_searchs_own_and_plies_survives_the_greedy_agent() -> None:
    start = HexThelloState.from_transcript(WIPED_OUT)
    assert start.to_move == 1 and start.counts() == (35, 5)
    report = soak.run(games=4, depth=3, review_depth=5, threshold=FEW_DISCS, match_games=2, random_moves=0,
                      start=start)
    # each move plies sent is the move its search chose, for the server's position with plies' side to move
    assert report["problems"] == [], report["problems"][:5]
    assert report["games"] == 4 and report["moves_reviewed"] > 100
    # plies is Black in game 1 and White in game 2 of each match: on both servers, in both colours, it wins
    assert report["games_not_won"] == [], [(g["server"], g["game"], g["plies"], g["margin"])
                                           for g in report["games_not_won"]]
    assert report["wins"] == 4 and report["margin_min"] > 0
    # and no move is valued more than a few discs below the best move of a search two plies deeper
    assert report["flagged_games"] == 0, [g["flagged"] for g in report["flagged"]]


def test_the_checks_catch_a_player_that_answers_for_another_position() -> None:
    """A player that searched a stale position (the one before the opponent's move) is caught by the record."""
    start = HexThelloState.from_transcript(WIPED_OUT)
    game = soak.Game("plies", 1, 1, 1, [], "normal")
    s = start
    stale = None
    for _ in range(4):
        move = s.legal_moves()[0]
        if s.to_move == 1:
            game.choices.append(soak.Choice(stale or s, move, 3))
        stale = s
        game.moves.append(move)
        s = s.play(move)
    problems = soak.check_game(game, start)
    assert len(problems) == 1 and "another position" in problems[0], problems
    assert len(start.legal_moves()) > 1
    game.choices[0] = soak.Choice(start, start.legal_moves()[-1], 3)  # the search chose another move than was sent
    assert any("its search chose" in p for p in soak.check_game(game, start))


def _two_agents(server_port: int) -> list[RawAgent]:
    a = RawAgent(server_port, b"first")
    b = RawAgent(server_port, b"second")
    threads = [threading.Thread(target=x.play_until_quit) for x in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    return [a, b]


def test_the_server_says_when_deterministic_agents_replay_their_games() -> None:
    lines: list[str] = []
    with running_server(games=4, swap=True, log=lines.append) as server:
        for agent in _two_agents(server.port):
            assert agent.log[-1] == P.QUIT
        rows = server.store.games()
    assert [len(r["moves"]) for r in rows[2:]] == [len(r["moves"]) for r in rows[:2]]
    repeats = [line for line in lines if "repeated game" in line]
    assert len(repeats) == 2, lines
    assert "game 3 repeated game 1 move for move: " in repeats[0] and "deterministic agents" in repeats[0]
    assert repeats[1].endswith("game 4 repeated game 2 move for move")


def test_a_time_out_names_the_course_choice() -> None:
    lines: list[str] = []
    with running_server(games=1, move_time=0.2, log=lines.append) as server:
        a = RawAgent(server.port, b"quick")
        b = RawAgent(server.port, b"sleepy")
        a.msg(), b.msg()
        b_never_moves(a, b)
        assert a.msg() == P.QUIT
        rows = server.store.games()
    assert rows[0]["reason"].startswith("time")
    notes = [line for line in lines if line.startswith("note:")]
    assert len(notes) == 1 and "--course" in notes[0] and "--move-time 0" in notes[0], lines


def test_course_means_no_move_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["hexthello", "server", "--db", ":memory:", "--course", "--move-time", "5"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "--course" in captured.err and "not both" in captured.err
    assert main(["hexthello", "server", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--course" in text and "no limit" in text and "(default 60)" in text
