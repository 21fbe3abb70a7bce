"""HexThello strength: one player against another over pairs of games from the same random opening with the
colours swapped.  Prints every game, the score with an Elo-ish margin, and the time each side took.

By default plies' compiled engine (learned evaluation, the machine's cores) against a document-004-style agent
(its alpha-beta at depth 5, evaluation 10*discs + 5*mobility + 3*stability); any two player specs can be set:

    .venv/bin/python benchmarks/hexthello_strength.py [--games 20] [--time 0.25] [--depth N] [--doc-depth 5]
                                                      [--opening-plies 4] [--seed 1000]
    .venv/bin/python benchmarks/hexthello_strength.py --games 100 --time 0.1 --versus classic   # today's engine
    .venv/bin/python benchmarks/hexthello_strength.py --a hexengine:time=0.1,threads=1 \\
                                                      --b hexengine:time=0.1,eval=classic,threads=1 --games 100

``--versus classic`` plays ``hexengine:time=T`` (learned evaluation, default threads) against
``hexengine:time=T,eval=classic,threads=1``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time

import plies.players.hexthello  # noqa: F401  (registers hexengine and doc004)
from plies.games.hexthello import HexThelloState
from plies.match.record import play_game
from plies.players import parse_player


def opening(seed: int, plies: int) -> HexThelloState:
    rng = random.Random(seed)
    s = HexThelloState.start()
    for _ in range(plies):
        s = s.play(rng.choice(s.legal_moves()))
    return s


def elo(score: float) -> float:
    """Elo difference of an expected score (capped at +-800)."""
    score = min(max(score, 1e-3), 1 - 1e-3)
    return max(-800.0, min(800.0, -400 * math.log10(1 / score - 1)))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games (an even number: pairs with colours swapped)")
    ap.add_argument("--time", type=float, default=0.25, help="engine seconds per move")
    ap.add_argument("--depth", type=int, default=None, help="engine fixed depth instead of a time")
    ap.add_argument("--doc-depth", type=int, default=5, help="depth of the document-004 agent")
    ap.add_argument("--versus", choices=["doc004", "classic"], default="doc004",
                    help="the default opponent: document 004's agent, or the engine with its classic evaluation "
                         "on one thread")
    ap.add_argument("--a", default=None, help="player spec of side A (default: the engine at --time/--depth)")
    ap.add_argument("--b", default=None, help="player spec of side B (default: see --versus)")
    ap.add_argument("--opening-plies", type=int, default=4, help="random plies before each pair of games")
    ap.add_argument("--seed", type=int, default=1000, help="seed of the first opening (then +1 per pair)")
    args = ap.parse_args()
    limit = f"depth={args.depth}" if args.depth else f"time={args.time:g}"
    spec_a = args.a or f"hexengine:{limit}"
    spec_b = args.b or (f"doc004:depth={args.doc_depth}" if args.versus == "doc004"
                        else f"hexengine:{limit},eval=classic,threads=1")
    a, b = parse_player(spec_a, "hexthello"), parse_player(spec_b, "hexthello")
    a.name, b.name = f"A {spec_a}", f"B {spec_b}"
    points = wins = draws = losses = 0.0
    results: list[float] = []
    discs_for = discs_against = 0
    think = {a.name: [0.0, 0], b.name: [0.0, 0]}
    t_start = time.perf_counter()
    print(f"A = {spec_a}\nB = {spec_b}\n{args.games} games, openings of {args.opening_plies} random plies")
    for g in range(args.games):
        start = opening(args.seed + g // 2, args.opening_plies)
        a_black = g % 2 == 0
        players = (a, b) if a_black else (b, a)
        rec = play_game(start, players)
        for name, seconds in zip((players[start.to_move].name, players[1 - start.to_move].name) * 200, rec.times,
                                 strict=False):
            think[name][0] += seconds
            think[name][1] += 1
        bl, wh = (rec.final.count("X"), rec.final.count("O"))
        mine, theirs = (bl, wh) if a_black else (wh, bl)
        discs_for += mine
        discs_against += theirs
        me = 0 if a_black else 1
        if rec.winner is None:
            draws += 1
            results.append(0.5)
            res = "draw"
        elif rec.winner == me:
            wins += 1
            results.append(1.0)
            res = "win"
        else:
            losses += 1
            results.append(0.0)
            res = "loss"
        points += results[-1]
        print(f"game {g + 1:3d}: A {'black' if a_black else 'white'}  {mine:3d}-{theirs:<3d} {res}"
              f"  ({len(rec.moves)} plies)  running {points:g}/{g + 1}", flush=True)
    total = time.perf_counter() - t_start
    n = len(results)
    frac = points / n
    # the standard error from the pairs (a pair's two games share an opening)
    pairs = [sum(results[i:i + 2]) / len(results[i:i + 2]) for i in range(0, n, 2)]
    mean = sum(pairs) / len(pairs)
    sd = math.sqrt(sum((p - mean) ** 2 for p in pairs) / max(1, len(pairs) - 1))
    se = sd / math.sqrt(len(pairs))
    print(f"\nscore: A {points:g}/{n} ({100 * frac:.1f}%): {wins:g} wins, {draws:g} draws, {losses:g} losses; "
          f"discs {discs_for}-{discs_against}")
    print(f"Elo-ish margin of A: {elo(frac):+.0f} (score +-2 s.e. {100 * max(0, frac - 2 * se):.1f}%.."
          f"{100 * min(1, frac + 2 * se):.1f}%: {elo(frac - 2 * se):+.0f}..{elo(frac + 2 * se):+.0f})")
    for name, (secs, moves) in think.items():
        print(f"  {name}: {moves} moves, {secs / max(moves, 1):.3f} s a move")
    print(f"wall time {total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
