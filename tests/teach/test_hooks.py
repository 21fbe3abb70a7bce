"""Students' hooks: a 2-D view of the board for evaluations (``state[row, col]``, ``state.board()``) and
``--load MODULE`` on ``plies search``, ``plies tree show`` and ``plies study`` for a heuristic of their own."""

from __future__ import annotations

import json
import textwrap

import pytest

from plies.cli import main
from plies.games import OthelloState, TicTacToeState
from plies.games.hexthello import HexThelloState, on_board

STUDENT = textwrap.dedent('''
    """A student's evaluation, written with the board as rows and columns."""
    from plies.heuristics import Heuristic, register

    def corners(state, player):
        n = state.n
        value = 0
        for r, c in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)):
            if state[r, c] is not None:
                value += 1 if state[r, c] == player else -1
        mine = sum(row.count(state.symbols[player]) for row in state.board())
        return 100 * value + mine - sum(row.count(state.symbols[1 - player]) for row in state.board())

    register(Heuristic("{name}", "othello", corners, "corners, then discs"))
''')


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_othello_cells_match_the_bitboards() -> None:
    s = OthelloState.from_transcript("f5d6c3d3c4")
    for r in range(8):
        for c in range(8):
            bit = 1 << (r * 8 + c)
            want = 0 if s.black & bit else 1 if s.white & bit else None
            assert s[r, c] == want
            assert s.board()[r][c] == {0: "X", 1: "O", None: " "}[want]
    assert s[4, 5] == 0 and s.move_str(4 * 8 + 5) == "f5"             # row 4, column 5 is f5 (0-based)
    small = OthelloState.start(6)
    assert len(small.board()) == 6 and small[2, 2] == 1 and small[2, 3] == 0
    b = s.board()
    b[0][0] = "X"
    assert s[0, 0] is None                                              # a copy: changing it changes nothing


def test_tictactoe_and_hexthello_cells() -> None:
    t = TicTacToeState.from_text("XO-X-O---O")
    assert t.board() == [["X", "O", " "], ["X", " ", "O"], [" ", " ", " "]]
    assert (t[0, 0], t[0, 1], t[1, 1]) == (0, 1, None)
    h = HexThelloState.start()
    rows = h.board()
    assert len(rows) == 15 and all(len(r) == 15 for r in rows)
    for i in range(15):
        for j in range(15):
            if not on_board(i, j):
                assert rows[i][j] == "#"
                with pytest.raises(IndexError, match="outside the hexagon"):
                    h[i, j]
            else:
                assert rows[i][j] == {0: "X", 1: "O", None: " "}[h[i, j]]
    assert sum(r.count("X") for r in rows) == 3 and sum(r.count("O") for r in rows) == 4


@pytest.mark.parametrize("key", [(8, 0), (0, -1), (1,), "a1", (1.0, 2), (True, 0)])
def test_bad_cells_say_why(key) -> None:
    s = OthelloState.start()
    with pytest.raises((IndexError, TypeError), match="off the board|two whole numbers"):
        s[key]


@pytest.fixture
def student(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my_eval.py").write_text(STUDENT.format(name="my-corners"), encoding="utf-8")
    (tmp_path / "other_eval.py").write_text(STUDENT.format(name="their-corners"), encoding="utf-8")
    return tmp_path


def test_load_a_module_from_the_current_folder(capsys, student) -> None:
    code, out, err = run(capsys, "search", "othello", "--load", "my_eval", "--eval", "my-corners", "--depth", "2",
                         "--json")
    assert code == 0, err
    d = json.loads(out)
    assert d["evaluation"] == "my-corners" and d["move"] in ("d3", "c4", "f5", "e6")


def test_load_a_file_in_tree_and_study(capsys, student) -> None:
    code, out, err = run(capsys, "tree", "show", "othello", "--load", str(student / "other_eval.py"),
                         "--eval", "their-corners", "--depth", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["evaluation"] == "their-corners"
    code, out, err = run(capsys, "study", "nodes", "--load", "other_eval.py", "--eval", "their-corners",
                         "--depth", "1", "--positions", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["evaluation"] == "their-corners"
    code, out, err = run(capsys, "study", "horizon", "--load", "my_eval", "--eval", "my-corners",
                         "--positions", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["evaluation"] == "my-corners"


@pytest.mark.parametrize(("source", "words"), [
    (None, "no module 'missing'"),
    ("x = 1 / 0\n", "ZeroDivisionError: division by zero (missing.py, line 1)"),
    ("def f(:\n", "(missing.py, line 1)"),
    ("import no_such_library_here\n", "No module named 'no_such_library_here'"),
])
def test_a_broken_module_is_one_line(capsys, tmp_path, monkeypatch, source, words) -> None:
    monkeypatch.chdir(tmp_path)
    if source is not None:
        (tmp_path / "missing.py").write_text(source, encoding="utf-8")
    code, out, err = run(capsys, "search", "othello", "--load", "missing", "--depth", "1")
    assert code == 2 and words in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    code, _, err = run(capsys, "tree", "show", "othello", "--load", "nowhere/none.py")
    assert code == 2 and "no such file" in err
