"""Learned evaluation against the hand-made default inside the same search at the same depth, on paired
random openings (each opening played twice, colours swapped), so only the evaluations differ."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from plies.match.openings import random_openings
from plies.match.record import GameRecord, play_game
from plies.players import Player
from plies.tournament.elo import score_interval
from plies.train.quicksearch import QuickSearchPlayer


@dataclass
class Comparison:
    """Games of player A (learned) against B (hand-made): points of A (win 1, draw 1/2), discs, counts."""

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    disc_sum: float = 0.0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else float("nan")

    def interval(self) -> float:
        """Half-width of a 95% normal interval of the score."""
        if not self.games:
            return float("nan")
        return score_interval(self.wins, self.draws, self.losses)[1]


def compare(weights: np.ndarray, depth: int, pairs: int, opening_plies: int = 8, seed: int = 1,
            players: tuple[Player, Player] | None = None,
            on_game: Callable[[GameRecord, Comparison], None] | None = None) -> Comparison:
    """Play ``pairs`` paired openings between the learned and the hand-made evaluation at ``depth``."""
    a, b = players or (QuickSearchPlayer(depth, "learned", weights), QuickSearchPlayer(depth, "default"))
    result = Comparison()
    for opening in random_openings("othello", opening_plies, pairs, seed):
        start = opening.state("othello")
        for a_side in (0, 1):
            order = (a, b) if a_side == 0 else (b, a)
            rec = play_game(start, order)
            result.games += 1
            if rec.winner is None:
                result.draws += 1
            elif rec.winner == a_side:
                result.wins += 1
            else:
                result.losses += 1
            result.disc_sum += rec.score if a_side == 0 else -rec.score
            if on_game:
                on_game(rec, result)
    return result
