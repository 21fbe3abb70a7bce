"""Worksheets for a class: every student their own exercises, made again from the class's seed, with a separate
answer key and a batch check of the students' answers into a mark sheet.

A worksheet holds ``trees`` tree exercises (``plies.teach.quiz``: the root's value, MAX's choice, the order the
leaves are evaluated, the leaves alpha-beta never evaluates), ``tictactoe`` tic-tac-toe positions (the slides'
evaluation 3·X2 + X1 − (3·O2 + O1) for X, and the position's value for X with perfect play: +1, 0 or −1) and
``othello`` Othello positions (the legal moves, and the move that leaves the mover the most discs — the lab
notes' greedy player — always a single one).  Student ``name`` of class seed ``s`` gets the sheet seeded by a
hash of both, so the same roster and seed give the same sheets on any machine, and no two students share one.

Each exercise is a page (``page``): a picture (the tree, the board) and its numbered questions with lines to
write on; the key's page shows the solved picture and the answers.  Pages are plies scenes, so a sheet is SVG
(one file a page), HTML (the pages with the questions, to print or fill in) or PDF (a page each, through
matplotlib).  A student hands in JSON: ``{"student": NAME, "answers": {"1.value": "3", "1.move": "B", ...}}``
(``answers_template``); ``mark`` checks a batch of them against the key.
"""

from __future__ import annotations

import csv
import hashlib
import html
import io
import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from plies import draw as canvas
from plies.draw import Group, Line, Scene, Text, text_width
from plies.draw.boards import board_scene
from plies.draw.tree import explicit_nodes, tree_scene
from plies.game import PliesError, State
from plies.games import OthelloState, TicTacToeState, game_type
from plies.games.tree import build
from plies.heuristics import get
from plies.search import alphabeta
from plies.teach import quiz as quizzes
from plies.teach.answers import normal
from plies.teach.schema import ExerciseDict, HandIn, ItemDict, Key, SheetDict, Spec
from plies.teach.trace import fmt

PAGE_W, PAGE_H, MARGIN = 595.0, 842.0, 42.0
"""An A4 page in points."""
INK, BLUE, GREY = "#263238", "#1565c0", "#78909c"
SHAPES = ("3x2", "2x3", "2-3x3")
MAX_STUDENTS = 1000


def student_seed(class_seed: int, student: str) -> int:
    """The seed of ``student``'s sheet in the class seeded ``class_seed``."""
    digest = hashlib.sha256(f"plies-worksheet\n{class_seed}\n{student}".encode()).hexdigest()
    return int(digest[:8], 16) % 1_000_000_000


@dataclass
class Item:
    """One question: ``id`` (``2.value``), the prompt, the expected answer as text, and whether its order counts."""

    id: str
    kind: str
    prompt: str
    answer: str
    any_order: bool = False

    def to_dict(self, answers: bool = True) -> ItemDict:
        d: ItemDict = {"id": self.id, "kind": self.kind, "prompt": self.prompt, "any_order": self.any_order}
        if answers:
            d["answer"] = self.answer
        return d


@dataclass
class Exercise:
    """A page: a tree exercise (``spec``: the quiz's seed, shape, values) or a position (``spec``: its text)."""

    number: int
    kind: str                       # tree, tictactoe, othello
    title: str
    spec: Spec
    items: list[Item] = field(default_factory=list)

    def quiz(self) -> quizzes.Quiz:
        s = self.spec
        values = cast(tuple[int, int], tuple(s["values"]))     # as the key's JSON list holds them
        return quizzes.make_quiz(s["seed"], s["shape"], values, s.get("algorithm", "alphabeta"))

    def state(self) -> State:
        """The position of a board exercise, read by its game's type (``kind`` is the game's name)."""
        return game_type(self.kind).parse(self.spec["position"])

    def to_dict(self, answers: bool = True) -> ExerciseDict:
        return {"number": self.number, "kind": self.kind, "title": self.title, "spec": self.spec,
                "items": [i.to_dict(answers) for i in self.items]}

    @classmethod
    def from_dict(cls, d: ExerciseDict) -> Exercise:
        items = [Item(i["id"], i["kind"], i["prompt"], i.get("answer", ""), bool(i.get("any_order")))
                 for i in d["items"]]
        return cls(int(d["number"]), d["kind"], d["title"], d["spec"], items)


@dataclass
class Sheet:
    """One student's worksheet."""

    student: str
    class_seed: int
    seed: int
    exercises: list[Exercise]

    @property
    def items(self) -> list[Item]:
        return [i for e in self.exercises for i in e.items]

    def to_dict(self, answers: bool = True) -> SheetDict:
        return {"student": self.student, "class_seed": self.class_seed, "seed": self.seed,
                "exercises": [e.to_dict(answers) for e in self.exercises]}

    @classmethod
    def from_dict(cls, d: SheetDict) -> Sheet:
        return cls(str(d["student"]), int(d["class_seed"]), int(d["seed"]),
                   [Exercise.from_dict(e) for e in d["exercises"]])

    def answers_template(self) -> HandIn:
        """The JSON a student hands in, every answer still empty."""
        return {"student": self.student, "answers": {i.id: "" for i in self.items}}


# -- making sheets --------------------------------------------------------------------------------------------

def _tree_exercise(number: int, seed: int, shape: str) -> Exercise:
    q = quizzes.make_quiz(seed, shape)
    spec: Spec = {"seed": q.seed, "shape": q.shape.text, "values": list(q.values), "algorithm": q.algorithm}
    ex = Exercise(number, "tree", f"Alpha-beta on a game tree ({q.shape.text})", spec)
    for question in q.questions:
        ex.items.append(Item(f"{number}.{question.kind}", question.kind, question.prompt, question.answer,
                             question.kind == "pruned"))
    return ex


def _tictactoe_exercise(number: int, rng: random.Random) -> Exercise:
    lines = get("tictactoe", "open-lines")
    win_loss = get("tictactoe", "win-loss")
    while True:
        s = TicTacToeState.start()
        for _ in range(rng.randint(3, 5)):
            s = s.play(rng.choice(s.legal_moves()))
            if s.is_over():
                break
        if not s.is_over():
            break
    v = alphabeta(s, 9, win_loss).value
    for_x = v if s.to_move == 0 else -v
    ex = Exercise(number, "tictactoe", "A tic-tac-toe position", {"position": s.to_text()})
    ex.items.append(Item(f"{number}.eval", "eval", "What is the slides' evaluation 3·X2 + X1 − (3·O2 + O1) of this "
                         "position (for X)?", fmt(lines(s, 0))))
    ex.items.append(Item(f"{number}.result", "result", f"{s.player_names[s.to_move]} to move. With perfect play "
                         "from here, is the game worth +1 (X wins), 0 (a draw) or −1 (O wins)?",
                         fmt(for_x, "unit")))
    return ex


def greedy_moves(s: OthelloState) -> list[int]:
    """The moves after which the mover has the most discs (the lab notes' greedy player)."""
    me = s.to_move
    counts = {m: s.play(m).counts()[me] for m in s.legal_moves()}
    best = max(counts.values())
    return [m for m, c in counts.items() if c == best]


def _othello_exercise(number: int, rng: random.Random) -> Exercise:
    while True:
        s = OthelloState.start()
        for _ in range(rng.randint(5, 14)):
            moves = s.legal_moves()
            if not moves:
                break
            s = s.play(rng.choice(moves))
        moves = [m for m in s.legal_moves() if m >= 0]
        if 3 <= len(moves) <= 10 and len(greedy_moves(s)) == 1:
            break
    who = s.player_names[s.to_move]
    greedy = greedy_moves(s)[0]
    ex = Exercise(number, "othello", "An Othello position", {"position": s.to_text()})
    ex.items.append(Item(f"{number}.moves", "moves", f"{who} to move. Which moves are legal? (squares like d3)",
                         " ".join(sorted(s.move_str(m) for m in moves)), any_order=True))
    ex.items.append(Item(f"{number}.greedy", "greedy", f"Which move leaves {who} the most discs?",
                         s.move_str(greedy)))
    return ex


def make_sheet(student: str, class_seed: int, trees: int = 2, tictactoe: int = 1, othello: int = 1,
               shapes: tuple[str, ...] = SHAPES) -> Sheet:
    """``student``'s worksheet in the class seeded ``class_seed``."""
    if trees < 0 or tictactoe < 0 or othello < 0 or trees + tictactoe + othello == 0:
        raise PliesError("a worksheet needs at least one exercise")
    for shape in shapes:
        quizzes.parse_shape(shape)
    seed = student_seed(class_seed, student)
    rng = random.Random(seed)
    exercises: list[Exercise] = []
    for i in range(trees):
        exercises.append(_tree_exercise(len(exercises) + 1, rng.randrange(1, 2**31 - 1), shapes[i % len(shapes)]))
    for _ in range(tictactoe):
        exercises.append(_tictactoe_exercise(len(exercises) + 1, rng))
    for _ in range(othello):
        exercises.append(_othello_exercise(len(exercises) + 1, rng))
    return Sheet(student, class_seed, seed, exercises)


def read_roster(text: str) -> list[str]:
    """Student names, one a line (a CSV's first column; blank lines and ``#`` comments skipped), each once."""
    names: list[str] = []
    for row in csv.reader(io.StringIO(text)):
        if not row or not row[0].strip() or row[0].lstrip().startswith("#"):
            continue
        name = row[0].strip()
        if name.lower() in ("name", "student") and not names:
            continue                                    # a header row
        if name in names:
            raise PliesError(f"the roster names {name!r} twice")
        names.append(name)
    if not names:
        raise PliesError("the roster names no student")
    if len(names) > MAX_STUDENTS:
        raise PliesError(f"at most {MAX_STUDENTS} students a class")
    return names


def file_stem(student: str) -> str:
    """A safe file name for a student (``Anna Papadopoulou`` -> ``Anna_Papadopoulou``; Greek letters kept)."""
    stem = re.sub(r"[^\w.-]+", "_", student, flags=re.UNICODE).strip("._")
    return stem or "student"


# -- pages ----------------------------------------------------------------------------------------------------

def _wrap(text: str, size: float, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


def _picture(ex: Exercise, solved: bool) -> Scene:
    if ex.kind == "tree":
        if solved:
            from plies.teach import draw

            return draw.scene(ex.quiz().trace, max_width=None)
        return tree_scene(explicit_nodes(build(ex.quiz().tree)), label="exercise tree", max_width=None)
    scene = board_scene(ex.state(), hints=solved)  # the answer key marks the legal moves (where a board shows them)
    assert scene is not None
    return scene


def page(sheet: Sheet, ex: Exercise, key: bool = False) -> Scene:
    """Exercise ``ex`` of ``sheet`` as an A4 page: heading, picture, questions with lines (the key: answers)."""
    scene = Scene(PAGE_W, PAGE_H, label=f"worksheet page {ex.number}")
    width = PAGE_W - 2 * MARGIN
    head = f"{sheet.student} · exercise {ex.number} of {len(sheet.exercises)}" + (" · ANSWER KEY" if key else "")
    scene.add(Text(MARGIN, MARGIN, head, size=11, fill=GREY, anchor="start"))
    scene.add(Text(MARGIN, MARGIN + 24, f"{ex.number}. {ex.title}", size=16, bold=True, fill=INK, anchor="start"))
    pic = _picture(ex, key)
    room_h = PAGE_H * 0.5
    k = min(1.0, width / pic.width, room_h / pic.height)
    x = MARGIN + (width - pic.width * k) / 2
    scene.add(Group(list(pic.items), cls="picture", dx=x, dy=MARGIN + 44, scale=k))
    y = MARGIN + 44 + pic.height * k + 24
    for item in ex.items:
        lines = _wrap(f"{item.id} — {item.prompt}", 12, width)
        for line in lines:
            scene.add(Text(MARGIN, y, line, size=12, fill=INK, anchor="start"))
            y += 16
        if key:
            for line in _wrap(item.answer, 13, width - 20):
                scene.add(Text(MARGIN + 20, y + 4, line, size=13, bold=True, fill=BLUE, anchor="start",
                               cls="answer"))
                y += 18
            y += 10
        else:
            scene.add(Line(MARGIN + 20, y + 12, MARGIN + width, y + 12, stroke="#b0bec5", width=0.8))
            y += 34
    foot = f"class seed {sheet.class_seed} · sheet {sheet.seed} · hand in: {{\"student\": \"{sheet.student}\", " \
           f"\"answers\": {{\"{ex.items[0].id}\": \"...\", ...}}}}"
    scene.add(Text(MARGIN, PAGE_H - MARGIN / 2, foot, size=8, fill=GREY, anchor="start"))
    return scene


def pages(sheet: Sheet, key: bool = False) -> list[Scene]:
    return [page(sheet, ex, key) for ex in sheet.exercises]


def html_page(sheet: Sheet, key: bool = False) -> str:
    """The sheet as one HTML document: each exercise's picture (SVG) and questions (the key: with answers)."""
    parts = [f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(sheet.student)}"
             f"{' — answer key' if key else ''}</title><style>body{{font-family:DejaVu Sans,Verdana,sans-serif;"
             "max-width:48rem;margin:2rem auto;color:#263238}section{page-break-after:always;margin-bottom:3rem}"
             "svg{max-width:100%;height:auto}.q{margin:.8rem 0}.a{color:#1565c0;font-weight:bold}"
             ".blank{border-bottom:1px solid #b0bec5;height:1.6rem}code{background:#eceff1}</style></head><body>",
             f"<h1>{html.escape(sheet.student)}{' — answer key' if key else ''}</h1>",
             f"<p>Class seed {sheet.class_seed}, sheet {sheet.seed}. Hand in your answers as JSON: "
             f"<code>{html.escape(json.dumps(sheet.answers_template(), ensure_ascii=False))}</code> with each "
             "answer filled in.</p>"]
    for ex in sheet.exercises:
        parts.append(f"<section><h2>{ex.number}. {html.escape(ex.title)}</h2>")
        parts.append(_picture(ex, key).to_svg())
        for item in ex.items:
            parts.append(f"<div class=\"q\"><b>{item.id}</b> {html.escape(item.prompt)}")
            parts.append(f"<div class=\"a\">{html.escape(item.answer)}</div>" if key else "<div class=\"blank\"></div>")
            parts.append("</div>")
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts)


FORMATS = ("html", "svg", "pdf")


def write_sheets(students: list[str], class_seed: int, out: str | Path, formats: tuple[str, ...] = ("html", "svg"),
                 trees: int = 2, tictactoe: int = 1, othello: int = 1) -> Key:
    """Write every student's sheet (``OUT/sheets/``), the answer key (``OUT/key/`` and ``OUT/key.json``) and an
    empty answers file each (``OUT/answers/NAME.json``); returns the key."""
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise PliesError(f"unknown worksheet format {', '.join(bad) or '(none)'}; choose from: {', '.join(FORMATS)}")
    root = Path(out)
    stems: dict[str, str] = {}
    for s in students:
        stem = file_stem(s)
        if stem in stems.values():
            raise PliesError(f"two students would share the file name {stem!r}: {s!r} and "
                             f"{next(k for k, v in stems.items() if v == stem)!r}")
        stems[s] = stem
    key: Key = {"class_seed": class_seed, "sheets": []}
    for student in students:
        sheet = make_sheet(student, class_seed, trees, tictactoe, othello)
        key["sheets"].append(sheet.to_dict() | {"file": stems[student]})
        for folder, is_key in (("sheets", False), ("key", True)):
            base = root / folder
            stem = stems[student] + ("-key" if is_key else "")
            if "html" in formats:
                _write(base / f"{stem}.html", html_page(sheet, is_key).encode("utf-8"))
            if "svg" in formats:
                for sc, ex in zip(pages(sheet, is_key), sheet.exercises, strict=True):
                    _write(base / f"{stem}-{ex.number}.svg", canvas.render(sc, "svg"))
            if "pdf" in formats:
                from plies.draw.raster import pdf_pages

                _write(base / f"{stem}.pdf", pdf_pages(pages(sheet, is_key)))
        _write(root / "answers" / f"{stems[student]}.json",
               (json.dumps(sheet.answers_template(), indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    _write(root / "key.json", (json.dumps(key, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    return key


def _write(path: Path, data: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    except OSError as e:
        raise PliesError(f"cannot write {path}: {e.strerror}") from None


# -- marking --------------------------------------------------------------------------------------------------

@dataclass
class Mark:
    """One answer marked: right or not, what was given and expected, and a sentence saying why."""

    item: str
    given: str
    expected: str
    right: bool
    feedback: str


def check_item(ex: Exercise, item: Item, given: object) -> Mark:
    """Mark one answer (tree questions by the quiz's own checker, with its explanation)."""
    text = "" if given is None else (" ".join(map(str, given)) if isinstance(given, list) else str(given))
    if not text.strip():
        return Mark(item.id, "", item.answer, False, "not answered")
    if ex.kind == "tree":
        r = ex.quiz().check(item.kind, text)
        return Mark(item.id, text, item.answer, r.correct, r.feedback)
    right = normal(text, item.any_order) == normal(item.answer, item.any_order)
    if item.kind == "moves":
        got, want = set((normal(text) or "").split()), set((normal(item.answer) or "").split())
        missing, extra = sorted(want - got), sorted(got - want)
        why = "all the legal moves" if right else "; ".join(
            p for p in (f"missing {' '.join(missing)}" if missing else "",
                        f"{' '.join(extra)} {'is' if len(extra) == 1 else 'are'} not legal" if extra else "") if p)
        return Mark(item.id, text, item.answer, right, why)
    return Mark(item.id, text, item.answer, right, "right" if right else f"the answer is {item.answer}")


@dataclass
class Row:
    student: str
    source: str
    marks: list[Mark]
    note: str = ""

    @property
    def right(self) -> int:
        return sum(m.right for m in self.marks)


def load_key(path: str | Path) -> dict[str, Sheet]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        sheets = [Sheet.from_dict(d) for d in data["sheets"]]
    except OSError as e:
        raise PliesError(f"cannot read {path}: {e.strerror}") from None
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as e:
        raise PliesError(f"{path} is not a worksheet key (written by plies class worksheets): {e}") from None
    return {s.student: s for s in sheets}


def mark(key: dict[str, Sheet], answer_files: list[str | Path]) -> list[Row]:
    """Mark every answers file against the key.  A file that cannot be read, or names a student the key does
    not know, becomes a row with a note; a student without a file gets a row of blanks.  Nothing stops the
    batch."""
    rows: dict[str, Row] = {}
    extra: list[Row] = []
    for f in answer_files:
        name = str(f)
        try:
            data = json.loads(Path(f).read_text(encoding="utf-8-sig"))
            if not isinstance(data, dict) or not isinstance(data.get("answers"), dict):
                raise ValueError('expected {"student": NAME, "answers": {...}}')
            student = str(data.get("student", "")).strip()
        except (OSError, UnicodeDecodeError, ValueError) as e:
            msg = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            extra.append(Row("?", name, [], f"unreadable: {msg}"))
            continue
        sheet = key.get(student)
        if sheet is None:
            extra.append(Row(student or "?", name, [], "no such student in the key"))
            continue
        if student in rows:
            extra.append(Row(student, name, [], f"a second answers file for {student} "
                                                f"(marked: {rows[student].source})"))
            continue
        answers = data["answers"]
        marks = [check_item(ex, item, answers.get(item.id)) for ex in sheet.exercises for item in ex.items]
        unknown = sorted(set(answers) - {i.id for i in sheet.items})
        rows[student] = Row(student, name, marks, f"unknown answers: {', '.join(unknown)}" if unknown else "")
    out = []
    for student, sheet in key.items():
        out.append(rows.get(student) or Row(student, "", [Mark(i.id, "", i.answer, False, "not answered")
                                                         for i in sheet.items], "no answers handed in"))
    return out + extra


def marks_csv(rows: list[Row]) -> str:
    """The mark sheet: a row per student, a column per question (1 right, 0 not), the total and the notes."""
    ids: list[str] = []
    for r in rows:
        for m in r.marks:
            if m.item not in ids:
                ids.append(m.item)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["student", *ids, "right", "out of", "percent", "file", "note"])
    for r in rows:
        by = {m.item: m for m in r.marks}
        total = len(r.marks)
        percent = f"{100 * r.right / total:.0f}" if total else ""
        w.writerow([r.student, *(("1" if by[i].right else "0") if i in by else "" for i in ids), r.right if total
                    else "", total or "", percent, r.source, r.note])
    return buf.getvalue()


def details_csv(rows: list[Row]) -> str:
    """Every answer with what was expected and why: a row per student and question."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["student", "question", "given", "expected", "right", "feedback"])
    for r in rows:
        for m in r.marks:
            w.writerow([r.student, m.item, m.given, m.expected, "1" if m.right else "0", m.feedback])
    return buf.getvalue()


def summary(rows: list[Row]) -> str:
    marked = [r for r in rows if r.marks and r.source and any(m.given for m in r.marks)]
    if not marked:
        return "no answers marked"
    mean = sum(r.right / len(r.marks) for r in marked) / len(marked)
    return f"{len(marked)} of {sum(1 for r in rows if r.marks)} students answered, mean {100 * mean:.0f}%" + (
        f"; {sum(1 for r in rows if r.note)} note(s)" if any(r.note for r in rows) else "")


__all__ = ["Exercise", "Item", "Mark", "Row", "Sheet", "check_item", "details_csv", "file_stem", "greedy_moves",
           "html_page", "load_key", "make_sheet", "mark", "marks_csv", "page", "pages", "read_roster",
           "student_seed", "summary", "write_sheets"]
