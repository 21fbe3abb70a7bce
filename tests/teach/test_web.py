"""The Learn router mounted in a minimal FastAPI app: page, static files, presets, traces, errors."""

from __future__ import annotations

import shutil

import pytest
from fastapi.testclient import TestClient

pytestmark = pytest.mark.skipif(shutil.which("dot") is None, reason="needs graphviz's dot")


@pytest.fixture(scope="module")
def client(learn_app) -> TestClient:
    return TestClient(learn_app)


def test_page_and_static(client) -> None:
    r = client.get("/learn")
    assert r.status_code == 200 and "learn/static/learn.js" in r.text
    assert client.get("/learn/static/learn.js").headers["content-type"].startswith("text/javascript")
    assert client.get("/learn/static/learn.css").status_code == 200
    assert client.get("/learn/static/secret.py").status_code == 404


def test_presets(client) -> None:
    p = client.get("/api/learn/presets").json()
    assert set(p) >= {"doc000", "doc002"}
    assert p["doc002"]["tree"]["label"] == "α"


def test_trace_doc000(client) -> None:
    d = client.post("/api/learn/trace", json={"tree": [[3, 12, 8], [2, 4, 6], [14, 5, 2]]}).json()
    assert d["value"] == 3 and d["best"] == 0 and d["pruned"] == [[1, 1], [1, 2]] and d["leaves_evaluated"] == 7
    assert len(d["nodes"]) == 13 and len(d["layout"]["nodes"]) == 13
    cut = next(s for s in d["steps"] if s["kind"] == "alpha-cutoff")
    assert cut["text"].startswith("α cut-off at [1]: 2 ≤ α=3") and cut["pruned"] == ["r.1.1", "r.1.2"]
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
