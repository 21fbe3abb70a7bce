"""Heuristics, the textbook searches on HexThello, and the compiled searcher against them."""

from __future__ import annotations

import random

import pytest

from plies import heuristics
from plies.game import PASS, WIN
from plies.games.hexthello import CORNERS, HexThelloState, index
from plies.heuristics.hexthello import stability_table
from plies.hexsearch import HexEngine, compiled_perft, doc004_move, doc004_value
from plies.hexsearch import kernels as k
from plies.players import parse_player
from plies.players.hexthello import Doc004Player, HexEnginePlayer
from plies.search import alphabeta, minimax

from .conftest import near_end_positions


def random_positions(n: int, seed: int = 1, plies: tuple[int, int] = (4, 60)) -> list[HexThelloState]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        s = HexThelloState.start()
        for _ in range(rng.randint(*plies)):
            if s.is_over():
                break
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_over():
            out.append(s)
    return out


def test_heuristics_are_registered_and_zero_sum() -> None:
    names = heuristics.names("hexthello")
    for expected in ("discs", "mobility", "corners", "edges", "disc-mobility-stability"):
        assert expected in names
    assert heuristics.get("hexthello", "doc004").name == "disc-mobility-stability"
    for s in random_positions(8):
        for name in names:
            h = heuristics.get("hexthello", name)
            assert h(s, 0) == -h(s, 1), name


def test_stability_table_follows_document_004() -> None:
    t = stability_table()
    assert all(t[index(*c)] == 10 for c in CORNERS)
    assert t[index(0, 10)] == 5 and t[index(1, 7)] == -10 and t[index(1, 9)] == -5
    assert t[index(3, 7)] == 3 and t[index(7, 7)] == 0 and t[index(0, 0)] == 0
    assert sum(1 for v in t if v == 10) == 6 and sum(1 for v in t if v == 5) == 36


def test_textbook_searches_work_unchanged() -> None:
    s = HexThelloState.start()
    h = heuristics.get("hexthello", "doc004")
    mm = minimax(s, 3, h)
    ab = alphabeta(s, 3, h)
    off = alphabeta(s, 3, h, pruning=False)
    assert mm.value == ab.value == off.value and mm.move == ab.move
    assert ab.stats.nodes < mm.stats.nodes == off.stats.nodes
    player = parse_player("alphabeta:depth=2,eval=mobility", "hexthello")
    assert player.choose(s) in s.legal_moves()


def test_compiled_perft_is_a_third_generator() -> None:
    from plies.games.hexthello import perft_hex

    s = HexThelloState.start()
    assert compiled_perft(s, 5) == perft_hex(*s.own_opp(), 5)
    for p in random_positions(4, seed=5):
        assert compiled_perft(p, 3) == perft_hex(*p.own_opp(), 3)


@pytest.mark.parametrize("depth", [1, 2, 3])
def test_doc004_kernel_equals_textbook_alphabeta(depth: int) -> None:
    h = heuristics.get("hexthello", "doc004")
    for s in random_positions(5, seed=depth, plies=(2, 30)):
        textbook = alphabeta(s, depth, h)
        if abs(textbook.value) >= WIN:
            continue  # the course's agent scores finished games with its evaluation, not as wins
        assert doc004_value(s, depth) == textbook.value
        assert doc004_value(s, depth, prune=False) == textbook.value


def test_doc004_root_keeps_the_last_best_move() -> None:
    s = HexThelloState.start()
    h = heuristics.get("hexthello", "doc004")
    values = {m: -alphabeta(s.play(m), 2, h).value for m in s.legal_moves()}
    best = max(values.values())
    move, value, _ = doc004_move(s, 3)
    assert value == best and move == [m for m in s.legal_moves() if values[m] == best][-1]


def test_engine_plays_legal_moves_and_passes() -> None:
    engine = HexEngine(table_bits=12)
    for s in random_positions(6, seed=11):
        r = engine.search(s, depth=3)
        assert r.move in s.legal_moves() and r.depth == 3
    forced = HexThelloState(sum(1 << index(*c) for c in ((7, 0), (7, 1))), 1 << index(7, 2), 1)
    assert engine.search(forced, depth=4).move == PASS


def test_engine_exact_endgame_matches_minimax() -> None:
    for near in near_end_positions(4, 3, 7):
        exact = minimax(near, 20, heuristics.get("hexthello", "discs"))
        r = HexEngine(table_bits=12).search(near, depth=20)
        assert r.exact and r.value == exact.value


def test_player_specs() -> None:
    s = HexThelloState.start()
    p = parse_player("hexengine:depth=3", "hexthello")
    assert isinstance(p, HexEnginePlayer) and p.choose(s) in s.legal_moves()
    assert p.last_result is not None and p.last_result.stats.depth == 3
    q = parse_player("doc004:depth=2,pruning=off", "hexthello")
    assert isinstance(q, Doc004Player) and not q.pruning and q.choose(s) in s.legal_moves()
    t = HexEnginePlayer(seconds=0.05)
    assert t.choose(s) in s.legal_moves()


def test_kernels_reject_bad_input() -> None:
    import numpy as np

    s = HexThelloState.start()
    board = k.to_padded(s.black, s.white)
    tables = k.new_tables(8)
    assert k.perft(board, k.BLACK, 3) == compiled_perft(s, 3)
    with pytest.raises(ValueError):
        k.perft(board, 3, 2)  # no such side
    with pytest.raises(ValueError):
        k.perft(board, k.BLACK, -1)
    with pytest.raises(ValueError):
        k.perft(board[:100], k.BLACK, 2)  # too short
    with pytest.raises(TypeError):
        k.perft(board.astype(np.int64), k.BLACK, 2)  # wrong item type
    broken = board.copy()
    broken[0] = k.EMPTY  # a hole in the wall
    with pytest.raises(ValueError):
        k.perft(broken, k.BLACK, 2)
    broken = board.copy()
    broken[k.CELLS[80]] = 7
    with pytest.raises(ValueError):
        k.eval_engine(broken, k.BLACK)
    with pytest.raises(ValueError):
        k.doc004_root(board, k.BLACK, 0, True)
    with pytest.raises(ValueError):
        k.root_search(board, k.BLACK, 3, *tables[:5], np.zeros(10, np.int64), 1 << 40, -1)  # history too small
    with pytest.raises(ValueError):
        k.root_search(board, k.BLACK, 3, tables[0][:100], *tables[1:], 1 << 40, -1)  # not a power of two
    with pytest.raises(TypeError):
        k.root_search(board, k.BLACK, 3, tables[0], tables[0], *tables[2:], 1 << 40, -1)  # int64 values
    p, v, nodes, aborted = k.root_search(board, k.BLACK, 3, *tables, 1 << 40, 12345)  # a stray first move is ignored
    assert not aborted and p in k.gen_moves(board, k.BLACK)


def test_node_limit_stops_the_search() -> None:
    s = HexThelloState.start()
    board = k.to_padded(s.black, s.white)
    tables = k.new_tables(12)
    p, v, nodes, aborted = k.root_search(board, k.BLACK, 12, *tables, 500, -1)
    assert aborted and 500 < nodes < 510  # (a re-search may count a node or two more)
    report = HexEngine(table_bits=12).search(s, seconds=0.2)
    assert report.depth >= 4 and report.seconds < 2


def test_searches_run_in_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    positions = random_positions(4, seed=5)
    want = [HexEngine(table_bits=14).search(p, depth=4) for p in positions]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda p: HexEngine(table_bits=14).search(p, depth=4), positions))
    assert [(r.move, r.value, r.nodes) for r in got] == [(r.move, r.value, r.nodes) for r in want]
