"""One Othello game as the format readers see it: a start position, the moves (passes explicit), per-move
evaluations and times, the players and a few facts; convertible to and from ``GameRecord``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from plies.game import PASS, IllegalMoveError, ParseError
from plies.games.othello import OthelloState
from plies.games.record import ABORTED, NORMAL, GameRecord, move_names


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
        out = [self.start]
        s = self.start
        for m in self.moves:
            s = s.play(m)
            out.append(s)
        return out

    @property
    def final(self) -> OthelloState:
        s = self.start
        for m in self.moves:
            s = s.play(m)
        return s

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
        final = self.final
        rec = GameRecord(
            game="othello",
            start=self.start.to_text(),
            players=(self.black or "Black", self.white or "White"),
            moves=self.move_names(),
            times=[t if t is not None else 0.0 for t in self.times],
            values=list(self.evals),
            started_at=self.date,
            final=final.to_text(),
        )
        score = self.score()
        if final.is_over():
            rec.termination = NORMAL
        else:
            rec.termination = ABORTED
            rec.detail = "game not finished" + (f"; stated result {score:+g}" if score is not None else "")
        if score is not None:
            rec.score = score
            rec.winner = 0 if score > 0 else 1 if score < 0 else None
        return rec

    @classmethod
    def from_record(cls, rec: GameRecord) -> OthelloGame:
        """The game of a GameRecord (an Othello one); ParseError if its moves do not replay."""
        if rec.game != "othello":
            raise ParseError(f"only Othello games can be written in Othello formats, not {rec.game}")
        start = OthelloState.from_text(rec.start)
        moves: list[int] = []
        s = start
        for i, name in enumerate(rec.moves):
            try:
                m = s.parse_move(name)
            except (ParseError, IllegalMoveError) as e:
                raise ParseError(f"move {i + 1} ({name}) of the record: {e}") from None
            moves.append(m)
            s = s.play(m)
        times: list[float | None] = list(rec.times)
        values: list[Any] = list(rec.values)
        result = rec.score if rec.winner is not None or rec.termination == NORMAL else None
        return cls(start, moves, rec.players[0], rec.players[1], values, times, result, rec.started_at)


def replay_with_implicit_passes(start: OthelloState, moves: list[int]) -> list[int]:
    """``moves`` with the forced passes written in (a move given while the side to move must pass is played by
    the other side after a pass).  Raises IllegalMoveError on a move that is illegal for both sides."""
    out: list[int] = []
    s = start
    for m in moves:
        if m != PASS and s.legal_moves() == [PASS]:
            out.append(PASS)
            s = s.play(PASS)
        s = s.play(m)
        out.append(m)
    return out


__all__ = ["OthelloGame", "replay_with_implicit_passes"]
