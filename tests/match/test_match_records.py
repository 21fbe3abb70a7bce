"""Game records that replay (HexThello's ``7 3`` is one move, not two) and databases that are only read by
``tournament show``/``export`` and only written when they are plies match databases."""

from __future__ import annotations

import csv
import io
import json
import re
import sqlite3
from pathlib import Path

import pytest

from plies.cli import main
from plies.match.openings import parse_opening
from plies.match.store import Store, read_moves

pytestmark = pytest.mark.timeout(300)


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def replay(game: str, start: str, moves: list[str]) -> str:
    """The final position after playing ``moves`` from ``start`` with the game's rules (each move checked)."""
    state = parse_opening(start, game)
    for m in moves:
        state = state.play(state.parse_move(m))
    return state.to_text()


def transcript_moves(text: str) -> list[list[str]]:
    """The moves of every game of a transcript file: numbers, the result and the separators left out."""
    games = []
    for body in re.split(r"\n\n(?=\[)", text.strip()):
        moves = body.split("\n\n", 1)[1].replace("\n", " ")
        moves = re.sub(r"\s*(1-0|0-1|1/2-1/2)$", "", moves)
        items = re.split(r"\s*\d+\.\s+", " " + moves)[1:]
        sep = ", " if "," in moves else " "
        games.append([m for item in items for m in item.rstrip(",").split(sep)])
    return games


@pytest.mark.parametrize("game, plies", [("hexthello", range(100, 200)), ("othello", range(9, 61)),
                                         ("tictactoe", range(5, 10))])
def test_stored_games_replay_and_exports_count_plies(tmp_path, capsys, game, plies):
    db = tmp_path / f"{game}.sqlite"
    out = run_json(capsys, "match", "random", "greedy", "-n", "2", "-w", "1", "-g", game, "--db", str(db))
    for g in out["games"]:
        assert len(g["moves"]) == len(g["times"]) == len(g["values"]) and len(g["moves"]) in plies
        assert replay(game, g["start"], g["moves"]) == g["final"]

    store = Store(db, readonly=True)
    try:
        stored = store.games(store.event().id)
    finally:
        store.close()
    assert [f.record.moves for f in stored] == [g["moves"] for g in out["games"]]
    for f in stored:
        assert replay(game, f.record.start, f.record.moves) == f.record.final

    assert main(["tournament", "export", str(db), "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [int(r["plies"]) for r in rows] == [len(g["moves"]) for g in out["games"]]
    for r, g in zip(rows, out["games"], strict=True):
        sep = ", " if game == "hexthello" else " "
        assert r["moves"].split(sep) == g["moves"]
    assert main(["tournament", "export", str(db), "--transcript", "-"]) == 0
    assert transcript_moves(capsys.readouterr().out) == [g["moves"] for g in out["games"]]


def test_hexthello_match_without_db_counts_each_move_once(capsys):
    assert main(["match", "random", "greedy", "-n", "2", "-w", "1", "-g", "hexthello", "--no-progress"]) == 0
    counts = [int(n) for n in re.findall(r"\((\d+) plies", capsys.readouterr().out)]
    assert len(counts) == 2 and all(100 <= n < 200 for n in counts)


def test_games_stored_by_earlier_versions_are_read_back_whole(tmp_path, capsys):
    # earlier versions wrote the moves joined by spaces: HexThello's "6 9" came back as "6" and "9"
    assert read_moves("6 9 6 10 pass 12 3", "hexthello") == ["6 9", "6 10", "pass", "12 3"]
    assert read_moves("f5 d6 pass c3", "othello") == ["f5", "d6", "pass", "c3"]
    assert read_moves("", "hexthello") == []
    db = tmp_path / "old.sqlite"
    out = run_json(capsys, "match", "random", "greedy", "-n", "2", "-w", "1", "-g", "hexthello", "--db", str(db))
    with sqlite3.connect(db) as c:
        for g in out["games"]:
            c.execute("update games set moves = ? where idx = ?", (" ".join(g["moves"]), g["index"]))
    assert main(["tournament", "export", str(db), "--csv", "-"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [int(r["plies"]) for r in rows] == [len(g["moves"]) for g in out["games"]]


# --- databases: read-only commands read only, writing commands write only their own files ---------------------

def hexthello_server_db(path: Path) -> Path:
    """A database as ``plies hexthello server --db`` leaves it (WAL mode, its own games and moves tables)."""
    from plies.net.hexthello.store import Store as ServerStore

    store = ServerStore(str(path))
    try:
        store.start_game(1, 1, "black", "white")
    finally:
        store.close()
    return path


def other_games_db(path: Path) -> Path:
    with sqlite3.connect(path) as c:
        c.execute("create table games (id integer primary key, name text)")
        c.execute("insert into games (name) values ('mine')")
    c.close()
    return path


def notes_db(path: Path) -> Path:
    with sqlite3.connect(path) as c:
        c.execute("create table notes (id integer primary key, body text)")
    c.close()
    return path


def text_file(path: Path) -> Path:
    path.write_text("not a database\n")
    return path


def empty_file(path: Path) -> Path:
    path.write_bytes(b"")
    return path


FOREIGN = {
    "hexthello server": (hexthello_server_db, "it has a games table of another kind"),
    "other games table": (other_games_db, "it has a games table of another kind"),
    "unrelated tables": (notes_db, "it holds other tables: notes"),
    "text file": (text_file, "it is not an SQLite file"),
}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def one_error_line(capsys, argv: list[str], message: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err, err
    assert err.startswith("plies: error: ") and err.count("\n") == 1 and "internal error" not in err


@pytest.mark.parametrize("kind", [*FOREIGN, "empty file"])
def test_show_and_export_leave_any_file_untouched(tmp_path, capsys, kind):
    make, message = FOREIGN.get(kind, (empty_file, "holds no match or tournament"))
    folder = tmp_path / "data"
    folder.mkdir()
    path = make(folder / "x.sqlite")
    before = snapshot(folder)
    one_error_line(capsys, ["tournament", "show", str(path)], message)
    one_error_line(capsys, ["tournament", "export", str(path), "--csv", "-"], message)
    assert snapshot(folder) == before  # byte for byte, and no -journal, -wal or -shm left beside it


@pytest.mark.parametrize("kind", FOREIGN)
def test_writing_commands_refuse_other_programs_databases(tmp_path, capsys, kind):
    make, message = FOREIGN[kind]
    folder = tmp_path / "data"
    folder.mkdir()
    path = make(folder / "x.sqlite")
    config = tmp_path / "t.toml"
    config.write_text('players = ["random", "greedy"]\ngames_per_pair = 2\n')
    before = snapshot(folder)
    one_error_line(capsys, ["match", "random", "greedy", "-n", "2", "-w", "1", "--db", str(path)],
                   f"{path} is not a plies match database ({message})")
    one_error_line(capsys, ["tournament", "run", str(config), "--db", str(path)], message)
    assert snapshot(folder) == before


def test_show_and_export_leave_a_match_database_untouched(tmp_path, capsys):
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "m.sqlite"
    assert main(["match", "random", "greedy", "-n", "2", "-w", "1", "--db", str(db), "--no-progress"]) == 0
    before = snapshot(folder)
    assert main(["tournament", "show", str(db)]) == 0
    assert main(["tournament", "export", str(db), "--csv", "-", "--transcript", "-"]) == 0
    capsys.readouterr()
    assert snapshot(folder) == before


def test_an_empty_file_becomes_a_match_database(tmp_path, capsys):
    db = empty_file(tmp_path / "new.sqlite")
    out = run_json(capsys, "match", "random", "greedy", "-n", "2", "-w", "1", "--db", str(db))
    assert out["finished"] == 2
    assert main(["tournament", "show", str(db)]) == 0



def test_a_writer_takes_a_database_another_writer_is_still_creating(tmp_path: Path) -> None:
    """Two runs on one new file: the first may have made ``events`` and not yet ``games``; the second goes on,
    while a reader refuses such a file as incomplete."""
    from sqlalchemy import create_engine

    from plies.game import PliesError
    from plies.match.store import Base, Store

    halves = []
    for name in ("a.sqlite", "b.sqlite"):
        path = tmp_path / name
        engine = create_engine(f"sqlite:///{path}")
        Base.metadata.tables["events"].create(engine)
        engine.dispose()
        halves.append(path)
    with pytest.raises(PliesError, match="it has no games table"):
        Store(halves[0], readonly=True)
    Store(halves[1]).close()
    with sqlite3.connect(halves[1]) as c:
        assert {r[0] for r in c.execute("select name from sqlite_master where type = 'table'")} >= {"events", "games"}
