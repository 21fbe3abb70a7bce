"""plies without its compiled core (installed without a C compiler; here ``PLIES_CORE=none``, which makes
``import plies.core`` fail as it does there): the engine's levels, hints and review run the pure-Python stand-in
(alpha-beta with the learned evaluation), whose exact values are the compiled solver's, and plies says so once."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from typing import Any

import pytest

from plies.games.othello import OthelloState

STANDIN = "pure-Python alpha-beta with the learned evaluation"


def _run(code: str, *args: str) -> tuple[Any, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLIES_")}
    env["PLIES_CORE"] = "none"
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], env=env, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


def _position(empties: int, seed: int) -> OthelloState:
    rng = random.Random(seed)
    while True:
        s = OthelloState.start()
        while not s.is_over() and 64 - bin(s.black | s.white).count("1") > empties:
            s = s.play(rng.choice(s.legal_moves()))
        if not s.is_over() and s.legal_moves() != [-1] and 64 - bin(s.black | s.white).count("1") == empties:
            return s


def test_the_core_switched_off_fails_to_import_and_the_rules_stay() -> None:
    out, err = _run("""
        import json
        try:
            import plies.core
            loaded = True
        except ImportError:
            loaded = False
        from plies.games.othello import OthelloState, compiled
        s = OthelloState.start()
        print(json.dumps([loaded, compiled(), [s.move_str(m) for m in s.legal_moves()]]))
    """)
    assert out == [False, False, ["d3", "c4", "f5", "e6"]]
    assert err == ""  # nothing said until the engine is asked for


def test_engine_levels_play_and_analyse_without_the_core_and_say_so_once() -> None:
    mid = _position(40, 1)
    out, err = _run("""
        import json, sys
        from plies.analysis import analyse_position, difficulty
        from plies.analysis.review import review
        from plies.games import parse_position
        from plies.games.othello import OthelloState
        from plies.players import parse_player
        s = parse_position(sys.argv[1], "othello")
        d = difficulty(s, 8)
        player = parse_player(d.spec, "othello")
        move = player.choose(s)
        other = parse_player("engine:level=6,threads=2,hash=16", "othello")
        first = other.choose(OthelloState.start())
        a = analyse_position(s, 6)
        r = review(OthelloState.start(), [37, 43, 34], level=6)
        print(json.dumps([d.spec, d.backend, d.label, type(player).__name__, s.move_str(move),
                          s.move_str(first), a["unit"], a["source"], [m["move"] for m in a["moves"]],
                          r["source"], len(r["moves"])]))
    """, mid.to_text())
    spec, backend, label, kind, move, first, unit, source, moves, review_source, reviewed = out
    assert (spec, backend, kind) == ("engine:level=8", "alphabeta-fallback", "FallbackEnginePlayer")
    assert "pure-Python" in label and "no compiled core" in label
    legal = [mid.move_str(m) for m in mid.legal_moves()]
    assert move in legal and first in ("d3", "c4", "f5", "e6")
    assert unit == "discs" and "pure-Python" in source and sorted(moves) == sorted(legal)
    assert "pure-Python" in review_source and reviewed == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1 and STANDIN in lines[0] and "PLIES_CORE=none" in lines[0]


@pytest.mark.parametrize("seed", [3, 4])
def test_the_stand_ins_exact_values_are_the_compiled_solvers(seed: int) -> None:
    from plies.engine import Engine

    s = _position(9, seed)
    out, _ = _run("""
        import json, sys
        from plies.analysis import analyse_position
        from plies.games import parse_position
        a = analyse_position(parse_position(sys.argv[1], "othello"), 8)
        print(json.dumps([a["exact"], {m["move"]: m["value"] for m in a["moves"]}]))
    """, s.to_text())
    exact, values = out
    compiled = Engine(hash_mb=4, threads=1).analyse(s, exact=True, multipv=len(s.legal_moves()))
    assert exact
    assert values == {s.move_str(r.move): r.value for r in compiled}


def test_the_engine_kind_checks_its_options_without_the_core() -> None:
    out, _ = _run("""
        import json
        from plies.game import ParseError
        from plies.players import parse_player
        said = []
        for spec in ("engine:level=13", "engine:speed=3", "engine:time=fast"):
            try:
                parse_player(spec, "othello")
            except ParseError as e:
                said.append(str(e))
        p = parse_player("engine:time=0.05", "othello")
        print(json.dumps([said, p.name]))
    """)
    said, name = out
    assert len(said) == 3 and "1 to 12" in said[0] and "speed" in said[1] and "fast" in said[2]
    assert name == "engine:time=0.05 (pure Python)"
