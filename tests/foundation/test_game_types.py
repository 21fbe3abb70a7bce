"""One game model: the front-ends never ask a game's name or class, and every registered game's ``GameType`` keeps
its contract (start positions, position text, transcripts and their tokens, the board view and its clicks, how
results count), so that a new game plays in every front-end without front-end code."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from plies.game import PASS, BoardView, GameType, ParseError, PliesError, State
from plies.games import TYPES, game_type, parse_position, start_position

SRC = Path(__file__).resolve().parents[2] / "src" / "plies"
FRONT_ENDS = ("cli", "web", "draw", "teach")
GAMES = "othello|tictactoe|hexthello|connect4"
CLASSES = "OthelloState|TicTacToeState|HexThelloState|ConnectFourState"
NAME_TESTS = [
    re.compile(rf'(game|\.game|name) ?(==|!=|in|not in) ?\(?(None, )?"({GAMES})"'),  # state.game == "othello"
    re.compile(rf'getattr\([^()]*"game"[^()]*\) ?(==|!=|in|not in) ?\(?"({GAMES})"'),  # getattr(s, "game") == ...
    re.compile(rf'"({GAMES})" ?(==|!=) ?[a-z_.]*game'),  # "othello" == state.game
    re.compile(rf"isinstance\([a-z_.]+, ?\(?({CLASSES})"),  # isinstance(state, OthelloState)
]


def _front_end_lines() -> Iterator[tuple[str, int, str]]:
    for part in FRONT_ENDS:
        for path in sorted((SRC / part).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                yield str(path.relative_to(SRC)), number, line


def test_no_front_end_tests_a_game_by_name_or_class() -> None:
    """The front-ends ask the game's ``GameType`` (``plies.games.TYPES``), so adding a game needs no front-end
    code: a comparison of a state's game with a game's name, or a test of its class, is refused here."""
    hits = [f"{path}:{number}: {line.strip()}" for path, number, line in _front_end_lines()
            if any(p.search(line) for p in NAME_TESTS)]
    assert not hits, "front-end code that names a game (ask plies.games.game_type(state) instead):\n" + "\n".join(hits)


def test_the_name_tests_find_what_they_look_for() -> None:
    """The patterns above catch the forms the front-ends used to write (so the test above cannot pass vacuously)."""
    for line in ('if state.game == "tictactoe":', 'engine_ok = state.game != "othello"',
                 'has_discs = state.game in ("othello", "hexthello")', 'if game not in (None, "othello"):',
                 'if getattr(state, "game", "") == "hexthello":', 'if isinstance(start, OthelloState | X):',
                 'elif isinstance(s, (HexThelloState, TicTacToeState)):', 'if "connect4" == self.state.game:'):
        assert any(p.search(line) for p in NAME_TESTS), line
    for line in ('game = start_position("othello")', 't.name', '@click.argument("game", default="othello")'):
        assert not any(p.search(line) for p in NAME_TESTS), line


# --- the contract, over every registered game at every size ---------------------------------------------------


def variants() -> list[tuple[GameType, int | None]]:
    return [(t, size) for t in TYPES.values() for size in (None, *t.sizes)]


def _id(v: tuple[GameType, int | None]) -> str:
    t, size = v
    return t.name + (str(size) if size else "")


VARIANTS = variants()


def test_every_game_the_issue_names_is_registered() -> None:
    assert {"othello", "tictactoe", "hexthello", "connect4"} <= set(TYPES)
    assert [size for t, size in VARIANTS if t.name == "othello"] == [None, 4, 6, 10]


def random_game(t: GameType, size: int | None, seed: int) -> tuple[list[State], list[object]]:
    """The positions and moves of a seeded random game of ``t`` to its end."""
    rng = random.Random(seed)
    states = [t.start(size, "standard")]
    moves: list[object] = []
    while not states[-1].is_over():
        m = rng.choice(states[-1].legal_moves())
        moves.append(m)
        states.append(states[-1].play(m))
    return states, moves


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_start_position_and_names(variant: tuple[GameType, int | None]) -> None:
    t, size = variant
    start = t.start(size, "standard")
    assert game_type(start) is t and game_type(t.name) is t and all(game_type(a) is t for a in t.aliases)
    assert start_position(t.name + (str(size) if size else "")) == start
    assert not start.is_over() and start.to_move == 0 and start.legal_moves()
    assert t.board_size(start) == (size if size else getattr(start, "n", None))
    assert t.title and t.description and t.a_noun().startswith(("a ", "an ")) and t.noun in t.a_noun()
    assert t.result in ("discs", "result") and (t.result == "discs" or t.line)
    assert 1 <= t.levels and 1 <= t.hint_depth(start)
    assert t.engine(start) in (None, "engine", "hexengine")
    if t.solved_depth is not None:  # a depth that reaches the end from any position: from the start too
        plies = t.max_plies(start)
        assert plies is not None and t.solves(plies) and plies <= t.solved_depth
    assert t.layouts[0] == "standard"
    for layout in t.layouts:
        assert t.start(size, layout).legal_moves()


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_position_text_round_trips_and_is_recognised(variant: tuple[GameType, int | None]) -> None:
    """``parse(to_text())`` gives the position back; the text is recognised as this game's board by this game
    alone (``looks_like``), so a bare board needs no game name; its cells are the view's."""
    t, size = variant
    for seed in range(3):
        states, _ = random_game(t, size, seed)
        for s in states[:: max(1, len(states) // 8)] + [states[-1]]:
            text = s.to_text()
            assert t.parse(text) == s
            assert [u.name for u in TYPES.values() if u.looks_like(text)] == [t.name]
            assert parse_position(text) == s
            compact = "".join(text.split())
            assert len(compact) == t.cells(s) + 1  # the board's cells, then the side to move


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_transcripts_and_their_tokens(variant: tuple[GameType, int | None]) -> None:
    """A game written as plies writes it (``join_moves``, passes left out) replays to the same position
    (``transcript``), and ``tokens`` gives back its moves, each where it stands in the text."""
    t, size = variant
    for seed in range(4):
        states, moves = random_game(t, size, seed)
        names = [s.move_str(m) for s, m in zip(states, moves, strict=False) if m != PASS]
        for cut in (1, len(names) // 2, len(names)):
            text = t.join_moves(names[:cut])
            assert [tok for tok, _ in t.tokens(text)] == names[:cut], text
            for tok, at in t.tokens(text):
                assert text[at - 1:].lower().startswith(tok.lower())
            replayed = t.transcript(text, size, "standard")
            played = [s for s, m in zip(states, moves, strict=False) if m != PASS]
            expected = played[cut] if cut < len(played) else states[-1]
            assert replayed == expected or replayed == expected.play(PASS) or expected == replayed.play(PASS)
        if not t.passes:
            assert PASS not in moves


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_the_board_view_agrees_with_the_rules(variant: tuple[GameType, int | None]) -> None:
    """Every cell of the view is on the grid; the clicks are exactly the legal moves (passes are not clicked),
    each on an empty cell of the board; the pieces are the position's; a row/column game's cell is its move."""
    t, size = variant
    for seed in range(2):
        states, _ = random_game(t, size, seed)
        for s in states:
            v = t.view(s)
            assert isinstance(v, BoardView) and v.shape in ("square", "hex")
            assert len(v.cells) == v.rows * v.cols and len(v.files) == v.cols and len(v.ranks) == v.rows
            board = set(v.on_board) if v.on_board is not None else set(range(v.rows * v.cols))
            assert all(v.cells[i] is None for i in range(len(v.cells)) if i not in board)
            legal = [m for m in s.legal_moves() if m != PASS]
            assert sorted(v.clicks.values()) == sorted(legal)
            for cell, m in v.clicks.items():
                assert cell in board and v.cells[cell] is None and v.cell_of(m) == cell
            text = "".join(s.to_text().split())[:-1]
            symbols = getattr(s, "symbols", ("X", "O"))
            assert [v.cells.count(p) for p in (0, 1)] == [text.count(symbols[0]), text.count(symbols[1])]
            assert v.cells.count(BoardView.HOLE) == text.count("#")
            assert len(v.pieces) == 2 and v.surface
            if s.is_over() and t.result == "result" and s.outcome().winner is not None:  # type: ignore[union-attr]
                assert v.highlight, "a won game of lines shows its line"
            if t.rowcol:  # the lab notes' 0-based "row col" names the cell a move is played on
                for m in legal:
                    r, c = divmod(v.cell_of(m), v.cols)  # type: ignore[operator]
                    assert s.parse_move(f"{r} {c}") == m


@pytest.mark.parametrize("variant", VARIANTS, ids=[_id(v) for v in VARIANTS])
def test_results_orders_and_notation(variant: tuple[GameType, int | None]) -> None:
    t, size = variant
    for seed in range(3):
        states, _ = random_game(t, size, seed)
        final = states[-1]
        if t.result == "result":
            assert final.score() in (-1, 0, 1)
        for s in states[:-1]:
            moves = s.legal_moves()
            if t.order is not None:
                assert sorted(t.order(s, list(moves)), key=repr) == sorted(moves, key=repr)
            plies = t.max_plies(s)
            assert plies is None or plies >= 1
            for m in moves:
                assert s.parse_move(s.move_str(m)) == m
            if any(" " in s.move_str(m) for m in moves):
                assert t.separator.strip(), "moves that hold a space are listed with another separator"
    start = t.start(size, "standard")
    assert t.move_help and t.move_example
    try:  # the example is a move in the game's notation (legal or not in the start position)
        start.parse_move(t.move_example)
    except ParseError:
        pytest.fail(f"{t.name}'s move_example {t.move_example!r} is not a move")
    except PliesError:
        pass


def test_othello_tokens_agree_with_the_located_file_reader() -> None:
    """Othello's transcript tokenizer and ``plies.formats.transcript`` (which reads Othello files) find the same
    moves at the same places, and both refuse what is not a move."""
    from plies.formats.transcript import tokens as file_tokens

    t = game_type("othello")
    rng = random.Random(7)
    for _ in range(40):
        states, moves = random_game(t, None, rng.randrange(10_000))
        names = [s.move_str(m) if m != PASS else rng.choice(["pass", "PA", "--"]) for s, m in zip(states, moves,
                                                                                                 strict=False)]
        style = rng.choice(["", " ", ", ", "\n"])
        text = style.join(n.upper() if rng.random() < 0.3 else n for n in names)
        if rng.random() < 0.3:
            text = " ".join(f"{k // 2 + 1}. {n}" if k % 2 == 0 else n for k, n in enumerate(names))
        assert t.tokens(text) == [(x.text, x.index + 1) for x in file_tokens(text)]
    for bad in ("f5 zz", "f5d6\nc3 k9"):
        with pytest.raises(ParseError, match="cannot read the transcript at character"):
            t.tokens(bad)
