"""Game files in and out of the browser app's API: a pasted GGF game (or tagged transcripts, or a game plies play
saved) opens with its players' names, a pasted finished game is never credited to "You" and a computer, a bad file
is refused with its line and column; a live or stored game comes back as a transcript file and as GGF."""

from __future__ import annotations

from typing import Any

from plies.formats.ggf import read_ggf, write_ggf
from plies.formats.model import OthelloGame
from plies.game import PASS
from plies.games import OthelloState
from plies.games.record import Game

from .test_api import new

COMPUTER = {"kind": "computer", "level": 1}
AGAINST_COMPUTER = [{"kind": "human"}, COMPUTER]


def first_moves_game(plies: int | None = None) -> Game[OthelloState]:
    """A game in which each side plays its first legal move, to the end or for ``plies`` moves."""
    game = Game(OthelloState.start())
    while not game.over and (plies is None or len(game.moves) < plies):
        game.play(game.state.legal_moves()[0])
    return game


def ggf_of(game: Game[OthelloState], black: str = "Ann", white: str = "Bob") -> str:
    out = game.outcome()
    return write_ggf(OthelloGame(game.start, list(game.moves), black, white, result=out.score if out else None))


def test_a_pasted_ggf_game_opens_with_its_players(client: Any) -> None:
    game = first_moves_game()
    g = new(client, position=ggf_of(game), players=AGAINST_COMPUTER)
    assert g["over"] and g["ply"] == len(game.moves) and g["setup_moves"] == len(game.moves)
    assert [p["name"] for p in g["players"]] == ["Ann", "Bob"]
    assert all(p["kind"] == "human" for p in g["players"])  # no computer plays a finished game
    assert g["transcript"] == game.transcript()


def test_a_pasted_finished_transcript_is_credited_to_no_one(client: Any) -> None:
    game = first_moves_game()
    g = new(client, position=game.transcript(), players=AGAINST_COMPUTER)
    assert g["over"]
    names = [p["name"] for p in g["players"]]
    assert "You" not in names and names == ["Person 1", "Person 2"]
    assert all(p["kind"] == "human" for p in g["players"])


def test_an_unfinished_ggf_game_is_played_on_by_the_chosen_players(client: Any) -> None:
    game = first_moves_game(6)
    g = new(client, position=ggf_of(game), players=AGAINST_COMPUTER)
    assert g["ply"] == 6 and not g["over"] and g["players"][1]["kind"] == "computer"
    assert g["players"][0]["name"] == "You"


def test_a_file_of_several_games_opens_the_first(client: Any) -> None:
    one, two = first_moves_game(4), first_moves_game(8)
    g = new(client, position=ggf_of(one) + "\n" + ggf_of(two, "Cy", "Di") + "\n", players=[{"kind": "human"}] * 2)
    assert g["ply"] == 4 and g["notice"] == "Game 1 of the 2 in the file."
    text = ggf_of(one) + "\n" + ggf_of(two, "Cy", "Di") + "\n"
    listed = client.post("/api/files/games", json={"text": text}).json()
    assert listed["format"] == "ggf" and listed["total"] == 2
    assert [(x["index"], x["black"], x["white"], x["moves"]) for x in listed["games"]] == [(1, "Ann", "Bob", 4),
                                                                                            (2, "Cy", "Di", 8)]
    second = new(client, position=text, index=2, players=[{"kind": "human"}] * 2)
    assert second["ply"] == 8 and second["players"][0]["name"] == "Cy"
    r = client.post("/api/games/new", json={"position": text, "index": 3})
    assert r.status_code == 400 and "no game number 3" in r.json()["error"]
    assert client.post("/api/files/games", json={"text": "f5d6c3"}).json()["total"] == 0  # a bare transcript
    r = client.post("/api/files/games", json={"text": "(;GM[Othello]B[Z9];)"})
    assert r.status_code == 400 and "line 1, column" in r.json()["error"]


def test_tagged_transcripts_and_saved_games_of_other_games(client: Any) -> None:
    game = first_moves_game(5)
    tagged = f'[Black "Eve"]\n[White "Fay"]\n{game.transcript()}\n'
    g = new(client, position=tagged, players=[{"kind": "human"}] * 2)
    assert g["ply"] == 5 and [p["name"] for p in g["players"]] == ["Eve", "Fay"]
    g = new(client, position="# game tictactoe\nb2 a1 c3\n", players=[{"kind": "human"}] * 2)
    assert g["game"] == "tictactoe" and g["ply"] == 3


def test_a_bad_file_is_refused_with_its_place(client: Any) -> None:
    r = client.post("/api/games/new", json={"position": "(;GM[Othello]PB[x]B[Z9];)"})
    assert r.status_code == 400
    error = r.json()["error"]
    assert "line 1, column" in error and "Z9" in error.upper() and "Traceback" not in error
    r = client.post("/api/games/new", json={"position": "(;GM[Chess]B[e4];)"})
    assert r.status_code == 400 and "not an Othello game" in r.json()["error"]
    r = client.post("/api/games/new", json={"position": "(;GM[Othello]B[F5]"})
    assert r.status_code == 400 and "not closed" in r.json()["error"]
    assert client.get("/api/info").status_code == 200  # still serving


def test_a_game_saved_as_transcript_and_ggf_reads_back(client: Any) -> None:
    g = new(client, players=[{"kind": "human"}] * 2)
    for move in ("f5", "d6", "c3"):
        client.post(f"/api/games/{g['id']}/moves", json={"move": move})
    files = client.get(f"/api/games/{g['id']}/transcript").json()
    assert files["file"] == "f5d6c3\n"
    back = read_ggf(files["ggf"])
    assert back.move_names() == ["f5", "d6", "c3"] and (back.black, back.white) == ("Person 1", "Person 2")
    again = new(client, position=files["ggf"], players=[{"kind": "human"}] * 2)  # and opens again
    assert again["ply"] == 3
    t = new(client, game="tictactoe", players=[{"kind": "human"}] * 2)
    client.post(f"/api/games/{t['id']}/moves", json={"move": "b2"})
    files = client.get(f"/api/games/{t['id']}/transcript").json()
    assert files["ggf"] is None and files["file"] == "# game tictactoe\nb2\n"
    assert new(client, position=files["file"], players=[{"kind": "human"}] * 2)["game"] == "tictactoe"


def test_a_set_up_board_is_saved_with_its_start(client: Any) -> None:
    start = OthelloState.start().play(OthelloState.start().legal_moves()[0])
    g = new(client, position=start.to_text(), players=[{"kind": "human"}] * 2)
    files = client.get(f"/api/games/{g['id']}/transcript").json()
    assert files["file"] == f"# start {start.to_text()}\n\n"
    assert read_ggf(files["ggf"]).start == start


def test_a_finished_game_in_the_history_has_its_files(client: Any) -> None:
    game = first_moves_game()
    g = new(client, position=game.transcript(), players=[{"kind": "human"}] * 2)
    client.post(f"/api/games/{g['id']}/undo")
    last = game.moves[-1] if game.moves[-1] != PASS else game.moves[-2]
    done = client.post(f"/api/games/{g['id']}/moves", json={"move": game.states[-2].move_str(last)}).json()
    assert done["over"] and done["saved"] is True
    stored = client.get(f"/api/history/{g['id']}").json()
    assert read_ggf(stored["ggf"]).moves == game.moves and stored["file"] == game.transcript() + "\n"
