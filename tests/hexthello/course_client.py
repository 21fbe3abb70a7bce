"""A course agent as the C ``client`` is one: a program started with ``-i HOST -p PORT [-n NAME]`` that connects over
TCP and speaks the course's bytes (one read per field, messages in any order, its own copy of the board, 107 ends
it).  ``--mode`` makes it a good or a deliberately broken agent, for the tests of course agents as players and of
``plies grade``:

- ``first``: the first legal move (the course's baseline without search); ``random``: a random legal move (``--seed``);
- ``illegal``: an occupied cell at its ``--after``-th move; ``crash``: exits with an error at that move;
- ``sleep``: sleeps ``--sleep`` seconds before that move; ``garbage``: sends a cell off the board there;
- ``silent``: connects and never answers (not even its name); ``never``: never connects (sleeps, then exits).
"""

from __future__ import annotations

import argparse
import random
import socket
import sys
import time

from plies.game import PASS
from plies.games.hexthello import HexThelloState
from plies.net.hexthello.protocol import recv_exact


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("-i", dest="host", default="127.0.0.1")
    ap.add_argument("-p", dest="port", type=int, default=6002)
    ap.add_argument("-n", dest="name", default="cclient")
    ap.add_argument("--mode", default="first",
                    choices=["first", "random", "illegal", "crash", "sleep", "garbage", "silent", "never"])
    ap.add_argument("--after", type=int, default=3, help="the move (1, 2, ...) at which a broken agent misbehaves")
    ap.add_argument("--sleep", type=float, default=30.0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    if a.mode == "never":
        time.sleep(a.sleep)
        return 0
    rng = random.Random(a.seed)
    sock = socket.create_connection((a.host, a.port), timeout=120)
    state, me, asked = HexThelloState.start(), 0, 0
    if a.mode == "silent":
        time.sleep(a.sleep)
        return 0
    while True:
        msg = recv_exact(sock, 1)[0]
        if msg == 106:
            name = a.name.encode()[:8]
            sock.sendall(bytes([len(name)]) + name)
        elif msg in (102, 103):
            me = 1 if msg == 102 else 0
        elif msg == 101:
            pos = recv_exact(sock, 228)
            state = HexThelloState.from_array(pos[:225], pos[227])
        elif msg == 105:
            row, col = (b - 256 if b > 127 else b for b in recv_exact(sock, 2))
            state = state.with_side(1 - me).play(PASS if row == -50 else row * 15 + col)
        elif msg == 104:
            asked += 1
            mine = state.with_side(me)
            moves = mine.legal_moves()
            if asked == a.after and a.mode != "first" and a.mode != "random":
                if a.mode == "crash":
                    print("segmentation fault (core dumped)", file=sys.stderr)
                    return 139
                if a.mode == "sleep":
                    time.sleep(a.sleep)
                if a.mode == "illegal":
                    sock.sendall(bytes([7, 7]))  # the centre, occupied from the start
                    continue
                if a.mode == "garbage":
                    sock.sendall(bytes([0, 0]))  # outside the hexagon
                    continue
            move = moves[0] if a.mode != "random" else rng.choice(moves)
            sock.sendall(bytes([0xCE, 0]) if move == PASS else bytes(divmod(move, 15)))
            state = mine.play(move)
        elif msg == 107:
            return 0
        else:
            print(f"unknown message {msg}", file=sys.stderr)
            return 1


if __name__ == "__main__":
    sys.exit(main())
