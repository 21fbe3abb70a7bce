"""The table of opening names: every line is legal from the start and names a position of its own; a game is named
by the positions it goes through, from any of the four first moves and in any move order; other games have none;
the names reach plies analyse, plies play and the browser's view."""

from __future__ import annotations

import json

import pytest

from plies import Othello, TicTacToe
from plies.analysis.openings import OTHELLO, opening, openings, position_name
from plies.cli import main
from plies.game import PASS
from plies.games import type_of
from plies.games.record import Game

OTHELLO_TYPE = type_of(Othello.start())


def game(moves: str) -> Game:  # type: ignore[type-arg]
    return Game.from_transcript(OTHELLO_TYPE, moves, Othello.start())


@pytest.mark.parametrize(("line", "name"), OTHELLO, ids=[name for _, name in OTHELLO])
def test_every_line_is_legal_from_the_start_and_named(line: str, name: str) -> None:
    played = game(line)  # ParseError (naming the move) when a move of the line is not legal
    assert len(line) == 2 * len(played.moves) and PASS not in played.moves and line.startswith("f5")
    assert position_name(played.state) == name
    assert opening(played.states).ply == len(played.moves)


def test_the_table_names_each_position_once() -> None:
    names = [name for _, name in OTHELLO]
    assert len(set(names)) == len(names) and len({line for line, _ in OTHELLO}) == len(OTHELLO)
    positions = {game(line).state for line, _ in OTHELLO}
    assert len(positions) == len(OTHELLO)  # no line transposes into another: every name can be reached


def test_the_four_first_moves_and_another_move_order_name_the_same_opening() -> None:
    for tiger in ("f5d6c3d3c4", "e6f4c3c4d3", "c4e3f6e6f5", "d3c5f6f5e6"):
        assert opening(game(tiger).states).name == "Tiger", tiger
    transposed = game("f5d6c4d3c3")  # Black's c3 and c4 the other way round: the Tiger's position
    assert transposed.state == game("f5d6c3d3c4").state and opening(transposed.states).name == "Tiger"
    assert [o.name for o in openings(game("f5d6c3d3c4f4f6f3").states)] == ["Perpendicular", "Tiger", "Stephenson"]
    assert opening(game("f5d6c3d3c4f4f6f3").states).ply == 7  # a game stays in the last opening it named


def test_other_games_and_boards_have_no_names() -> None:
    assert opening(Game(Othello.start(6), [Othello.start(6).legal_moves()[0]]).states) is None
    assert opening(Game(TicTacToe.start(), [4, 0]).states) is None
    assert position_name(Othello.start()) is None


def test_plies_analyse_names_the_opening(capsys: pytest.CaptureFixture[str]) -> None:
    from plies.analysis.levels import engine_status

    if not engine_status()[0]:
        pytest.skip("plies analyse needs the compiled engine")
    assert main(["analyse", "c4e3f6e6f5", "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["opening"] == "Tiger"
    assert main(["analyse", "f5d6c3d3c4f4f6", "--depth", "2"]) == 0
    assert "Opening: Stephenson" in capsys.readouterr().out
    assert main(["analyse", game("f5f6e6d6c5").state.to_text(), "--depth", "2", "--json"]) == 0  # a board
    assert json.loads(capsys.readouterr().out)["opening"] == "Cow"
    assert main(["analyse", "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6", "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["opening"] == "Stephenson"


def test_the_terminal_game_names_the_opening_as_it_is_reached() -> None:
    from plies.cli.play import PlaySession
    from plies.players import HumanPlayer

    moves = iter(["f5", "f6", "e6", "d6", "e7", "quit"])
    out: list[str] = []
    PlaySession(Othello.start(), (HumanPlayer(), HumanPlayer()), lambda prompt: next(moves), out.append).play()
    assert [line for line in out if line.startswith("Opening: ")] == ["Opening: Diagonal", "Opening: Heath"]


def test_the_browser_view_lists_the_openings(client: object) -> None:
    g = client.post("/api/games/new", json={"position": "f5f6e6d6c5e3e7",  # type: ignore[attr-defined]
                                             "players": [{"kind": "human"}] * 2}).json()["game"]
    assert g["openings"] == [{"ply": 2, "name": "Diagonal"}, {"ply": 5, "name": "Cow"}, {"ply": 7, "name": "Bat"}]


@pytest.fixture
def client(tmp_path: object) -> object:
    from fastapi.testclient import TestClient

    from plies.web import create_app

    with TestClient(create_app(tmp_path / "h.sqlite"), base_url="http://localhost") as c:  # type: ignore[operator]
        yield c
