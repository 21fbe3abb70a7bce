"""A good agent: the move that turns the most discs (the lab notes' greedy player)."""
from plies.players import Player, register


class Carol(Player):
    name = "carol"

    def choose(self, state):
        me = state.to_move
        return max(state.legal_moves(), key=lambda m: state.play(m).counts()[me])


register("carol", lambda game, params, raw: Carol())
