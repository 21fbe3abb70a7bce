"""From finished games to tables: points, W/D/L, cross table, per-pair disc margins, Elo, failures by player."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from plies.game import PliesError
from plies.games.record import NORMAL, count_result
from plies.match.runner import Finished
from plies.tournament.elo import EloEstimate, Ratings, fit_ratings, match_elo
from plies.tournament.schema import StandingsDict


@dataclass
class Line:
    """One player's totals."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    failures: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0  # thinking time of its moves (passes not counted)
    moves: int = 0

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def seconds_per_move(self) -> float | None:
        """Mean seconds a move (as the match measured them: the player's answer, protocol included)."""
        return self.seconds / self.moves if self.moves else None

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0


@dataclass
class Pair:
    """One pairing from ``a``'s view: results, margins (normal games only) and the Elo difference."""

    a: str
    b: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    margins: list[float] = field(default_factory=list)

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + 0.5 * self.draws

    @property
    def mean_margin(self) -> float | None:
        return sum(self.margins) / len(self.margins) if self.margins else None

    @property
    def elo(self) -> EloEstimate:
        return match_elo(self.wins, self.draws, self.losses)


@dataclass
class Failure:
    """A game lost by an illegal move, a time loss or a crash."""

    player: str
    reason: str
    index: int
    detail: str


@dataclass
class Standings:
    """Everything the tables show, computed once from the finished games."""

    players: list[str]
    lines: dict[str, Line]
    pairs: dict[tuple[str, str], Pair]
    failures: list[Failure]
    ratings: Ratings
    games: int

    def ranking(self) -> list[Line]:
        """Players by points, then Elo, then name."""
        return sorted(
            self.lines.values(),
            key=lambda ln: (-ln.points, -self.ratings.estimates[ln.name].elo, ln.name),
        )

    def pair(self, a: str, b: str) -> Pair:
        """The pairing seen from ``a`` (created empty if they never met)."""
        if (a, b) in self.pairs:
            return self.pairs[(a, b)]
        if (b, a) in self.pairs:
            p = self.pairs[(b, a)]
            return Pair(a, b, p.losses, p.draws, p.wins, [-m for m in p.margins])
        return Pair(a, b)

    def to_dict(self) -> StandingsDict:
        return {
            "games": self.games,
            "standings": [
                {
                    "rank": k, "name": ln.name, "games": ln.games, "points": ln.points, "wins": ln.wins,
                    "draws": ln.draws, "losses": ln.losses, "score": round(ln.score, 4),
                    "elo": self.ratings.estimates[ln.name].to_dict(), "failures": ln.failures,
                    "moves": ln.moves, "seconds_per_move": None if ln.seconds_per_move is None
                    else round(ln.seconds_per_move, 4),
                }
                for k, ln in enumerate(self.ranking(), 1)
            ],
            "ratings_regularized": self.ratings.regularized,
            "pairs": [
                {
                    "a": p.a, "b": p.b, "games": p.games, "wins": p.wins, "draws": p.draws, "losses": p.losses,
                    "points": p.points, "mean_margin": p.mean_margin, "elo": p.elo.to_dict(),
                }
                for p in self.pairs.values()
            ],
            "failures": [f.__dict__ for f in self.failures],
        }


def tabulate(finished: Iterable[Finished], players: Sequence[str] | None = None) -> Standings:
    """Standings of the finished games (``players`` fixes the order and includes players without games)."""
    games = list(finished)
    names = list(players or [])
    for f in games:
        for n in (f.black, f.white):
            if n not in names:
                names.append(n)
    lines = {n: Line(n) for n in names}
    pairs: dict[tuple[str, str], Pair] = {}
    failures: list[Failure] = []
    for f in games:
        r = f.record
        sides = (f.black, f.white)
        a, b = sorted(sides, key=names.index)
        pair = pairs.setdefault((a, b), Pair(a, b))
        a_side = sides.index(a) if sides[0] != sides[1] else 0
        _add_times(f, lines)
        for side, name in enumerate(sides):
            lines[name].games += 1
            count_result(lines[name], r.winner, side)
        count_result(pair, r.winner, a_side)
        if r.termination == NORMAL:
            pair.margins.append(r.score if a_side == 0 else -r.score)
        elif r.winner is not None:
            loser = sides[1 - r.winner]
            lines[loser].failures[r.termination] = lines[loser].failures.get(r.termination, 0) + 1
            failures.append(Failure(loser, r.termination, f.planned.index, r.detail))
    ratings = fit_ratings(names, {k: (p.points, p.games) for k, p in pairs.items()})
    return Standings(names, lines, pairs, failures, ratings, len(games))


def _add_times(f: Finished, lines: dict[str, Line]) -> None:
    """Each side's moves and thinking time in ``f`` (moves alternate from the opening's side to move; a pass is
    a move of the record but no decision, so it is not counted)."""
    r = f.record
    try:
        first = f.planned.opening.state(f.planned.game).to_move
    except PliesError:
        return
    sides = (f.black, f.white)
    for i, (move, seconds) in enumerate(zip(r.moves, r.times, strict=False)):
        if move == "pass":
            continue
        line = lines[sides[(first + i) % 2]]
        line.moves += 1
        line.seconds += seconds


__all__ = ["Failure", "Line", "Pair", "Standings", "tabulate"]
