"""Running events: results stored as they finish, resume after an interrupt or a kill, misbehaving players,
reproducibility across runs and across worker processes."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import match_plugin_players  # noqa: F401  (registers crash/illegal/slow kinds in this process)
import pytest

from plies import players
from plies.game import PliesError, State
from plies.match.event import run_event
from plies.match.plan import Entrant, EventConfig, make_plan
from plies.match.record import CRASH, ILLEGAL, NORMAL, TIMEOUT
from plies.match.store import Store
from plies.players import Player
from plies.tournament.standings import tabulate

HERE = Path(__file__).resolve().parent
SRC = HERE.parents[1] / "src"


def moves_of(result):
    return [(f.planned.index, f.black, f.white, tuple(f.record.moves), f.record.winner) for f in result.games]


def cfg(*specs: str, n: int = 2, **kw) -> EventConfig:
    return EventConfig(players=[Entrant(s.split(":")[0] + str(i), s) for i, s in enumerate(specs)],
                       games_per_pair=n, **kw)


class InterruptingPlayer(Player):
    """Plays legally, but is 'Ctrl-C' (KeyboardInterrupt) in the middle of its ``at``-th game."""

    games = 0

    def __init__(self, at: int) -> None:
        self.at = at
        self.name = "interrupting"
        self.fresh = False

    def new_game(self, state: State) -> None:
        self.fresh = True  # counted at its first move: the check before a run starts a player without playing

    def choose(self, state: State):
        if self.fresh:
            type(self).games += 1
            self.fresh = False
        if type(self).games == self.at and len(state.legal_moves()) > 0 and state.to_move == 0:
            raise KeyboardInterrupt
        return state.legal_moves()[-1]


def test_games_are_stored_with_everything(tmp_path):
    db = tmp_path / "m.sqlite"
    config = cfg("random", "greedy", n=4, random_plies=2, seed=9)
    result = run_event(config, db)
    assert result.complete and result.played == 4 and not result.interrupted
    store = Store(db)
    try:
        (ev,) = store.events()
        games = store.games(ev.id)
    finally:
        store.close()
    assert ev.planned == 4 and ev.config == config
    assert [f.planned for f in games] == [
        g.__class__(**{**g.__dict__, "time_limit": None, "modules": ()}) for g in make_plan(config)]
    for f, live in zip(games, result.games, strict=True):
        r = f.record
        assert r.moves and len(r.times) == len(r.moves) and r.termination == NORMAL and r.final
        assert r.moves == live.record.moves and f.planned.seed == live.planned.seed
        assert f.planned.opening.moves and r.start == f.planned.opening.position


def test_same_seed_same_games_and_workers_do_not_matter(tmp_path):
    config = cfg("random", "random", n=6, random_plies=3, seed=11)
    serial = run_event(config, tmp_path / "a.sqlite")
    parallel = run_event(config, tmp_path / "b.sqlite", workers=2)
    assert moves_of(serial) == moves_of(parallel)
    other = run_event(cfg("random", "random", n=6, random_plies=3, seed=12), None)
    assert moves_of(other) != moves_of(serial)
    # unseeded random players get different seeds per game and side: the games differ
    assert len({m[3] for m in moves_of(serial)}) == 6


def test_explicit_seed_is_kept(tmp_path):
    a = run_event(cfg("random:seed=4", "greedy", n=2), None)
    b = run_event(cfg("random:seed=4", "greedy", n=2, seed=99), None)
    assert moves_of(a) == moves_of(b)


def test_interrupt_keeps_finished_games_and_resume_plays_only_the_rest(tmp_path):
    players.register("interrupting", lambda game, params, raw: InterruptingPlayer(int(params["at"])))
    InterruptingPlayer.games = 0
    db = tmp_path / "r.sqlite"
    config = cfg("interrupting:at=3", "greedy", n=6, random_plies=2, seed=1)
    first = run_event(config, db)
    assert first.interrupted and first.played == 2 and len(first.games) == 2
    kept = {f.planned.index: (f.finished_at, f.record.moves) for f in first.games}
    with pytest.raises(PliesError, match="--resume"):
        run_event(config, db)
    InterruptingPlayer.games = 100  # no more interrupts
    second = run_event(config, db, resume=True)
    assert second.complete and second.played == 4 and not second.interrupted
    assert {f.planned.index: (f.finished_at, f.record.moves) for f in second.games if f.planned.index in kept} == kept
    again = run_event(config, db, resume=True)
    assert again.played == 0 and again.complete
    with pytest.raises(PliesError, match="nothing to resume"):
        run_event(cfg("interrupting:at=3", "greedy", n=6, random_plies=2, seed=2), db, resume=True)
    with pytest.raises(PliesError, match="--db"):
        run_event(config, None, resume=True)


def count_games(db: Path) -> int:
    """Finished games in ``db``, read without touching its schema (the run may be creating it)."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return con.execute("select count(*) from games").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_killed_process_loses_nothing_finished(tmp_path):
    db = tmp_path / "k.sqlite"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(SRC)])}
    args = ["slow:delay=0.01", "random", "--games", "12", "--random-openings", "2", "--seed", "3",
            "--load", "match_plugin_players"]
    proc = subprocess.Popen([sys.executable, "-m", "plies", "match", *args, "--db", str(db), "--no-progress"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    try:
        while time.monotonic() < deadline and proc.poll() is None and count_games(db) < 2:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
    err = proc.stderr.read().decode() if proc.stderr else ""
    store = Store(db)
    try:
        ev = store.events()[0]
        before = {f.planned.index: f.finished_at for f in store.games(ev.id)}
    finally:
        store.close()
    assert 2 <= len(before) < 12, err
    from plies.cli import main

    assert main(["match", *args, "--db", str(db), "--resume", "--no-progress"]) == 0
    store = Store(db)
    try:
        after = store.games(ev.id)
        assert len(store.events()) == 1
    finally:
        store.close()
    assert [f.planned.index for f in after] == list(range(12))
    assert {f.planned.index: f.finished_at for f in after if f.planned.index in before} == before


def test_misbehaving_players_lose_and_the_event_goes_on():
    config = EventConfig(players=[Entrant("greedy", "greedy"), Entrant("crash", "crash:after=3"),
                                  Entrant("illegal", "illegal"), Entrant("slow", "slow:delay=1.0")],
                         format="gauntlet", games_per_pair=2, time_limit=0.5)
    result = run_event(config, None)
    assert result.complete and len(result.games) == 6
    s = tabulate(result.games, [p.name for p in config.players])
    assert s.lines["crash"].failures == {CRASH: 2}
    assert s.lines["illegal"].failures == {ILLEGAL: 2}
    assert s.lines["slow"].failures == {TIMEOUT: 2}
    assert s.lines["greedy"].failures == {} and s.lines["greedy"].points == 6
    crash = [f for f in s.failures if f.player == "crash"]
    assert len(crash) == 2 and all("boom" in f.detail for f in crash)
    assert all(len(f.record.moves) >= 3 for f in result.games if f.record.termination == CRASH)
    assert all(f.record.termination != NORMAL for f in result.games)


def test_misbehaving_players_in_worker_processes():
    config = EventConfig(players=[Entrant("crash", "crash:after=2"), Entrant("random", "random")],
                         games_per_pair=4, modules=["match_plugin_players"])
    result = run_event(config, None, workers=2)
    assert len(result.games) == 4
    assert all(f.record.termination == CRASH and "boom" in f.record.detail for f in result.games)


def test_player_that_cannot_be_built_or_started_loses():
    class BadStart(Player):
        name = "badstart"

        def new_game(self, state):
            raise OSError("no engine binary")

        def choose(self, state):  # pragma: no cover - never reached
            return state.legal_moves()[0]

    players.register("badstart", lambda game, params, raw: BadStart())
    players.register("badbuild", lambda game, params, raw: (_ for _ in ()).throw(RuntimeError("cannot build")))
    result = run_event(EventConfig(players=[Entrant("s", "badstart"), Entrant("b", "badbuild"),
                                            Entrant("g", "greedy")]), None)
    assert len(result.games) == 6
    s = tabulate(result.games)
    # a player that cannot be built loses before its opponent is asked anything
    assert s.lines["s"].failures == {CRASH: 2} and s.lines["b"].failures == {CRASH: 4}
    details = " ".join(f.detail for f in s.failures)
    assert "no engine binary" in details and "cannot build" in details


def wait_group_gone(pgid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_ctrl_c_with_workers_stops_cleanly_and_keeps_what_is_finished(tmp_path, how):
    db = tmp_path / "c.sqlite"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(SRC)])}
    args = ["match", "slow:delay=0.01", "random", "--games", "16", "--random-openings", "2", "--workers", "2",
            "--load", "match_plugin_players", "--db", str(db)]
    # Ctrl-C's default action, as in a terminal's foreground job: a suite run as a background job (`cmd &` in a
    # script) has SIGINT ignored, and a child inherits that
    proc = subprocess.Popen([sys.executable, "-m", "plies", *args], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None and count_games(db) < 2:
        time.sleep(0.05)
    assert proc.poll() is None, "the match ended before the interrupt"
    if how == "ctrl-c":
        os.killpg(proc.pid, signal.SIGINT)  # like Ctrl-C in a terminal: the whole process group
    else:
        proc.terminate()  # a polite kill of the main process only
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()
    assert "interrupted" in err.decode() and "--resume" in err.decode() and "Traceback" not in err.decode()
    kept = count_games(db)
    assert 2 <= kept < 16
    assert wait_group_gone(proc.pid), "worker processes survived the interrupt"
    assert len(re.findall(r"^ +\d+\. Black", out.decode(), flags=re.M)) == kept  # finished games still reported
