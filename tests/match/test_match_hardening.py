"""Processes and records under kills and races: workers that die with a killed parent, two ``--resume``
runs on one database at the same time, one event for two runs that start together."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from plies.match.plan import Entrant, EventConfig, make_plan, plan_hash
from plies.match.runner import watch_parent
from plies.match.store import Store

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tools"))
from kill_records import alive, children, outliving  # noqa: E402  (the process look-ups of the kill script)

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(SRC)])}

pytestmark = pytest.mark.timeout(180)


def count_games(db: Path) -> int:
    try:
        with sqlite3.connect(db) as c:
            return c.execute("select count(*) from games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="looks for child processes in /proc")
def test_workers_die_with_a_killed_parent(tmp_path: Path) -> None:
    db = tmp_path / "k.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "plies", "match", "slow:delay=0.01", "random", "--games", "40",
                             "--random-openings", "2", "--workers", "2", "--load", "match_plugin_players",
                             "--db", str(db), "--no-progress"], env=ENV, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None and count_games(db) < 2:
            time.sleep(0.05)
        kids = children(proc.pid)
        assert kids, "no worker processes to watch"
        left = outliving(proc, kids)
    finally:
        for k in children(proc.pid):
            os.kill(k, signal.SIGKILL)
    assert not left, f"worker processes outlived their parent: {left}"


def test_watch_parent_ends_an_orphan() -> None:
    """A grandchild watching its parent ends when that parent is killed (and reparents it)."""
    code = ("import os, sys, time; sys.path.insert(0, sys.argv[1]); from plies.match.runner import watch_parent;"
            "watch_parent(os.getppid(), 0.05); print('watching', flush=True); time.sleep(60)")
    middle = subprocess.Popen([sys.executable, "-c", "import subprocess, sys, time;"
                               "p = subprocess.Popen([sys.executable, '-c', sys.argv[1], sys.argv[2]]);"
                               "print(p.pid, flush=True); time.sleep(60)", code, str(SRC)],
                              stdout=subprocess.PIPE, text=True)
    assert middle.stdout is not None
    child = int(middle.stdout.readline())
    assert middle.stdout.readline().strip() == "watching"
    middle.kill()
    middle.wait(10)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and os.path.isdir("/proc") and alive(child):
        time.sleep(0.05)
    assert not os.path.isdir("/proc") or not alive(child)
    assert callable(watch_parent)


def test_two_resumes_on_one_database_at_the_same_time(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    args = [sys.executable, "-m", "plies", "match", "slow:delay=0.002", "random", "--games", "12",
            "--random-openings", "2", "--seed", "5", "--load", "match_plugin_players", "--db", str(db), "--resume",
            "--no-progress"]
    procs = [subprocess.Popen(args, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]
    outs = [p.communicate(timeout=150) for p in procs]
    for p, (_, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err.decode()
        assert b"Traceback" not in err and b"IntegrityError" not in err
    with sqlite3.connect(db) as c:
        events = c.execute("select count(*) from events").fetchone()[0]
        rows = c.execute("select idx from games order by idx").fetchall()
    assert events == 1 and [r[0] for r in rows] == list(range(12))


def test_one_event_for_two_runs_that_start_together(tmp_path: Path) -> None:
    config = EventConfig(players=[Entrant("a", "random"), Entrant("b", "greedy")], games_per_pair=2)
    plan = make_plan(config)
    h = plan_hash(plan)
    one, two = Store(tmp_path / "e.sqlite"), Store(tmp_path / "e.sqlite")
    try:
        first = one.add_event(config, h, len(plan))
        second = two.add_event(config, h, len(plan))  # the race's loser: it gets the first one back
        assert first.id == second.id and len(one.events()) == 1
    finally:
        one.close(), two.close()


def test_openings_and_tournament_files_have_size_limits(tmp_path: Path) -> None:
    from plies.game import PliesError
    from plies.match.openings import read_openings
    from plies.tournament.config import load_config

    big = tmp_path / "open.txt"
    big.write_text("f5" * 30_000 + "\n")
    with pytest.raises(PliesError, match="longer than any opening"):
        read_openings(big, "othello")
    toml = tmp_path / "t.toml"
    toml.write_text("# " + "x" * (2 << 20) + "\n")
    with pytest.raises(PliesError, match="at most"):
        load_config(toml)
