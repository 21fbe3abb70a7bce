"""The game library of ``plies web --games PATH`` through the API: every game of a GGF file, a WTHOR file (names from
WTHOR.JOU) or a folder (a file in it of neither format left out and said) listed a page at a time, searched by
player, opening and position reached (each search checked against the games replayed here), opened for replay and
reviewed; bad games skipped and counted; a path that cannot be read refused in one line."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from plies.cli import main
from plies.formats import wthor
from plies.formats.ggf import read_ggf, write_ggf
from plies.formats.model import OthelloGame
from plies.game import PASS
from plies.games import OthelloState
from plies.games.record import Game
from plies.web.library import Library, openings

PLAYERS = ["Ann Abel", "Bob Bell", "Cy Cole", "Di Dunn", "Éva Ödön"]


def random_games(count: int, seed: int) -> list[OthelloGame]:
    """Seeded random legal games (a few cut short), each between two of PLAYERS."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        game = Game(OthelloState.start())
        stop = rng.choice([None, None, None, rng.randint(5, 40)])
        while not game.over and (stop is None or len(game.moves) < stop):
            game.play(rng.choice(game.state.legal_moves()))
        out_ = game.outcome()
        out.append(OthelloGame(game.start, list(game.moves), PLAYERS[k % 5], PLAYERS[(k * 3 + 1) % 5],
                               result=out_.score if out_ else None, date=f"2024-01-{k % 28 + 1:02d}"))
    return out


BAD_GAMES = ["(;GM[Othello]PB[Bad Move]PW[x]B[F5]W[A1];)\n", "(;GM[Chess]PB[Not Othello]PW[y]B[E4];)\n"]


def write_ggf_file(path: Path, games: list[OthelloGame], bad: bool = True) -> Path:
    """The games one a line, with the two BAD_GAMES after the third game when ``bad``."""
    lines = [write_ggf(g) + "\n" for g in games]
    if bad:
        lines[3:3] = BAD_GAMES
    path.write_text("".join(lines), encoding="utf-8")
    return path


def write_wthor(folder: Path, games: list[OthelloGame], names: list[str]) -> Path:
    """A .wtb file of ``games`` (player k plays as number k % len(names)) and the WTHOR.JOU naming them."""
    folder.mkdir(parents=True, exist_ok=True)
    records = [wthor.WthorGame.from_game(g, k % len(names), (k + 1) % len(names)) for k, g in enumerate(games)]
    (folder / "games.wtb").write_bytes(wthor.write_wtb(records, year=2001, created=date(2024, 1, 1)))
    (folder / "WTHOR.JOU").write_bytes(wthor.write_names(names, wthor.PLAYER_NAME_SIZE, date(2024, 1, 1)))
    return folder / "games.wtb"


GAMES = random_games(60, 7)


@pytest.fixture
def library_file(tmp_path: Path) -> Path:
    return write_ggf_file(tmp_path / "games.ggf", GAMES)


@pytest.fixture
def lib_client(tmp_path: Path, library_file: Path) -> Iterator[Any]:
    from fastapi.testclient import TestClient

    from plies.web import create_app

    app = create_app(tmp_path / "h.sqlite", library_path=library_file)
    with TestClient(app, base_url="http://localhost") as c:
        assert app.state.library.wait(60)
        yield c


def search(client: Any, **query: Any) -> dict[str, Any]:
    r = client.get("/api/library/games", params={"limit": 200, **query})
    assert r.status_code == 200, r.text
    return dict(r.json())


def states_of(g: OthelloGame) -> list[OthelloState]:
    return g.states()


def test_every_game_is_listed_and_the_bad_ones_are_counted(lib_client: Any) -> None:
    status = lib_client.get("/api/library").json()
    assert status["indexed"] == len(GAMES) and status["skipped"] == 2 and not status["indexing"]
    assert status["progress"] == 1.0 and any("illegal" in p for p in status["problems"])
    assert any("not an Othello game" in p for p in status["problems"])
    page = search(lib_client, limit=20, offset=10)
    assert page["total"] == len(GAMES) and len(page["games"]) == 20
    rows = page["games"]
    assert [r["id"] for r in rows] == list(range(10, 30))
    for r in rows:
        g = GAMES[r["id"]]
        assert (r["black"], r["white"], r["date"]) == (g.black, g.white, g.date)
        assert r["moves"] == sum(1 for m in g.moves if m != PASS)
        score = g.score()
        assert r["result"] == (None if score is None else f"{score:+g}")
    assert lib_client.get("/api/info").json()["library"] is True


def test_search_by_player_is_any_part_of_a_name_in_any_case(lib_client: Any) -> None:
    found = search(lib_client, player="ödön")
    expected = [k for k, g in enumerate(GAMES) if "Éva Ödön" in (g.black, g.white)]
    assert [r["id"] for r in found["games"]] == expected and found["total"] == len(expected) > 0
    assert search(lib_client, player="BELL")["total"] == sum("Bob Bell" in (g.black, g.white) for g in GAMES)
    assert search(lib_client, player="nobody at all")["total"] == 0


def test_search_by_opening_finds_the_symmetric_forms_too(lib_client: Any) -> None:
    first = GAMES[0].move_names()[:3]
    prefixes = openings("".join(first))
    assert len(prefixes) == 4
    expected = [k for k, g in enumerate(GAMES) if any(bytes(m for m in g.moves[:3]) == p for p in prefixes)]
    found = search(lib_client, opening=" ".join(first))
    assert [r["id"] for r in found["games"]] == expected and 0 in expected
    one = search(lib_client, opening="".join(GAMES[5].move_names()[:20]))
    assert 5 in [r["id"] for r in one["games"]]
    r = lib_client.get("/api/library/games", params={"opening": "f5 z9"})
    assert r.status_code == 400 and "an opening is moves such as f5d6c3" in r.json()["error"]


def test_search_by_position_reached_with_or_without_the_side_to_move(lib_client: Any) -> None:
    target = states_of(GAMES[11])[8]
    text = target.to_text().replace(" ", "")
    expected = [k for k, g in enumerate(GAMES) if target in states_of(g)]
    found = search(lib_client, position=text)
    assert [r["id"] for r in found["games"]] == expected and 11 in expected
    row = next(r for r in found["games"] if r["id"] == 11)
    assert states_of(GAMES[11])[row["ply"]] == target
    either = [k for k, g in enumerate(GAMES) if any(s.black == target.black and s.white == target.white
                                                    for s in states_of(g))]
    assert [r["id"] for r in search(lib_client, position=text[:64])["games"]] == either
    start = search(lib_client, position=OthelloState.start().to_text())
    assert start["total"] == len(GAMES) and all(r["ply"] == 0 for r in start["games"])
    both = search(lib_client, position=text, player=GAMES[11].black)
    assert 11 in [r["id"] for r in both["games"]] and both["total"] <= found["total"]
    for bad, words in (("X" * 10, "64 squares"), ("Q" * 64, "squares are X, O or -"), ("-" * 64 + "Z", "who moves")):
        r = lib_client.get("/api/library/games", params={"position": bad})
        assert r.status_code == 400 and words in r.json()["error"], r.text


def test_a_game_opens_for_replay_and_review(lib_client: Any) -> None:
    g = GAMES[13]
    rec = lib_client.get("/api/library/games/13").json()
    assert rec["library"] == 13 and rec["players"] == [g.black, g.white] and rec["game"] == "othello"
    assert rec["moves"] == g.move_names() and len(rec["frames"]) == len(g.moves) + 1
    assert [f["position"] for f in rec["frames"]] == [s.to_text() for s in states_of(g)]
    assert read_ggf(rec["ggf"]).moves == g.moves and rec["source"].startswith("games.ggf, byte ")
    r = lib_client.get(f"/api/library/games/{len(GAMES)}")
    assert r.status_code == 400 and "no game number" in r.json()["error"]
    job = lib_client.post("/api/reviews", json={"library_id": 13, "level": 1}).json()
    deadline = time.monotonic() + 300
    while job["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.2)
        job = lib_client.get(f"/api/reviews/{job['id']}").json()
    assert job["status"] == "done", job
    assert len(job["review"]["moves"]) == len(g.moves)


def test_a_server_without_a_library_says_how_to_start_one(client: Any) -> None:
    r = client.get("/api/library/games")
    assert r.status_code == 404 and "plies web --games PATH" in r.json()["error"]
    assert client.get("/api/info").json()["library"] is False


def test_a_folder_of_wthor_and_ggf_files_with_names_from_wthor_jou(tmp_path: Path) -> None:
    names = ["Tamenori Hideshi", "Brian Rose", "Imre Leader"]
    wtb_games = random_games(9, 3)
    wtb_games = [g for g in wtb_games if g.final.is_over()]  # WTHOR keeps finished games' scores
    write_wthor(tmp_path / "lib" / "wthor", wtb_games, names)
    write_ggf_file(tmp_path / "lib" / "more.ggf", GAMES[:5], bad=False)
    (tmp_path / "lib" / "notes.ggf").write_text("not games\n")
    library = Library(tmp_path / "lib")
    library.build()
    assert library.count == len(wtb_games) + 5 and library.skipped == 0 and not library.error
    assert library.left_out == 1 and "notes.ggf is neither a GGF file" in library.problems[0]
    rows = library.page(library.search(player="rose"), 0, 50)
    assert rows and all("Brian Rose" in (r["black"], r["white"]) for r in rows)
    assert {r["file"] for r in rows} == {"games.wtb"}
    first = library.page(library.search(), 5, 1)[0]  # more.ggf sorts before wthor/games.wtb
    assert (first["black"], first["white"], first["date"]) == (names[0], names[1], "2001")
    game, where = library.open(5)
    assert game.moves == wtb_games[0].moves and where == "games.wtb, game 1" and game.black == names[0]
    assert game.score() == wtb_games[0].score()


def test_games_across_the_reads_blocks_are_all_found(tmp_path: Path) -> None:
    """More than a megabyte of games (the size of one read), so that games straddle the blocks."""
    lines = [write_ggf(g) + "\n" for g in GAMES]
    path = tmp_path / "big.ggf"
    count = 0
    with path.open("w") as f:
        while f.tell() < 2_300_000:
            f.write(lines[count % len(lines)])
            count += 1
    library = Library(path)
    library.build()
    assert library.count == count and library.skipped == 0
    for n in (0, count // 2, count - 1) + tuple(range(2290, 2310)):
        game, _ = library.open(n)
        assert game.moves == GAMES[n % len(GAMES)].moves


def test_the_command_refuses_a_path_it_cannot_read_in_one_line(tmp_path: Path, capsys: Any) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    for path, words in ((tmp_path / "missing.ggf", "no such file or folder"),
                        (text, "neither a GGF file"), (tmp_path, "holds no .ggf or .wtb file")):
        code = main(["web", "--no-browser", "--port", "0", "--db", str(tmp_path / "h.sqlite"), "--games", str(path)])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("plies: error: ") and words in err and err.count("\n") == 1, err
        assert "Traceback" not in err


def test_the_first_games_answer_while_the_rest_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reading held after 300 games: the first block (256) is listed and searchable, the status says how far."""
    import threading

    from plies.web import library as lib

    path = write_ggf_file(tmp_path / "games.ggf", GAMES * 6, bad=False)
    gate, reached = threading.Event(), threading.Event()
    real = lib._ggf_records

    def held(*args: Any) -> Iterator[Any]:
        for k, item in enumerate(real(*args)):
            if k == 300:
                reached.set()
                gate.wait(30)
            yield item

    monkeypatch.setattr(lib, "_ggf_records", held)
    library = Library(path)
    library.start()
    try:
        assert reached.wait(30)
        status = library.status()
        assert status["indexing"] and status["indexed"] == lib.FIRST_CHUNK and 0 < float(status["progress"]) < 1
        assert len(library.search().games) == lib.FIRST_CHUNK
        found = library.search(player="ann abel")
        assert found.games.tolist() == [k for k in range(lib.FIRST_CHUNK) if "Ann Abel" in
                                        (GAMES[k % 60].black, GAMES[k % 60].white)]
    finally:
        gate.set()
    assert library.wait(60) and library.count == len(GAMES) * 6


def test_other_boards_and_starts(tmp_path: Path) -> None:
    """A 10x10 game is skipped; an 8x8 game from a set-up board is kept: found by player and position, not by
    opening (openings are moves from the standard start)."""
    start = GAMES[0].states()[10]
    game = Game(start)
    for _ in range(6):
        game.play(game.state.legal_moves()[0])
    setup = OthelloGame(start, list(game.moves), "Set Up", "Board B")
    big = Game(OthelloState.start(10))
    big.play(big.state.legal_moves()[0])
    path = tmp_path / "mixed.ggf"
    path.write_text(write_ggf(GAMES[0]) + "\n" + write_ggf(OthelloGame(big.start, list(big.moves))) + "\n"
                    + write_ggf(setup) + "\n")
    library = Library(path)
    library.build()
    assert library.count == 2 and library.skipped == 1 and "not an 8x8 board" in library.problems[0]
    assert library.search(player="set up").games.tolist() == [1]
    assert library.search(position=game.states[3].to_text()).games.tolist() == [1]
    first = "".join(setup.move_names()[:2])
    assert 1 not in library.search(opening=first).games.tolist()
    again, _ = library.open(1)
    assert again.start == start and again.moves == setup.moves


def test_a_bad_wthor_record_is_skipped_and_counted(tmp_path: Path) -> None:
    games = [g for g in random_games(8, 3) if g.final.is_over()]
    wtb = write_wthor(tmp_path, games, ["A", "B"])
    raw = bytearray(wtb.read_bytes())
    raw[16 + 68 + 8] = 11  # game 2's first move: a1, illegal
    raw[16 + 2 * 68 + 8] = 99  # game 3's first move: no square
    wtb.write_bytes(bytes(raw))
    library = Library(wtb)
    library.build()
    assert library.count == len(games) - 2 and library.skipped == 2
    assert any("illegal" in p for p in library.problems) and any("not a square" in p for p in library.problems)
