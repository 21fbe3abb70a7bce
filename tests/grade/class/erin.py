"""A broken agent: from its third move on it answers the centre, which is never empty (an illegal move)."""
from plies.players import Player, register


class Erin(Player):
    name = "erin"

    def __init__(self):
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        return 7 * 15 + 7 if self.moves >= 3 else state.legal_moves()[0]


register("erin", lambda game, params, raw: Erin())
