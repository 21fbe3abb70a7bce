"""The browser's Learn page: step through minimax / alpha-beta on a tree, forward and back, edit leaves, and
solve random exercises whose answers the server checks.

``router`` serves the page at ``/learn`` (static files in ``plies/teach/static``) and JSON under
``/api/learn``: ``GET /api/learn/presets`` (the seeds' trees), ``POST /api/learn/trace`` (a tree -> every
node, every step of the search, the answer, node positions from plies' own tidy layout and the finished
picture as SVG), ``POST /api/learn/quiz`` (a random exercise of a chosen shape, without its answers) and
``POST /api/learn/quiz/check`` (answers -> right or wrong, with the expected answer and why; with
``"reveal": false`` right or wrong alone).  Nothing here needs a system program.  The main app mounts it with
``app.include_router(plies.teach.web.router)``.

Exercise mode (``/learn?mode=exercise``, or every page when the server runs with ``PLIES_LEARN=exercise``):
the *Show answer* button is gone, and an exercise's tree can be stepped through only once its answers are
right; with ``PLIES_LEARN=exercise`` the checks never send the expected answers either.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel

from plies import i18n
from plies.game import PliesError
from plies.games.tree import TreeState, build, tree_height, tree_size
from plies.teach import draw, quiz
from plies.teach.examples import PRESETS
from plies.teach.schema import CheckDict, Messages, Preset, QuizDict, TracePayload
from plies.teach.trace import solve_tree

STATIC = Path(__file__).parent / "static"
FILES = {"learn.js": "text/javascript", "learn.css": "text/css", "favicon.svg": "image/svg+xml",
         "i18n.js": "text/javascript", "switches.css": "text/css"}
SHARED = {name: Path(str(resources.files("plies.web") / "static" / name)) for name in ("i18n.js", "switches.css")}
"""Files the Learn page shares with the browser app (one copy, in the app's static folder)."""
MAX_NODES = 400
MAX_DEPTH = 12

router = APIRouter()


class TraceRequest(BaseModel):
    """A tree (nested list or labelled dict form), the algorithm and the children order."""

    tree: Any
    algorithm: str = "alphabeta"
    order: str = "left"
    lang: str = i18n.DEFAULT


class QuizRequest(BaseModel):
    """An exercise: its shape (``3x2``, ``2-3x3``), seed (None: a new random one), leaf values, algorithm."""

    shape: str = "3x2"
    seed: int | None = None
    values: str = "-9..9"
    algorithm: str = "alphabeta"
    lang: str = i18n.DEFAULT


class CheckRequest(QuizRequest):
    """The exercise again (the server keeps nothing), the answers (question kind -> text), and whether the
    results may say what the right answers are."""

    answers: dict[str, str] = {}
    reveal: bool = True


def exercise_only() -> bool:
    """True when the server runs every Learn page in exercise mode (``PLIES_LEARN=exercise``)."""
    return os.environ.get("PLIES_LEARN", "").strip().lower() == "exercise"


def trace_payload(tree: object, algorithm: str = "alphabeta", order: str = "left") -> TracePayload:
    """Everything the page needs for one tree: nodes, steps, the answer, positions and the picture."""
    root = build(tree)
    if tree_size(root) > MAX_NODES or tree_height(root) > MAX_DEPTH:
        raise PliesError(i18n._("the page shows trees of up to {nodes} nodes and depth {depth}").format(
            nodes=MAX_NODES, depth=MAX_DEPTH))
    trace = solve_tree(TreeState(root), algorithm, order)
    return {**trace.to_dict(steps=True), "summary": draw.summary(trace), "tree": root.to_data(),
            "layout": draw.layout(trace), "svg": draw.svg(trace)}


def _quiz(req: QuizRequest) -> quiz.Quiz:
    if req.seed is not None and not 0 <= req.seed < 2**31:
        raise PliesError(i18n._("the seed must be a whole number from 0 to 2147483647"))
    return quiz.make_quiz(req.seed, req.shape, quiz.parse_values(req.values), req.algorithm)


def quiz_payload(req: QuizRequest) -> QuizDict:
    """A new exercise: the tree and the questions (answers left out) and the seed that makes it again."""
    q = _quiz(req)
    return q.to_dict(answers=False) | {"values": f"{q.values[0]}..{q.values[1]}"}


def check_payload(req: CheckRequest) -> CheckDict:
    """The answers checked: one result per question answered, and whether all are right.  Without ``reveal``
    (or in a server that runs exercise mode) a result is right or wrong alone: no expected answer, no reason."""
    q = _quiz(req)
    reveal = req.reveal and not exercise_only()
    results = []
    for kind, text in req.answers.items():
        r = q.check(kind, text).to_dict()
        if not reveal:
            r = {"kind": r["kind"], "given": r["given"], "correct": r["correct"],
                 "feedback": i18n._("right") if r["correct"] else i18n._("not right yet")}
        results.append(r)
    return {"seed": q.seed, "results": results, "all_correct": bool(results) and all(r["correct"] for r in results)}


@router.get("/learn", response_class=HTMLResponse, include_in_schema=False)
def learn_page() -> HTMLResponse:
    page = (STATIC / "learn.html").read_text(encoding="utf-8")
    if exercise_only():
        page = page.replace("<body>", '<body data-mode="exercise" data-locked="1">', 1)
    return HTMLResponse(page)


@router.get("/learn/static/{name}", include_in_schema=False)
def learn_static(name: str) -> FileResponse:
    if name not in FILES:
        raise HTTPException(404, "no such file")
    return FileResponse(SHARED.get(name, STATIC / name), media_type=FILES[name])


def _language(lang: str) -> str:
    """``lang`` if plies speaks it (``el``, ``el-GR``), else 400."""
    code = i18n.normalize(lang)
    if code is None:
        raise HTTPException(400, f"unknown language {lang!r}; choose from: {', '.join(i18n.LANGUAGES)}")
    return code


@contextmanager
def _speaking(lang: str) -> Iterator[None]:
    """Answer in ``lang`` (400 for a language plies does not speak); a PliesError is a 400 with its reason."""
    with i18n.using(_language(lang)):
        try:
            yield
        except PliesError as e:
            raise HTTPException(400, str(e)) from None


@router.get("/api/learn/messages", response_model=None)
def messages(lang: str = i18n.DEFAULT) -> Messages:
    """The page's words in ``lang``: ``{"lang", "languages", "messages": {English: translation}}`` from the same
    gettext catalog as the terminal's (English: no messages, the page's own words)."""
    code = _language(lang)
    return {"lang": code, "languages": i18n.LANGUAGES, "messages": i18n.catalog(code)}


@router.get("/api/learn/presets", response_model=None)
def presets(lang: str = i18n.DEFAULT) -> dict[str, Preset]:
    """The seeds' trees the page offers: name -> title, note, tree (title and note in ``lang``)."""
    with _speaking(lang):
        return {name: p | {"title": i18n._(p["title"]), "note": i18n._(p["note"])} for name, p in PRESETS.items()}


@router.post("/api/learn/trace", response_model=None)
def trace(req: TraceRequest) -> TracePayload:
    """Solve the posted tree; 400 with a one-line reason for a bad tree."""
    with _speaking(req.lang):
        try:
            return trace_payload(req.tree, req.algorithm, req.order)
        except PliesError:  # (a ValueError too): its own reason, from _speaking
            raise
        except (RecursionError, TypeError, ValueError) as e:
            raise HTTPException(400, i18n._("not a tree: {reason}").format(reason=e)) from None


@router.post("/api/learn/quiz", response_model=None)
def new_quiz(req: QuizRequest) -> QuizDict:
    """A random exercise of the asked shape (reproducible by its seed); 400 with the reason for a bad shape."""
    with _speaking(req.lang):
        return quiz_payload(req)


@router.post("/api/learn/quiz/check", response_model=None)
def check_quiz(req: CheckRequest) -> CheckDict:
    """Check answers to the exercise the request describes."""
    with _speaking(req.lang):
        return check_payload(req)
