"""One Othello game as the format readers see it: a start position, the moves (passes explicit), per-move
evaluations and times, the players and a few facts; convertible to and from ``GameRecord``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import cast

from plies.game import ParseError
from plies.games.othello import OthelloState
from plies.games.record import ABORTED, NORMAL, Game, GameRecord, Note, move_names


@dataclass
class OthelloGame:
    """A game in any standard format.  ``moves`` are square indices or ``PASS``, every pass written out;
    ``evals``/``times`` run parallel to ``moves`` (None where unknown); ``result`` is the stated final disc
    difference from Black's view (None if not stated); ``props`` keeps format-specific fields (GGF tags)."""

    start: OthelloState = field(default_factory=OthelloState.start)
    moves: list[int] = field(default_factory=list)
    black: str = ""
    white: str = ""
    evals: list[float | None] = field(default_factory=list)
    times: list[float | None] = field(default_factory=list)
    result: float | None = None
    date: str = ""
    place: str = ""
    props: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.evals = list(self.evals) + [None] * (len(self.moves) - len(self.evals))
        self.times = list(self.times) + [None] * (len(self.moves) - len(self.times))

    # --- replay ---------------------------------------------------------------------------------------------
    def states(self) -> list[OthelloState]:
        """The position before each move, then the final one (len(moves) + 1 states)."""
        return Game(self.start, self.moves).states

    @property
    def final(self) -> OthelloState:
        return self.states()[-1]

    def move_names(self) -> list[str]:
        """Moves in plies notation (``f5``, ``pass``)."""
        return move_names(self.start, self.moves)

    def score(self) -> float | None:
        """Black's final disc difference: exact when the game is over, else the stated result."""
        final = self.final
        if final.is_over():
            return float(final.score())
        return self.result

    def same_game(self, other: OthelloGame) -> bool:
        """Same start and moves (metadata ignored) — what a round trip must preserve."""
        return self.start == other.start and self.moves == other.moves

    # --- GameRecord -----------------------------------------------------------------------------------------
    def to_record(self) -> GameRecord:
        """The game as the match database stores it; one that stops before its end is ``aborted`` with its stated
        result, if any."""
        game = Game(self.start, players=(self.black or "Black", self.white or "White"), started_at=self.date)
        for m, value, seconds in zip(self.moves, self.evals, self.times, strict=False):
            game.play(m, Note(value, seconds=seconds))
        score = self.score()
        if not game.over:
            game.end(ABORTED, "game not finished" + (f"; stated result {score:+g}" if score is not None else ""),
                     None if not score else 0 if score > 0 else 1, score or 0.0)
        return game.record()

    @classmethod
    def from_record(cls, rec: GameRecord) -> OthelloGame:
        """The game of a GameRecord (an Othello one); ParseError if its moves do not replay."""
        if rec.game != "othello":
            raise ParseError(f"only Othello games can be written in Othello formats, not {rec.game}")
        game = Game.from_record(rec)
        result = rec.score if rec.winner is not None or rec.termination == NORMAL else None
        return cls(cast(OthelloState, game.start), game.moves, rec.players[0], rec.players[1],
                   [n.value for n in game.notes], [n.seconds for n in game.notes], result, rec.started_at)


__all__ = ["OthelloGame"]
