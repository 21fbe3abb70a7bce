"""The Ray path on this machine (``ray.init`` with 2 CPUs); skipped when the ray extra is not installed."""

from __future__ import annotations

import sys

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
