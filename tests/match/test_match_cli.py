"""``plies match`` and ``plies tournament`` from the command line, including document 004's identity."""

from __future__ import annotations

import csv
import io
import json

import pytest

from plies.cli import main

DOC004 = "alphabeta:depth=2,eval=doc004"


def run_json(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_doc004_pruning_identity_as_a_one_line_match(capsys):
    # document 004: pruning on and off, each colour once -> the identical game, colours swapped
    out = run_json(capsys, "match", DOC004, DOC004 + ",pruning=off", "--random-openings", "3", "--games", "4")
    games = out["games"]
    assert len(games) == 4
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert first["black"] == second["white"] and first["white"] == second["black"]
        assert first["moves"] == second["moves"] and first["final"] == second["final"]
        assert first["score"] == second["score"]
    assert {p["points"] for p in out["standings"]} == {2.0}
    assert main(["match", DOC004, DOC004 + ",pruning=off", "--no-progress"]) == 0
    assert "1 of 1 pairs: both games identical move for move" in capsys.readouterr().out


def test_depth_option_fills_in_specs_and_json_shape(capsys):
    out = run_json(capsys, "match", "alphabeta:eval=doc000", "minimax", "--depth", "1", "--games", "2")
    assert [p["spec"] for p in out["players"]] == ["alphabeta:eval=doc000,depth=1", "minimax:depth=1"]
    assert out["planned"] == out["finished"] == out["played_now"] == 2 and out["complete"]
    assert out["games"][0]["opening"] == "start" and out["games"][0]["termination"] == "normal"
    assert len(out["pairs"]) == 1 and out["pairs"][0]["games"] == 2


def test_tictactoe_match_and_same_player_twice(capsys):
    out = run_json(capsys, "match", "alphabeta:depth=9", "alphabeta:depth=9", "--game", "tictactoe")
    assert [p["name"] for p in out["players"]] == ["alphabeta:depth=9 #1", "alphabeta:depth=9 #2"]
    assert all(g["winner"] is None for g in out["games"])  # perfect play draws


@pytest.mark.parametrize("argv, message", [
    (["match", "random", "nosuch"], "unknown player"),
    (["match", "random", "greedy", "--games", "3"], "even"),
    (["match", "random", "greedy", "--game", "chess"], "unknown game"),
    (["match", "random", "greedy", "--resume"], "--db"),
    (["match", "random", "greedy", "--openings", "x.txt", "--random-openings", "2"], "not both"),
    (["match", "random", "greedy", "--openings", "/nonexistent/ops.txt"], "cannot read"),
    (["match", "random", "greedy", "--load", "no_such_module_xyz"], "cannot import"),
    (["tournament", "/nonexistent.toml"], "cannot read"),
    (["tournament", "show", "/nonexistent.sqlite"], "no database"),
    (["match", "minimax", "greedy", "--depth", "-3"], "-3 is not in the range 1<=x<=60"),
])
def test_user_errors_are_one_line(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.count("\n") == 1


def test_match_db_resume_and_openings_file(tmp_path, capsys):
    ops = tmp_path / "ops.txt"
    ops.write_text("f5d6\nf5f6\n")
    db = tmp_path / "m.sqlite"
    argv = ["match", "random", "greedy", "--openings", str(ops), "--db", str(db), "--seed", "4"]
    out = run_json(capsys, *argv)
    assert [g["opening"] for g in out["games"]] == ["f5d6", "f5d6", "f5f6", "f5f6"]
    assert main(argv) == 2 and "--resume" in capsys.readouterr().err
    again = run_json(capsys, *argv, "--resume")
    assert again["played_now"] == 0 and again["games"] == out["games"]


TOURNAMENT = """
name = "t"
format = "{fmt}"
games_per_pair = 2
random_openings = 2
seed = 5
depth = 1
db = "t.sqlite"
modules = ["match_plugin_players"]
players = [
  {{ name = "ab", spec = "alphabeta:eval=doc004" }},
  "greedy",
  "random",
  {{ name = "bad", spec = "illegal" }},
]
"""


def write_config(tmp_path, fmt="round-robin", extra=""):
    path = tmp_path / "t.toml"
    path.write_text(extra + TOURNAMENT.format(fmt=fmt))
    return path


def test_tournament_round_robin_tables_show_and_export(tmp_path, capsys):
    path = write_config(tmp_path)
    out = run_json(capsys, "tournament", str(path), "--workers", "2")
    assert out["planned"] == 12 and out["complete"]
    names = [s["name"] for s in out["standings"]]
    assert sorted(names) == ["ab", "bad", "greedy", "random"] and names[-1] == "bad"
    bad = out["standings"][-1]
    assert bad["points"] == 0 and bad["failures"] == {"illegal move": 6}
    assert [f["player"] for f in out["failures"]] == ["bad"] * 6
    assert sum(s["points"] for s in out["standings"]) == 12
    assert (tmp_path / "t.sqlite").exists()

    assert main(["tournament", "show", str(tmp_path / "t.sqlite")]) == 0
    text = capsys.readouterr().out
    for word in ("Standings", "Cross table", "Pairs", "Illegal moves", "Elo"):
        assert word in text

    csv_file, pgn_file = tmp_path / "g.csv", tmp_path / "g.txt"
    assert main(["tournament", "export", str(tmp_path / "t.sqlite"), "--csv", str(csv_file),
                 "--transcript", str(pgn_file)]) == 0
    rows = list(csv.DictReader(io.StringIO(csv_file.read_text())))
    assert len(rows) == 12 and rows[0]["index"] == "0"
    assert {r["termination"] for r in rows} == {"normal", "illegal move"}
    for row, game in zip(rows, out["games"], strict=True):
        assert row["moves"] == " ".join(game["moves"]) and row["black"] == game["black"]
        plies = int(row["plies"])
        assert plies == len(game["moves"])
    transcript = pgn_file.read_text()
    assert transcript.count('[Black "') == 12 and '[Termination "illegal move: ' in transcript
    first = out["games"][0]
    assert f'1. {first["moves"][0]} {first["moves"][1]}' in transcript
    assert main(["tournament", "export", str(tmp_path / "t.sqlite")]) == 2


def test_tournament_gauntlet_seed_override_and_resume(tmp_path, capsys):
    path = write_config(tmp_path, "gauntlet")
    out = run_json(capsys, "tournament", "run", str(path), "--no-progress")
    assert out["planned"] == 6 and all("ab" in (g["black"], g["white"]) for g in out["games"])
    assert run_json(capsys, "tournament", str(path), "--resume")["played_now"] == 0
    other = run_json(capsys, "tournament", str(path), "--seed", "6", "--db", str(tmp_path / "o.sqlite"))
    assert [g["opening"] for g in other["games"]] != [g["opening"] for g in out["games"]]


@pytest.mark.parametrize("extra, message", [
    ("colour = 1\n", "unknown key 'colour'"),
    ("workers = 'two'\n", "workers has the wrong type"),
    ("[[x\n", "not valid TOML"),
    ("openings = 'o.txt'\n", "either openings"),
])
def test_bad_tournament_files(tmp_path, capsys, extra, message):
    path = write_config(tmp_path, extra=extra)
    assert main(["tournament", str(path)]) == 2
    assert message in capsys.readouterr().err


def test_tournament_needs_players_and_a_known_format(tmp_path, capsys):
    p = tmp_path / "x.toml"
    p.write_text('players = ["random"]\n')
    assert main(["tournament", str(p)]) == 2 and "at least two players" in capsys.readouterr().err
    p.write_text('format = "swiss"\nplayers = ["random", "greedy"]\n')
    assert main(["tournament", str(p)]) == 2 and "format must be" in capsys.readouterr().err
    p.write_text('players = ["random", {name = "x"}]\n')
    assert main(["tournament", str(p)]) == 2 and "player 2" in capsys.readouterr().err
    p.write_text('depth = -1\nplayers = ["random", "greedy"]\n')
    assert main(["tournament", str(p)]) == 2 and "depth must be 1 to 60, not -1" in capsys.readouterr().err
    p.write_text('time = nan\nplayers = ["random", "greedy"]\n')
    assert main(["tournament", str(p)]) == 2 and "time must be a positive number" in capsys.readouterr().err
