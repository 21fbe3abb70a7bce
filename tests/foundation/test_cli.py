"""The terminal commands as a user meets them: perft, search, scripted games, and one-line errors."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from plies import heuristics
from plies.cli import main
from plies.game import ParseError
from plies.games import OthelloState, parse_position
from plies.match.record import play_game
from plies.players import GreedyPlayer, RandomPlayer
from plies.search import alphabeta, fast_perft, minimax

from . import naive_othello as naive


def run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def run_process(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120"}
    env.pop("PLIES_DEBUG", None)
    p = subprocess.run([sys.executable, "-m", "plies", *args], input=stdin, capture_output=True, text=True,
                       timeout=120, env=env)
    assert "Traceback" not in p.stdout + p.stderr
    return p


# --- perft --------------------------------------------------------------------------------------------------

def test_perft_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["perft", "--depth", "4"], capsys)
    assert code == 0 and "244" in out
    code, out, _ = run(["perft", "--depth", "5", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["nodes"] == 1396 and data["depth"] == 5


def test_perft_other_positions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["perft", "othello6", "--depth", "5", "--json"], capsys)
    assert code == 0 and json.loads(out)["nodes"] == naive.perft(naive.start_board(6), 0, 5)
    code, out, _ = run(["perft", "f5d6c3", "--depth", "3", "--json"], capsys)
    assert json.loads(out)["nodes"] == fast_perft(OthelloState.from_transcript("f5d6c3"), 3)
    code, out, _ = run(["perft", "tictactoe", "--depth", "9", "--json"], capsys)
    assert json.loads(out)["nodes"] == 255_168
    code, out, _ = run(["perft", "--depth", "0", "--json"], capsys)
    assert json.loads(out)["nodes"] == 1


def test_perft_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["perft", "--depth", "4", "--divide", "--json"], capsys)
    data = json.loads(out)
    assert code == 0 and data["nodes"] == 244
    assert data["divide"] == {"d3": 61, "c4": 61, "f5": 61, "e6": 61}
    code, out, _ = run(["perft", "--depth", "3", "--divide"], capsys)
    for sq in ("d3", "c4", "f5", "e6"):
        assert f"{sq}: 14" in out


# --- search -------------------------------------------------------------------------------------------------

def test_search_both_json_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    position = "f5d6c3d3c4"
    code, out, _ = run(["search", position, "--algo", "both", "--depth", "3", "--eval", "doc001", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    s = parse_position(position)
    h = heuristics.get("othello", "doc001")
    mm, ab = minimax(s, 3, h), alphabeta(s, 3, h)
    assert data["same_value"] is True
    assert data["minimax"]["value"] == mm.value == data["alphabeta"]["value"]
    assert data["minimax"]["stats"]["nodes"] == mm.stats.nodes
    assert data["alphabeta"]["stats"]["nodes"] == ab.stats.nodes < mm.stats.nodes
    assert data["alphabeta"]["move"] == s.move_str(ab.move)
    assert len(data["alphabeta"]["pv"]) == 3


def test_search_text_output_and_trees(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["search", "othello", "--algo", "both", "--depth", "2"], capsys)
    assert code == 0 and "same value" in out
    code, out, _ = run(["search", "[[3,12,8],[2,4,6],[14,5,2]]", "--algo", "alphabeta", "--json"], capsys)
    data = json.loads(out)
    assert data["value"] == 3 and data["move"] == "0"
    assert data["stats"]["leaves"] == 7 and data["stats"]["alpha_cutoffs"] == 2
    code, out, _ = run(["search", "tictactoe", "--algo", "alphabeta", "--json"], capsys)
    assert json.loads(out)["value"] == 0
    dots = OthelloState.start().to_text().replace("-", ".")
    code, out, _ = run(["search", dots, "--depth", "1", "--eval", "discs", "--json"], capsys)
    assert code == 0 and json.loads(out)["value"] == 3  # any first move: 4 v 1


START = "---------------------------OX------XO---------------------------X"


@pytest.mark.parametrize("command", [["perft", START, "--depth", "2", "--json"],
                                     ["search", START, "--depth", "1", "--eval", "discs", "--json"],
                                     ["perft", START[:64] + " X", "--depth", "2", "--json"]])
def test_positions_written_with_dashes_are_arguments_not_options(command: list[str], capsys) -> None:  # noqa: ANN001
    """Issue 2's own example position starts with '-': it must be read as POSITION, not as an unknown option."""
    code, out, err = run(command, capsys)
    assert code == 0, err
    data = json.loads(out)
    assert data.get("nodes", 12) == 12 and data.get("value", 3) == 3
    # the POSIX '--' separator works already
    code, out, _ = run([command[0], *command[2:], "--", command[1]], capsys)
    assert code == 0


# --- scripted games -------------------------------------------------------------------------------------------

def test_tictactoe_scripted_through_stdin(capsys, monkeypatch) -> None:  # noqa: ANN001
    script = "zz\na1\na1\na2\nb1\nb2\nc1\n"  # junk and an occupied square are asked again
    code, out, err = run(["play", "tictactoe", "--black", "human", "--white", "human"], capsys, script, monkeypatch)
    assert code == 0
    assert "occupied" in out and "not a move" in out.lower()
    assert "Game over" in out and "X" in out.split("Game over")[1]
    assert "wins" in out.split("Game over")[1]


def test_othello_people_replay_a_random_game_with_passes(capsys, monkeypatch) -> None:  # noqa: ANN001
    """Two 'people' type a seeded random 6x6 game with a pass; the program passes for them and ends it."""
    for seed in range(300):
        rec = play_game(OthelloState.start(6), [RandomPlayer(seed), RandomPlayer(seed + 1)])
        if "pass" in rec.moves:
            break
    else:  # pragma: no cover
        pytest.fail("no 6x6 random game with a pass")
    typed = "\n".join(m for m in rec.moves if m != "pass") + "\n"
    code, out, _ = run(["play", "othello6", "--black", "human", "--white", "human"], capsys, typed, monkeypatch)
    assert code == 0
    assert "passes" in out
    final = parse_position(rec.final)
    b, w = final.counts()
    tail = out.split("Game over")[1]
    assert f"X={b}" in tail and f"O={w}" in tail
    assert ("Draw" in tail) == (rec.winner is None)
    assert "Illegal" not in out


def test_othello_computer_against_computer(capsys) -> None:  # noqa: ANN001
    code, out, _ = run(["play", "othello", "--black", "random:seed=5", "--white", "greedy"], capsys)
    assert code == 0
    rec = play_game(OthelloState.start(), [RandomPlayer(5), GreedyPlayer()])
    final = parse_position(rec.final)
    b, w = final.counts()
    assert f"X={b} O={w}" in out.split("Game over")[1]


def test_document_000_layout_session(capsys, monkeypatch) -> None:  # noqa: ANN001
    code, out, _ = run(["play", "othello", "--layout", "doc000", "--black", "human", "--white", "greedy"], capsys,
                       "2 4\nquit\n", monkeypatch)
    assert code == 0
    assert "(2 4)(3 5)(4 2)(5 3)" in out  # document 000's prompt
    assert "->" in out  # the greedy computer's candidate list
    assert "abandoned" in out.lower()


def test_in_game_commands_through_stdin(capsys, monkeypatch, tmp_path) -> None:  # noqa: ANN001
    saved = tmp_path / "game.txt"
    script = "\n".join([
        "undo", "help", "hint", "show", "f5", "board", "undo", "d3", f"save {saved}", "save",
        f"save {tmp_path / 'no' / 'such' / 'dir.txt'}", "quit",
    ]) + "\n"
    argv = ["play", "othello", "--black", "human", "--white", "alphabeta:depth=2,eval=discs"]
    code, out, err = run(argv, capsys, script, monkeypatch)
    assert code == 0 and err == ""
    assert "Nothing to undo" in out
    assert "Hint:" in out
    assert out.count("->") >= 4  # show: one candidate per legal move
    assert "Computer" in out
    assert "Cannot save" in out and "Usage: save FILE" in out
    transcript = saved.read_text(encoding="utf-8").strip()
    # after f5, the computer's reply, undo (back to Black's first turn), d3 and the computer's reply
    assert transcript.startswith("d3") and len(transcript) == 4
    OthelloState.from_transcript(transcript)  # replays
    assert "abandoned" in out.lower()


def test_play_through_the_real_entry_point() -> None:
    moves = "b2 a1 c1 a3 a2 c2 b1 b3 c3".split()  # X b2 c1 a2 b1 c3 / O a1 a3 c2 b3: no line for anyone
    p = run_process(["play", "tictactoe", "--black", "human", "--white", "human"], "\n".join(moves) + "\n")
    assert p.returncode == 0
    assert "Game over" in p.stdout and "Draw" in p.stdout


def test_end_of_input_ends_cleanly() -> None:
    p = run_process(["play", "othello"], "")  # the start screen meets the end of input
    assert p.returncode == 0
    p = run_process(["play", "tictactoe", "--black", "human", "--white", "human"], "b2\n")
    assert p.returncode == 0 and "abandoned" in p.stdout.lower()


# --- errors: one line, non-zero exit, never a traceback ----------------------------------------------------------

BAD = [
    ["perft", "nonsense-position", "--depth", "2"],
    ["perft", "--depth", "-1"],
    ["perft", "--depth", "abc"],
    ["perft"],
    ["perft", "othello7", "--depth", "2"],
    ["perft", "f5f5", "--depth", "2"],
    ["search", "othello", "--eval", "nonsense"],
    ["search", "othello", "--depth", "0"],
    ["search", "othello", "--algo", "quantum"],
    ["search", "Q" * 64 + "X"],
    ["search", "@/nonexistent/dir/position.txt"],
    ["search", "[[1,2],[3"],
    ["search", "[]"],
    ["search", "." * 10 + "X" * 54 + "O", "--depth", "2"],  # a finished game
    ["search", "othello", "--depth", "99"],
    ["perft", "--depth", "31"],
    ["search", '{"children": 5}'],  # a malformed tree in dict form
    ["search", "[" * 3000 + "1" + "]" * 3000],  # absurdly deep nesting
    ["search", "tictactoe", "--eval", "discs"],
    ["play", "othello", "--black", "wizard", "--white", "human"],
    ["play", "othello", "--black", "human", "--white", "alphabeta:depth=x"],
    ["play", "othello", "--black", "human", "--white", "alphabeta:eval=nonsense"],
    ["play", "chess", "--black", "human", "--white", "human"],
    ["play", "othello", "--layout", "mirror"],
    ["no-such-command"],
]


@pytest.mark.parametrize(("text", "says"), [
    ("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27, "needs the side to move after it: X or O"),
    ("-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " black", "must be X or O, not 'black'"),
])
def test_a_board_without_a_proper_side_to_move_says_so(text: str, says: str) -> None:
    with pytest.raises(ParseError, match=says):
        parse_position(text)


@pytest.mark.parametrize("argv", BAD, ids=[" ".join(a)[:40] for a in BAD])
def test_bad_input_gives_one_line_and_nonzero_exit(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(argv, capsys)
    assert code != 0
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "error" in lines[0].lower()
    assert "internal error" not in lines[0]


def test_bad_input_through_the_real_entry_point() -> None:
    for args in (["search", "othello", "--eval", "nonsense"], ["perft", "xyz", "--depth", "1"]):
        p = run_process(args)
        assert p.returncode != 0
        assert len([x for x in p.stderr.splitlines() if x.strip()]) == 1
        assert p.stdout == ""
