"""A good agent that is only an evaluation: plies' alpha-beta searches with it."""
from plies.heuristics import Heuristic, register


def mobility(state, me):
    return state.move_mask(me).bit_count() - state.move_mask(1 - me).bit_count()


register(Heuristic("bob-mobility", "hexthello", mobility, "mobility difference"))
