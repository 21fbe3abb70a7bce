"""Monte Carlo tree search (UCT): visit counts that add up, the moves a tic-tac-toe player must find, the same
moves from the same seed, the mcts player kind, and its picture read back from the SVG."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest

from plies.draw.tree import mcts_nodes, mcts_scene
from plies.game import ParseError
from plies.games import OthelloState, TicTacToeState
from plies.players import parse_player
from plies.search import mcts
from plies.search.mcts import MCTNode, ucb

SVG_NS = "{http://www.w3.org/2000/svg}"


def test_visits_add_up() -> None:
    s = TicTacToeState.start()
    r = mcts(s, 400, seed=1)
    root = r.tree
    assert root.N == 400 and r.stats.leaves == 400
    assert sum(c.N for c in root.children.values()) == 400        # every playout starts below the root
    for n in root.walk():
        assert 0 <= n.U <= n.N
        if n.children:          # its own first playout, then its children's (the root's all below it)
            assert n.N == sum(c.N for c in n.children.values()) + (n is not root)
            assert set(n.children) == set(n.state.legal_moves())
        else:                   # a leaf: visited at most once, unless it is a finished game
            assert n.N <= 1 or n.state.is_over()
    assert r.stats.nodes == root.size() == sum(1 for _ in root.walk())
    assert r.move == root.best_child().move and r.pv[0] == r.move
    assert -1 <= r.value <= 1


@pytest.mark.parametrize(("position", "must"), [
    ("XX-OO----X", "c1"),        # X completes the top row
    ("XO-X-O---O", "a3"),        # O blocks the a-column
    ("OO-XX----X", "c2"),        # X wins on the middle row rather than blocking
])
def test_finds_the_forced_moves(position: str, must: str) -> None:
    s = TicTacToeState.from_text(position)
    for seed in (1, 2, 3):
        assert s.move_str(mcts(s, 600, seed=seed).move) == must


def test_same_seed_same_tree() -> None:
    s = OthelloState.start()
    a, b = mcts(s, 150, seed=9), mcts(s, 150, seed=9)
    assert a.move == b.move and a.pv == b.pv
    assert [n.N for n in a.tree.walk()] == [n.N for n in b.tree.walk()]


def test_ucb_prefers_the_unvisited_and_the_winning() -> None:
    root = MCTNode(TicTacToeState.start(), N=10)
    fresh, good, bad = (MCTNode(root.state.play(m), root, m) for m in (0, 1, 2))
    good.U, good.N, bad.U, bad.N = 4.0, 5, 1.0, 5
    assert ucb(fresh) == math.inf and ucb(good) > ucb(bad)
    assert ucb(good, 0) == pytest.approx(0.8)                      # c = 0: the mean alone


def test_a_finished_game_and_bad_arguments() -> None:
    over = TicTacToeState.from_text("XXXOO----O")
    r = mcts(over, 5, seed=1)
    assert r.move is None and r.tree.N == 5 and not r.tree.children
    with pytest.raises(ValueError):
        mcts(TicTacToeState.start(), 0)
    with pytest.raises(ValueError):
        mcts(TicTacToeState.start(), 10, c=-1)


def test_player_kind() -> None:
    p = parse_player("mcts:iterations=300,seed=4", "tictactoe")
    s = TicTacToeState.from_text("XX-OO----O")
    assert s.move_str(p.choose(s)) == "c2"                         # O wins at once
    assert p.last_result is not None and p.last_result.tree.N == 300
    assert parse_player("mcts", "othello").name == "mcts:iterations=1000"
    for bad, words in (("mcts:iterations=0", "iterations"), ("mcts:c=-2", "exploration"),
                       ("mcts:depth=3", "unknown option"), ("mcts:n=many", "whole number")):
        with pytest.raises(ParseError, match=words):
            parse_player(bad, "tictactoe")


def test_never_loses_to_random_at_tictactoe() -> None:
    from plies.match import play_game

    for seed in range(4):
        for first in (0, 1):
            players = [parse_player(f"mcts:iterations=400,seed={seed}", "tictactoe"),
                       parse_player(f"random:seed={seed}", "tictactoe")]
            if first:
                players.reverse()
            rec = play_game(TicTacToeState.start(), players)
            assert rec.winner is None or rec.players[rec.winner].startswith("mcts")


def test_picture() -> None:
    r = mcts(TicTacToeState.from_text("XO-X-O---O"), 300, seed=1)
    nodes = {n.id: n for n in mcts_nodes(r.tree, depth=2, top=2)}
    root = r.tree
    assert nodes["r"].value == "N=300"
    kids = [n for n in nodes.values() if n.parent == "r"]
    assert len(kids) == len(root.children)                          # every move of the root is drawn
    for i, (move, child) in enumerate(root.children.items()):
        assert nodes[f"r.{i}"].value == f"{child.U:g}/{child.N}"
        assert nodes[f"r.{i}"].edge == root.state.move_str(move)
    assert all(sum(1 for n in nodes.values() if n.parent == k.id) <= 2 for k in kids)
    best = list(root.children).index(r.move)
    assert "pv" in nodes[f"r.{best}"].marks
    svg = mcts_scene(r.tree).to_svg()
    moves = [t.text for t in ET.fromstring(svg).iter(SVG_NS + "text") if t.get("class") == "move"]
    assert set(root.state.move_str(m) for m in root.children) <= set(moves)
    assert root._repr_svg_().startswith("<svg")
