"""Nodes per second of plies' textbook alpha-beta vs OpenSpiel's Python ``alpha_beta_search`` on Othello.

What it compares: plies' textbook alpha-beta (pure Python, game-agnostic) on its bitboard Othello against
OpenSpiel's Python alpha-beta on OpenSpiel's (C++) ``othello`` game, in nodes per second, on the same positions
at the same depth with the same evaluation (disc difference from the maximizing player's
view).  plies' 8x8 rules run compiled kernels (C) under the Python ``OthelloState``, as OpenSpiel's run
C++ under its Python API; with PLIES_PURE_PYTHON=1 they are pure Python too, and the script says which.

How it is made fair:

- Positions: seeded random playouts from the standard start (plies' rules); each is replayed move by move in
  OpenSpiel (both number squares a1=0 .. h8=63 row by row; OpenSpiel's pass is action 64) and the two boards are
  checked to be identical.
- Both searches order moves by ascending square and cut off on the same condition, so with equal leaf values
  they walk the same tree.  Terminal values differ (plies: +-1e6 + disc margin, OpenSpiel: +-1), which can
  change pruning only where a game ends inside the horizon; the script prints both node counts and their
  ratio so any difference is visible.
- Nodes = calls of the recursive search function, root included (plies' ``Stats.nodes``).  OpenSpiel's
  ``_alpha_beta`` is counted in a separate, untimed run by wrapping the module-level function (the recursion
  looks it up by name); the timed OpenSpiel run is the unmodified library code.
- OpenSpiel's evaluation counts discs through its Python API in the cheapest way found: the board text of
  ``observation_string`` or the planes of ``observation_tensor`` (empty, mine, theirs) with ``str.count`` /
  ``list.count`` in C.  Both are checked to agree, the faster is used, and both costs are printed.  plies
  uses its ``discs`` heuristic.
- Each search is run ``--repeat`` times and the fastest run counts, on both sides.  Time is the process's CPU
  time (``time.process_time``), not wall time, so other programs on a shared machine distort it less; the two
  sides alternate position by position.

Run:  python benchmarks/openspiel_alphabeta.py [--positions 20] [--depth 4] [--plies 10-30] [--seed 1]
Needs the ``bench`` extra:  pip install 'open-spiel>=1.5,<3'
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from plies import heuristics
from plies.game import PASS
from plies.games import OthelloState
from plies.games.othello import rules_for
from plies.search import alphabeta

try:
    import pyspiel
    from open_spiel.python.algorithms import minimax as os_minimax
except ImportError:  # pragma: no cover - a benchmark-only dependency
    sys.exit("OpenSpiel is not installed: pip install 'open-spiel>=1.5,<3' (the 'bench' extra)")

OS_PASS = 64


def random_positions(count: int, lo: int, hi: int, seed: int) -> list[tuple[OthelloState, list[int]]]:
    """(state, moves from the start) for ``count`` seeded random playouts of lo..hi plies that are not over."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s, moves = OthelloState.start(), []
        for _ in range(rng.randint(lo, hi)):
            if s.is_over():
                break
            m = rng.choice(s.legal_moves())
            moves.append(m)
            s = s.play(m)
        if not s.is_over():
            out.append((s, moves))
    return out


def to_openspiel(game: Any, moves: list[int]) -> Any:
    """Replay plies moves in OpenSpiel (same square numbering, pass = 64)."""
    st = game.new_initial_state()
    for m in moves:
        st.apply_action(OS_PASS if m == PASS else m)
    return st


def same_board(s: OthelloState, st: Any) -> bool:
    t = st.observation_tensor(0)  # planes: empty, player 0's (Black's) discs, player 1's (White's) discs
    black = sum(1 << i for i in range(64) if t[64 + i])
    white = sum(1 << i for i in range(64) if t[128 + i])
    return (black, white) == (s.black, s.white) and st.current_player() == s.to_move


def value_from_tensor(max_player: int) -> Callable[[Any], float]:
    """Disc difference from ``max_player``'s view via ``observation_tensor`` (planes: empty, mine, theirs)."""

    def value(state: Any) -> float:
        t = state.observation_tensor(max_player)
        return t[64:128].count(1.0) - t[128:192].count(1.0)

    return value


def value_from_string(max_player: int) -> Callable[[Any], float]:
    """Disc difference from ``max_player``'s view by counting 'x' (Black) and 'o' (White) in the board text.

    The first line ("Black (x) to play:") is dropped; the rest is the board with a-h/1-8 labels only.
    """
    sign = 1 if max_player == 0 else -1

    def value(state: Any) -> float:
        board = state.observation_string(0).partition("\n")[2]
        return sign * (board.count("x") - board.count("o"))

    return value


def fastest_value_function(st: Any, player: int, choice: str = "fastest") -> tuple[str, Callable, dict[str, float]]:
    """Check both ways agree on ``st`` and return the faster (fair to OpenSpiel) or the one asked for, with each
    one's cost in us per call."""
    costs = {}
    made = {"observation_string": value_from_string(player), "observation_tensor": value_from_tensor(player)}
    assert made["observation_string"](st) == made["observation_tensor"](st)
    for name, vf in made.items():
        runs = []
        for _ in range(5):
            t0 = time.process_time()
            for _ in range(2000):
                vf(st)
            runs.append((time.process_time() - t0) / 2000 * 1e6)
        costs[name] = min(runs)
    best = min(costs, key=costs.get) if choice == "fastest" else f"observation_{choice}"
    return best, made[best], costs


def count_openspiel_nodes(game: Any, st: Any, depth: int, vf: Callable[[Any], float], player: int) -> tuple:
    """(nodes, value, action) of OpenSpiel's alpha-beta, counting calls of its recursive ``_alpha_beta``."""
    original = os_minimax._alpha_beta
    calls = 0

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        return original(*args, **kwargs)

    os_minimax._alpha_beta = counted
    try:
        value, action = os_minimax.alpha_beta_search(game, st.clone(), vf, depth, player)
    finally:
        os_minimax._alpha_beta = original
    return calls, value, action


def best_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs in CPU seconds, and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.process_time()
        result = fn()
        best = min(best, time.process_time() - t0)
    return best, result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--plies", default="10-30", help="random playout length range, e.g. 10-30")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--value-function", choices=["fastest", "string", "tensor"], default="fastest",
                    help="how OpenSpiel's evaluation counts discs (default: the faster of the two)")
    args = ap.parse_args(argv)
    lo, _, hi = args.plies.partition("-")
    positions = random_positions(args.positions, int(lo), int(hi or lo), args.seed)
    game = pyspiel.load_game("othello")
    discs = heuristics.get("othello", "discs")

    print(f"Othello alpha-beta, depth {args.depth}, {len(positions)} positions (seed {args.seed}, "
          f"{args.plies} random plies), evaluation: disc difference; best of {args.repeat} runs, CPU time")
    compiled = rules_for(8).play.__module__.endswith("othello_kernels")
    print("plies' 8x8 rules: " + ("compiled kernels (C)" if compiled else "pure Python (PLIES_PURE_PYTHON=1)"))
    print(f"{'#':>3} {'empties':>7} {'plies nodes':>12} {'OS nodes':>9} {'plies n/s':>10} {'OS n/s':>9} "
          f"{'ratio':>6}  same value/move")
    tot = {"pn": 0, "pt": 0.0, "on": 0, "ot": 0.0}
    agree = 0
    for i, (s, moves) in enumerate(positions, 1):
        st = to_openspiel(game, moves)
        if not same_board(s, st):
            raise SystemExit(f"position {i}: OpenSpiel's board differs from plies' after {moves}")
        player = s.to_move
        vf_name, vf, vf_costs = fastest_value_function(st, player, args.value_function)
        pt, pr = best_time(lambda s=s: alphabeta(s, args.depth, discs), args.repeat)
        ot, _ = best_time(
            lambda st=st, vf=vf, player=player: os_minimax.alpha_beta_search(game, st.clone(), vf, args.depth, player),
            args.repeat,
        )
        on, ov, oa = count_openspiel_nodes(game, st, args.depth, vf, player)
        same = pr.value == ov and (OS_PASS if pr.move == PASS else pr.move) == oa
        agree += same
        pn = pr.stats.nodes
        tot["pn"] += pn
        tot["pt"] += pt
        tot["on"] += on
        tot["ot"] += ot
        print(f"{i:>3} {s.empties():>7} {pn:>12,} {on:>9,} {pn / pt:>10,.0f} {on / ot:>9,.0f} "
              f"{(pn / pt) / (on / ot):>6.2f}  {'yes' if same else 'no (terminal values differ)'}")

    plies_rate = tot["pn"] / tot["pt"]
    os_rate = tot["on"] / tot["ot"]
    print()
    print(f"plies alpha-beta:     {tot['pn']:>10,} nodes in {tot['pt']:.3f} s = {plies_rate:>10,.0f} nodes/s")
    print(f"OpenSpiel alpha-beta: {tot['on']:>10,} nodes in {tot['ot']:.3f} s = {os_rate:>10,.0f} nodes/s")
    print(f"  (OpenSpiel's value function: {vf_name}; costs "
          + ", ".join(f"{k} {v:.1f} us" for k, v in vf_costs.items()) + " per call on the last position)")
    nodes_note = "identical" if tot["pn"] == tot["on"] else f"differ (plies/OpenSpiel {tot['pn'] / tot['on']:.3f})"
    print(f"same value and move on {agree}/{len(positions)} positions; node counts {nodes_note}")
    ratio = plies_rate / os_rate
    print(f"ratio plies / OpenSpiel: {ratio:.2f}x  (target >= 3x: {'met' if ratio >= 3 else 'NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
