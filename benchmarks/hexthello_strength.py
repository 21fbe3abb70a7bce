"""HexThello strength: plies' compiled engine against a document-004-style agent (its alpha-beta at depth 5,
evaluation 10*discs + 5*mobility + 3*stability), over pairs of games from the same random opening with the
colours swapped.  Prints every game, the score and the time each side took.

    .venv/bin/python benchmarks/hexthello_strength.py [--games 20] [--time 0.25] [--depth N] [--doc-depth 5]
                                                      [--opening-plies 4] [--seed 1000]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from plies.games.hexthello import HexThelloState
from plies.match.record import play_game
from plies.players.hexthello import Doc004Player, HexEnginePlayer


def opening(seed: int, plies: int) -> HexThelloState:
    rng = random.Random(seed)
    s = HexThelloState.start()
    for _ in range(plies):
        s = s.play(rng.choice(s.legal_moves()))
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games (an even number: pairs with colours swapped)")
    ap.add_argument("--time", type=float, default=0.25, help="engine seconds per move")
    ap.add_argument("--depth", type=int, default=None, help="engine fixed depth instead of a time")
    ap.add_argument("--doc-depth", type=int, default=5, help="depth of the document-004 agent")
    ap.add_argument("--opening-plies", type=int, default=4, help="random plies before each pair of games")
    ap.add_argument("--seed", type=int, default=1000, help="seed of the first opening (then +1 per pair)")
    args = ap.parse_args()
    engine = HexEnginePlayer(depth=args.depth) if args.depth else HexEnginePlayer(seconds=args.time)
    student = Doc004Player(args.doc_depth)
    points = wins = draws = losses = 0.0
    discs_for = discs_against = 0
    think = {engine.name: [0.0, 0], student.name: [0.0, 0]}
    t_start = time.perf_counter()
    print(f"{engine.name} vs {student.name}, {args.games} games, openings of {args.opening_plies} random plies")
    for g in range(args.games):
        start = opening(args.seed + g // 2, args.opening_plies)
        engine_black = g % 2 == 0
        players = (engine, student) if engine_black else (student, engine)
        rec = play_game(start, players)
        for name, seconds in zip((players[start.to_move].name, players[1 - start.to_move].name) * 200, rec.times,
                                 strict=False):
            think[name][0] += seconds
            think[name][1] += 1
        b, w = (rec.final.count("X"), rec.final.count("O"))
        mine, theirs = (b, w) if engine_black else (w, b)
        discs_for += mine
        discs_against += theirs
        me = 0 if engine_black else 1
        if rec.winner is None:
            draws += 1
            points += 0.5
            res = "draw"
        elif rec.winner == me:
            wins += 1
            points += 1
            res = "win"
        else:
            losses += 1
            res = "loss"
        print(f"game {g + 1:2d}: engine {'black' if engine_black else 'white'}  {mine:3d}-{theirs:<3d} {res}"
              f"  ({len(rec.moves)} plies)", flush=True)
    total = time.perf_counter() - t_start
    n = args.games
    print(f"\nscore: {engine.name} {points:g}/{n} ({100 * points / n:.0f}%): {wins:g} wins, {draws:g} draws, "
          f"{losses:g} losses; discs {discs_for}-{discs_against}")
    for name, (secs, moves) in think.items():
        print(f"  {name}: {moves} moves, {secs / max(moves, 1):.3f} s a move")
    print(f"wall time {total:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
