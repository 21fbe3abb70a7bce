"""A misbehaving NBoard engine for the client tests: ``python fake_engine.py MODE``.

Modes: ``silent`` (never answers go), ``noping`` (never answers ping), ``stubborn`` (ignores quit and SIGTERM,
never answers go), ``junk`` (answers go with an impossible move), ``occupied`` (answers go with D4, a square
that holds a disc), ``edax`` (answers in Edax's old ``=== d3 -1.00 0.0`` form with the
first legal move), ``die`` (exits at the first go), ``latin1`` (a status line in Latin-1, not UTF-8, then the
first legal move in the standard form).
"""

import signal
import sys

from plies.formats.ggf import read_ggf
from plies.game import PASS
from plies.games.othello import OthelloState

mode = sys.argv[1]
if mode == "stubborn":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
state = OthelloState.start()
for line in sys.stdin:
    words = line.split(None, 1)
    if not words:
        continue
    cmd, arg = words[0], (words[1].strip() if len(words) > 1 else "")
    out = None
    if cmd == "nboard":
        if mode == "latin1":
            sys.stdout.buffer.write("status café\n".encode("latin-1"))
            sys.stdout.flush()
        out = f"set myname fake-{mode}"
    elif cmd == "ping":
        out = None if mode == "noping" else f"pong {arg}"
    elif cmd == "set" and arg.startswith("game "):
        state = read_ggf(arg[5:]).final
    elif cmd == "move":
        m = arg.split("/")[0]
        state = state.play(PASS if m == "PA" else state.parse_move(m))
    elif cmd == "go":
        if mode == "junk":
            out = "=== Z9/0.00/0.00"
        elif mode == "occupied":
            out = "=== D4/0.00/0.00"
        elif mode == "edax":
            m = state.legal_moves()[0]
            out = f"=== {'PA' if m == PASS else state.move_str(m)} -1.00 0.0"
        elif mode == "latin1":
            m = state.legal_moves()[0]
            out = f"=== {'PA' if m == PASS else state.move_str(m)}/0.00/0.00"
        elif mode == "die":
            sys.exit(3)
    elif cmd == "quit" and mode != "stubborn":
        break
    if out:
        print(out, flush=True)
