"""Every notebook in docs/notebooks runs top to bottom in a real Jupyter kernel (nbclient + ipykernel), offline;
the notebooks' own asserts check their answers, so a notebook that rots fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "docs" / "notebooks").glob("*.ipynb"))


def test_the_course_notebooks_are_there() -> None:
    names = {p.stem for p in NOTEBOOKS}
    assert names >= {"01-lab-tree", "02-alphabeta-exercise", "03-tictactoe", "04-horizon-effect", "05-node-counts",
                     "06-your-heuristic"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, tmp_path: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    book = nbformat.read(path, as_version=4)
    assert all(not c.get("outputs") for c in book.cells if c.cell_type == "code"), "store notebooks without outputs"
    client = nbclient.NotebookClient(book, timeout=120, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.output_type == "error"]
    assert not errors
    # the pictures come out as plies' own SVG
    svgs = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])
            if "image/svg+xml" in o.get("data", {})]
    assert svgs, "every notebook shows at least one picture"
