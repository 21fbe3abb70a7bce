"""Learned evaluation against the hand-made one inside the same search (the engine's, no opening book) at
the same depth, on paired random openings (each opening played twice, colours swapped), so only the
evaluations differ."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from plies.match.openings import random_openings
from plies.match.record import GameRecord, play_game
from plies.players import Player
from plies.tournament.elo import score_interval


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


def engine_players(weights: np.ndarray | str | Path | None, depth: int) -> tuple[Player, Player]:
    """The engine at ``depth`` with the learned evaluation (``weights``: a weights file, an array
    (phases, N_PARAMS), or None for the shipped ones) and with the hand-made one, both without a book."""
    from plies.players.engine import EnginePlayer

    hand = EnginePlayer(depth=depth, evaluation="handmade", book=False, hash_mb=16)
    if weights is None or isinstance(weights, (str, Path)):
        learned = EnginePlayer(depth=depth, evaluation="learned", book=False, hash_mb=16,
                               weights=None if weights is None else str(weights))
        return learned, hand
    from plies.train.fit import save_weights

    fd, path = tempfile.mkstemp(suffix=".npz")  # the engine takes a file; it reads it once, here
    os.close(fd)
    try:
        save_weights(path, np.asarray(weights, dtype=np.float32))
        learned = EnginePlayer(depth=depth, evaluation="learned", book=False, hash_mb=16, weights=path)
    finally:
        os.unlink(path)
    return learned, hand


def compare(weights: np.ndarray | str | Path | None, depth: int, pairs: int, opening_plies: int = 8,
            seed: int = 1, players: tuple[Player, Player] | None = None,
            on_game: Callable[[GameRecord, Comparison], None] | None = None) -> Comparison:
    """Play ``pairs`` paired openings between the learned (``weights``: array, file or None for the shipped
    ones) and the hand-made evaluation, both in the engine's search at ``depth``."""
    a, b = players or engine_players(weights, depth)
    result = Comparison()
    for opening in random_openings("othello", opening_plies, pairs, seed):
        start = opening.state("othello")
        for a_side in (0, 1):
            for p in (a, b):  # every game from empty hash tables: a game does not depend on the ones before
                engine: Any = getattr(p, "engine", None)
                if engine is not None and hasattr(engine, "clear"):
                    engine.clear()
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
