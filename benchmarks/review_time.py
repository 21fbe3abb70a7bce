"""Time to review a whole 60-move Othello game at the default analysis level (``plies review``, the browser's
Review button): every legal move of every position valued by the engine (multi-PV), exact once the level
solves the endgame.

    .venv/bin/python benchmarks/review_time.py [--levels 8] [--games 3] [--seed 5]

The games are engine self-play at level 6 from random 8-ply openings (realistic positions: the endgame is
decided late) plus one random game (many moves lost by many discs).  Each review starts with an empty hash
table, as a fresh ``plies review`` does.  Prints the wall time of each review, the time per position (mean,
slowest), and the mean over the games; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from plies.analysis.levels import DEFAULT_ANALYSIS_LEVEL
from plies.analysis.review import review
from plies.game import PASS
from plies.games import OthelloState, game_type
from plies.games.record import Game
from plies.match.openings import random_openings
from plies.players import parse_player


def self_play(seed: int, count: int) -> list[tuple[str, OthelloState, list[int]]]:
    out = []
    for k, opening in enumerate(random_openings("othello", 8, count, seed)):
        start = OthelloState.start()
        moves = list(Game.from_transcript(game_type(start), opening.moves).moves) if opening.moves else []
        s = start
        for m in moves:
            s = s.play(m)
        players = [parse_player(f"engine:level=6,seed={seed + k}", "othello") for _ in (0, 1)]
        while not s.is_over():
            m = PASS if s.legal_moves() == [PASS] else players[s.to_move].choose(s)
            moves.append(m)
            s = s.play(m)
        out.append((f"level-6 self-play #{k + 1}", start, moves))
    return out


def random_game(seed: int) -> tuple[str, OthelloState, list[int]]:
    rng = random.Random(seed)
    s = start = OthelloState.start()
    moves = []
    while not s.is_over():
        m = rng.choice(s.legal_moves())
        moves.append(m)
        s = s.play(m)
    return "random moves", start, moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default=str(DEFAULT_ANALYSIS_LEVEL), help="analysis levels, e.g. 6,8")
    ap.add_argument("--games", type=int, default=3, help="self-play games (plus one random game)")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()
    from plies.engine.eval import LEARNED, weights_for

    weights_for(LEARNED)  # read once, as a running server or a second review has them
    games = self_play(args.seed, args.games) + [random_game(args.seed)]
    for level in (int(x) for x in args.levels.split(",")):
        totals = []
        print(f"analysis level {level}{' (the default)' if level == DEFAULT_ANALYSIS_LEVEL else ''}")
        for name, start, moves in games:
            stamps: list[float] = []
            t0 = time.perf_counter()
            result = review(start, moves, level, on_progress=lambda done, total, out=stamps: out.append(
                time.perf_counter()))
            wall = time.perf_counter() - t0
            totals.append(wall)
            steps = [b - a for a, b in zip([t0] + stamps[:-1], stamps, strict=True)]
            played = sum(1 for m in moves if m != PASS)
            lost = " / ".join(f"{p['lost']:.0f}" for p in result["players"])
            print(f"  {name:<22} {played:>2} moves  {wall:6.2f} s  per position {statistics.fmean(steps):.3f} s "
                  f"mean, {max(steps):.2f} s slowest; mistakes {sum(m['mistake'] for m in result['moves'])}, "
                  f"discs lost (Black / White) {lost}", flush=True)
        print(f"  mean over {len(totals)} games: {statistics.fmean(totals):.2f} s a game")


if __name__ == "__main__":
    main()
