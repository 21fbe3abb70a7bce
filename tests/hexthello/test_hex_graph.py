"""The evaluation graph of a HexThello game does not zigzag: every position is searched so that its horizon falls
on Black's move, so a heuristic that favours the side that moved last values consecutive positions alike."""

from __future__ import annotations

import statistics

from plies.analysis.position import analyse_position, leaf_depth
from plies.games import start_position
from plies.players import parse_player


def test_graph_values_stay_put_along_a_game() -> None:
    s = start_position("hexthello")
    player = parse_player("alphabeta:depth=2", "hexthello")
    values = []
    for _ in range(16):
        values.append(analyse_position(s, level=6)["value"])
        s = s.play(player.choose(s))
    changes = [abs(a - b) for a, b in zip(values, values[1:], strict=False)]
    # a search whose horizon alternated sides swung by 60-100 points every move on this game
    assert statistics.mean(changes) < 25
    assert all(leaf_depth(3, side) % 2 == (1 if side else 0) for side in (0, 1))
