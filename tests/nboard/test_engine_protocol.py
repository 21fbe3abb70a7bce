"""A scripted NBoard GUI conversation with plies as the engine (in-process, with both searchers)."""

from __future__ import annotations

import re
import time

from plies.formats.transcript import read_transcript
from plies.game import PASS
from plies.heuristics import get as heuristic
from plies.net.nboard import disc_value
from plies.search import alphabeta

from .conftest import ggf, ggf_of, random_game

SEARCH = re.compile(r"^search ((?:[A-H][1-8]|PA)+) (-?\d+\.\d\d) 0 (\d+|\d+@\d+%|100%)( .*)?$")
ANSWER = re.compile(r"^=== ([A-H][1-8]|PA)/(-?\d+\.\d\d)/(\d+\.\d\d)$")
PASS_PREFIX = "d3c3e6d2d1e1b2c1"  # Black must pass after these moves


def test_handshake_unknown_lines_learn_and_ping(gui):
    gui.send("nboard 2")
    assert gui.new() == ["set myname plies"]
    gui.send("set depth 3")
    assert gui.new() == ["set myname plies"] and gui.engine.depth == 3
    gui.send("hello there", "set foo 7", "", "   ", "set contempt 2.5")
    assert gui.new() == []
    assert gui.engine.contempt == 2.5
    gui.send("learn", "ping 1")
    assert gui.new() == ["learned", "pong 1"]
    gui.send("set depth abc", "set depth -5", "set depth 61")  # said, acknowledged, and the depth kept
    assert gui.new() == ["status error: bad depth 'abc' (1 to 60); the depth stays 3", "set myname plies",
                         "status error: bad depth '-5' (1 to 60); the depth stays 3", "set myname plies",
                         "status error: bad depth '61' (1 to 60); the depth stays 3", "set myname plies"]
    gui.send("set contempt nan")
    assert gui.new()[0].startswith("status error") and gui.engine.contempt == 2.5


def test_go_answers_without_playing_the_move(gui):
    gui.send("nboard 2", "set depth 2", f"set game {ggf('B[F5]W[F6]B[E6]W[F4]')}", "ping 1")
    gui.until(lambda x: x == "pong 1")
    before = gui.engine.state
    gui.send("go")
    lines = gui.until(lambda x: x.startswith("==="))
    m = ANSWER.match(lines[-1])
    assert m, lines[-1]
    assert before.parse_move(m.group(1)) in before.legal_moves()
    assert gui.engine.state == before                      # the engine waits for 'move'
    assert any(x.startswith("nodestats ") for x in lines) and lines[0].startswith("status")
    gui.until(lambda x: x.startswith("status"))
    gui.send(f"move {m.group(1)}/{m.group(2)}/{m.group(3)}")
    assert gui.engine.state == before.play(before.parse_move(m.group(1)))
    assert gui.engine.game.evals[-1] == float(m.group(2))


def test_a_pass_is_answered_and_accepted(gui):
    gui.send("nboard 2", "set depth 1", f"set game {ggf_of(PASS_PREFIX)}")
    assert gui.engine.state.legal_moves() == [PASS]
    gui.send("go")
    lines = gui.until(lambda x: x.startswith("==="))
    assert lines[-1].startswith("=== PA")
    gui.send("move PA")
    assert gui.engine.state.to_move == 1
    gui.send("move A3")
    assert gui.engine.state == read_transcript(PASS_PREFIX + "a3").final
    # a GUI that leaves the forced pass out is understood too
    gui.send(f"set game {ggf_of(PASS_PREFIX)}", "move a3")
    assert gui.engine.state == read_transcript(PASS_PREFIX + "a3").final
    assert gui.engine.game.moves.count(PASS) == 1
    # a pass while a move exists is refused with a status line; the position stays
    before = gui.engine.state
    gui.new()
    gui.send("move PA")
    out = gui.new()
    assert len(out) == 1 and out[0].startswith("status error") and gui.engine.state == before


def test_hint_streams_deeper_searches_then_status(gui):
    gui.send("nboard 2", "set depth 3", f"set game {ggf('B[F5]W[D6]B[C3]W[D3]')}")
    state = gui.engine.state
    gui.send("hint 3")
    lines = gui.until(lambda x: x == "status")
    searches = [SEARCH.match(x) for x in lines if x.startswith("search ")]
    assert searches and all(searches), lines
    depths = [int(m.group(3).partition("@")[0]) for m in searches]  # 3@86%: depth 3, selective
    assert depths == sorted(depths) and depths[0] == 1 and depths[-1] == 3
    for d in set(depths):
        assert depths.count(d) <= 3                          # at most N moves per depth
    for m in searches:
        pv = m.group(1)
        s = state
        for k in range(0, len(pv), 2):                       # the PV replays from the position
            s = s.play(s.parse_move(pv[k:k + 2]))


def test_exact_endgame_hint_says_100_percent_with_the_side_to_moves_score(gui):
    g = random_game(7, 52)                                   # 8 empties left
    state = g.final
    assert not state.is_over() and state.empties() <= 10
    h = heuristic("othello")
    truth = disc_value(alphabeta(state, 30, h).value)        # exact: no depth cut reaches a heuristic leaf
    gui.send("nboard 2", "set depth 20", f"set game {ggf_of(''.join(g.move_names()).replace('pass', '--'))}")
    assert gui.engine.state == state
    gui.send("hint 1")
    lines = gui.until(lambda x: x == "status")
    last = [SEARCH.match(x) for x in lines if x.startswith("search ")][-1]
    assert last.group(3) == "100%"
    assert float(last.group(2)) == truth                     # from the side to move's view


def test_ping_stops_a_search_at_once(gui):
    gui.send("nboard 2", "set depth 60", f"set game {ggf('B[F5]')}")
    gui.send("hint 1")
    gui.until(lambda x: x.startswith("search "))
    gui.send("ping 9")
    assert gui.new()[-1] == "pong 9"
    assert not gui.engine.busy()
    time.sleep(0.3)
    assert gui.new() == []                                   # nothing from the stopped search after pong


def test_analyze_reports_every_position_back_to_the_start(gui):
    gui.send("nboard 2", "set depth 1", f"set game {ggf('B[F5]W[F6]B[E6]')}")
    gui.send("analyze")
    lines = gui.until(lambda x: x == "status")
    analysis = [x.split() for x in lines if x.startswith("analysis ")]
    assert [int(a[1]) for a in analysis] == [3, 2, 1, 0]
    assert all(re.fullmatch(r"-?\d+\.\d\d", a[2]) for a in analysis)


def test_bad_input_gives_status_and_the_session_goes_on(gui):
    gui.send("nboard 2", "set game (;GM[Chess]BO[8 x];)", "move z9", "move h8", "set contempt x", "hint x", "hint 1")
    out = gui.until(lambda x: x == "status" or x.startswith("search"))
    errors = [x for x in out if x.startswith("status error")]
    assert len(errors) >= 5 and any("Othello" in e for e in errors) and any("hint count" in e for e in errors)
    gui.send("ping 2")
    assert gui.new()[-1] == "pong 2"
    gui.send("hint 1")
    assert gui.engine.handle("quit") is False and not gui.engine.busy()


def test_the_depth_field_names_selective_and_exact_searches() -> None:
    from plies.net.nboard import depth_text
    from plies.search.result import SearchResult, Stats

    stats = Stats(depth=26)
    assert depth_text(SearchResult(4, 0, stats=stats)) == "26"
    assert depth_text(SearchResult(4, 0, stats=stats, selectivity=95)) == "26@95%"
    assert depth_text(SearchResult(4, 0, stats=stats, selectivity=99.9)) == "26@99%"  # whole percents, as Edax
    assert depth_text(SearchResult(4, 0, stats=stats, exact=True)) == "100%"
