"""The Ray path on this machine (``ray.init`` with 2 CPUs); skipped when the ray extra is not installed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from plies.game import PliesError
from plies.match.event import run_event
from plies.match.plan import Entrant, EventConfig


def config() -> EventConfig:
    return EventConfig(players=[Entrant("r", "random"), Entrant("g", "greedy"), Entrant("ab", "alphabeta:depth=1")],
                       games_per_pair=2, random_plies=2, seed=8)


def test_missing_ray_is_one_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # makes ``import ray`` fail
    with pytest.raises(PliesError, match=r"pip install 'plies\[ray\]'"):
        run_event(config(), None, ray="local")


@pytest.mark.slow
def test_ray_local_gives_the_same_games_as_serial(tmp_path):
    ray = pytest.importorskip("ray")
    serial = run_event(config(), None)
    # plies starts a local Ray (ray.init(num_cpus=2, include_dashboard=False)) and shuts it down afterwards
    on_ray = run_event(config(), tmp_path / "ray.sqlite", ray="local", workers=2)
    assert not ray.is_initialized()
    assert on_ray.complete and on_ray.played == 6
    assert [(f.planned.index, f.record.moves) for f in on_ray.games] == \
        [(f.planned.index, f.record.moves) for f in serial.games]
    assert all(":" in f.worker for f in on_ray.games)


HERE = Path(__file__).resolve().parent
MATCH = [sys.executable, "-m", "plies", "match", "random", "--game", "tictactoe", "--games", "4",
         "--random-openings", "1", "--ray", "local", "--workers", "2", "--load", "match_plugin_players",
         "--no-progress", "--json"]


def run_plies(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), str(HERE.parents[1] / "src")]), **env}
    return subprocess.run(args, env=environment, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_worker_that_dies_is_played_again_and_json_stays_json(tmp_path: Path) -> None:
    """A game's Ray worker dies under it (as on a node's death): the game is played again and stored once, Ray's
    messages about it go to stderr and stdout is one JSON object.  ``RAY_ADDRESS`` names a cluster that is not
    there, as when another runs on the machine: ``--ray local`` starts its own all the same."""
    pytest.importorskip("ray")
    db, marker = tmp_path / "r.sqlite", tmp_path / "died"
    args = [*MATCH[:4], f"dying:marker={marker}", *MATCH[4:], "--db", str(db)]
    done = run_plies(args, RAY_ADDRESS="127.0.0.1:1")
    assert done.returncode == 0, done.stderr[-2000:]
    assert marker.exists()  # a worker did die
    data = json.loads(done.stdout)
    assert data["complete"] and data["finished"] == 4
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*), count(DISTINCT idx) FROM games").fetchone() == (4, 4)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_game_whose_worker_always_dies_stops_with_one_line(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from plies.match.ray_runner import RETRIES

    done = run_plies([*MATCH[:4], "dying", *MATCH[4:], "--db", str(tmp_path / "r.sqlite")])
    assert done.returncode == 2 and done.stdout == ""
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("plies: error: game ") and f"lost {RETRIES + 1} times" in last and "--resume" in last
    assert "internal error" not in done.stderr
