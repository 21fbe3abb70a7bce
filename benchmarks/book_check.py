"""Does the opening book agree with the engine?  Every position where a player following the book chooses a move
(its side plays the book's best move, the other side any move the book holds), for either colour, is analysed at
level 11 (all moves valued); the book's move should not be rated worse than level 11's best by more than a couple
of discs.

    .venv/bin/python benchmarks/book_check.py [--book FILE] [--level 11] [--plies 10] [--threads 1]

Prints, per position, the book's move and value, level 11's best move and value and the book move's loss, then
the mean and largest loss and how many positions lose more than 2 discs.
"""

from __future__ import annotations

import argparse

from plies.engine import Engine
from plies.engine.book import load_book
from plies.games.othello import OthelloState


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--book", default=None, help="book file (default: the shipped book)")
    ap.add_argument("--level", type=int, default=11)
    ap.add_argument("--plies", type=int, default=10, help="follow the book this many moves from the start")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    book = load_book(args.book)
    engine = Engine(hash_mb=128, threads=args.threads)
    seen: set[tuple[int, int]] = set()
    frontier = [(OthelloState.start(), side) for side in (0, 1)]  # (position, the side following the book)
    losses: list[float] = []
    for ply in range(args.plies):
        nxt = []
        for s, me in frontier:
            moves = book.lookup(s)
            if not moves:
                continue
            if s.to_move != me:
                nxt += [(s.play(m), me) for m, _ in moves]
                continue
            if s.own_opp() in seen:
                continue
            seen.add(s.own_opp())
            rows = engine.analyse(s, level=args.level, multipv=len(s.legal_moves()))
            value = {int(r.move): float(r.value) for r in rows}
            best = rows[0]
            mine, mine_value = moves[0]
            loss = float(best.value) - value.get(mine, float("nan"))
            losses.append(loss)
            print(f"ply {ply + 1:>2} {s.to_text()[:64]} book {s.move_str(mine)} {mine_value:+5.1f}   level "
                  f"{args.level} {s.move_str(best.move)} {float(best.value):+5.1f}   loss {loss:4.1f}", flush=True)
            nxt.append((s.play(mine), me))
        frontier = nxt
    if losses:
        print(f"{len(losses)} positions: mean loss {sum(losses) / len(losses):.2f} discs, largest "
              f"{max(losses):.2f}, {sum(x > 2 for x in losses)} lose more than 2 discs")


if __name__ == "__main__":
    main()
