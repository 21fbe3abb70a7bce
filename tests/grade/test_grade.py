"""``plies grade``: a class's folder read into agents (modules, course TCP programs, NBoard programs), a grading
run against references and among the agents with every game stored, the sheet (CSV and HTML with replays), the
broken agents reported with their reasons, ``--resume``; the slow test grades the twelve-agent fixture class with
a ``kill -9`` of the grading process in the middle and a ``--resume`` that completes it."""

from __future__ import annotations

import csv
import json
import os
import re
import shlex
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plies.cli import main
from plies.games import game_type
from plies.games.hexthello import HexThelloState
from plies.games.record import Game
from plies.tournament.grade import GradeSettings, discover, replay_data

from .classroom import make_class

pytestmark = pytest.mark.timeout(600)

QUICK = ["--reference", "random", "--move-time", "1", "--connect-time", "3", "--no-progress"]


def read_sheet(out: Path) -> dict[str, dict[str, str]]:
    with open(out / "sheet.csv", encoding="utf-8", newline="") as f:
        return {row["name"]: row for row in csv.DictReader(f)}


def test_the_folder_becomes_agents_and_the_rest_is_ignored(tmp_path: Path) -> None:
    folder = make_class(tmp_path / "class", modules=["alice", "bob", "grace", "heidi"], tcp=["judy"])
    (folder / "sub").mkdir()
    (folder / "zed.nboard").write_text("./edax\n")
    agents, ignored = discover(folder, GradeSettings(depth=2))
    by = {a.name: a for a in agents}
    assert sorted(by) == ["alice", "bob", "grace", "heidi", "judy", "peggy", "zed"]
    assert ignored == ["README.txt", "sub/", "tcp/"]
    assert by["alice"].kind == "python" and "--player alice" in by["alice"].spec and not by["alice"].problem
    assert "--player alphabeta:depth=2,eval=bob-mobility" in by["bob"].spec and "heuristic" in by["bob"].note
    assert by["grace"].problem == "does not import: NameError: name 'GracePlayer' is not defined (grace.py:4)"
    assert by["heidi"].problem == "registers no player kind and no heuristic for hexthello"
    assert by["judy"].kind == "course" and by["judy"].spec.startswith("course:name=judy timeout=10 connect=10 cwd=")
    assert "no such program" in by["peggy"].problem
    assert by["zed"].problem == "an NBoard (Othello) engine; this grading plays hexthello"
    (folder / "alice.course").write_text("./x\n")
    with pytest.raises(Exception, match="two agents are called 'alice'"):
        discover(folder, GradeSettings())


def test_a_class_is_graded_with_its_broken_agents_reported(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = make_class(tmp_path / "class", modules=["alice", "erin", "heidi"], tcp=["mallory"], missing=False)
    out = tmp_path / "out"
    assert main(["grade", str(folder), "--out", str(out), "--workers", "2", *QUICK]) == 0
    shown = capsys.readouterr()
    assert "heidi (heidi.py, python): not played: registers no player kind" in shown.err
    assert "sheet: " in shown.out and "alice" in shown.out
    sheet = read_sheet(out)
    assert sheet["alice"]["status"] == "ok" and sheet["alice"]["rank"] == "1"
    assert sheet["erin"]["status"].startswith("illegal move") and "7 7 (occupied)" in sheet["erin"]["first_failure"]
    assert sheet["mallory"]["status"].startswith("crash")
    assert "(exit code 139): segmentation fault" in sheet["mallory"]["first_failure"]
    assert sheet["heidi"]["status"].startswith("not played") and sheet["heidi"]["games"] == "0"
    assert sheet["random"]["reference"] == "yes"
    # 3 agents and one reference: 6 pairings of 2 games, each game stored once
    rows = sqlite3.connect(out / "grading.sqlite").execute("select idx from games order by idx").fetchall()
    assert [r[0] for r in rows] == list(range(12))
    assert all(int(sheet[n]["games"]) == 6 for n in ("alice", "erin", "mallory", "random"))
    games = list(csv.DictReader(open(out / "games.csv", encoding="utf-8")))
    assert len(games) == 12
    page = (out / "sheet.html").read_text(encoding="utf-8")
    assert "Agents that could not play" in page and "7 7 (occupied)" in page and "segmentation fault" in page
    data = json.loads(re.search(r"<script id=games type=application/json>(.*?)</script>", page, re.S)[1])
    assert sorted(map(int, data)) == list(range(1, 13))
    # a complete run resumed plays nothing and writes the same sheet
    before = (out / "sheet.csv").read_text()
    capsys.readouterr()
    assert main(["grade", str(folder), "--out", str(out), "--resume", "--json", *QUICK]) == 0
    assert (out / "sheet.csv").read_text() == before
    report = json.loads(capsys.readouterr().out)
    assert (report["planned"], report["finished"], report["played_now"], report["complete"]) == (12, 12, 0, True)
    agents = {a["name"]: a for a in report["agents"]}
    assert agents["erin"]["failures"] == {"illegal move": 6} and agents["erin"]["reasons"][0]["game"] >= 1
    assert agents["heidi"]["status"].startswith("not played") and agents["random"]["reference"]
    # without --resume the same database is not played again
    assert main(["grade", str(folder), "--out", str(out), *QUICK]) == 2
    assert "add --resume" in capsys.readouterr().err


def test_the_replay_of_a_game_ends_on_its_final_position() -> None:
    from plies.match import play_game
    from plies.match.openings import Opening
    from plies.match.plan import Entrant, PlannedGame
    from plies.match.runner import Finished
    from plies.players import parse_player

    rec = play_game(HexThelloState.start(), [parse_player("random:seed=1", "hexthello"),
                                              parse_player("doc004:depth=1", "hexthello")])
    planned = PlannedGame(0, 0, 0, Entrant("a", "random"), Entrant("b", "doc004"), Opening("start"), 1, "hexthello")
    data = replay_data(Finished(planned, rec, 0.0))
    cells = list(data["cells"])
    for _, changed in data["plies"]:
        for cell, value in changed:
            cells[cell] = value
    final = Game.from_record(rec).state
    assert cells == list(game_type(final).view(final).cells) and len(data["plies"]) == len(rec.moves)
    assert data["shape"] == "hex" and len(data["on"]) == 169


def test_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grade", str(tmp_path / "none"), "--out", str(tmp_path / "o")]) == 2
    assert f"no such folder: {tmp_path / 'none'}" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("not an agent\n")
    assert main(["grade", str(empty), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"plies: error: no agents in {empty}: an agent is NAME.py")
    assert "(found only notes.txt)" in err
    assert len(err.splitlines()) == 1
    (empty / "heidi.py").write_text((Path(__file__).parent / "class" / "heidi.py").read_text())
    assert main(["grade", str(empty), "--out", str(tmp_path / "o")]) == 2
    assert f"no agent in {empty} can play: nothing to grade" in capsys.readouterr().err
    assert main(["grade", str(empty), "--reference", "nosuch:x=1"]) == 2
    assert "unknown player 'nosuch:x=1'" in capsys.readouterr().err
    assert main(["grade", str(empty), "--games-per-pair", "3"]) == 2
    assert "must be even" in capsys.readouterr().err
    assert main(["grade", str(empty), "--reference", "doc004:depth=x"]) == 2
    err = capsys.readouterr().err
    assert "depth must be a whole number" in err and "Traceback" not in err


def _processes_mentioning(text: str) -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            state = (proc / "stat").read_text().split()[2]
        except OSError:
            continue
        if text in cmd and state != "Z":
            found.append(f"{proc.name}: {cmd[:200]}")
    return found


def _stored(db: Path) -> list[tuple]:
    return sqlite3.connect(db).execute("select * from games order by idx").fetchall()


def _killed_then_resumed(folder: Path, out: Path, command: list[str], kill_after: int) -> tuple[list[tuple], str]:
    """Run ``command`` (a grading of ``folder`` into ``out``), ``kill -9`` it once ``kill_after`` games are stored,
    check that nothing it started outlives it, then run it again with ``--resume``: the games stored before the
    kill, and the resumed run's stdout."""
    db = out / "grading.sqlite"
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and run.poll() is None:
        time.sleep(0.2)
        if db.exists():
            try:
                if len(_stored(db)) >= kill_after:
                    break
            except sqlite3.OperationalError:  # the tables are being made
                continue
    assert run.poll() is None, run.communicate()  # still running: the kill comes mid-way
    run.kill()  # SIGKILL of the grading process, with its workers and agents busy with games
    run.wait(30)
    run.communicate()
    stored = _stored(db)
    assert kill_after <= len(stored)
    end = time.monotonic() + 30
    while _processes_mentioning(str(folder)) and time.monotonic() < end:
        time.sleep(0.2)
    assert _processes_mentioning(str(folder)) == []  # no worker and no agent program outlives the kill
    assert not (out / "sheet.csv").exists()
    done = subprocess.run([*command, "--resume"], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    assert _processes_mentioning(str(folder)) == []
    return stored, done.stdout


@pytest.mark.serial
def test_a_run_killed_mid_way_is_completed_by_resume_without_duplicates(tmp_path: Path) -> None:
    folder = make_class(tmp_path / "class", modules=["alice", "dave", "frank"], tcp=["niaj"], missing=False)
    out = tmp_path / "out"
    command = [sys.executable, "-m", "plies", "grade", str(folder), "--out", str(out), "--workers", "3",
               "--reference", "random", "--move-time", "0.5", "--connect-time", "1", "--no-progress"]
    stored, shown = _killed_then_resumed(folder, out, command, kill_after=5)
    db = out / "grading.sqlite"
    after = _stored(db)
    # 4 agents and one reference: 10 pairings of 2 games, each stored once, the ones before the kill unchanged
    assert sqlite3.connect(db).execute("select planned from events").fetchall() == [(20,)]
    assert [r[1:3] for r in after] == [(1, i) for i in range(20)]
    assert set(stored) <= set(after) and len(stored) < 20  # the games stored before the kill are kept as they were
    sheet = read_sheet(out)
    assert all(int(sheet[n]["games"]) == 8 for n in ("alice", "dave", "frank", "niaj", "random"))
    assert sum(int(r["games"]) for r in sheet.values()) == 2 * 20
    assert sheet["alice"]["status"] == "ok" and sheet["alice"]["rank"] == "1"
    assert sheet["dave"]["status"].startswith("crash") and "ZeroDivisionError" in sheet["dave"]["first_failure"]
    assert sheet["frank"]["status"].startswith("time") and "no move within 0.5 s" in sheet["frank"]["first_failure"]
    assert sheet["niaj"]["status"] == "crash 8" and "did not connect within 1 s" in sheet["niaj"]["first_failure"]
    assert "grading of class: 20/20 games" in shown
    games = list(csv.DictReader(open(out / "games.csv", encoding="utf-8")))
    assert len(games) == 20


@pytest.mark.slow
@pytest.mark.serial
def test_the_fixture_class_killed_mid_run_is_completed_by_resume(tmp_path: Path) -> None:
    folder = make_class(tmp_path / "class")
    out = tmp_path / "out"
    db = out / "grading.sqlite"
    command = [sys.executable, "-m", "plies", "grade", str(folder), "--out", str(out), "--workers", "2",
               "--reference", "random", "--reference", "doc004:depth=2", "--move-time", "1", "--connect-time", "2",
               "--no-progress"]
    stored, _ = _killed_then_resumed(folder, out, command, kill_after=40)
    after = _stored(db)
    planned = sqlite3.connect(db).execute("select planned from events").fetchall()
    # 11 agents play (grace, heidi and peggy cannot) and 2 references: 78 pairings less the references' own
    assert planned == [(154,)] and [r[1:3] for r in after] == [(1, i) for i in range(154)]
    assert set(stored) <= set(after)  # what was stored before the kill is kept as it was, and not played again
    sheet = read_sheet(out)
    assert [n for n, r in sheet.items() if r["status"] == "ok"] == ["alice", "bob", "carol", "judy", "doc004:depth=2",
                                                                   "random"]
    reasons = {n: (r["status"].split()[0] if r["status"] != "ok" else "ok", r["first_failure"])
               for n, r in sheet.items()}
    assert reasons["dave"][0] == "crash" and "ZeroDivisionError" in reasons["dave"][1]
    assert reasons["erin"][0] == "illegal" and "7 7 (occupied)" in reasons["erin"][1]
    assert reasons["frank"][0] == "time" and "no move within 1 s" in reasons["frank"][1]
    assert reasons["ivan"][0] == "crash" and "(exit code 3)" in reasons["ivan"][1]
    assert reasons["mallory"][0] == "crash" and "segmentation fault" in reasons["mallory"][1]
    assert reasons["niaj"][0] == "crash" and "did not connect within 2 s" in reasons["niaj"][1]
    assert reasons["olivia"][0] == "illegal" and "not a cell of the board" in reasons["olivia"][1]
    assert reasons["grace"][0] == "not" and reasons["heidi"][0] == "not" and reasons["peggy"][0] == "not"
    assert all(int(r["games"]) == 24 for n, r in sheet.items() if r["status"] != "not" and n not in
               ("grace", "heidi", "peggy", "random", "doc004:depth=2"))


OTHELLO_MODULE = '''"""An Othello agent that is only an evaluation (mobility): plies' alpha-beta searches with it."""
from plies.heuristics import Heuristic, register


def mobility(state, me):
    return state.move_mask(me).bit_count() - state.move_mask(1 - me).bit_count()


register(Heuristic("trent-mobility", "othello", mobility, "mobility difference"))
'''


def test_an_othello_class_of_a_module_and_nboard_engines(tmp_path: Path) -> None:
    folder = tmp_path / "othello class"
    folder.mkdir()
    (folder / "trent.py").write_text(OTHELLO_MODULE, encoding="utf-8")
    engine = Path(__file__).resolve().parents[1] / "nboard" / "fake_engine.py"
    for name, mode in (("uma", "edax"), ("victor", "junk")):
        (folder / f"{name}.nboard").write_text(f"{shlex.quote(sys.executable)} {shlex.quote(str(engine))} {mode}\n")
    (folder / "walter.course").write_text("./client\n")  # a HexThello agent in an Othello class
    out = tmp_path / "out"
    assert main(["grade", str(folder), "--game", "othello", "--out", str(out), "--depth", "1", "--workers", "2",
                 *QUICK]) == 0
    sheet = read_sheet(out)
    assert list(sheet) == ["trent", "uma", "victor", "random", "walter"]
    assert sheet["trent"]["kind"] == "python" and "alpha-beta at depth 1" in sheet["trent"]["note"]
    assert sheet["trent"]["status"] == "ok" and sheet["uma"]["status"] == "ok" and sheet["uma"]["kind"] == "nboard"
    assert sheet["victor"]["status"] == "illegal move 6" and "Z9" in sheet["victor"]["first_failure"]
    assert sheet["walter"]["status"] == "not played: a HexThello course agent; this grading plays othello"
    assert all(int(sheet[n]["games"]) == 6 for n in ("trent", "uma", "victor", "random"))
    page = (out / "sheet.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r"<script id=games type=application/json>(.*?)</script>", page, re.S)[1])
    assert len(data) == 12 and {d["shape"] for d in data.values()} == {"square"}


def test_the_docs_name_every_column_of_the_sheet() -> None:
    from plies.tournament.grade import CSV_COLUMNS

    page = (Path(__file__).resolve().parents[2] / "docs" / "grading.md").read_text(encoding="utf-8")
    named = set(re.findall(r"[a-z_]+", " ".join(re.findall(r"`([a-z_, ]+)`", page))))
    assert set(CSV_COLUMNS) <= named, set(CSV_COLUMNS) - named
