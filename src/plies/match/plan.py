"""What an event (a match or a tournament) will play: its players, settings and the list of planned games.

A plan is pure data (picklable, JSON-able): a worker process, a Ray task or a resumed run rebuilds exactly the
same game from a ``PlannedGame``.  Seeds come from the event seed and the game index, never from the worker.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from plies.game import PliesError
from plies.match.openings import Opening, derive_seed, random_openings
from plies.players import parse_params

ROUND_ROBIN, GAUNTLET = "round-robin", "gauntlet"
FORMATS = (ROUND_ROBIN, GAUNTLET)
GRADING = "grading"
"""``plies grade``'s format: every pair meets except two reference players (``EventConfig.references``)."""

SEARCH_KINDS = ("minimax", "alphabeta")
"""Kinds that take ``depth=`` but have no clock: ``--depth`` applies to them, ``--time`` does not."""
FIXED_KINDS = ("human", "random", "greedy", "nboard", "course")
"""Kinds that take neither a depth nor a time from the command line."""
BUDGET_KEYS = ("depth", "time", "level", "nodes")
MAX_GAMES = 1_000_000
"""Most games one event plans (per pair, and in all): a plan is built in memory before the first game."""


@dataclass(frozen=True)
class Entrant:
    """A player in an event: the name shown in tables and the spec that builds it."""

    name: str
    spec: str


@dataclass
class EventConfig:
    """Everything that decides which games an event plays (players, format, openings, seed, budgets)."""

    players: list[Entrant]
    kind: str = "match"
    name: str = "match"
    game: str = "othello"
    format: str = ROUND_ROBIN
    gauntlet: str | None = None
    games_per_pair: int = 2
    openings: list[Opening] = field(default_factory=list)
    random_plies: int = 0
    seed: int = 0
    depth: int | None = None
    time: float | None = None
    time_limit: float | None = None
    modules: list[str] = field(default_factory=list)
    references: list[str] = field(default_factory=list)
    """Names of the reference players of a grading (format ``grading``): they meet every other player, not
    each other."""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> EventConfig:
        d = dict(d)
        d["players"] = [Entrant(**p) for p in d["players"]]
        d["openings"] = [Opening(**o) for o in d.get("openings", [])]
        return cls(**d)


@dataclass(frozen=True)
class PlannedGame:
    """One game to play: index in the event, pair (opening slot x pairing), who has which colour, from where."""

    index: int
    pair: int
    slot: int
    black: Entrant
    white: Entrant
    opening: Opening
    seed: int
    game: str
    time_limit: float | None = None
    modules: tuple[str, ...] = ()

    def key(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


def apply_budget(spec: str, depth: int | None, time: float | None) -> str:
    """Add ``depth=D`` / ``time=T`` to a spec that names no search budget of its own.

    Search players (minimax, alpha-beta) get the depth; other kinds that take options (the engine, plugins) get
    ``time=T`` if given, else ``depth=D``; random, greedy, human and external programs are left alone.
    """
    kind, sep, raw = spec.strip().partition(":")
    kind_l = kind.lower()
    if kind_l in FIXED_KINDS or (depth is None and time is None):
        return spec
    try:
        params = parse_params(raw)
    except PliesError:
        return spec
    if any(k in params for k in BUDGET_KEYS):
        return spec
    if kind_l in SEARCH_KINDS:
        extra = f"depth={depth}" if depth is not None else None
    else:
        extra = f"time={time:g}" if time is not None else f"depth={depth}"
    if extra is None:
        return spec
    return f"{kind}:{raw},{extra}" if raw.strip() else f"{kind}:{extra}"


def spec_name(spec: str) -> str:
    """The name an entrant plays under: the spec's own ``name=`` when it gives one (``nboard:name=Edax
    /usr/bin/edax``, ``course:name=alice ./client``, or ``kind:...,name=X`` for kinds that take one), else the
    whole spec."""
    kind, _, raw = spec.strip().partition(":")
    if kind.lower() in ("nboard", "course"):  # a command line: its leading key=value words are the options
        import shlex

        try:
            words = shlex.split(raw)
        except ValueError:
            return spec
        for word in words:  # leading key=value words are options, the program follows them
            key, eq, value = word.partition("=")
            if not eq or not key.isidentifier():
                break
            if key.lower() == "name" and value.strip():
                return value.strip()
        return spec
    try:
        name = parse_params(raw).get("name", "")
    except PliesError:
        return spec
    return name.strip() or spec


def pairings(config: EventConfig) -> list[tuple[Entrant, Entrant]]:
    """The pairs that meet: every pair (round robin), the gauntlet player against each other player, or (a
    grading) every pair but two references."""
    players = config.players
    if len(players) < 2:
        raise PliesError("an event needs at least two players")
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        dup = sorted({n for n in names if names.count(n) > 1})
        raise PliesError(f"player names must be distinct (give them names): {', '.join(dup)}")
    if config.format == ROUND_ROBIN:
        return list(combinations(players, 2))
    if config.format == GRADING:
        unknown = [r for r in config.references if r not in names]
        if unknown:
            raise PliesError(f"reference player(s) {', '.join(unknown)} are not among the players")
        refs = set(config.references)
        return [(a, b) for a, b in combinations(players, 2) if a.name not in refs or b.name not in refs]
    if config.format == GAUNTLET:
        champion = config.gauntlet or names[0]
        if champion not in names:
            raise PliesError(f"gauntlet player {champion!r} is not one of the players: {', '.join(names)}")
        first = players[names.index(champion)]
        return [(first, p) for p in players if p is not first]
    raise PliesError(f"unknown format {config.format!r}; use {' or '.join(FORMATS)}")


def event_openings(config: EventConfig) -> list[Opening]:
    """One opening per slot: the given openings cycled, else random ones, else the start position."""
    slots = config.games_per_pair // 2
    if config.openings:
        return [config.openings[i % len(config.openings)] for i in range(slots)]
    if config.random_plies > 0:
        return random_openings(config.game, config.random_plies, slots, config.seed)
    return [Opening("start")] * slots


def make_plan(config: EventConfig) -> list[PlannedGame]:
    """Every game of the event in playing order: slot by slot, pair by pair, the two colours one after another."""
    if config.games_per_pair < 2 or config.games_per_pair % 2:
        raise PliesError(
            f"games per pair must be even and at least 2 (each opening is played twice, colours swapped), "
            f"not {config.games_per_pair}"
        )
    if config.games_per_pair > MAX_GAMES:
        raise PliesError(f"games per pair must be at most {MAX_GAMES}, not {config.games_per_pair}")
    pairs = pairings(config)
    total = len(pairs) * config.games_per_pair
    if total > MAX_GAMES:
        raise PliesError(f"this event would play {total} games ({len(pairs)} pairs x {config.games_per_pair}); "
                         f"at most {MAX_GAMES}: fewer games per pair or fewer players")
    slots = event_openings(config)
    plan: list[PlannedGame] = []
    pair_index = 0
    for slot, opening in enumerate(slots):
        for a, b in pairs:
            for black, white in ((a, b), (b, a)):
                index = len(plan)
                plan.append(PlannedGame(
                    index=index, pair=pair_index, slot=slot, black=black, white=white, opening=opening,
                    seed=derive_seed(config.seed, "game", index), game=config.game,
                    time_limit=config.time_limit, modules=tuple(config.modules),
                ))
            pair_index += 1
    return plan


def plan_hash(plan: list[PlannedGame]) -> str:
    """A fingerprint of the plan: a resumed run must plan exactly the same games."""
    h = hashlib.sha256()
    for g in plan:
        h.update(g.key().encode())
    return h.hexdigest()[:16]


__all__ = [
    "FORMATS", "GAUNTLET", "GRADING", "MAX_GAMES", "ROUND_ROBIN", "Entrant", "EventConfig", "PlannedGame",
    "apply_budget", "event_openings", "make_plan", "pairings", "plan_hash", "spec_name",
]


def resolve_spec(spec: str, game: str, depth: int | None = None, time: float | None = None) -> str:
    """The spec an entrant will play with: the budget added where the player accepts it (see ``apply_budget``).

    Builds the player once to check the spec, so a typo fails before any game starts (one-line ParseError).
    """
    from plies.players import parse_player

    candidate = apply_budget(spec, depth, time)
    for s in dict.fromkeys((candidate, spec)):
        try:
            player = parse_player(s, game)
        except PliesError:
            if s == spec:
                raise
            continue
        except Exception as e:  # a player that fails to build loses its games; the event still runs...
            from plies.match.record import is_startup_failure, startup_message

            if is_startup_failure(e):  # ...unless its program cannot be started at all: say so before any game
                raise PliesError(startup_message(e, spec_name(spec))) from None
            return s
        try:
            player.close()
        except Exception:  # only a probe: the same failure is logged when the player closes after each game
            pass
        return s
    return spec


__all__ += ["resolve_spec"]
