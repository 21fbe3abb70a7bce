"""WTHOR: a database built byte by byte from the published layout reads back as the games put in it."""

from __future__ import annotations

from datetime import date

import pytest

from plies.formats.errors import FormatError
from plies.formats.wthor import (
    WthorGame,
    load_wthor,
    read_players,
    read_tournaments,
    read_wtb,
    write_names,
    write_wtb,
    wthor_games,
    wthor_records,
)
from plies.game import PASS, ParseError

from .conftest import games_with_a_pass, random_game


def le(value: int, size: int) -> list[int]:
    return [(value >> (8 * k)) & 0xFF for k in range(size)]


def header(n1: int, n2: int = 0, year: int = 2024, size: int = 8, depth: int = 22) -> bytes:
    return bytes([20, 24, 11, 26] + le(n1, 4) + le(n2, 2) + le(year, 2) + [size, 0, depth, 0])


def move_byte(name: str) -> int:
    return 10 * int(name[1]) + (ord(name[0]) - 96)  # 11 = a1, 18 = h1, 81 = a8, 88 = h8


def game_bytes(tournament: int, black: int, white: int, score: int, theo: int, moves: list[str]) -> bytes:
    body = [move_byte(m) for m in moves] + [0] * (60 - len(moves))
    return bytes(le(tournament, 2) + le(black, 2) + le(white, 2) + [score, theo] + body)


def names_file(names: list[str], width: int) -> bytes:
    out = bytearray(bytes([20, 24, 11, 26]) + bytes(le(0, 4) + le(len(names), 2) + le(0, 2) + [0, 0, 0, 0]))
    for n in names:
        raw = n.encode("latin-1")
        out += raw + bytes(width - len(raw))
    return bytes(out)


@pytest.fixture(scope="module")
def database():
    full = games_with_a_pass(1)[0]          # a complete game with a pass (not stored in WTHOR)
    short = random_game(5, 12)              # an unfinished one: padding after 12 moves
    full_moves = [n for n in full.move_names() if n != "pass"]
    short_moves = short.move_names()
    final = full.final
    b, w = final.counts()
    black_score = b + final.empties() if b > w else b if b < w else 32
    data = header(2) + game_bytes(1, 2, 0, black_score, 40, full_moves) + game_bytes(0, 1, 2, 30, 31, short_moves)
    assert len(data) == 16 + 2 * 68
    return data, full, short, black_score


def test_header_and_games_read_back(database):
    data, full, short, black_score = database
    f = read_wtb(data)
    assert f.header.created == date(2024, 11, 26)
    assert (f.header.n1, f.header.year, f.header.board_size, f.header.depth) == (2, 2024, 8, 22)
    g1, g2 = f.games
    assert (g1.tournament, g1.black, g1.white, g1.score, g1.theoretical) == (1, 2, 0, black_score, 40)
    assert len(g1.moves) == sum(1 for m in full.moves if m != PASS)
    assert (g2.tournament, g2.black, g2.white, g2.score, g2.theoretical) == (0, 1, 2, 30, 31)
    assert len(g2.moves) == 12


def test_games_replay_with_passes_and_names(database):
    data, full, short, black_score = database
    players = read_players(names_file(["Tastet Marc", "Shaman Brian", "Suekuni Tetsuya"], 20))
    events = read_tournaments(names_file(["Championnat de France", "World Othello Ch."], 26))
    assert players[2] == "Suekuni Tetsuya" and events[1] == "World Othello Ch."
    g1, g2 = wthor_games(data, players, events)
    assert g1.same_game(full) and PASS in g1.moves
    assert (g1.black, g1.white, g1.props["tournament"]) == ("Suekuni Tetsuya", "Tastet Marc", "World Othello Ch.")
    assert g1.score() == full.final.score() == 2 * black_score - 64
    assert g2.same_game(short) and g2.result == 2 * 30 - 64
    recs = wthor_records(data, players, events)
    assert recs[0].players == ("Suekuni Tetsuya", "Tastet Marc") and recs[0].moves == full.move_names()
    assert recs[0].termination == "normal" and recs[1].termination == "aborted"
    assert recs[1].score == -4 and recs[1].winner == 1


def test_writer_matches_the_hand_built_bytes(database):
    data, full, short, black_score = database
    f = read_wtb(data)
    again = write_wtb(f.games, year=2024, depth=22, created=date(2024, 11, 26))
    assert again == data
    made = WthorGame.from_game(full, black=2, white=0, tournament=1)
    made.theoretical = 40
    assert made.to_bytes() == data[16:16 + 68]


def test_round_trip_of_many_games(some_games):
    finished = [g for g in some_games if g.final.is_over()]
    data = write_wtb([WthorGame.from_game(g, black=i, white=i + 1) for i, g in enumerate(finished)])
    back = wthor_games(data)
    assert len(back) == len(finished)
    for a, b in zip(finished, back, strict=True):
        assert b.same_game(a) and b.score() == a.score()
    names = ["Émile", "Zoë", "x" * 19]
    assert read_players(write_names(names, 20)) == names


def test_load_finds_the_name_files_beside_it(tmp_path, database):
    data = database[0]
    (tmp_path / "WTH_2024.wtb").write_bytes(data)
    (tmp_path / "WTHOR.JOU").write_bytes(names_file(["A", "B", "C"], 20))
    (tmp_path / "WTHOR.TRN").write_bytes(names_file(["T0", "T1"], 26))
    g1, g2 = load_wthor(tmp_path / "WTH_2024.wtb")
    assert (g1.black, g1.white, g1.props["tournament"]) == ("C", "A", "T1")


@pytest.mark.parametrize(
    ("mutate", "offset", "words"),
    [
        (lambda d: d[:-1], 16 + 68, "not whole 68-byte games"),
        (lambda d: d[:4] + bytes(le(3, 4)) + d[8:], 4, "header says 3 games"),
        (lambda d: d[:12] + bytes([10]) + d[13:], 12, "8x8"),
        (lambda d: d[:16 + 68 + 8] + bytes([99]) + d[16 + 68 + 9:], 16 + 68 + 8, "not a square"),
        (lambda d: d[:16 + 68 + 8] + bytes([11]) + d[16 + 68 + 9:], 16 + 68 + 8, "illegal"),
        (lambda d: d[:16 + 6] + bytes([65]) + d[16 + 7:], 16 + 6, "over 64"),
        (lambda d: d[:10], 0, "too short"),
    ],
)
def test_malformed_files_name_the_byte(database, mutate, offset, words):
    bad = mutate(database[0])
    with pytest.raises(FormatError) as info:
        wthor_games(bad, source="bad.wtb")
    err = info.value
    assert isinstance(err, ParseError)
    assert words in str(err) and err.offset == offset and "bad.wtb" in str(err)


def test_an_unfinished_game_keeps_its_disc_difference_not_a_loss() -> None:
    from plies.formats.transcript import read_transcript

    game = read_transcript("f5d6c3d3c4f4")
    b, w = game.final.counts()
    made = WthorGame.from_game(game)
    assert 2 * made.score - 64 == b - w  # 5-5: 0, not 2 x 5 - 64 = -54
    back = wthor_games(write_wtb([made]))[0]
    assert back.result == b - w
