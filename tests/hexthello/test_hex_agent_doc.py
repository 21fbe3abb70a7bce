"""docs/agent.md as a student follows it: the position example prints what the page says, and the page's agent,
extracted from the markdown exactly as written, plays a full match through ``plies hexthello client --load
--player`` on plies' server and on the course's C server (its double); a student's player that raises, answers
an illegal move or is given with -r is reported in one line."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import click
import pytest

from plies.cli import main, main_group
from plies.games.hexthello import HexThelloState
from plies.net.hexthello.schema import StoredGame

from .cframework import CServer
from .netutil import TIMEOUT, RawAgent, running_server

pytestmark = pytest.mark.timeout(180)

DOC = (Path(__file__).resolve().parents[2] / "docs" / "agent.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w*)\n(.*?)```", DOC, flags=re.S)
AGENT = next(body for lang, body in BLOCKS if lang == "python" and body.startswith("# my_agent.py"))


@pytest.fixture
def agent_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_agent.py"
    path.write_text(AGENT, encoding="utf-8")
    return path


def _client(args: list[str], codes: dict[str, int], key: str) -> threading.Thread:
    main_group.get_command(click.Context(main_group), "hexthello")  # registered once, before two threads race to it
    t = threading.Thread(target=lambda: codes.setdefault(key, main(["hexthello", "client", *args])), daemon=True)
    t.start()
    return t


def _against_random(path: Path, kind: str, codes: dict[str, int], rand: str) -> list[StoredGame]:
    """The student's ``kind`` (named so) against a random client on a one-game server: the games it stored."""
    with running_server(games=1) as server:
        student = _client(["-p", str(server.port), "--load", str(path), "--player", kind, "-n", kind, "-q"],
                          codes, kind)
        other = _client(["-p", str(server.port), "-r", "-n", "rand", "-q", "--wait", "20"], codes, rand)
        for t in (student, other):
            t.join(TIMEOUT * 2)
        return server.store.games()


def test_the_agent_is_about_twenty_lines_of_code() -> None:
    code = [line for line in AGENT.splitlines() if line.strip() and not line.lstrip().startswith(("#", '"""'))]
    assert 20 <= len(code) <= 32, len(code)
    assert "def alphabeta" in AGENT and "def evaluate" in AGENT and 'register("my-agent"' in AGENT


def test_the_position_example_prints_what_the_page_says(tmp_path: Path) -> None:
    code = next(body for lang, body in BLOCKS if lang == "python" and "HexThelloState.start()" in body)
    expected = [line[2:] for line in code.splitlines() if line.startswith("# ")]
    p = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    assert out[:2] == expected and len(expected) == 2
    assert "row" in out[2] and "Score X(Black)=5 O(White)=3" in p.stdout


def test_the_python_examples_run_with_the_agent(agent_file: Path) -> None:
    """The page's heuristic and play_game blocks, run after the agent's module as the page has them."""
    namespace: dict[str, object] = {}
    exec(compile(AGENT, str(agent_file), "exec"), namespace)  # noqa: S102
    exec(compile("from plies.games.hexthello import HexThelloState", "doc", "exec"), namespace)  # noqa: S102
    later = [body for lang, body in BLOCKS if lang == "python" and "play_game(" in body or "my_eval" in body]
    assert len(later) == 2
    for body in later:
        exec(compile(body.replace("MyAgent(depth=2)", "MyAgent(depth=1)"), "agent.md", "exec"), namespace)  # noqa: S102
    from plies.players import parse_player

    assert parse_player("alphabeta:depth=1,eval=my-eval", "hexthello").choose(HexThelloState.start()) is not None
    assert namespace["record"].termination == "normal"  # type: ignore[attr-defined]


def test_the_pages_agent_plays_a_full_match_on_plies_server(agent_file: Path) -> None:
    codes: dict[str, int] = {}
    with running_server(games=2, swap=True) as server:
        mine = _client(["-p", str(server.port), "--load", str(agent_file), "--player", "my-agent:depth=2",
                        "-n", "alice", "-q"], codes, "alice")
        other = _client(["-p", str(server.port), "--doc004", "--depth", "2", "-n", "course", "-q", "--wait", "20"],
                        codes, "course")
        for t in (mine, other):
            t.join(TIMEOUT * 4)
        rows = server.store.games()
    assert codes == {"alice": 0, "course": 0}
    assert len(rows) == 2 and {r["black"] for r in rows} == {"alice", "course"}
    for r in rows:  # played to the end by the rules: every move legal
        assert r["status"] == "finished" and r["reason"] == "normal", r
        assert HexThelloState.from_transcript(", ".join(
            "pass" if m["row"] == -50 else f"{m['row']} {m['col']}" for m in r["moves"])).is_over()


def test_the_pages_agent_plays_a_full_match_on_the_course_server(agent_file: Path) -> None:
    server = CServer(games=2, swap=True)
    serving = threading.Thread(target=server.serve, daemon=True)
    serving.start()
    codes: dict[str, int] = {}
    mine = _client(["-p", str(server.port), "--load", str(agent_file), "--player", "my-agent:depth=2", "-n", "alice",
                    "-q"], codes, "alice")
    while server.accepted < 1 and serving.is_alive():  # alice takes the first seat: WHITE in game 1
        serving.join(0.02)
    opponent = RawAgent(server.port, b"first")
    opponent.play_until_quit()
    mine.join(TIMEOUT * 4)
    serving.join(TIMEOUT)
    assert codes == {"alice": 0}
    assert server.players[0].name == b"alice" and len(server.log) == 2
    for game in server.log:
        assert game.illegal is None and game.final is not None and game.final.is_over()
    assert opponent.log.count(107) == 1


def test_the_pruning_check_of_the_page(agent_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--game", "hexthello", "--load", str(agent_file), "my-agent:depth=2",
                 "my-agent:depth=2,pruning=off", "--no-progress"]) == 0
    assert "1 of 1 pairs: both games identical move for move, colours swapped" in capsys.readouterr().out


STUDENT_BUGS = '''
from plies.players import Player, register


class Broken(Player):
    name = "broken"

    def choose(self, state):
        if len(state.legal_moves()) > 3:
            return 1 // 0
        return state.legal_moves()[0]


class Cheat(Player):
    name = "cheat"

    def choose(self, state):
        return 7 * 15 + 7   # the centre: always occupied


register("broken", lambda game, params, raw: Broken())
register("cheat", lambda game, params, raw: Cheat())


def unbuilt(game, params, raw):
    return Cheat(int(params["depth"]))


register("unbuilt", unbuilt)
'''


def test_a_student_players_bugs_are_one_line_or_a_loss_on_the_server(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bugs.py"
    path.write_text(STUDENT_BUGS, encoding="utf-8")
    codes: dict[str, int] = {}
    rows = _against_random(path, "broken", codes, "rand")
    assert codes["broken"] == 2
    err = capsys.readouterr().err
    assert "the player 'broken' raised ZeroDivisionError: integer division or modulo by zero (bugs.py:10)" in err
    assert "Traceback" not in err and rows[0][rows[0]["winner"]] == "rand"  # broken left: the game is rand's
    rows = _against_random(path, "cheat", codes, "rand2")
    assert rows[0]["reason"].startswith("illegal"), rows[0]
    assert main(["hexthello", "client", "--load", str(path), "--player", "cheat", "-r"]) == 2
    assert main(["hexthello", "client", "--load", str(tmp_path / "missing.py"), "--player", "x"]) == 2
    err = capsys.readouterr().err
    assert "without -r" in err and "no such file" in err and "Traceback" not in err
    # a factory that raises: one line, where it raised, before any connection
    assert main(["hexthello", "client", "--load", str(path), "--player", "unbuilt", "-p", "1"]) == 2
    err = capsys.readouterr().err
    assert "cannot build the player 'unbuilt': KeyError: 'depth' (bugs.py:" in err and "Traceback" not in err
