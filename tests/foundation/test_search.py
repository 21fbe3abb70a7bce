"""Textbook minimax and alpha-beta: document 000's tree, and agreement on random Othello positions."""

from __future__ import annotations

import math
import random

import pytest

from plies import heuristics
from plies.game import PASS, ParseError
from plies.games import OthelloState, TreeState, parse_position
from plies.games.tree import parse_tree
from plies.search import RecordingTracer, alphabeta, minimax

from . import naive_othello as naive

DOC000 = "[[3,12,8],[2,4,6],[14,5,2]]"
LEAF = heuristics.get("tree", "leaf")


# --- document 000's worked example --------------------------------------------------------------------------

def leaf_paths(tracer: RecordingTracer) -> list[tuple[int, ...]]:
    return [node.path for node in tracer.leaves()]


def test_document_000_tree_minimax() -> None:
    s = parse_position(DOC000)
    assert isinstance(s, TreeState)
    tracer = RecordingTracer()
    r = minimax(s, 2, LEAF, tracer=tracer)
    assert r.value == 3
    assert r.move == 0  # B
    assert r.pv == [0, 0]  # B, then its first leaf (3)
    assert r.stats.nodes == 13 and r.stats.leaves == 9
    assert len(leaf_paths(tracer)) == 9


def test_document_000_tree_alphabeta_skips_cs_last_two_leaves() -> None:
    s = parse_position(DOC000)
    tracer = RecordingTracer()
    r = alphabeta(s, 2, LEAF, tracer=tracer)
    assert r.value == 3 and r.move == 0 and r.pv == [0, 0]
    seen = leaf_paths(tracer)
    # B's three leaves, C's first (2 <= 3 = alpha: alpha cut-off), all of D's (14, 5, 2: 2 comes last)
    assert seen == [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (2, 1), (2, 2)]
    assert (1, 1) not in seen and (1, 2) not in seen
    assert r.stats.leaves == 7 and r.stats.nodes == 11
    assert r.stats.alpha_cutoffs == 2 and r.stats.beta_cutoffs == 0
    cut = [e for e in tracer.events if e.kind.endswith("cutoff")]
    assert [e.node.path for e in cut] == [(1,), (2,)]
    assert cut[0].kind == "alpha-cutoff" and cut[0].skipped == [1, 2]
    assert cut[0].value == 2 and cut[0].alpha == 3
    # pruning off: every leaf is evaluated again, like minimax
    off = RecordingTracer()
    r2 = alphabeta(s, 2, LEAF, pruning=False, tracer=off)
    assert r2.value == 3 and len(leaf_paths(off)) == 9 and r2.stats.cutoffs == 0


def test_document_000_tree_depth_is_unbounded_enough() -> None:
    """Searching deeper than the tree changes nothing; the tree's leaves are its end."""
    s = parse_position(DOC000)
    assert minimax(s, 10, LEAF).value == 3
    assert alphabeta(s, 10, LEAF).value == 3
    # from MIN's node C the value is from C's mover (MIN): MIN gets -2 at best
    c = s.play(1)
    assert minimax(c, 1, LEAF).value == -2 and minimax(c, 1, LEAF).move == 0


def test_hand_worked_beta_cutoff() -> None:
    """MAX root -> MIN node -> MAX nodes: a beta cut-off at the second MAX node, by hand.

    Tree [[[4, 6], [7, 9]], [[1, 2], [0, 3]]]:  left MIN: MAX(4,6)=6, then MAX(7, ...) - 7 >= beta 6, cut-off
    (9 never seen), so left = 6.  Right MIN (alpha 6): MAX(1,2)=2 <= 6, cut-off, [0,3] never opened.  Value 6.
    """
    s = parse_position("[[[4,6],[7,9]],[[1,2],[0,3]]]")
    t = RecordingTracer()
    r = alphabeta(s, 3, LEAF, tracer=t)
    assert r.value == 6 and r.move == 0 and r.pv == [0, 0, 1]
    assert leaf_paths(t) == [(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0), (1, 0, 1)]
    assert r.stats.beta_cutoffs == 1 and r.stats.alpha_cutoffs == 1
    assert minimax(s, 3, LEAF).value == 6


@pytest.mark.parametrize(
    "text", ['{"children": 5}', '{"value": [1, 2]}', '{"value": "x"}', "[1, [2, []]]", "[true, 1]", "[1, null]",
             "[[1,2],[3", '{"label": "A"}', "[" * 3000 + "1" + "]" * 3000],
)
def test_malformed_trees_raise_parse_errors(text: str) -> None:
    with pytest.raises(ParseError):
        parse_tree(text)


def test_labelled_trees() -> None:
    labelled = (
        '{"label": "A", "children": [{"label": "B", "children": [3, 12, 8]},'
        ' {"label": "C", "children": [2, 4, 6]}, {"label": "D", "children": [14, 5, 2]}]}'
    )
    s = parse_position(labelled)
    r = alphabeta(s, 2, LEAF)
    assert r.value == 3 and s.move_str(r.move) == "B"
    assert s.parse_move("C") == 1
    assert TreeState(parse_tree(s.to_text().split("@")[0])).legal_moves() == [0, 1, 2]


# --- random Othello positions --------------------------------------------------------------------------------

def random_positions(count: int, seed: int, n: int = 8, min_plies: int = 0, max_plies: int = 60) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board, player, _ = naive.random_playout(n, rng.randint(min_plies, max_plies), rng)
        out.append(OthelloState(*naive.to_bitboards(board), player, n))
    return out


def replay_value(state, pv, depth, evaluate) -> float:
    """The value at the end of the principal variation, from the root player's view."""
    root = state.to_move
    for m in pv:
        state = state.play(m)
    if state.is_over():
        return state.utility(root)
    assert len(pv) == depth, "a PV stops early only at a finished game"
    return evaluate(state, root)


def check_agreement(state, depth: int, h, with_pruning_off: bool) -> None:
    mm = minimax(state, depth, h)
    ab = alphabeta(state, depth, h)
    assert ab.value == mm.value, (state.to_text(), depth, h.name)
    assert ab.move == mm.move, (state.to_text(), depth, h.name)
    assert ab.pv == mm.pv
    assert ab.stats.nodes <= mm.stats.nodes and ab.stats.leaves <= mm.stats.leaves
    assert mm.stats.cutoffs == 0
    if state.is_over():
        assert mm.move is None and mm.pv == [] and mm.stats.nodes == 1
    else:
        assert mm.move in state.legal_moves() and mm.pv[0] == mm.move
        assert replay_value(state, mm.pv, depth, h) == mm.value
    if with_pruning_off:
        off = alphabeta(state, depth, h, pruning=False)
        assert off.stats.nodes == mm.stats.nodes and off.stats.leaves == mm.stats.leaves
        assert off.value == mm.value and off.move == mm.move and off.pv == mm.pv
        assert off.stats.cutoffs == 0


# the textbook's own evaluations; plies.train's 'learned' is tested in tests/train and tests/engine
OTHELLO_HEURISTICS = [
    n for n in heuristics.names("othello")
    if n in ("discs", "parity-mobility-corners", "corner-edge-blocking", "disc-mobility-stability", "weighted-squares")
]


def test_all_document_heuristics_are_registered() -> None:
    assert set(OTHELLO_HEURISTICS) >= {
        "discs", "parity-mobility-corners", "corner-edge-blocking", "disc-mobility-stability", "weighted-squares",
    }
    for alias, name in (("doc000", "parity-mobility-corners"), ("doc001", "corner-edge-blocking"),
                        ("doc004", "disc-mobility-stability")):
        assert heuristics.get("othello", alias).name == name


@pytest.mark.parametrize("name", OTHELLO_HEURISTICS)
def test_minimax_equals_alphabeta_depth_1_2_on_200_positions(name: str) -> None:
    h = heuristics.get("othello", name)
    for i, s in enumerate(random_positions(200, seed=1)):
        check_agreement(s, 1, h, with_pruning_off=True)
        check_agreement(s, 2, h, with_pruning_off=i % 8 == 0)


@pytest.mark.parametrize("name", OTHELLO_HEURISTICS)
def test_minimax_equals_alphabeta_depth_3(name: str) -> None:
    h = heuristics.get("othello", name)
    for i, s in enumerate(random_positions(20, seed=2 + len(name))):
        check_agreement(s, 3, h, with_pruning_off=i % 10 == 0)


@pytest.mark.parametrize("name", OTHELLO_HEURISTICS)
def test_minimax_equals_alphabeta_depth_4_late_and_small(name: str) -> None:
    """Depth 4 where the tree is small: 8x8 positions with few empties, and 6x6 positions."""
    h = heuristics.get("othello", name)
    late = random_positions(6, seed=3, min_plies=48, max_plies=56)
    small = random_positions(4, seed=4, n=6, min_plies=14, max_plies=26)
    for s in late + small:
        check_agreement(s, 4, h, with_pruning_off=False)


@pytest.mark.slow
@pytest.mark.parametrize("name", OTHELLO_HEURISTICS)
def test_minimax_equals_alphabeta_depth_3_on_200_positions(name: str) -> None:
    h = heuristics.get("othello", name)
    for s in random_positions(200, seed=5):
        check_agreement(s, 3, h, with_pruning_off=False)


def test_search_through_a_forced_pass() -> None:
    board = [[naive.EMPTY] * 8 for _ in range(8)]
    board[0][0], board[0][1] = naive.WHITE, naive.BLACK
    s = OthelloState(*naive.to_bitboards(board), 0, 8)
    h = heuristics.get("othello", "discs")
    for d in (1, 2, 3):
        mm, ab = minimax(s, d, h), alphabeta(s, d, h)
        assert mm.move == ab.move == PASS
        assert mm.value == ab.value
    # Black passes, White plays c1 and wipes Black out: a lost game for Black, 64 discs down
    r = minimax(s, 3, h)
    assert r.pv == [PASS, 2] and r.value == -1_000_000 - 64


def test_finished_games_outrank_heuristics() -> None:
    """A won end position beats any heuristic value (WIN offset), with the margin kept."""
    h = heuristics.get("othello", "corner-edge-blocking")
    # Black to move; d4 X, e4 O: f4 wipes White out (a win), any heuristic value is smaller
    s = OthelloState(1 << 27, 1 << 28, 0, 8)
    r = alphabeta(s, 3, h)
    assert r.move == 29 and r.value == 1_000_000 + 64
    assert r.describe() == "win by 64"


def test_alphabeta_with_an_order_function_keeps_the_value() -> None:
    h = heuristics.get("othello", "weighted-squares")

    def reverse(state, moves):
        return list(reversed(moves))

    for s in random_positions(20, seed=9):
        base = minimax(s, 3, h)
        ordered = alphabeta(s, 3, h, order=reverse)
        assert ordered.value == base.value
        if not s.is_over():
            assert ordered.move in s.legal_moves()


def test_search_result_json_form() -> None:
    s = OthelloState.start()
    r = alphabeta(s, 3, heuristics.get("othello", "discs"))
    d = r.to_dict(s)
    assert d["move"] == s.move_str(r.move) and len(d["pv"]) == 3
    assert d["value"] == r.value and d["stats"]["nodes"] == r.stats.nodes
    assert set(d["stats"]) >= {"nodes", "leaves", "alpha_cutoffs", "beta_cutoffs", "seconds"}
    assert math.isfinite(r.stats.seconds) and r.stats.seconds >= 0
    assert r.stats.depth == 3
