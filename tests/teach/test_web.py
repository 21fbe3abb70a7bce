"""The Learn router mounted in a minimal FastAPI app: page, static files, presets, traces, exercises, errors."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(learn_app) -> TestClient:
    return TestClient(learn_app)


def test_page_and_static(client) -> None:
    r = client.get("/learn")
    assert r.status_code == 200 and "learn/static/learn.js" in r.text
    assert client.get("/learn/static/learn.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/learn/static/learn.css").status_code == 200
    assert client.get("/learn/static/switches.css").headers["content-type"].startswith("text/css")  # the app's
    shared = client.get("/learn/static/i18n.js")  # the browser app's language module, the one copy
    assert shared.status_code == 200 and "export async function loadLanguage" in shared.text
    assert "function firstLanguage" not in client.get("/learn/static/learn.js").text
    assert client.get("/learn/static/secret.py").status_code == 404
    icon = client.get("/learn/static/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert 'rel="icon"' in r.text and 'href="./#/history"' in r.text        # favicon and the app's navigation


def test_presets(client) -> None:
    p = client.get("/api/learn/presets").json()
    assert set(p) >= {"doc000", "doc002"}
    assert p["doc002"]["tree"]["label"] == "α"


def test_trace_doc000(client) -> None:
    d = client.post("/api/learn/trace", json={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}).json()
    assert d["value"] == 3 and d["best"] == 0 and d["pruned"] == [[1, 1], [1, 2]] and d["leaves_evaluated"] == 7
    assert len(d["nodes"]) == 13 and len(d["layout"]["nodes"]) == 13
    assert all({"x", "y", "w", "h"} <= set(p) for p in d["layout"]["nodes"].values())
    assert d["svg"].startswith("<svg") and d["svg"].count('class="cross"') == 2
    cut = next(s for s in d["steps"] if s["kind"] == "alpha-cutoff")
    assert cut["text"].startswith("α cut-off at [1]: α=3 ≥ β=2") and cut["pruned"] == ["r.1.1", "r.1.2"]
    assert (cut["alpha"], cut["beta"]) == (3, 2) and d["best_text"] == "the first child, [0]"
    assert d["steps"][0]["alpha"] == "-inf" and d["steps"][0]["beta"] == "inf"


def test_trace_edited_leaf_changes_answer(client) -> None:
    tree = {"label": "A", "children": [{"label": "B", "children": [3, 12, 8]}, {"label": "C", "children": [2, 4, 6]},
                                       {"label": "D", "children": [14, 9, 7]}]}
    d = client.post("/api/learn/trace", json={"tree": tree, "algorithm": "minimax"}).json()
    assert d["value"] == 7 and d["best"] == "D" and d["pruned"] == []


@pytest.mark.parametrize("body", [
    {"tree": []}, {"tree": "x"}, {"tree": [[1, 2], True]}, {"tree": [1], "algorithm": "sss"},
    {"tree": [1], "order": "up"}, {"tree": [list(range(30))] * 20},
])
def test_bad_trees_are_400(client, body) -> None:
    r = client.post("/api/learn/trace", json=body)
    assert r.status_code == 400 and r.json()["detail"]
    assert client.get("/api/learn/presets").status_code == 200          # still serving


def test_quiz_new_and_check(client) -> None:
    from plies.teach.quiz import make_quiz

    d = client.post("/api/learn/quiz", json={"shape": "2x3", "seed": 11}).json()
    assert d["seed"] == 11 and d["shape"] == "2x3" and d["tree"]["label"] == "A"
    assert [q["kind"] for q in d["questions"]] == ["value", "move", "order", "pruned"]
    assert all("answer" not in q for q in d["questions"])                     # no answers given away
    again = client.post("/api/learn/quiz", json={"shape": "2x3", "seed": 11}).json()
    assert again["tree"] == d["tree"]                                           # same seed, same tree
    q = make_quiz(11, "2x3")
    right = {x.kind: x.answer for x in q.questions}
    r = client.post("/api/learn/quiz/check", json={"shape": "2x3", "seed": 11, "answers": right}).json()
    assert r["all_correct"] and len(r["results"]) == 4
    r = client.post("/api/learn/quiz/check", json={"shape": "2x3", "seed": 11, "answers": {"value": "12345"}}).json()
    assert not r["all_correct"] and r["results"][0]["expected"] == right["value"]
    fresh = client.post("/api/learn/quiz", json={}).json()
    assert isinstance(fresh["seed"], int) and fresh["shape"] == "3x2"


@pytest.mark.parametrize("body, message", [
    ({"shape": "9x9"}, "branching"), ({"shape": "tall"}, "not a tree shape"), ({"seed": -1}, "seed"),
    ({"values": "5..1"}, "lowest value"), ({"algorithm": "sss"}, "unknown algorithm"),
])
def test_bad_quiz_is_400(client, body, message) -> None:
    r = client.post("/api/learn/quiz", json=body)
    assert r.status_code == 400 and message in r.json()["detail"]


def test_check_unknown_question_is_400(client) -> None:
    r = client.post("/api/learn/quiz/check", json={"seed": 3, "answers": {"colour": "red"}})
    assert r.status_code == 400 and "colour" in r.json()["detail"]


def test_exercise_mode_checks_without_answers(client, monkeypatch) -> None:
    from plies.teach.quiz import make_quiz

    q = make_quiz(11, "2x3")
    right = {x.kind: x.answer for x in q.questions}
    wrong = {"value": "12345", "move": right["move"]}
    body = {"shape": "2x3", "seed": 11, "answers": wrong, "reveal": False}
    r = client.post("/api/learn/quiz/check", json=body).json()
    assert [x["correct"] for x in r["results"]] == [False, True] and not r["all_correct"]
    assert all(set(x) == {"kind", "given", "correct", "feedback"} for x in r["results"])
    assert right["value"] not in json.dumps(r["results"][0])
    assert 'data-mode="exercise"' not in client.get("/learn").text
    # a server for a class: every page in exercise mode, and no check says an answer, whatever it is asked
    monkeypatch.setenv("PLIES_LEARN", "exercise")
    assert '<body data-mode="exercise" data-locked="1">' in client.get("/learn").text
    r = client.post("/api/learn/quiz/check", json=body | {"reveal": True}).json()
    assert all("expected" not in x for x in r["results"]) and r["results"][0]["feedback"] == "not right yet"
    r = client.post("/api/learn/quiz/check", json=body | {"answers": right}).json()
    assert r["all_correct"]


def test_the_page_words_in_greek_from_the_catalog(client) -> None:
    m = client.get("/api/learn/messages", params={"lang": "el-GR"}).json()
    assert m["lang"] == "el" and m["languages"] == {"en": "English", "el": "Ελληνικά"}
    assert m["messages"]["Tree"] == "Δένδρο" and m["messages"]["Show answer"] == "Δείξε την απάντηση"
    assert m["messages"]["minimax never prunes"] == "ο minimax δεν κλαδεύει ποτέ"
    assert client.get("/api/learn/messages", params={"lang": "en"}).json()["messages"] == {}
    bad = client.get("/api/learn/messages", params={"lang": "fr"})
    assert bad.status_code == 400 and "unknown language 'fr'" in bad.json()["detail"]
    # every word the page's HTML marks is in the catalog
    page = client.get("/learn").text
    assert 'data-lang="el"' in page and 'data-lang="en"' in page
    for marked in ("Children order", "Exercise: solve a random tree", "Load this tree"):
        assert f">{marked}<" in page and marked in m["messages"]


def test_the_search_in_greek(client) -> None:
    p = client.get("/api/learn/presets", params={"lang": "el"}).json()
    assert p["doc000"]["title"] == "Έγγραφο 000: το λυμένο παράδειγμα (A, B, C, D)"
    assert p["doc000"]["tree"] == client.get("/api/learn/presets").json()["doc000"]["tree"]
    d = client.post("/api/learn/trace", json={"tree": p["doc000"]["tree"], "lang": "el"}).json()
    texts = [s["text"] for s in d["steps"]]
    assert texts[0] == "Είσοδος στον κόμβο A (MAX) με α=−∞, β=+∞"
    assert "κλάδεμα α στον κόμβο C: α=3 ≥ β=2 — κλαδεύονται: [1,1], [1,2]" in texts
    assert texts[-1].endswith(": ο MAX επιλέγει B (κίνηση a1)")
    assert d["summary"] == ("άλφα-βήτα: τιμή 3, ο MAX επιλέγει B (κίνηση a1)· αξιολογήθηκαν 7 φύλλα, "
                            "κλαδεύτηκαν 2 κλαδιά")
    english = client.post("/api/learn/trace", json={"tree": p["doc000"]["tree"]}).json()
    assert english["steps"][0]["text"].startswith("Enter A (MAX)")          # each request its own language
    q = client.post("/api/learn/quiz", json={"shape": "3x2", "seed": 5, "lang": "el"}).json()
    assert q["questions"][0]["prompt"] == "Ποια είναι η τιμή της ρίζας A (MAX);"
    body = {"shape": "3x2", "seed": 5, "lang": "el", "answers": {"value": "x", "pruned": "none"}}
    results = {r["kind"]: r for r in client.post("/api/learn/quiz/check", json=body).json()["results"]}
    assert results["value"]["feedback"].startswith("γράψε έναν αριθμό· η τιμή της ρίζας είναι ")
    assert results["pruned"]["feedback"].startswith("κλαδεύονται και τα ")
    hidden = client.post("/api/learn/quiz/check", json=body | {"reveal": False}).json()["results"]
    assert [r["feedback"] for r in hidden] == ["όχι ακόμη σωστό", "όχι ακόμη σωστό"]
    bad = client.post("/api/learn/trace", json={"tree": [], "lang": "el"})
    assert bad.status_code == 400 and bad.json()["detail"] == "ένας κόμβος του δένδρου χρειάζεται τουλάχιστον ένα παιδί"
    bad = client.post("/api/learn/quiz", json={"shape": "9x9", "lang": "el"})
    assert bad.json()["detail"] == "η διακλάδωση πρέπει να είναι από 1 έως 6 (όπως 3x2, ή 2-4x3)"
    assert client.post("/api/learn/trace", json={"tree": []}).json()["detail"] == "a tree node needs at least one child"
