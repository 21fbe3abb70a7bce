"""The server in the request's language: the page's words from the one catalog (/api/messages), and refusals,
results and notices in Greek when the request says ``X-Plies-Lang: el`` (or ``?lang=el``), in English without it;
what is stored (the history) stays English."""

from __future__ import annotations

from typing import Any

from .polling import until

EL = {"X-Plies-Lang": "el"}


def two_people(client: Any) -> str:
    data = client.post("/api/games/new", json={"game": "othello", "players": [{"kind": "human"}, {"kind": "human"}]})
    assert data.status_code == 200, data.text
    return str(data.json()["game"]["id"])


def test_the_pages_words_come_from_the_catalog(client: Any) -> None:
    el = client.get("/api/messages?lang=el-GR").json()
    assert el["lang"] == "el" and el["languages"]["el"] == "Ελληνικά"
    assert el["messages"]["Hint"] == "Υπόδειξη" and el["messages"]["New game"] == "Νέο παιχνίδι"
    assert el["messages"]["{side} to move"] == "Σειρά: {side}"
    assert client.get("/api/messages?lang=en").json()["messages"] == {}
    bad = client.get("/api/messages?lang=xx")
    assert bad.status_code == 400 and "unknown language" in bad.json()["error"]


def test_refusals_in_the_requests_language(client: Any) -> None:
    gid = two_people(client)
    said = client.post(f"/api/games/{gid}/undo", headers=EL).json()["error"]
    assert said == "δεν υπάρχει κίνηση για αναίρεση"
    assert client.post(f"/api/games/{gid}/undo").json()["error"] == "nothing to undo"
    assert "πούλι" in client.post(f"/api/games/{gid}/moves?lang=el", json={"move": "a1"}).json()["error"]
    info = client.get("/api/info", headers=EL).json()
    assert info["games"][0]["sides"] == ["Black", "White"]  # the page translates the names it shows


def test_results_and_notices_in_each_requests_language_the_history_in_english(client: Any) -> None:
    gid = two_people(client)
    client.post(f"/api/games/{gid}/resign", headers=EL)
    el = client.get(f"/api/games/{gid}", headers=EL).json()
    en = client.get(f"/api/games/{gid}").json()
    assert el["notice"] == "Παραίτηση: Μαύρα." and en["notice"] == "Black resigns."
    assert el["result"]["text"].startswith("Νικητής: Άσπρα") and en["result"]["text"] == "White wins by resignation"
    games = until(lambda: client.get("/api/history").json()["games"], bool, "the game is stored")
    assert games[0]["result"] == "White wins by resignation"
