"""Every notebook in docs/notebooks runs top to bottom in a real Jupyter kernel (nbclient + ipykernel), offline;
the notebooks' own asserts check their answers, so a notebook that rots fails here.  A notebook that asks
questions runs as its two versions (``plies.teach.notebooks.split``): the solution version, whose checks must all
pass, and the exercise version, which must run with nothing answered and show no answer.  Each runs in English
and in Greek (``notebooks.translate``: the text from the ``notebooks`` catalog, plies' own words in Greek), and the
versions kept in docs/notebooks (exercises/, solutions/, el/) are the ones the sources make now."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest

from plies.teach import notebooks

DOCS = Path(__file__).resolve().parents[2] / "docs" / "notebooks"
NOTEBOOKS = sorted(DOCS.glob("*.ipynb"))
WORDS = {"en": ("✓ right", "not right yet", "not answered yet"),
         "el": ("✓ σωστό", "όχι ακόμη σωστό", "δεν απαντήθηκε ακόμη")}
"""A check's words for right, wrong and not answered, in each language."""


def test_the_course_notebooks_are_there() -> None:
    names = {p.stem for p in NOTEBOOKS}
    assert names >= {"01-lab-tree", "02-alphabeta-exercise", "03-tictactoe", "04-horizon-effect", "05-node-counts",
                     "06-your-heuristic", "07-iterative-deepening-and-tables", "08-move-ordering",
                     "09-monte-carlo-tree-search"}


def _execute(nb: dict, tmp_path: Path) -> list:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    book = nbformat.reads(json.dumps(nb), as_version=4)
    from jupyter_client.manager import KernelManager

    # the kernel speaks over files in tmp_path, not TCP ports: a port chosen free can be taken by another process
    # before the kernel binds it ("Address already in use"), a test that something else on the machine can break
    # (in a short folder of its own: a socket's path has at most 107 characters)
    with tempfile.TemporaryDirectory(prefix="plies-k") as sockets:
        km = KernelManager(kernel_name="python3", transport="ipc", ip=str(Path(sockets) / "k"))
        client = nbclient.NotebookClient(book, km=km, timeout=180, kernel_name="python3",
                                         resources={"metadata": {"path": str(tmp_path)}})
        client.execute()
    outputs = [o for c in book.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    return outputs


def _text(outputs: list) -> str:
    return "".join(o.get("text", "") for o in outputs if o.output_type == "stream")


@pytest.mark.parametrize("lang", ["en", "el"])
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, lang: str, tmp_path: Path) -> None:
    source = notebooks.read(path)
    assert all(not c.get("outputs") for c in source["cells"] if c["cell_type"] == "code"), \
        "store notebooks without outputs"
    assert notebooks.untranslated(source, lang) == []
    source = notebooks.translate(source, lang)
    right, wrong, unanswered = WORDS[lang]
    if not notebooks.asks(source):
        outputs = _execute(source, tmp_path)
    else:
        exercise, solution = notebooks.split(source)
        outputs = _execute(solution, tmp_path)
        checks = _text(outputs)
        asked = sum(len(notebooks.answers_of(c)) for c in source["cells"] if c["cell_type"] == "code")
        assert checks.count(right) == asked and wrong not in checks
        hidden = [c for c in source["cells"] if "solution" in c.get("metadata", {}).get("tags", [])]
        shown = "\n".join("".join(c["source"]) for c in exercise["cells"]).splitlines()
        for c in hidden:                                 # no solution cell's code reaches the exercise version
            body = [line for line in "".join(c["source"]).splitlines()
                    if len(line.strip()) > 12 and not line.startswith(("#", "from ", "import "))]
            assert not [line for line in body if line in shown]
        ex_text = _text(_execute(exercise, tmp_path))
        assert right not in ex_text and ex_text.count(unanswered) == asked
    # the pictures come out as plies' own SVG
    svgs = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert svgs, "every notebook shows at least one picture"


def test_greek_text_and_greek_words(tmp_path: Path) -> None:
    source = notebooks.translate(notebooks.read(DOCS / "01-lab-tree.ipynb"), "el")
    assert source["cells"][0]["source"] == 'from plies import i18n\n\ni18n.set_language("el")'
    assert "".join(source["cells"][1]["source"]).startswith("# Το δένδρο των σημειώσεων του εργαστηρίου")
    text = _text(_execute(notebooks.split(source)[1], tmp_path))
    assert "κλάδεμα α στον κόμβο C: α=3 ≥ β=2" in text            # plies' own words, in Greek, in the kernel


@pytest.mark.parametrize("lang, folder", [("en", DOCS), ("el", DOCS / "el")])
def test_the_kept_versions_are_made_from_the_sources(lang: str, folder: Path, tmp_path: Path) -> None:
    written = notebooks.split_files(NOTEBOOKS, tmp_path, lang)
    assert written
    for made in written:
        kept = folder / made.relative_to(tmp_path)
        assert kept.exists() and kept.read_text(encoding="utf-8") == made.read_text(encoding="utf-8"), (
            f"{kept} is not what the source makes: plies class notebooks docs/notebooks/*.ipynb --out {folder}"
            + (f" --lang {lang}" if lang != "en" else ""))
