"""OBF and WTHOR files opened from the start screen, through the API: an OBF file's positions listed and the one
picked started; a WTHOR file's bytes (base64) with its WTHOR.JOU listed with the players' names, the game picked
given back as GGF and started; bad files refused with a readable line, never a traceback."""

from __future__ import annotations

import base64
from typing import Any

from plies.formats.ggf import read_ggf
from plies.formats.obf import ObfPosition, write_obf
from plies.games import OthelloState
from plies.web.guard import MAX_BODY

from .test_api import new
from .test_library_api import random_games, write_wthor

PEOPLE = [{"kind": "human"}] * 2


def obf_text() -> tuple[str, list[OthelloState]]:
    """Three positions reached in seeded random games, as OBF lines (the first with scores, the last a comment)."""
    games = random_games(3, 11)
    states = [games[0].states()[20], games[1].states()[31], games[2].states()[9]]
    positions = [ObfPosition(states[0], {states[0].legal_moves()[0]: 4}), ObfPosition(states[1], best=-2,
                 best_given=[states[1].legal_moves()[0]]), ObfPosition(states[2], comment="a quiet one")]
    return "% three positions\n" + write_obf(positions), states


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def test_an_obf_file_lists_its_positions_and_opens_the_one_picked(client: Any) -> None:
    text, states = obf_text()
    listed = client.post("/api/files/games", json={"text": text}).json()
    assert listed["format"] == "obf" and listed["total"] == 3
    labels = [g["label"] for g in listed["games"]]
    who = ["Black" if s.to_move == 0 else "White" for s in states]
    assert labels[0].startswith(f"{who[0]} to move, {states[0].empties()} empties, best +4")
    assert labels[2].endswith("a quiet one")
    g = new(client, position=text, index=2, players=PEOPLE)
    assert g["position"] == states[1].to_text() and g["ply"] == 0
    one = new(client, position=text.splitlines()[1], players=PEOPLE)  # one line: that position
    assert one["position"] == states[0].to_text()


def test_a_bad_obf_file_is_refused_with_its_line(client: Any) -> None:
    text, _ = obf_text()
    lines = text.splitlines()
    lines[2] = lines[2][:64] + " X; Z9:+3;"
    r = client.post("/api/files/games", json={"text": "\n".join(lines) + "\n"})
    assert r.status_code == 400 and "line 3" in r.json()["error"] and "Traceback" not in r.text


def test_a_wthor_file_lists_its_games_with_the_names_of_its_wthor_jou(client: Any, tmp_path: Any) -> None:
    names = ["Tamenori Hideshi", "Brian Rose", "Imre Leader"]
    games = [g for g in random_games(12, 4) if g.final.is_over()]
    wtb = write_wthor(tmp_path, games, names)
    body = {"data": b64(wtb.read_bytes()), "players": b64((tmp_path / "WTHOR.JOU").read_bytes()), "name": "x.wtb"}
    listed = client.post("/api/files/wthor", json=body).json()
    assert listed["total"] == len(games) and listed["named"]
    assert [(g["black"], g["white"]) for g in listed["games"][:3]] == [(names[0], names[1]), (names[1], names[2]),
                                                                        (names[2], names[0])]
    assert listed["games"][1]["result"] == f"{games[1].score():+g}" and listed["games"][1]["date"] == "2001"
    picked = client.post("/api/files/wthor", json={**body, "index": 2}).json()
    back = read_ggf(picked["ggf"])
    assert back.moves == games[1].moves and (back.black, back.white) == (names[1], names[2])
    g = new(client, position=picked["ggf"], players=PEOPLE)
    assert [p["name"] for p in g["players"]] == names[1:3] and g["over"]
    unnamed = client.post("/api/files/wthor", json={"data": body["data"]}).json()
    assert unnamed["games"][0]["black"] == "player #0" and not unnamed["named"]


def test_bad_wthor_files_are_refused_in_a_line(client: Any, tmp_path: Any) -> None:
    games = [g for g in random_games(4, 4) if g.final.is_over()]
    raw = write_wthor(tmp_path, games, ["A", "B"]).read_bytes()
    bad_move = bytearray(raw)
    bad_move[16 + 68 + 8] = 11  # game 2's first move: a1
    for data, words in ((raw[:-5], "not whole 68-byte games"), (b"hello", "not a WTHOR games file"),
                        (bytes(bad_move), None)):
        r = client.post("/api/files/wthor", json={"data": b64(data), "index": 2})
        assert r.status_code == 400 and "Traceback" not in r.text, r.text
        assert (words or "move 1 is illegal") in r.json()["error"]
    r = client.post("/api/files/wthor", json={"data": "%%% not base64"})
    assert r.status_code == 400 and "base64" in r.json()["error"]
    r = client.post("/api/files/wthor", json={"data": b64(raw), "index": 9})
    assert r.status_code == 400 and "no game number 9" in r.json()["error"]


def test_only_the_upload_route_takes_a_large_body(client: Any, tmp_path: Any) -> None:
    games = random_games(1, 4)
    while len(games) * 68 < 400_000:  # about 6,000 games
        games = games * 2
    games = [g for g in games if g.final.is_over()] or games
    raw = write_wthor(tmp_path, games, ["A", "B"]).read_bytes()
    assert len(b64(raw)) > MAX_BODY
    listed = client.post("/api/files/wthor", json={"data": b64(raw)})
    assert listed.status_code == 200 and listed.json()["total"] == len(games)
    r = client.post("/api/files/games", json={"text": "x" * (MAX_BODY + 10)})
    assert r.status_code == 413
