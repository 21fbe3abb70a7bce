"""Balanced Othello openings: random openings kept only when a search rates them close to even.

Random openings of 8 plies are often lopsided (the engine's median value of one is about 5 discs), and in a
match between two strong players most pairs then split 1-1, each side winning with the favoured colour: those
pairs say nothing about which player is stronger.  A set of openings that a fixed search rates within a disc or
so of even (as the XOT openings are for Edax and Egaroucid) makes every pair count.  ``plies train openings``
writes such a set; the shipped ``balanced8`` (``--openings balanced8``) was made by the command in its own header
(docs/training.md, step 7).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from plies.game import PliesError
from plies.match.openings import Opening, derive_seed, random_opening


class ShippedSet(NamedTuple):
    """An openings file that ships with plies, and the game it is for."""

    game: str
    path: Path


SHIPPED = {"balanced8": ShippedSet("othello", Path(__file__).parent / "data" / "balanced8.txt")}


def shipped_for(game: str) -> list[str]:
    """The names of the shipped opening sets for ``game`` (``--openings NAME``)."""
    return [name for name, shipped in SHIPPED.items() if shipped.game == game]


@dataclass(frozen=True)
class Rated:
    """An opening and the engine's value of it for the side to move, in discs, at ``depth``."""

    opening: Opening
    value: float
    depth: int


def balanced_openings(plies: int, count: int, within: float, depth: int, seed: int,
                      on_candidate: Callable[[int, int], None] | None = None,
                      max_candidates: int | None = None) -> list[Rated]:
    """``count`` distinct Othello openings of ``plies`` random plies (candidate ``i`` seeded from (seed, i)) whose
    value at ``depth`` is within ``within`` discs of even; positions that are images of each other under a board
    symmetry count once.  ``on_candidate(tried, kept)`` after each candidate searched."""
    from plies.engine import Engine
    from plies.engine.book import canonical
    from plies.games.othello import OthelloState

    if plies < 1 or count < 1 or depth < 1:
        raise PliesError("balanced openings need at least 1 ply, 1 opening and depth 1")
    if not within >= 0:
        raise PliesError("--within must be 0 or more discs")
    limit = max_candidates if max_candidates is not None else 200 * count
    engine = Engine(threads=1)
    seen: set[tuple[int, int]] = set()
    out: list[Rated] = []
    tried = 0
    while len(out) < count:
        if tried >= limit:
            raise PliesError(f"only {len(out)} of {count} openings within {within:g} discs after {tried} candidates; "
                             "allow a wider --within or fewer plies")
        opening = random_opening("othello", plies, derive_seed(seed, "balanced", tried))
        tried += 1
        state = OthelloState.from_text(opening.position)
        key, _ = canonical(*state.own_opp())
        if key not in seen:
            seen.add(key)
            value = float(engine.search(state, depth=depth).value)
            if abs(value) <= within:
                out.append(Rated(opening, value, depth))
        if on_candidate is not None:
            on_candidate(tried, len(out))
    return out


def format_openings(rated: list[Rated], header: str) -> str:
    """The openings file: ``header`` as comment lines, then one transcript a line with its value as a comment."""
    lines = [f"# {line}" for line in header.splitlines()]
    lines += [f"{r.opening.moves}  # {r.value:+.2f} at depth {r.depth}" for r in rated]
    return "\n".join(lines) + "\n"


def openings_path(name: str, game: str, base: Path | None = None) -> Path:
    """The file an ``--openings`` argument names: a file (relative to ``base`` when given) or, where no such file
    exists, a shipped set by name (``balanced8``, Othello only)."""
    path = Path(base, name) if base is not None else Path(name)
    if not path.exists() and name in SHIPPED:
        shipped = SHIPPED[name]
        if shipped.game != game:
            raise PliesError(f"{name} is a set of 8x8 {shipped.game.capitalize()} openings, not of {game}")
        return shipped.path
    return path


__all__ = ["SHIPPED", "Rated", "ShippedSet", "balanced_openings", "format_openings", "openings_path", "shipped_for"]
