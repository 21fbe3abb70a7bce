"""The sequential probability ratio test of a match, as cutechess and fishtest run it.

H0: player A is ``elo0`` Elo stronger than B; H1: it is ``elo1`` stronger (logistic Elo, expected score
``1 / (1 + 10**(-d/400))``).  After every result the log-likelihood ratio of H1 against H0 is compared with
Wald's bounds ``log(beta / (1 - alpha))`` (accept H0) and ``log((1 - beta) / alpha)`` (accept H1), where
``alpha`` is the chance of accepting H1 when H0 holds and ``beta`` that of accepting H0 when H1 holds.

The ratio is the generalised SPRT's normal approximation (Van den Bergh; cutechess, fishtest):
``LLR = (s1 - s0) (2 s - s0 - s1) / (2 var / n)``, with ``s`` the mean score of the ``n`` units and ``var``
its variance.  A match of paired openings (each opening played twice, colours swapped) is counted by pairs,
the pentanomial model (a pair scores 0, 1/4, 1/2, 3/4 or 1): the two games of a pair share their opening, so
counting them as independent games would overstate what the match has shown.  Games whose partner has not
finished yet wait; a match without pairs is counted game by game (the trinomial model: win, draw, loss).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from plies.game import PliesError
from plies.tournament.elo import expected_score

MIN_UNITS = 16
"""Units (pairs or games) before a decision can be taken: the normal approximation of the ratio needs a few,
and a lucky start of a close match must not decide it."""


@dataclass(frozen=True)
class SprtSettings:
    """The hypotheses (Elo of A over B) and the error rates of a test."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            if not math.isfinite(getattr(self, name)):
                raise PliesError(f"--sprt: {name} must be a finite number")
        if not self.elo0 < self.elo1:
            raise PliesError(f"--sprt ELO0,ELO1 needs ELO0 < ELO1, not {self.elo0:g},{self.elo1:g}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise PliesError("--alpha and --beta must lie between 0 and 0.5")

    @property
    def lower(self) -> float:
        """LLR at or below which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """LLR at or above which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def text(self) -> str:
        return f"H0 Elo {self.elo0:+g}, H1 Elo {self.elo1:+g}, alpha {self.alpha:g}, beta {self.beta:g}"


def parse_sprt(text: str, alpha: float = 0.05, beta: float = 0.05) -> SprtSettings:
    """``"0,10"`` (the ``--sprt`` option) as settings; PliesError for anything else."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise PliesError(f"--sprt takes ELO0,ELO1 (for example 0,10), not {text!r}")
    try:
        elo0, elo1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise PliesError(f"--sprt takes two numbers ELO0,ELO1, not {text!r}") from None
    return SprtSettings(elo0, elo1, alpha, beta)


PRIOR_UNITS = 1.0
"""One unit's worth of outcomes spread evenly over the categories before any result (a weak prior).  Without
it a match whose units all came out alike would have no spread: two near-identical deterministic players (every
pair one win each way) gave an LLR of +254 after 16 pairs with fishtest's regularisation (1e-3 for an empty
category), which decides on nothing.  With it such a match decides after about two dozen pairs, and a hundred
varied pairs move by about 1%."""


def llr(scores: Iterable[float], elo0: float, elo1: float, pentanomial: bool = False) -> float:
    """Log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) for unit scores: a game's 0, 1/2 or 1
    (trinomial), or with ``pentanomial`` a pair's mean 0, 1/4, 1/2, 3/4 or 1.  0 while there are fewer than two."""
    xs = list(scores)
    n = len(xs)
    if n < 2:
        return 0.0
    categories = (0.0, 0.25, 0.5, 0.75, 1.0) if pentanomial else (0.0, 0.5, 1.0)
    counts = [PRIOR_UNITS / len(categories) + sum(1 for x in xs if x == c) for c in categories]
    total = sum(counts)
    s = sum(c * k for c, k in zip(categories, counts, strict=True)) / total
    var = sum(k * (c - s) ** 2 for c, k in zip(categories, counts, strict=True)) / total
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return (s1 - s0) * (2 * s - s0 - s1) / (2 * var / n)


@dataclass(frozen=True)
class SprtState:
    """Where a test stands: its LLR, its bounds, how many units it counted, and the decision (None: go on)."""

    llr: float
    lower: float
    upper: float
    units: int
    model: str  # "pentanomial" (pairs) or "trinomial" (games)
    decision: str | None  # "H0", "H1" or None

    def text(self) -> str:
        what = {"H0": "H0 accepted", "H1": "H1 accepted", None: "undecided"}[self.decision]
        unit = "pairs" if self.model == "pentanomial" else "games"
        return f"SPRT: LLR {self.llr:+.2f} (bounds {self.lower:+.2f}, {self.upper:+.2f}), {self.units} {unit}: {what}"

    def to_dict(self) -> dict[str, object]:
        return {"llr": round(self.llr, 4), "lower": round(self.lower, 4), "upper": round(self.upper, 4),
                "units": self.units, "model": self.model, "decision": self.decision}


def _split(results: Iterable[tuple[int, int | None, float]]) -> tuple[list[float], list[float], bool]:
    """(A's mean score in each complete pair, scores of games without a pair, whether any game has a pair)."""
    pairs: dict[int, list[float]] = {}
    singles: list[float] = []
    for _, pair, score in results:
        if pair is None:
            singles.append(score)
        else:
            pairs.setdefault(pair, []).append(score)
    return [sum(v) / 2 for v in pairs.values() if len(v) == 2], singles, bool(pairs)


def pentanomial(results: Iterable[tuple[int, int | None, float]]) -> list[int]:
    """How many complete pairs A scored 0, 1/2, 1, 3/2 and 2 points in (the pentanomial counts, as fishtest shows
    them): many pairs at 1 point mean the openings, not the players, decided the games."""
    counts = [0] * 5
    for mean in _split(results)[0]:
        counts[round(4 * mean)] += 1
    return counts


def sprt_state(results: Iterable[tuple[int, int | None, float]], settings: SprtSettings) -> SprtState:
    """The test after ``results``: (game index, pair or None, A's score 0 / 0.5 / 1) of each finished game.
    Games with a pair count once both games of the pair are in (pentanomial); games without one, one by one."""
    pair_means, singles, paired = _split(results)
    if paired:
        units = pair_means + singles
        model = "pentanomial"
    else:
        units = singles
        model = "trinomial"
    value = llr(units, settings.elo0, settings.elo1, pentanomial=model == "pentanomial")
    decision = None
    if len(units) >= MIN_UNITS:
        if value >= settings.upper:
            decision = "H1"
        elif value <= settings.lower:
            decision = "H0"
    return SprtState(value, settings.lower, settings.upper, len(units), model, decision)


__all__ = ["SprtSettings", "SprtState", "llr", "parse_sprt", "pentanomial", "sprt_state"]
