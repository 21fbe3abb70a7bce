"""Tournament files (TOML, read with the standard library's ``tomllib``) -> an EventConfig and run settings.

Keys: ``name``, ``game``, ``format`` (round-robin | gauntlet), ``gauntlet``, ``games_per_pair``, ``openings``
(a file, relative to the config, or the shipped set ``balanced8``) or ``random_openings`` (plies), ``seed``,
``depth``, ``time``, ``time_limit``, ``workers``, ``db``, ``ray``, ``modules``, and ``players``: a list of specs or
of tables ``{name, spec}``.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from plies.game import PliesError
from plies.games import start_position
from plies.match.balanced import openings_path
from plies.match.openings import read_openings
from plies.match.plan import FORMATS, MAX_GAMES, Entrant, EventConfig, resolve_spec, spec_name
from plies.match.runner import load_modules

KEYS: dict[str, type | tuple[type, ...]] = {
    "name": str, "game": str, "format": str, "gauntlet": str, "games_per_pair": int, "openings": str,
    "random_openings": int, "seed": int, "depth": int, "time": (int, float), "time_limit": (int, float),
    "workers": int, "db": str, "ray": str, "modules": list, "players": list,
}


MAX_FILE = 1 << 20
"""Largest tournament file read (bytes); a league of a hundred players is a few kilobytes."""


@dataclass
class TournamentFile:
    """A parsed tournament file: what to play (config) and how (workers, database, Ray)."""

    config: EventConfig
    workers: int = 1
    db: Path | None = None
    ray: str | None = None


def load_config(path: str | Path, seed: int | None = None) -> TournamentFile:
    """Read and check a tournament file; every mistake is a one-line PliesError naming the key."""
    path = Path(path)
    try:
        if path.stat().st_size > MAX_FILE:
            raise PliesError(f"{path} is {path.stat().st_size} bytes: a tournament file is at most {MAX_FILE}")
        data = tomllib.loads(path.read_text(encoding="utf-8-sig", errors="replace"))
    except OSError as e:
        raise PliesError(f"cannot read {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise PliesError(f"{path}: not valid TOML: {e}") from None
    return config_from_dict(data, base=path.parent, default_name=path.stem, seed=seed)


def config_from_dict(
    data: dict[str, Any], base: Path = Path("."), default_name: str = "tournament", seed: int | None = None
) -> TournamentFile:
    for key, value in data.items():
        if key not in KEYS:
            raise PliesError(f"unknown key {key!r} in the tournament file; keys: {', '.join(KEYS)}")
        want = KEYS[key]
        if not isinstance(value, want) or isinstance(value, bool):
            raise PliesError(f"{key} has the wrong type ({type(value).__name__})")
    game = data.get("game", "othello")
    start_position(game)  # unknown game -> clear error
    if "openings" in data and "random_openings" in data:
        raise PliesError("give either openings (a file) or random_openings, not both")
    if "time_limit" in data and not math.isfinite(data["time_limit"]):  # nan passes every comparison below
        raise PliesError(f"time_limit is not a finite number: {data['time_limit']}")
    if data.get("time_limit", 1) <= 0 or data.get("random_openings", 0) < 0:
        raise PliesError("time_limit must be positive and random_openings 0 or more")
    if data.get("games_per_pair", 2) > MAX_GAMES:
        raise PliesError(f"games_per_pair must be at most {MAX_GAMES}, not {data['games_per_pair']}")
    if data.get("workers", 1) < 1:
        raise PliesError(f"workers must be at least 1, not {data['workers']}")
    modules = [str(m) for m in data.get("modules", [])]
    load_modules(modules)
    depth, time = data.get("depth"), data.get("time")
    if depth is not None and not 1 <= depth <= 60:
        raise PliesError(f"depth must be 1 to 60, not {depth}")
    if time is not None and not (math.isfinite(time) and time > 0):
        raise PliesError(f"time must be a positive number of seconds, not {time}")
    fmt = data.get("format", "round-robin")
    if fmt not in FORMATS:
        raise PliesError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    players = [_entrant(p, i, game, depth, time) for i, p in enumerate(data.get("players", []), 1)]
    if len(players) < 2:
        raise PliesError("a tournament needs at least two players ([[players]] tables or players = [specs])")
    config = EventConfig(
        players=players, kind="tournament", name=data.get("name", default_name), game=game, format=fmt,
        gauntlet=data.get("gauntlet"), games_per_pair=data.get("games_per_pair", 2),
        openings=read_openings(openings_path(data["openings"], game, base), game) if "openings" in data else [],
        random_plies=data.get("random_openings", 0), seed=seed if seed is not None else data.get("seed", 0),
        depth=depth, time=float(time) if time is not None else None,
        time_limit=float(data["time_limit"]) if "time_limit" in data else None, modules=modules,
    )
    db = base / data["db"] if "db" in data else base / f"{default_name}.sqlite"
    return TournamentFile(config, workers=data.get("workers", 1), db=db, ray=data.get("ray"))


def _entrant(p: object, number: int, game: str, depth: int | None, time: float | None) -> Entrant:
    if isinstance(p, str):
        name, spec = spec_name(p), p
    elif isinstance(p, dict) and isinstance(p.get("spec"), str):
        extra = set(p) - {"name", "spec"}
        if extra:
            raise PliesError(f"player {number}: unknown key(s) {', '.join(sorted(extra))} (use name and spec)")
        spec = p["spec"]
        name = str(p.get("name", spec))
    else:
        raise PliesError(f"player {number} must be a spec string or a table with spec (and name)")
    return Entrant(name, resolve_spec(spec, game, depth, time))


__all__ = ["TournamentFile", "config_from_dict", "load_config"]
