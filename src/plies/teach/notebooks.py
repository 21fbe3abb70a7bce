"""One source notebook, two versions for a class: the exercise version (answers hidden, checked on request) and
the solution version.

In the source, a cell tagged ``solution`` is part of the solution only.  A code cell tagged ``solution`` whose
metadata holds ``"plies": {"answers": {"value": 3, "move": "B"}}`` (and optionally ``"any_order": ["pruned"]``
for answers whose order does not count) computes those answers into variables of the same names.  ``split``
makes:

* the **exercise version**: the solution cells left out; each answer cell replaced by a stub the student fills
  in (its leading comment lines, then ``value = ...``), followed by a check cell that says right, not right yet
  or not answered for each answer (``plies.teach.answers.check``: the notebook keeps only digests);
* the **solution version**: every cell, each answer cell followed by the same check, asserted, so running the
  solution version proves the answers written in the metadata are the ones the code computes.

Cells tagged ``exercise-only`` appear in the exercise version alone (``Write your answers below``).  Notebooks
are read and written as JSON (nbformat 4), so nothing beyond plies is needed.

``translate`` makes a notebook's version in another language: each text (markdown) cell from the ``notebooks``
gettext catalog, where a cell is one message, and a first cell that makes plies speak that language (steps,
answers, checks).  ``split_files(..., lang="el")`` writes the translated notebook beside its two versions.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import cast

from plies import i18n
from plies.game import PliesError
from plies.i18n import N_, _
from plies.teach.answers import make_key
from plies.teach.schema import Cell, Notebook

EXERCISE_NOTE = N_("*Exercise version*: the answers are hidden. Write yours where a cell says `...`, then run the "
                   "check under it: it says which are right, never what they are.")
SOLUTION_NOTE = N_("*Solution version*: every answer worked out, and checked against the exercise's key.")
DOMAIN = "notebooks"
"""The gettext domain of the course notebooks' text: one message a markdown cell, its English source as written."""


def _source(cell: Cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _tags(cell: Cell) -> set[str]:
    return set(cell.get("metadata", {}).get("tags", []))


def answers_of(cell: Cell) -> dict[str, object]:
    """The answers a source cell computes (its ``plies.answers`` metadata), or {}."""
    answers = cell.get("metadata", {}).get("plies", {}).get("answers", {})
    if not isinstance(answers, dict):
        raise PliesError("a cell's plies.answers must map names to answers")
    for name in answers:
        if not str(name).isidentifier():
            raise PliesError(f"an answer's name must be a Python name, not {name!r}")
    return answers


def _code(source: str, cell_id: str) -> Cell:
    return {"cell_type": "code", "execution_count": None, "id": cell_id, "metadata": {}, "outputs": [],
            "source": source}


def _markdown(source: str, cell_id: str) -> Cell:
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": source}


def _check_cell(cell: Cell, assert_it: bool, cell_id: str) -> Cell:
    answers = answers_of(cell)
    order = cell.get("metadata", {}).get("plies", {}).get("any_order", [])
    key = make_key(answers, order)
    lines = ["from plies.teach.answers import check", "", "key = {"]
    lines += [f"    {json.dumps(name)}: {json.dumps(entry)}," for name, entry in key.items()]
    lines += ["}", "answers = {"] + [f"    {json.dumps(n)}: {n}," for n in answers] + ["}"]
    lines.append("assert check(answers, key), 'the worked answers disagree with the key'" if assert_it
                 else "check(answers, key)")
    return _code("\n".join(lines), cell_id)


def _stub(cell: Cell, cell_id: str) -> Cell:
    custom = cell.get("metadata", {}).get("plies", {}).get("stub")
    if custom:
        return _code(custom, cell_id)
    lead = []
    for line in _source(cell).splitlines():
        if not line.startswith("#"):
            break
        lead.append(line)
    note = _("your answer")
    lines = lead + [f"{name} = ...  # {note}" for name in answers_of(cell)]
    return _code("\n".join(lines), cell_id)


def split(source: Notebook) -> tuple[Notebook, Notebook]:
    """(exercise version, solution version) of a source notebook (a dict in nbformat 4 JSON)."""
    if not isinstance(source, dict) or not isinstance(source.get("cells"), list):
        raise PliesError("not a notebook: no list of cells")
    exercise_cells: list[Cell] = []
    solution_cells: list[Cell] = []
    asked = 0
    for i, raw in enumerate(source["cells"]):
        cell = copy.deepcopy(raw)
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
        tags = _tags(cell)
        cid = str(cell.get("id") or f"cell-{i}")
        cell["id"] = cid
        answers = answers_of(cell) if cell.get("cell_type") == "code" else {}
        if "exercise-only" in tags:
            exercise_cells.append(cell)
            continue
        solution_cells.append(cell)
        if answers:
            asked += len(answers)
            exercise_cells.append(_stub(cell, cid + "-stub"))
            exercise_cells.append(_check_cell(cell, False, cid + "-check"))
            solution_cells.append(_check_cell(cell, True, cid + "-check"))
        elif "solution" not in tags:
            exercise_cells.append(cell)
    if not asked:
        raise PliesError("the notebook asks nothing: tag a code cell 'solution' with plies.answers metadata")

    def book(cells: list[Cell], version: str, note: str) -> Notebook:
        out = source.copy()
        del out["cells"]
        out = copy.deepcopy(out)
        out.setdefault("metadata", {})["plies"] = {"version": version}
        out["nbformat"], out["nbformat_minor"] = 4, max(5, int(source.get("nbformat_minor", 5)))
        return out | {"cells": [_markdown(_(note), f"plies-{version}-note"), *cells]}

    return book(exercise_cells, "exercise", EXERCISE_NOTE), book(solution_cells, "solution", SOLUTION_NOTE)


def untranslated(source: Notebook, lang: str) -> list[int]:
    """The indices of the text cells that the ``notebooks`` catalog of ``lang`` does not translate (English: none,
    the notebooks are written in it)."""
    if i18n.normalize(lang) == i18n.DEFAULT:
        return []
    table = i18n.catalog(lang, DOMAIN)
    return [i for i, c in enumerate(source.get("cells", []))
            if c.get("cell_type") == "markdown" and _source(c).strip() and _source(c) not in table]


def translate(source: Notebook, lang: str) -> Notebook:
    """``source`` in ``lang``: its text cells translated (a cell without a translation stays as it is), and a first
    code cell that sets plies' language, so that what plies prints (steps, answers, checks) speaks it too."""
    code = i18n.normalize(lang)
    if code is None:
        raise PliesError(f"unknown language {lang!r}; choose from: {', '.join(i18n.LANGUAGES)}")
    out = copy.deepcopy(source)
    if code == i18n.DEFAULT:
        return out
    table = i18n.translations(code, DOMAIN)
    for cell in out.get("cells", []):
        if cell.get("cell_type") == "markdown" and _source(cell).strip():
            cell["source"] = table.gettext(_source(cell))
    setup = _code(f'from plies import i18n\n\ni18n.set_language("{code}")', f"plies-language-{code}")
    out["cells"] = [setup, *out.get("cells", [])]
    out.setdefault("metadata", {}).setdefault("plies", {})["language"] = code
    return out


def asks(source: Notebook) -> bool:
    """True when the notebook has answer cells (so ``split`` makes an exercise of it)."""
    return any(c.get("cell_type") == "code" and answers_of(c) for c in source.get("cells", []))


def read(path: str | Path) -> Notebook:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise PliesError(f"cannot read {path}: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise PliesError(f"{path} is not a notebook: {e.msg} at line {e.lineno}") from None
    if not isinstance(data, dict):
        raise PliesError(f"{path} is not a notebook")
    return cast(Notebook, data)


def dumps(nb: Notebook) -> str:
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def split_files(paths: list[str | Path], out: str | Path, lang: str = i18n.DEFAULT) -> list[Path]:
    """Write ``out/exercises/NAME.ipynb`` and ``out/solutions/NAME.ipynb`` for every source that asks something,
    and in another language than English ``out/NAME.ipynb``, the whole notebook translated; returns the files
    written."""
    written = []
    for p in paths:
        src = read(p)
        books: list[tuple[str, Notebook]] = []
        if lang != i18n.DEFAULT:
            src = translate(src, lang)
            books.append((".", src))
        if asks(src):
            with i18n.using(lang):
                exercise, solution = split(src)
            books += [("exercises", exercise), ("solutions", solution)]
        for folder, nb in books:
            target = Path(out) / folder / Path(p).name
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(dumps(nb), encoding="utf-8")
            except OSError as e:
                raise PliesError(f"cannot write {target}: {e.strerror}") from None
            written.append(target)
    return written


__all__ = ["DOMAIN", "EXERCISE_NOTE", "SOLUTION_NOTE", "answers_of", "asks", "dumps", "read", "split", "split_files",
           "translate", "untranslated"]
