"""A broken hand-in: it defines a player but never registers it, so nothing can play it."""
from plies.players import Player


class Heidi(Player):
    name = "heidi"

    def choose(self, state):
        return state.legal_moves()[0]
