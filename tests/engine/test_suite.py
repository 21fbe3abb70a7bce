"""Reading test suites: FFO lines and OBF lines, with file:line errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from plies.formats.suite import SuitePosition, parse_ids, parse_suite, read_suite, select
from plies.game import ParseError

from .test_endgame import FFO

BOARD43 = "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-"


@pytest.mark.skipif(not FFO.exists(), reason="shared FFO data not present")
def test_reads_the_ffo_file() -> None:
    suite = read_suite(FFO)
    ids = [p.id for p in suite]
    assert ids[0] == 40 and len(ids) == len(set(ids))
    p43 = next(p for p in suite if p.id == 43)
    assert p43.state.to_move == 1
    assert p43.best_names() == ["g3", "c7"]
    assert p43.score == -12
    assert all(p.score is not None and p.best_moves for p in suite)


def test_obf_lines() -> None:
    text = f"% a comment\n\n{BOARD43} O; G3:-12; C7:-12; H4:-14; % FFO #43\n{BOARD43} O; -12;\n"
    a, b = parse_suite(text, "x.obf")
    assert a.id == 43 and a.best_names() == ["g3", "c7"] and a.score == -12
    assert a.move_scores[a.state.parse_move("h4")] == -14
    assert b.best_moves == [] and b.score == -12 and b.line == 4


def test_ffo_and_obf_give_the_same_position() -> None:
    ffo = parse_suite(f"43 {BOARD43} O G3,C7 -12")[0]
    obf = parse_suite(f"{BOARD43} O; G3:-12; C7:-12;")[0]
    assert ffo.state == obf.state and sorted(ffo.best_moves) == sorted(obf.best_moves)


@pytest.mark.parametrize("line, what", [
    ("43 XXXX O G3 -12", "64"),
    (f"43 {BOARD43} Z G3 -12", "side"),
    (f"43 {BOARD43} O Q9 -12", "bad move"),
    (f"43 {BOARD43} O G3 -99", "outside"),
    (f"{BOARD43} O; G3:x;", "bad score"),
    (f"43 {BOARD43} O A1 -12", "not legal"),
])
def test_errors_name_file_and_line(line: str, what: str) -> None:
    with pytest.raises(ParseError) as e:
        parse_suite(f"% header\n{line}\n", "suite.txt")
    assert str(e.value).startswith("suite.txt:2: ")
    assert what in str(e.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ParseError):
        read_suite(tmp_path / "none.txt")


def test_ids() -> None:
    assert parse_ids("40-42,45") == {40, 41, 42, 45}
    assert parse_ids(None) is None
    with pytest.raises(ParseError):
        parse_ids("4x")
    for spec in (",", " , ", "1-100000000000"):  # nothing, or more ids than any suite holds
        with pytest.raises(ParseError):
            parse_ids(spec)
    suite = parse_suite(f"43 {BOARD43} O G3,C7 -12")
    assert select(suite, {43}) == suite
    with pytest.raises(ParseError):
        select(suite, {1})


def test_a_wld_solve_checks_moves_by_their_result() -> None:
    """A win/draw/loss solve scores -1, 0 or +1 and may answer a move the suite does not list: it passes when that
    move keeps the result (any move of a lost position does), checked against exact solves of the children."""
    from plies.engine import Engine
    from plies.engine.bench import SolveRow, _keeps_result, solve_suite

    from .conftest import positions_with_empties

    engine = Engine(hash_mb=16)
    (row,) = solve_suite(select(read_suite(FFO), [44]), engine, wld=True)  # lost by 14: every move loses
    assert row.score == -1 and row.score_ok and row.move_ok
    seen = set()
    for s in positions_with_empties(67, 6, 12):
        values = {m: -engine.search(s.play(m), exact=True).value for m in s.legal_moves()}
        best = max(values.values())
        if best <= 0:
            continue
        p = SuitePosition(0, s, [m for m, v in values.items() if v == best], best)
        for m, v in values.items():
            assert _keeps_result(engine, s, m, 1) == (v > 0)
            r = SolveRow(p, 1, m, [], 0, 0.0, 0.0, wld=True, wld_move_ok=_keeps_result(engine, s, m, 1))
            assert r.move_ok == (v > 0)
            seen.add(v > 0)
    assert seen == {True, False}  # winning moves outside best_moves and losing ones were both checked


def test_a_cancelled_suite_solve_adds_no_more_rows() -> None:
    """Ctrl-C during ``plies solve`` sets the cancel event (and stops the engine): the positions after it are
    not solved, and the one being solved gives no row (its result is not finished)."""
    import threading

    from plies.engine.bench import solve_suite

    from .conftest import positions_with_empties

    suite = parse_suite("\n".join(f"{i + 1} {s.to_text()}" for i, s in enumerate(positions_with_empties(86, 4, 10))))
    cancel = threading.Event()
    rows = solve_suite(suite, wld=False, on_row=lambda row: cancel.set(), cancel=cancel)
    assert [r.position.id for r in rows] == [1]
    assert len(solve_suite(suite, cancel=threading.Event())) == 4
