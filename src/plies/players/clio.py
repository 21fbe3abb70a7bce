"""The ``clio`` player kind: cli-othello's AI (PyPI ``cli-othello``, levels 1-5) as a plies player, so
``plies match`` and ``plies tournament`` can measure plies against it.  A benchmark-only dependency
(``pip install -e '.[bench]'``): ``clio:level=5`` (its strongest), ``clio:level=1,seed=3``.

The adapter copies plies' position into cli-othello's ``Board`` (a flat list of 64 cells, row-major from
a1, 1 = black, 2 = white) and maps its ``(row, col)`` answer back to a plies square; a pass is plies'
business, since cli-othello returns None when it has no move."""

from __future__ import annotations

import random

from plies import players
from plies.game import PASS, Move, ParseError, State
from plies.games.othello import OthelloState


class CliOthelloPlayer(players.Player):
    """cli-othello's ``OthelloAI`` at one of its levels; its randomness comes from a seeded ``random.Random``
    (cli-othello draws from the module ``random``, which is reseeded from it before every move)."""

    def __init__(self, level: int = 5, seed: int | None = None) -> None:
        try:
            from cli_othello import ai, board
        except ImportError:
            raise ParseError("the clio player needs cli-othello: pip install 'plies[bench]'") from None
        if level not in ai._LEVEL_CONFIG:
            raise ParseError(f"cli-othello levels are {ai.MIN_LEVEL} to {ai.MAX_LEVEL}, not {level}")
        self._ai, self._board = ai, board
        self.level = level
        self.rng = random.Random(seed)
        self.name = f"clio:level={level}"

    def choose(self, state: State) -> Move:
        if not isinstance(state, OthelloState) or state.n != 8:
            raise ParseError("cli-othello plays 8x8 Othello only")
        moves = state.legal_moves()
        if moves == [PASS]:
            return PASS
        b = self._board.Board()
        black, white = state.black, state.white
        b.cells = [self._board.BLACK if black >> sq & 1 else self._board.WHITE if white >> sq & 1
                   else self._board.EMPTY for sq in range(64)]
        colour = self._board.BLACK if state.to_move == 0 else self._board.WHITE
        random.seed(self.rng.getrandbits(63))
        answer = self._ai.OthelloAI(colour, self.level).choose_move(b)
        if answer is None:
            raise ParseError("cli-othello found no move where plies has one")
        row, col = answer
        move = row * 8 + col
        if move not in moves:
            raise ParseError(f"cli-othello chose an illegal move {state.move_str(move)}")
        return move


def _factory(game: str, params: dict[str, str], raw: str) -> players.Player:
    if game != "othello":
        raise ParseError(f"cli-othello plays Othello only, not {game}")
    unknown = set(params) - {"level", "seed"}
    if unknown:
        raise ParseError(f"unknown option(s) for clio: {', '.join(sorted(unknown))} (use level, seed)")
    try:
        level = int(params.get("level", "5"))
        seed = int(params["seed"]) if "seed" in params else None
    except ValueError:
        raise ParseError("clio options level and seed must be whole numbers") from None
    return CliOthelloPlayer(level, seed)


players.register("clio", _factory)

__all__ = ["CliOthelloPlayer"]
