"""plies in Greek: the language chosen by --lang, PLIES_LANG or the locale; the terminal game's prompts, messages
and end in the course's words; a catalog that is complete, compiled and keeps every placeholder."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import threading
from pathlib import Path

import pytest

from plies import Othello, TicTacToe, i18n
from plies.cli import main
from plies.cli.play import PlaySession, setup_interactively
from plies.players import HumanPlayer

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{(\w*)\}")


def scripted(lines: list[str]):
    it = iter(lines)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    out: list[str] = []
    return read, out


@pytest.mark.parametrize("env, lang", [
    ({"LANG": "el_GR.UTF-8"}, "el"),
    ({"LANG": "en_US.UTF-8"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),                        # a language plies does not speak: English
    ({"LANGUAGE": "fr:el", "LANG": "fr_FR.UTF-8"}, "el"),   # gettext's list: the first plies speaks
    ({"LC_ALL": "C", "LANG": "el_GR.UTF-8"}, "en"),         # the first variable set decides, as in gettext
    ({"PLIES_LANG": "el", "LANG": "en_US.UTF-8"}, "el"),
    ({"PLIES_LANG": "en", "LANG": "el_GR.UTF-8"}, "en"),
    ({}, "en"),
])
def test_the_language_comes_from_the_environment(env, lang):
    assert i18n.from_environment(env) == lang


def test_a_language_holds_in_its_own_context_only():
    i18n.set_language("en")
    seen: list[str] = []
    with i18n.using("el-GR"):
        assert i18n.language() == "el" and i18n._("Draw") == "Ισοπαλία"
        worker = threading.Thread(target=lambda: seen.append(i18n._("Draw")))  # another request's thread
        worker.start()
        worker.join()
    assert seen == ["Draw"] and i18n._("Draw") == "Draw"
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        i18n.set_language("fr")


def test_every_translation_keeps_the_placeholders_of_its_english():
    table = i18n.catalog("el")
    assert len(table) > 60
    for english, greek in table.items():
        assert sorted(PLACEHOLDER.findall(english)) == sorted(PLACEHOLDER.findall(greek)), english
        words = PLACEHOLDER.sub("", english)
        assert re.search("[α-ωΑ-Ω]", greek) or not re.search("[a-z]{3}", words), english   # really translated


def test_the_catalog_is_complete_and_compiled():
    pytest.importorskip("babel")
    spec = importlib.util.spec_from_file_location("plies_i18n_tool", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.problems() == []       # every marked message translated, none stale, the .mo is the .po compiled
    assert {"Enter move: ", "Tree", "Press forward to start the search."} <= {m.id for m in tool.template()}


def test_the_terminal_game_in_greek():
    read, out = scripted(["a1", "d4", "zz", "d3", "quit"])
    with i18n.using("el"):
        s = PlaySession(Othello.start(), (HumanPlayer(), HumanPlayer()), read, out.append)
        s.play()
    text = "\n".join(out)
    assert "Σειρά του παίκτη Μαύρα (X), έγκυρες κινήσεις=d3 c4 f5 e6" in text
    assert "Δώσε κίνηση: " in out
    assert "Μη επιτρεπτή κίνηση: η κίνηση a1 δεν αναστρέφει κανένα πούλι. Δοκίμασε ξανά." in text
    assert "η θέση d4 είναι κατειλημμένη" in text and "δεν είναι κίνηση: 'zz'" in text
    assert "Σκορ X=4 O=1" in text                                     # the lab notes' score line, in Greek
    assert out[-1] == "Το παιχνίδι εγκαταλείφθηκε. Κινήσεις που παίχτηκαν: d3"


def test_the_end_of_a_game_in_greek():
    read, out = scripted(["a1", "a2", "b1", "b2", "c1"])
    with i18n.using("el"):
        PlaySession(TicTacToe.start(), (HumanPlayer(), HumanPlayer()), read, out.append).play()
    # the result, then the moves, the offer to save them (skipped: no more input) and the next step, in Greek
    end = out.index("Τέλος παιχνιδιού: Νικητής: X.")
    assert out[end + 1] == "Κινήσεις: a1a2b1b2c1"
    assert out[-1].startswith("Επόμενο: plies review a1a2b1b2c1  (κάθε κίνηση απέναντι στην καλύτερη")
    draw = TicTacToe.from_text("XOXXOOOX- X")
    read, out = scripted(["c3"])
    with i18n.using("el"):
        PlaySession(draw, (HumanPlayer(), HumanPlayer()), read, out.append).play()
    assert "Τέλος παιχνιδιού: Ισοπαλία." in out and out[-1].startswith("Επόμενο: plies review")


def test_the_start_menu_in_greek():
    read, out = scripted(["1", "3", "2", ""])
    with i18n.using("el"):
        first, second = setup_interactively(Othello.start(), read, out.append)
    assert first == "human" and second.startswith("minimax:depth=3")
    text = "\n".join(out)
    assert "Θέλεις να παίξεις πρώτος ή δεύτερος;" in text and "  1) πρώτος (Μαύρα)" in text
    assert "Βαθμός δυσκολίας:" in text and "βάθος αναζήτησης 3" in text
    assert "Αλγόριθμος του υπολογιστή:" in text and "  1) άλφα-βήτα" in text
    assert "Συνάρτηση αξιολόγησης στο όριο βάθους:" in text and "Επιλογή [1]: " in out
    assert ") discs: τα πούλια μου μείον του αντιπάλου" in text          # the evaluations described in Greek


def play_cli(argv: list[str], lines: str, monkeypatch, capsys) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert main(argv) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("argv, env", [
    (["play", "tictactoe", "--first", "human", "--second", "human", "--lang", "el"], {}),
    (["--lang", "el", "play", "tictactoe", "--first", "human", "--second", "human"], {}),
    (["play", "tictactoe", "--first", "human", "--second", "human"], {"PLIES_LANG": "el"}),
    (["play", "tictactoe", "--first", "human", "--second", "human"], {"LANG": "el_GR.UTF-8", "LC_ALL": ""}),
])
def test_plies_play_speaks_greek_when_asked(argv, env, monkeypatch, capsys):
    for var in ("PLIES_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    out = play_cli(argv, "b2\nb2\nquit\n", monkeypatch, capsys)
    assert "Σειρά του παίκτη X, έγκυρες κινήσεις=a1 b1 c1" in out
    assert "Μη επιτρεπτή κίνηση: η θέση b2 είναι κατειλημμένη" in out
    assert "Το παιχνίδι εγκαταλείφθηκε. Κινήσεις που παίχτηκαν: b2" in out


def test_english_stays_english(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "el_GR.UTF-8")
    out = play_cli(["play", "tictactoe", "--first", "human", "--second", "human", "--lang", "en"], "b2\nquit\n",
                   monkeypatch, capsys)
    assert "Player X turn, valid moves=a1 b1 c1" in out and "Game abandoned. Moves played: b2" in out
    assert not re.search("[α-ω]", out)


def test_plies_class_notebooks_in_greek(tmp_path, capsys):
    source = ROOT / "docs" / "notebooks" / "01-lab-tree.ipynb"
    assert main(["class", "notebooks", str(source), "--out", str(tmp_path), "--lang", "el"]) == 0
    whole = (tmp_path / "01-lab-tree.ipynb").read_text(encoding="utf-8")
    exercise = (tmp_path / "exercises" / "01-lab-tree.ipynb").read_text(encoding="utf-8")
    assert "Το δένδρο των σημειώσεων του εργαστηρίου" in whole and 'i18n.set_language(\\"el\\")' in whole
    assert "*Έκδοση άσκησης*" in exercise and "value = ...  # η απάντησή σου" in exercise
    assert (tmp_path / "solutions" / "01-lab-tree.ipynb").exists()


@pytest.mark.parametrize("argv", [["--lang", "el", "tree", "solve", "doc000", "--steps"],
                                  ["tree", "solve", "doc000", "--steps", "--lang", "el"]])
def test_the_lab_notes_tree_solved_in_greek(argv, capsys):
    assert main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())                  # the terminal's width may wrap a line
    assert "Σειρά επίσκεψης" in out and "κόμβος" in out and "κύρια διαδρομή" in out
    assert "κλάδεμα α στον κόμβο C: α=3 ≥ β=2 — κλαδεύονται: [1,1], [1,2]" in out
    assert "Κλαδεύονται (σημειωμένα με ✗, δεν εξετάζονται ποτέ): [1, 1], [1, 2]" in out
    assert "άλφα-βήτα: τιμή 3, ο MAX επιλέγει B (κίνηση a1)· αξιολογήθηκαν 7 φύλλα, κλαδεύτηκαν 2 κλαδιά" in out
    assert "Visit order" not in out and "Pruned" not in out


def test_hints_and_values_in_greek():
    read, out = scripted(["hint", "show", "quit"])
    with i18n.using("el"):
        PlaySession(TicTacToe.start(), (HumanPlayer(), HumanPlayer()), read, out.append).play()
    text = "\n".join(out)
    assert "Υπόδειξη: b2, ευρετική open-lines 0 για τον παίκτη X (άλφα-βήτα βάθους 4, open-lines)· μετά" in text
    assert "(τιμή της ευρετικής open-lines για τον παίκτη X· άλφα-βήτα βάθους 4, open-lines)" in text


def test_a_greek_locale_leaves_the_other_commands_in_english(monkeypatch, capsys):
    monkeypatch.setenv("PLIES_LANG", "el")
    assert main(["tree", "quiz", "--seed", "5", "--json"]) == 0             # not a command that speaks Greek
    prompts = [q["prompt"] for q in json.loads(capsys.readouterr().out)["questions"]]
    assert prompts[0] == "What is the value of the root A (MAX)?"
    assert main(["tree", "solve", "doc000"]) == 0                           # one that does: the locale's language
    assert "Σειρά επίσκεψης" in capsys.readouterr().out
    assert main(["--lang", "el", "tree", "quiz", "--seed", "5", "--json"]) == 0   # asked for: Greek
    assert json.loads(capsys.readouterr().out)["questions"][0]["prompt"] == "Ποια είναι η τιμή της ρίζας A (MAX);"
