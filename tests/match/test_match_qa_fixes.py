"""QA findings on ``plies match`` / ``plies tournament``: a player that cannot be started stops the event before
any game, bounded game counts, finite clocks in tournament files, exports checked before writing, ``--workers``
at least 1 everywhere, and ``--resume`` on a database that does not exist yet says it starts anew."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from plies import players
from plies.cli import main
from plies.game import PliesError, State
from plies.match import event as event_module
from plies.match.event import run_event
from plies.match.openings import Opening
from plies.match.plan import MAX_GAMES, Entrant, EventConfig, PlannedGame, make_plan, resolve_spec
from plies.match.record import CRASH, StartupError, is_startup_failure
from plies.match.runner import play_planned
from plies.match.store import Store
from plies.players import Player

MISSING = "nboard:/nonexistent/prog"
CANNOT_START = "cannot start NBoard engine '/nonexistent/prog'"

PLAYERS = '[[players]]\nname = "a"\nspec = "random"\n[[players]]\nname = "b"\nspec = "greedy"\n'


def one_line_error(capsys: pytest.CaptureFixture[str], says: str) -> str:
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and err.count("\n") == 1, err
    return err


def write_toml(tmp_path: Path, text: str) -> str:
    path = tmp_path / "t.toml"
    path.write_text(text)
    return str(path)


# --- 1. a player that cannot be started -----------------------------------------------------------------------

def test_match_with_a_program_that_cannot_start_stops_before_any_game(tmp_path, capsys):
    db = tmp_path / "m.sqlite"
    assert main(["match", "random", MISSING, "--no-progress", "--db", str(db)]) == 2
    one_line_error(capsys, CANNOT_START + ": No such file or directory")
    assert not db.exists()  # stopped before the database was even opened: nothing half-made


def test_tournament_with_a_program_that_cannot_start_stops_before_any_game(tmp_path, capsys):
    db = tmp_path / "t.sqlite"
    config = write_toml(tmp_path, PLAYERS + f'[[players]]\nname = "c"\nspec = "{MISSING}"\n')
    assert main(["tournament", "run", config, "--db", str(db), "--no-progress"]) == 2
    one_line_error(capsys, CANNOT_START)
    assert not db.exists()


def test_start_failure_during_the_run_stops_it_and_saves_no_forfeit(tmp_path, monkeypatch):
    # where the check before the games cannot see it (a remote Ray cluster), the first game tells
    monkeypatch.setattr(event_module, "startup_check", lambda plan: None)
    db = tmp_path / "m.sqlite"
    config = EventConfig(players=[Entrant("r", "random"), Entrant("x", MISSING)])
    with pytest.raises(PliesError, match="cannot start NBoard engine"):
        run_event(config, db, progress=False)
    store = Store(db)
    try:
        assert all(not store.games(e.id) for e in store.events())  # the unplayed game is not stored as a loss
    finally:
        store.close()


def test_play_planned_marks_a_start_failure_as_fatal():
    g = PlannedGame(index=0, pair=0, slot=0, black=Entrant("r", "random"), white=Entrant("x", MISSING),
                    opening=Opening("start"), seed=1, game="othello")
    f = play_planned(g)
    assert f.fatal.startswith(CANNOT_START)
    assert f.record.termination == CRASH and f.record.winner == 0  # the side that could not start is White


class _NoProgram(Player):
    name = "noprogram"

    def new_game(self, state: State) -> None:
        raise StartupError("cannot start noprogram: /opt/none is missing")

    def choose(self, state: State) -> int:  # pragma: no cover - never reached
        return state.legal_moves()[0]


class _MidGameCrash(Player):
    """Starts fine, then fails in the middle of a game with an error that looks like a missing file."""

    name = "midgame"

    def choose(self, state: State) -> int:
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", "/tmp/gone")


def test_plugin_start_failure_stops_but_a_mid_game_crash_is_recorded():
    players.register("qa_noprogram", lambda game, params, raw: _NoProgram())
    players.register("qa_midgame", lambda game, params, raw: _MidGameCrash())
    with pytest.raises(PliesError, match="cannot start noprogram"):
        run_event(EventConfig(players=[Entrant("g", "greedy"), Entrant("n", "qa_noprogram")]), progress=False)
    result = run_event(EventConfig(players=[Entrant("g", "greedy"), Entrant("m", "qa_midgame")]), progress=False)
    assert len(result.games) == 2 and all(f.record.termination == CRASH for f in result.games)


def test_constructor_start_failure_is_refused_when_the_spec_is_resolved():
    def build(game, params, raw):
        raise StartupError("cannot start qa_ctor: missing")

    players.register("qa_ctor", build)
    with pytest.raises(PliesError, match="cannot start qa_ctor"):
        resolve_spec("qa_ctor", "othello")


def test_what_counts_as_a_start_failure():
    def chained(inner: BaseException) -> PliesError:
        try:
            try:
                raise inner
            except OSError:
                raise PliesError("wrapped") from None
        except PliesError as e:
            return e

    assert is_startup_failure(chained(FileNotFoundError(errno.ENOENT, "missing")))
    assert is_startup_failure(chained(PermissionError(errno.EACCES, "denied")))
    assert not is_startup_failure(chained(BrokenPipeError(errno.EPIPE, "pipe")))  # a crash, not a start-up
    assert not is_startup_failure(OSError("no errno"))
    assert not is_startup_failure(RuntimeError("boom"))


# --- 2. bounded game counts -------------------------------------------------------------------------------------

def test_match_games_are_bounded(capsys):
    assert main(["match", "random", "greedy", "-n", "1000000000000", "--no-progress"]) == 2
    one_line_error(capsys, "1000000000000 is not in the range")


def test_tournament_games_per_pair_is_bounded(tmp_path, capsys):
    config = write_toml(tmp_path, "games_per_pair = 1000000000000\n" + PLAYERS)
    assert main(["tournament", "run", config, "--no-progress"]) == 2
    one_line_error(capsys, f"games_per_pair must be at most {MAX_GAMES}")


def test_plan_total_is_bounded():
    many = [Entrant(f"p{i}", "random") for i in range(3)]
    with pytest.raises(PliesError, match="at most"):
        make_plan(EventConfig(players=many, games_per_pair=MAX_GAMES // 2))  # 3 pairs: 1.5 million games
    with pytest.raises(PliesError, match="at most"):
        make_plan(EventConfig(players=many[:2], games_per_pair=MAX_GAMES + 2))


# --- 3. finite clocks in a tournament file -------------------------------------------------------------------

@pytest.mark.parametrize(("setting", "says"), [
    ("time_limit = nan", "time_limit is not a finite number"),
    ("time_limit = inf", "time_limit is not a finite number"),
    ("time_limit = -inf", "time_limit is not a finite number"),
    ("time = nan", "time must be a positive number of seconds, not nan"),
    ("time = inf", "time must be a positive number of seconds, not inf"),
])
def test_tournament_file_clocks_must_be_finite(tmp_path, capsys, setting, says):
    config = write_toml(tmp_path, setting + "\n" + PLAYERS)
    assert main(["tournament", "run", config, "--no-progress"]) == 2
    one_line_error(capsys, says)


def test_tournament_file_workers_at_least_one(tmp_path, capsys):
    config = write_toml(tmp_path, "workers = 0\n" + PLAYERS)
    assert main(["tournament", "run", config, "--no-progress"]) == 2
    one_line_error(capsys, "workers must be at least 1")


# --- 4. exports checked before anything is written -----------------------------------------------------------

@pytest.fixture
def stored(tmp_path, capsys) -> str:
    db = tmp_path / "m.sqlite"
    assert main(["match", "random", "greedy", "--db", str(db), "--no-progress"]) == 0
    capsys.readouterr()
    return str(db)


def test_export_checks_every_output_before_writing(stored, tmp_path, capsys):
    out = tmp_path / "ex.csv"
    out.write_text("old")
    argv = ["tournament", "export", stored, "--csv", str(out)]
    assert main([*argv, "--transcript", str(tmp_path / "nodir" / "x.pgn")]) == 2
    one_line_error(capsys, "does not exist")
    assert out.read_text() == "old"  # untouched
    assert main([*argv, "--transcript", str(tmp_path)]) == 2  # a folder
    one_line_error(capsys, "is a directory")
    assert main([*argv, "--transcript", str(out)]) == 2  # both to one file: one would overwrite the other
    one_line_error(capsys, "give two files")
    assert out.read_text() == "old"
    assert main([*argv, "--transcript", str(tmp_path / "x.pgn")]) == 0
    assert out.read_text() != "old" and (tmp_path / "x.pgn").stat().st_size > 0


# --- 5. --workers at least 1 -------------------------------------------------------------------------------------

@pytest.mark.parametrize("command", [["match", "random", "greedy"], ["tournament", "run", "CONFIG"]])
def test_workers_zero_is_refused(tmp_path, capsys, command):
    config = write_toml(tmp_path, PLAYERS)
    argv = [config if a == "CONFIG" else a for a in command]
    assert main([*argv, "-w", "0", "--no-progress"]) == 2
    one_line_error(capsys, "0 is not in the range x>=1")


# --- 6. --resume on a database that does not exist yet ----------------------------------------------------------

@pytest.mark.parametrize("command", [["match", "random", "greedy"], ["tournament", "run", "CONFIG"]])
def test_resume_on_a_new_database_says_it_starts_anew(tmp_path, capsys, command):
    config = write_toml(tmp_path, PLAYERS)
    db = tmp_path / "new.sqlite"
    argv = [config if a == "CONFIG" else a for a in command]
    assert main([*argv, "--db", str(db), "--resume", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert f"nothing to resume: {db} does not exist yet" in err
    assert main([*argv, "--db", str(db), "--resume", "--no-progress"]) == 0  # a real resume: no note
    assert "nothing to resume" not in capsys.readouterr().err
