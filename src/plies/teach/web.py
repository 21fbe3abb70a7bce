"""The browser's Learn page: step through minimax / alpha-beta on a tree, forward and back, edit leaves.

``router`` serves the page at ``/learn`` (static files in ``plies/teach/static``) and JSON under
``/api/learn``: ``GET /api/learn/presets`` (the seeds' trees) and ``POST /api/learn/trace`` (a tree ->
every node, every step of the search, the answer, and node positions laid out by graphviz).  The main app
mounts it with ``app.include_router(plies.teach.web.router)``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel

from plies.game import PliesError
from plies.games.tree import Node, TreeState, build
from plies.teach import draw
from plies.teach.examples import PRESETS
from plies.teach.trace import solve_tree, tree_height

STATIC = Path(__file__).parent / "static"
FILES = {"learn.js": "text/javascript", "learn.css": "text/css"}
MAX_NODES = 400
MAX_DEPTH = 12

router = APIRouter()


class TraceRequest(BaseModel):
    """A tree (nested list or labelled dict form), the algorithm and the children order."""

    tree: Any
    algorithm: str = "alphabeta"
    order: str = "left"


def _size(node: Node) -> int:
    return 1 + sum(_size(c) for c in node.children)


def trace_payload(tree: Any, algorithm: str = "alphabeta", order: str = "left") -> dict[str, Any]:
    """Everything the page needs for one tree: nodes, steps, the answer, graphviz positions."""
    root = build(tree)
    if _size(root) > MAX_NODES or tree_height(root) > MAX_DEPTH:
        raise PliesError(f"the page shows trees of up to {MAX_NODES} nodes and depth {MAX_DEPTH}")
    trace = solve_tree(TreeState(root), algorithm, order)
    data = trace.to_dict(steps=True)
    data["summary"] = draw.summary(trace)
    data["tree"] = root.to_data()
    data["layout"] = draw.layout(trace)
    return data


@router.get("/learn", response_class=HTMLResponse, include_in_schema=False)
def learn_page() -> HTMLResponse:
    return HTMLResponse((STATIC / "learn.html").read_text(encoding="utf-8"))


@router.get("/learn/static/{name}", include_in_schema=False)
def learn_static(name: str) -> FileResponse:
    if name not in FILES:
        raise HTTPException(404, "no such file")
    return FileResponse(STATIC / name, media_type=FILES[name])


@router.get("/api/learn/presets")
def presets() -> dict[str, Any]:
    """The seeds' trees the page offers: name -> title, note, tree."""
    return PRESETS


@router.post("/api/learn/trace")
def trace(req: TraceRequest) -> dict[str, Any]:
    """Solve the posted tree; 400 with a one-line reason for a bad tree, 503 when graphviz is missing."""
    try:
        return trace_payload(req.tree, req.algorithm, req.order)
    except PliesError as e:
        status = 503 if "graphviz" in str(e) else 400
        raise HTTPException(status, str(e)) from None
    except (RecursionError, TypeError, ValueError) as e:
        raise HTTPException(400, f"not a tree: {e}") from None
