"""A broken agent: its evaluation divides by zero once the board fills up (a crash in the middle of a game)."""
from plies.players import Player, register


class Dave(Player):
    name = "dave"

    def choose(self, state):
        black, white = state.counts()
        if black + white > 20:
            return state.legal_moves()[0] // (black - black)
        return state.legal_moves()[-1]


register("dave", lambda game, params, raw: Dave())
