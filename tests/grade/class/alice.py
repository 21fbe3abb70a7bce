"""A good agent: alpha-beta with its own evaluation (the one of docs/agent.md, at depth 2)."""
import math

from plies.games.hexthello import CORNERS
from plies.players import Player, register


def evaluate(state, me):
    black, white = state.counts()
    discs = black - white if me == 0 else white - black
    corners = sum(1 if state[c] == me else -1 for c in CORNERS if state[c] is not None)
    mobility = state.move_mask(me).bit_count() - state.move_mask(1 - me).bit_count()
    return discs + 10 * corners + 2 * mobility


def alphabeta(state, depth, alpha, beta, me):
    if depth == 0 or state.is_over():
        return evaluate(state, me), None
    best = None
    for move in state.legal_moves():
        value, _ = alphabeta(state.play(move), depth - 1, alpha, beta, me)
        if state.to_move == me and value > alpha:
            alpha, best = value, move
        elif state.to_move != me and value < beta:
            beta, best = value, move
        if alpha >= beta:
            break
    return (alpha if state.to_move == me else beta), best


class Alice(Player):
    name = "alice"

    def choose(self, state):
        return alphabeta(state, 2, -math.inf, math.inf, state.to_move)[1]


register("alice", lambda game, params, raw: Alice())
