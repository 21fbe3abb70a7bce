"""Elo from game results, with 95% confidence intervals.

Two estimates, both on the logistic Elo scale (expected score ``1 / (1 + 10**(-d/400))``):

* ``match_elo``: one pairing.  The Elo difference is the logistic of the score fraction ``s``; its interval is
  the Wilson score interval of ``s`` mapped through the same curve:
  ``(s + z²/2n ± z·√(σ²/n + z²/4n²)) / (1 + z²/n)`` with ``z = 1.96`` and ``σ²`` the per-game (trinomial)
  variance of the score ``(W(1-s)² + D(½-s)² + L s²) / n`` (``s(1-s)`` without draws: Wilson's own).  Unlike
  the plain ``s ± z·σ/√n`` it stays inside (0, 1) and keeps a width when every game went one way: a 20-0
  sweep has the finite lower limit +287 (its upper limit and the estimate itself are +inf).
* ``fit_ratings``: a whole table.  The maximum-likelihood Bradley-Terry ratings (a draw counts as half a win),
  centred on mean 0, found by Newton's method; intervals ``±1.96·√C_ii`` from the inverse Fisher information
  (the pseudo-inverse, which matches the mean-0 centring).  If someone scored 100% or 0% against a group the
  likelihood has no finite maximum; then one virtual draw per pairing that met is added (a weak prior, as in
  BayesElo) and the result says so.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
"""Two-sided 95% quantile of the normal distribution."""
K = math.log(10) / 400
"""d/dx of the natural-log odds per Elo point."""


def elo_from_score(s: float) -> float:
    """Elo difference that predicts score fraction ``s`` (±inf for 100% / 0%)."""
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400 * math.log10(1 / s - 1)


def expected_score(diff: float) -> float:
    """Expected score fraction of a player ``diff`` Elo stronger."""
    return 1 / (1 + 10 ** (-diff / 400))


@dataclass(frozen=True)
class EloEstimate:
    """An Elo figure with its 95% interval (``low``/``high``), and the likelihood of superiority for a match."""

    elo: float
    low: float
    high: float
    los: float | None = None

    @property
    def margin(self) -> float:
        """Half-width of the interval (inf when unbounded)."""
        return (self.high - self.low) / 2

    def text(self) -> str:
        """``+35 ± 42``; ``+inf (≥ +288)`` for a sweep, whose interval is bounded on one side only."""
        if not math.isfinite(self.elo):
            bound = self.low if self.elo > 0 else self.high
            if math.isfinite(bound):
                return f"{self.elo:+} ({'≥' if self.elo > 0 else '≤'} {round(bound) + 0:+d})"
            return f"{self.elo:+}"
        elo = round(self.elo) + 0  # no "-0"
        if not math.isfinite(self.margin):
            return f"{elo:+d} ± inf"
        return f"{elo:+d} ± {self.margin:.0f}"

    def to_dict(self) -> dict[str, float | str | None]:
        return {"elo": _num(self.elo), "low": _num(self.low), "high": _num(self.high), "los": self.los}


def _num(x: float) -> float | str:
    return round(x, 2) if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def score_interval(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """(score, half-width of its plain 95% interval ``z·σ/√n``) from W/D/L, with the trinomial variance of one
    game's result (zero for a sweep: ``match_elo`` uses ``wilson_interval``)."""
    n = wins + draws + losses
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    return s, Z95 * math.sqrt(var / n)


def wilson_interval(wins: int, draws: int, losses: int) -> tuple[float, float, float]:
    """(score, low, high): the score fraction from W/D/L and its 95% Wilson interval, with the trinomial
    variance of one game's result."""
    n = wins + draws + losses
    s = (wins + 0.5 * draws) / n
    var = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s**2) / n
    z2 = Z95 * Z95
    centre = (s + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(var / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return s, max(0.0, centre - half), min(1.0, centre + half)


def match_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo difference of a player over its opponent from its W/D/L, with the 95% Wilson interval and LOS."""
    if wins + draws + losses == 0:
        return EloEstimate(0.0, -math.inf, math.inf, None)
    s, low, high = wilson_interval(wins, draws, losses)
    los = None
    if wins + losses:
        los = 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))
    return EloEstimate(elo_from_score(s), elo_from_score(low), elo_from_score(high), los)


@dataclass
class Ratings:
    """Ratings of a table (mean 0), their intervals, and whether a prior was needed to keep them finite."""

    estimates: dict[str, EloEstimate]
    regularized: bool = False


def fit_ratings(
    players: Sequence[str],
    results: Mapping[tuple[str, str], tuple[float, int]],
    prior_draws: float | None = None,
    iterations: int = 100,
) -> Ratings:
    """Bradley-Terry maximum-likelihood Elo ratings.

    ``results[(a, b)] = (points of a against b, games)`` (either orientation, or both: they are added up).
    ``prior_draws`` virtual draws per pairing that met; ``None`` adds one only when the plain fit diverges.
    """
    names = list(players)
    index = {p: i for i, p in enumerate(names)}
    m = len(names)
    points = np.zeros((m, m))
    games = np.zeros((m, m))
    for (a, b), (pts, n) in results.items():
        i, j = index[a], index[b]
        points[i, j] += pts
        points[j, i] += n - pts
        games[i, j] += n
        games[j, i] += n
    regularized = False
    if prior_draws is None:
        prior_draws = 0.0
        if not _finite_mle(points, games):
            prior_draws, regularized = 1.0, True
    met = games > 0
    points = points + 0.5 * prior_draws * met
    games = games + prior_draws * met
    r = np.zeros(m)
    for _ in range(iterations):
        p = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))
        grad = K * (points - games * p).sum(axis=1)
        w = K * K * games * p * (1 - p)
        info = np.diag(w.sum(axis=1)) - w  # the negative Hessian (a weighted graph Laplacian)
        step = np.clip(np.linalg.pinv(info) @ grad, -400, 400)  # damped: far-off starts converge too
        r = r + step
        r -= r.mean()
        if np.max(np.abs(step)) < 1e-9:
            break
    p = 1 / (1 + 10 ** ((r[None, :] - r[:, None]) / 400))
    w = K * K * games * p * (1 - p)
    cov = np.linalg.pinv(np.diag(w.sum(axis=1)) - w)
    estimates = {}
    for name, i in index.items():
        sd = math.sqrt(max(cov[i, i], 0.0))
        if games[i].sum() == 0:
            estimates[name] = EloEstimate(0.0, -math.inf, math.inf)
        else:
            estimates[name] = EloEstimate(float(r[i]), float(r[i] - Z95 * sd), float(r[i] + Z95 * sd))
    return Ratings(estimates, regularized)


def _finite_mle(points: np.ndarray, games: np.ndarray) -> bool:
    """The plain fit exists iff every player reaches every other along 'scored something against' edges
    inside each connected group (Zermelo's condition): a strongly connected graph."""
    m = len(points)
    scored = (points > 0) & (games > 0)
    if not m:
        return True
    for src in range(m):
        seen = {src}
        stack = [src]
        while stack:
            i = stack.pop()
            for j in np.nonzero(scored[i])[0]:
                if int(j) not in seen:
                    seen.add(int(j))
                    stack.append(int(j))
        component = _component(games, src)
        if not component <= seen:
            return False
    return True


def _component(games: np.ndarray, src: int) -> set[int]:
    seen = {src}
    stack = [src]
    while stack:
        i = stack.pop()
        for j in np.nonzero(games[i] > 0)[0]:
            if int(j) not in seen:
                seen.add(int(j))
                stack.append(int(j))
    return seen


__all__ = ["K", "Z95", "EloEstimate", "Ratings", "elo_from_score", "expected_score", "fit_ratings", "match_elo",
           "score_interval", "wilson_interval"]
