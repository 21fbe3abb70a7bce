"""A broken agent: at its fifth move it ends the whole interpreter (as a C extension's crash would)."""
import os

from plies.players import Player, register


class Ivan(Player):
    name = "ivan"

    def __init__(self):
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves == 5:
            os._exit(3)
        return state.legal_moves()[len(state.legal_moves()) // 2]


register("ivan", lambda game, params, raw: Ivan())
