"""A broken agent: it thinks for a minute before its third move (sleeping past the move time)."""
import time

from plies.players import Player, register


class Frank(Player):
    name = "frank"

    def __init__(self):
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves == 3:
            time.sleep(60)
        return state.legal_moves()[0]


register("frank", lambda game, params, raw: Frank())
