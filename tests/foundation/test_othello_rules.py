"""Othello rules of ``plies.games.othello`` checked against the naive 2-D rules in ``naive_othello``."""

from __future__ import annotations

import random

import pytest

from plies.game import PASS, WIN, IllegalMoveError, ParseError
from plies.games import OthelloState, parse_position
from plies.games.othello import bits, flips, legal_mask, square_name

from . import naive_othello as naive

SIZES = (4, 6, 8, 10)


def state_of(board: naive.Board, player: int) -> OthelloState:
    black, white = naive.to_bitboards(board)
    return OthelloState(black, white, player, len(board))


def board_of(state: OthelloState) -> naive.Board:
    return naive.from_bitboards(state.black, state.white, state.n)


def sample_positions(n: int, count: int, seed: int) -> list[tuple[naive.Board, int]]:
    """Reachable positions (random playouts of every length) and arbitrary random boards."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 3 == 2:
            board = naive.random_board(n, rng, fill=rng.uniform(0.2, 1.0))
            player = rng.randrange(2)
        else:
            board, player, _ = naive.random_playout(n, rng.randrange(n * n), rng)
        out.append((board, player))
    return out


def check_against_naive(board: naive.Board, player: int) -> None:
    n = len(board)
    s = state_of(board, player)
    mine = naive.moves(board, player)
    theirs = naive.moves(board, 1 - player)
    # the game-over test on a fresh state (before the move list is cached) and on the other side's view
    assert s.is_over() == (not mine and not theirs)
    assert state_of(board, 1 - player).is_over() == (not mine and not theirs)
    # legal squares of both sides, as masks
    own, opp = s.own_opp()
    assert sorted(bits(legal_mask(own, opp, n))) == sorted(r * n + c for r, c in mine)
    assert sorted(bits(legal_mask(opp, own, n))) == sorted(r * n + c for r, c in theirs)
    assert s.move_mask() == legal_mask(own, opp, n)
    assert s.move_mask(1 - player) == legal_mask(opp, own, n)
    # legal_moves with passes and game end
    if mine:
        assert s.legal_moves() == [r * n + c for r, c in mine]
    elif theirs:
        assert s.legal_moves() == [PASS]
    else:
        assert s.legal_moves() == []
        assert s.is_over()
        assert s.score() == naive.final_score(board)
    # flips for every empty square, legal or not
    for r in range(n):
        for c in range(n):
            if board[r][c] != naive.EMPTY:
                continue
            expected = sum(1 << (rr * n + cc) for rr, cc in naive.flipped(board, player, r, c))
            assert flips(own, opp, r * n + c, n) == expected, (r, c)
    # every move gives the naive successor, with the other side to move
    for r, c in mine:
        child = s.play(r * n + c)
        assert board_of(child) == naive.apply(board, player, r, c)
        assert child.to_move == 1 - player
        assert child.n == n


@pytest.mark.parametrize("n", SIZES)
def test_moves_flips_and_successors_match_naive_rules(n: int) -> None:
    count = {4: 150, 6: 120, 8: 120, 10: 60}[n]
    for board, player in sample_positions(n, count, seed=100 + n):
        check_against_naive(board, player)


@pytest.mark.parametrize("n", SIZES)
def test_whole_random_games_match_naive_rules(n: int) -> None:
    """Play seeded random games to the end in both implementations, comparing every position and the result."""
    rng = random.Random(n)
    for _ in range({4: 40, 6: 15, 8: 8, 10: 3}[n]):
        board, player = naive.start_board(n), 0
        s = OthelloState.start(n)
        while True:
            assert board_of(s) == board and s.to_move == player
            ms = naive.moves(board, player)
            if not ms:
                if not naive.moves(board, 1 - player):
                    break
                assert s.legal_moves() == [PASS]
                s = s.play(PASS)
                player = 1 - player
                continue
            r, c = rng.choice(ms)
            board = naive.apply(board, player, r, c)
            s = s.play(s.parse_move(square_name(r * n + c, n)))
            player = 1 - player
        assert s.is_over() and s.legal_moves() == []
        assert s.score() == naive.final_score(board)
        out = s.outcome()
        assert out is not None and out.score == s.score()
        assert out.winner == (0 if s.score() > 0 else 1 if s.score() < 0 else None)


@pytest.mark.parametrize("n", SIZES)
def test_start_positions(n: int) -> None:
    s = OthelloState.start(n)
    assert board_of(s) == naive.start_board(n)
    assert s.to_move == 0
    assert len(s.legal_moves()) == 4
    doc = OthelloState.start(n, layout="doc000")
    # document 000's layout is the mirror: Black (X) on the main-diagonal centre squares
    assert (doc.black, doc.white) == (s.white, s.black)
    assert doc.to_move == 0


def test_square_numbering_and_names() -> None:
    s = OthelloState.start()
    assert square_name(0) == "a1" and square_name(7) == "h1" and square_name(8) == "a2" and square_name(63) == "h8"
    assert square_name(19) == "d3"
    # standard start: white d4 e5, black d5 e4; Black's four moves d3 c4 f5 e6
    assert s.white == (1 << 27) | (1 << 36)
    assert s.black == (1 << 28) | (1 << 35)
    assert sorted(s.move_str(m) for m in s.legal_moves()) == ["c4", "d3", "e6", "f5"]
    assert square_name(99, 10) == "j10"


# --- edge cases ---------------------------------------------------------------------------------------------

def test_forced_pass() -> None:
    # Row 1 = O X - ...: Black's only disc b1 cannot flank White's corner a1, so Black (to move) must pass;
    # White then has c1 (taking b1).
    board = [[naive.EMPTY] * 8 for _ in range(8)]
    board[0][0] = naive.WHITE
    board[0][1] = naive.BLACK
    assert naive.moves(board, 0) == [] and naive.moves(board, 1) == [(0, 2)]
    s = state_of(board, 0)
    assert s.legal_moves() == [PASS]
    assert not s.is_over()
    assert s.outcome() is None
    after = s.play(PASS)
    assert after.to_move == 1 and (after.black, after.white) == (s.black, s.white)
    assert after.legal_moves() == [2]
    assert s.parse_move("pass") == PASS
    assert s.parse_move("PA") == PASS
    assert s.move_str(PASS) == "pass"
    with pytest.raises(IllegalMoveError, match="flips nothing"):
        s.play(2)


def test_pass_while_a_move_exists_is_illegal() -> None:
    s = OthelloState.start()
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        s.play(PASS)
    with pytest.raises(IllegalMoveError, match="cannot pass"):
        s.parse_move("pass")


def test_both_sides_blocked_before_the_board_is_full() -> None:
    # X on a1, O on h8, nothing else: nobody can move, 62 empties, equal discs: a draw, empties to nobody
    blocked = OthelloState(1 << 0, 1 << 63, 0, 8)
    assert blocked.legal_moves() == [] and blocked.is_over()
    assert blocked.score() == 0
    assert blocked.outcome().winner is None
    with pytest.raises(IllegalMoveError):
        blocked.play(PASS)

    # X has two discs, O one, nobody can move: X wins and takes the 61 empties
    lead = OthelloState((1 << 0) | (1 << 7), 1 << 63, 1, 8)
    assert lead.legal_moves() == []
    assert lead.score() == 2 - 1 + 61
    assert lead.outcome().winner == 0
    assert lead.utility(0) == WIN + 62 and lead.utility(1) == -WIN - 62

    # reached by a move: row 1 = X O - O X ... ; X plays c1 and then neither side has a move
    board = [[naive.EMPTY] * 8 for _ in range(8)]
    board[0][:5] = [naive.BLACK, naive.WHITE, naive.EMPTY, naive.WHITE, naive.BLACK]
    s = state_of(board, 0)
    assert s.legal_moves() == [2]
    after = s.play(2)
    assert after.black == 0b11111 and after.white == 0
    assert after.is_over() and after.score() == 64


def test_wipe_out() -> None:
    for n in SIZES:
        h = n // 2
        d4, e4, f4 = (h - 1) * n + h - 1, (h - 1) * n + h, (h - 1) * n + h + 1
        s = OthelloState(1 << d4, 1 << e4, 0, n)
        assert s.legal_moves() == [f4] and not s.is_over()
        wiped = s.play(f4)
        assert wiped.white == 0 and wiped.black.bit_count() == 3
        assert wiped.legal_moves() == [] and wiped.is_over()
        assert wiped.score() == n * n  # 3 discs + every empty square go to the winner
        assert wiped.outcome().winner == 0
        assert wiped.utility(1) == -WIN - n * n
        # White wiped out with White to move, and Black wiped out
        gone = OthelloState(0, 0b1011, 0, n)
        assert gone.is_over() and gone.legal_moves() == []
        assert gone.score() == -(n * n)
        assert gone.outcome().winner == 1


def test_full_board() -> None:
    rng = random.Random(7)
    for n in SIZES:
        board = naive.random_board(n, rng, fill=1.0)
        s = state_of(board, rng.randrange(2))
        b, w = naive.count(board)
        assert b + w == n * n
        assert s.legal_moves() == [] and s.is_over()
        assert s.score() == b - w
        assert s.empties() == 0
        with pytest.raises(IllegalMoveError):
            s.play(PASS)
        with pytest.raises(IllegalMoveError, match="occupied"):
            s.play(0)


def test_illegal_move_reasons() -> None:
    s = OthelloState.start()
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.play(27)  # d4
    with pytest.raises(IllegalMoveError, match="occupied"):
        s.parse_move("d4")
    with pytest.raises(IllegalMoveError, match="flips nothing"):
        s.play(0)  # a1
    with pytest.raises(IllegalMoveError, match="flips nothing"):
        s.parse_move("a1")
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.play(64)
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.play(-5)
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.parse_move("i3")  # file i exists only on 10x10
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.parse_move("8 0")  # row-col, 0-based
    with pytest.raises(IllegalMoveError, match="off the board"):
        s.parse_move("a9")
    # an IllegalMoveError is a PliesError: front-ends print it as one line
    from plies.game import PliesError

    assert issubclass(IllegalMoveError, PliesError)


@pytest.mark.parametrize("text", ["", "zz", "d", "3", "d3x", "2-3x", "hello", "1 2 3"])
def test_malformed_moves_raise_parse_error(text: str) -> None:
    with pytest.raises(ParseError):
        OthelloState.start().parse_move(text)


def test_move_notations() -> None:
    s = OthelloState.start()
    assert s.parse_move("d3") == 19
    assert s.parse_move("D3") == 19
    assert s.parse_move(" f5 ") == 37
    assert s.parse_move("2 3") == 19  # document 000's 0-based row col
    assert s.parse_move("(2,3)") == 19
    assert s.parse_move("4,5") == 37
    big = OthelloState.start(10)
    # 10x10: the start discs are on e5 f5 e6 f6; the moves include e4 (row 3, col 4)
    assert big.parse_move("e4") == 34 and big.parse_move("3 4") == 34
    assert square_name(big.parse_move("e4"), 10) == "e4"


# --- document 000's layout and notation ---------------------------------------------------------------------

def test_document_000_layout_and_row_col_moves() -> None:
    s = OthelloState.start(layout="doc000")
    # X on (3,3) and (4,4), O on (3,4) and (4,3), X to move
    assert s.black == (1 << 27) | (1 << 36)
    assert s.white == (1 << 28) | (1 << 35)
    assert s.to_move == 0
    # document 000's prompt: valid moves (2 4)(3 5)(4 2)(5 3)
    assert [divmod(m, 8) for m in s.legal_moves()] == [(2, 4), (3, 5), (4, 2), (5, 3)]
    after = s.play(s.parse_move("2 4"))
    assert after.black == s.black | (1 << 20) | (1 << 28)
    assert after.white == s.white & ~(1 << 28)
    # a doc000 transcript replays from that layout
    t = OthelloState.from_transcript("e3", layout="doc000")
    assert t == after
    assert parse_position("e3", layout="doc000") == after
    assert parse_position("othello", layout="doc000") == s
    with pytest.raises(ParseError):
        OthelloState.start(layout="mirror")


def test_document_000_layout_on_other_board_sizes() -> None:
    """``othello6`` with document 000's layout is the 6x6 mirror start, not silently the standard one."""
    for n in (4, 6, 10):
        assert parse_position(f"othello{n}", layout="doc000") == OthelloState.start(n, layout="doc000")


# --- parsing and printing -------------------------------------------------------------------------------------

START_TEXT = "---------------------------OX------XO---------------------------X"


def test_parse_64_char_board_with_and_without_space() -> None:
    start = OthelloState.start()
    assert parse_position(START_TEXT) == start
    assert parse_position(START_TEXT[:64] + " X") == start
    assert parse_position(START_TEXT.replace("-", ".").replace("X", "*")) == start
    assert parse_position(START_TEXT[:64].replace("X", "*").replace("-", ".") + " *") == start
    white_to_move = parse_position(START_TEXT[:64] + "O")
    assert white_to_move.to_move == 1 and (white_to_move.black, white_to_move.white) == (start.black, start.white)
    assert start.to_text().replace(" ", "") == START_TEXT
    assert OthelloState.from_text(start.to_text()) == start


def test_to_text_round_trip_on_random_positions() -> None:
    for n in SIZES:
        for board, player in sample_positions(n, 30, seed=n):
            s = state_of(board, player)
            assert OthelloState.from_text(s.to_text()) == s
            assert parse_position(s.to_text()) == s


def test_parse_transcripts() -> None:
    s = parse_position("f5d6c3")
    board, player = naive.start_board(8), 0
    for r, c in ((4, 5), (5, 3), (2, 2)):
        board = naive.apply(board, player, r, c)
        player = 1 - player
    assert board_of(s) == board and s.to_move == 1
    assert parse_position("F5 D6 C3") == s
    assert parse_position("f5 d6 c3") == s
    assert OthelloState.from_transcript("f5d6c3") == s


def test_transcript_with_implicit_and_explicit_passes() -> None:
    """Replay a random game that contains a pass, with passes omitted, written 'pass' or '--'."""
    rng = random.Random(3)
    for _ in range(400):
        board, player, history = naive.random_playout(8, 64, rng)
        if None in history[:-1]:
            break
    else:  # pragma: no cover - the seed is chosen so that this does not happen
        pytest.fail("no random game with a pass")
    names = ["pass" if m is None else square_name(m[0] * 8 + m[1]) for m in history]
    implicit = "".join(x for x in names if x != "pass")
    explicit = "".join(x if x != "pass" else "--" for x in names)
    spaced = " ".join(names)
    expected = state_of(board, player)
    for text in (explicit, spaced):
        assert OthelloState.from_transcript(text) == expected
    got = OthelloState.from_transcript(implicit)
    assert (got.black, got.white) == (expected.black, expected.white)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "chess",
        "othello7",
        "othello12",
        "f5d6z9",
        "f5f5",             # second move illegal (occupied)
        "a1",               # flips nothing
        START_TEXT[:63] + "X",   # 63 board chars + side
        START_TEXT[:64] + "Z",   # bad side
        START_TEXT[:64] + "XX",  # one too many
        "Q" * 64 + "X",          # bad board characters
    ],
)
def test_malformed_positions_raise_parse_errors(text: str) -> None:
    from plies.game import PliesError

    with pytest.raises(PliesError):
        parse_position(text)


def test_bad_board_characters_name_the_problem() -> None:
    with pytest.raises(ParseError, match="bad board character"):
        OthelloState.from_text("Q" + START_TEXT[1:])
    with pytest.raises(ParseError, match="side to move"):
        OthelloState.from_text(START_TEXT[:64] + "Z")
    with pytest.raises(ParseError):
        OthelloState.from_text(START_TEXT[:60] + "X")
    with pytest.raises(ParseError):
        OthelloState(1, 1, 0, 8)  # a square with both colours
    with pytest.raises(ParseError):
        OthelloState.start(7)
    with pytest.raises(ParseError):
        OthelloState.start(12)


def test_other_board_sizes_parse_by_length() -> None:
    for n in (4, 6, 10):
        s = OthelloState.start(n)
        text = s.to_text()
        assert len(text.replace(" ", "")) == n * n + 1
        assert parse_position(text) == s
        assert parse_position(f"othello{n}") == s


# --- identity: immutable, hashable ------------------------------------------------------------------------------

def test_equal_states_hash_equal_and_play_does_not_mutate() -> None:
    a = OthelloState.from_transcript("f5d6c3")
    b = parse_position(a.to_text())
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    # transpositions: different 4-ply lines that reach one board give equal, equally hashed states
    leaves: dict[tuple[int, int], list[OthelloState]] = {}
    frontier = [OthelloState.start()]
    for _ in range(4):
        frontier = [c for s in frontier for _, c in s.children()]
    for s in frontier:
        leaves.setdefault((s.black, s.white), []).append(s)
    groups = [g for g in leaves.values() if len(g) > 1]
    assert groups, "the 244 4-ply lines contain transpositions"
    for g in groups:
        assert all(x == g[0] and hash(x) == hash(g[0]) for x in g)
    assert len(set(frontier)) == len(leaves)
    before = (a.black, a.white, a.to_move, list(a.legal_moves()))
    for m in a.legal_moves():
        a.play(m)
    assert (a.black, a.white, a.to_move, a.legal_moves()) == before
    # side to move and board size are part of the identity
    assert OthelloState(a.black, a.white, 1 - a.to_move) != a
    assert OthelloState.start(6) != OthelloState.start(8)
    assert OthelloState.start() != "othello"


def test_legal_moves_list_cannot_corrupt_the_state() -> None:
    """A caller that edits the list it was given (sort, shuffle, remove) must not change the state itself."""
    s = OthelloState.start()
    moves = s.legal_moves()
    moves.reverse()
    moves.append(0)
    assert s.legal_moves() == [19, 26, 37, 44]
