"""Arguments read as files or positions: a missing file or a directory is named as such, a WTHOR database is a
game for ``review`` and ``play``, a HexThello board plies prints reads back, and a game tree's leaves are finite
numbers the searches can tell from won games."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from plies.cli import main


def _one_error(capsys: pytest.CaptureFixture[str], args: list[str], says: str) -> None:
    assert main(args) == 2, args
    err = capsys.readouterr().err
    assert err.startswith("plies: error:") and says in err and err.count("\n") == 1, err


def test_a_missing_file_or_a_directory_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing, folder = tmp_path / "missing.ggf", tmp_path / "games"
    folder.mkdir()
    for args in (["show", str(missing)], ["convert", str(missing), str(tmp_path / "out.ggf")],
                 ["review", str(missing)]):
        _one_error(capsys, args, f"no such file: {missing}")
    for args in (["show", str(folder)], ["convert", str(folder), str(tmp_path / "out.ggf")]):
        _one_error(capsys, args, f"{folder} is a directory")
    assert not (tmp_path / "out.ggf").exists()


def test_review_and_play_read_a_wthor_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wtb = tmp_path / "g.wtb"
    assert main(["convert", "f5d6c3d3c4", str(wtb)]) == 0
    capsys.readouterr()
    assert main(["review", str(wtb), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["move"] for m in out["moves"]] == ["f5", "d6", "c3", "d3", "c4"]
    binary = tmp_path / "noise.bin"
    binary.write_bytes(b"\xff\xfe\x00 not a game")
    _one_error(capsys, ["review", str(binary)], "is not a UTF-8 text file")


def test_a_hexthello_board_plies_prints_reads_back(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["search", "hexthello", "--depth", "1", "--json"]) == 0
    position = json.loads(capsys.readouterr().out)["position"]
    assert position.startswith("-")  # looks like an option to the command line: read as a board all the same
    assert main(["perft", position, "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == 66  # the replies to the first move, and theirs


@pytest.mark.parametrize("tree", ["[1e999, 2]", "[NaN, 2]", "[1000000, 5]", '[{"value": -Infinity}, 1]'])
def test_a_tree_leaf_must_be_finite_and_below_a_win(tree: str, capsys: pytest.CaptureFixture[str]) -> None:
    _one_error(capsys, ["search", tree, "--json"], "a leaf value must be a finite number")


def test_othello_on_other_boards_is_named_and_has_othello_s_heuristics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["heuristics", "othello6", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == "othello"
    _one_error(capsys, ["match", "random", "greedy", "--game", "bogus"], "othello4, othello6 ... othello10")


def test_a_transcript_longer_than_a_file_name_is_read_as_text(capsys: pytest.CaptureFixture[str]) -> None:
    """A whole game is longer than the system allows a file name (255 bytes): it is still a game, not an error."""
    from plies.games.hexthello import HexThelloState

    s, names = HexThelloState.start(), []
    for _ in range(60):
        m = s.legal_moves()[0]
        names.append(s.move_str(m))
        s = s.play(m)
    text = ", ".join(names)
    assert len(text) > 255
    assert main(["review", text, "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["moves"]) == 60
    _one_error(capsys, ["show", "f5" * 200], "illegal move f5")


def test_games_saved_in_play_are_shown(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """What 'save' writes: a game from another start (a '# start' line) shows; another game's file is named."""
    import io

    board = "-" * 27 + "OX------XO" + "-" * 27 + " O"  # White to move first
    saved, ttt = tmp_path / "s.txt", tmp_path / "t.txt"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"f4\nsave {saved}\nquit\n"))
    main(["play", board, "--black", "human", "--white", "human"])
    monkeypatch.setattr("sys.stdin", io.StringIO(f"b2\nsave {ttt}\nquit\n"))
    main(["play", "tictactoe", "--first", "human", "--second", "human"])
    capsys.readouterr()
    assert saved.read_text().startswith("# start ")
    assert main(["show", f"@{saved}", "--json"]) == 0
    game = json.loads(capsys.readouterr().out)["games"][0]
    assert game["moves"] == ["f4"] and game["start"] == board
    _one_error(capsys, ["show", str(ttt)], "a tictactoe game saved by plies play")


def test_a_tree_searched_above_its_leaves_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """Inner nodes of an explicit tree have no value: a depth that stops above the leaves would invent one."""
    _one_error(capsys, ["search", "[[3,12,8],[2,4,6],[14,5,2]]", "--depth", "1"], "the tree is 2 plies deep")
    assert main(["search", "[[3,12,8],[2,4,6],[14,5,2]]", "--depth", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 3


def test_the_teaching_views_refuse_a_tree_too_big_to_trace(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def tree(depth: int) -> object:
        return [tree(depth - 1) for _ in range(4)] if depth else 1

    big = tmp_path / "big.json"
    big.write_text(json.dumps(tree(8)))  # 87,381 nodes
    _one_error(capsys, ["tree", "solve", f"@{big}"], "the tree has 87,381 nodes")
    assert main(["search", f"@{big}", "--json"]) == 0  # searching it is fine
    assert json.loads(capsys.readouterr().out)["value"] == 1


def test_review_options_for_the_engine_are_refused_for_other_games(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["5 7, 5 8", "--threshold", "50"], ["b2 a1", "--level", "3"]):
        _one_error(capsys, ["review", *args], "are for reviews by the engine")


def test_the_row_column_view_names_squares_its_way(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("2 3\nhint\nquit\n"))
    main(["play", "othello", "--layout", "doc000", "--black", "human", "--white", "human"])
    out = capsys.readouterr().out
    assert "Illegal: (2 3) flips nothing" in out
    hint = next(line for line in out.splitlines() if "Hint:" in line)
    assert "then (" in hint and not re.search(r"\b[a-h][1-8]\b", hint.split("then", 1)[1]), hint


def test_a_malformed_board_that_starts_with_a_dash_is_explained_not_taken_for_an_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    board = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27
    _one_error(capsys, ["perft", "-d", "2", f"{board} Z"], "side to move after the board must be X or O, not 'Z'")
    _one_error(capsys, ["search", board], "needs the side to move")
    for args in (["perft", "-d", "2", f"{board} Z"], ["search", board], ["analyse", "-d", "2", f"{board}- X"]):
        assert main(args) == 2
        assert "No such option" not in capsys.readouterr().err


def test_convert_writes_through_a_link_and_keeps_other_files(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    real = tmp_path / "real.ggf"
    real.write_text("old")
    link = tmp_path / "link.ggf"
    link.symlink_to(real)
    stray = tmp_path / "out.ggf.part"
    stray.write_text("precious")
    assert main(["convert", "f5d6c3", str(link)]) == 0
    assert link.is_symlink() and real.read_text().startswith("(;GM[Othello]")  # the link's file got the games
    assert main(["convert", "f5d6c3", str(tmp_path / "out.ggf")]) == 0
    assert stray.read_text() == "precious"  # a file of the same name with .part is not ours to overwrite
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.ggf", "out.ggf", "out.ggf.part", "real.ggf"]
    if Path("/dev/full").exists():  # a device is written through (and its error said), never replaced
        capsys.readouterr()
        _one_error(capsys, ["convert", "f5d6c3", "/dev/full", "--to", "ggf"], "cannot write /dev/full: No space")
        assert Path("/dev/full").is_char_device()
