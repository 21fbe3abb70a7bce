"""``plies tree solve|show`` and ``plies study nodes|horizon``: the teaching views in the terminal.

``tree solve`` answers the search slides' exercise on any explicit tree (values, α/β, visit order, pruned nodes,
the chosen child) and draws it; ``tree show`` draws the real search tree of an Othello or tic-tac-toe
position; ``study`` measures alpha-beta's savings and shows the horizon effect on real Othello positions.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import click
from rich.table import Table

from plies.cli import lang_option, speak_environment_language
from plies.cli._common import console, emit_json, err_console, json_option, read_position
from plies.game import ParseError, PliesError
from plies.i18n import LANGUAGES, _
from plies.teach.hooks import load_modules, load_option

if TYPE_CHECKING:
    from plies.games.tree import TreeState
    from plies.teach.quiz import Result
    from plies.teach.trace import Trace


def _read_tree(text: str) -> TreeState:
    """TREE: a preset name (doc000, doc002), a file, or inline JSON (nested list or labelled dict form)."""
    from plies.games.tree import TreeState, parse_tree, tree_size
    from plies.teach.examples import PRESETS

    if text in PRESETS:
        from plies.games.tree import build

        return TreeState(build(PRESETS[text]["tree"]))
    t = text.strip()
    if not t.startswith(("[", "{")) and not t.lstrip("-").replace(".", "", 1).isdigit():
        path = t[1:] if t.startswith("@") else t
        if not os.path.exists(path):
            raise ParseError(f"no tree file {path!r} (give a file, inline JSON like [[3,12,8],[2,4,6]], "
                             f"or a preset: {', '.join(PRESETS)})")
        try:
            with open(path, encoding="utf-8") as f:
                t = f.read()
        except OSError as e:
            raise PliesError(f"cannot read {path}: {e.strerror}") from None
    root = parse_tree(t)
    size = tree_size(root)
    if size > MAX_TREE_NODES:
        raise ParseError(f"the tree has {size:,} nodes; the teaching views draw and trace at most {MAX_TREE_NODES:,} "
                         "(search a big tree with 'plies search @FILE')")
    return TreeState(root)


MAX_TREE_NODES = 20_000  # a trace of 4^7 leaves (21,845 nodes) takes about 2 s; its drawing is already unreadable


def _draw(trace: Trace, svg: str | None, png: str | None, thumbnails: bool | None = None, engine: str = "plies",
          quiet: bool = False) -> None:
    from plies.teach import draw

    for path in (svg, png):
        if path:
            draw.save(trace, path, thumbnails, engine)
            if not quiet:
                console.print(f"[dim]drew {path}[/dim]")


engine_option = click.option(
    "--engine", type=click.Choice(["plies", "graphviz"]), default="plies", show_default=True,
    help="Who draws --svg/--png: plies itself, or Graphviz's dot program (must be installed).")


def _node_table(trace: Trace, show_windows: bool) -> Table:
    fmt = trace.fmt
    table = Table(title=_("Visit order") + (_(" (α, β: each node's window at its end)") if show_windows else ""),
                  show_lines=False)
    columns = ("#", _("node"), _("path"), _("type"), *(("α", "β") if show_windows else ()), _("value"), _("note"))
    for i, col in enumerate(columns):
        table.add_column(col, justify="right" if i == 0 or col in ("α", "β") or i == len(columns) - 2 else "left")
    for n in trace.visit_order():
        note = []
        if n.cutoff:
            note.append(_("{letter} cut-off").format(letter="α" if n.cutoff == "alpha" else "β"))
        if n.on_pv and n.path:
            note.append(_("principal path"))
        row = [str(n.visit), n.label, str(list(n.path)), _("leaf") if n.leaf else n.kind.upper()]
        if show_windows:
            row += [fmt(n.alpha), fmt(n.beta)] if n.alpha is not None and not n.leaf else ["", ""]
        row += [n.value_text(), ", ".join(note)]
        table.add_row(*row)
    return table


def _print_trace(trace: Trace, steps: bool) -> None:
    from plies.teach.draw import summary

    windows = trace.windowed
    console.print(_node_table(trace, windows))
    if steps:
        console.print("[bold]" + _("Steps") + "[/bold]")
        for i, s in enumerate(trace.steps, 1):
            console.print(f"{i:3d}. {s.text}")
    if windows:
        if trace.pruned:
            names = ", ".join(f"{trace.nodes[p].label} {list(p)}" if trace.nodes[p].named else str(list(p))
                              for p in trace.pruned)
            console.print(_("Pruned (marked ✗, never examined): {nodes}").format(nodes=names))
        else:
            console.print(_("Pruned: nothing"))
    console.print(f"[bold]{summary(trace)}[/bold]")


@click.group("tree")
def tree_group() -> None:
    """Solve and draw game trees step by step (minimax, alpha-beta): the lessons' exercises."""


@tree_group.command("solve")
@click.argument("tree")
@click.option("--algo", type=click.Choice(["minimax", "alphabeta"]), default="alphabeta", show_default=True)
@click.option("--order", type=click.Choice(["left", "right", "best"]), default="left", show_default=True,
              help="Children order: as given, reversed, or best first (the perfect ordering).")
@click.option("--svg", type=click.Path(dir_okay=False), help="Draw the tree to this SVG file.")
@click.option("--png", type=click.Path(dir_okay=False), help="Draw the tree to this PNG file.")
@click.option("--steps", is_flag=True, help="Also print every step of the search as a sentence.")
@engine_option
@json_option
@lang_option
def solve_cmd(tree: str, algo: str, order: str, svg: str | None, png: str | None, steps: bool, engine: str,
              as_json: bool) -> None:
    """Run minimax or alpha-beta on TREE and give the exercise's answer.

    TREE is a preset (doc000: the lab notes' example tree; doc002, doc002-slide: the search slides' exercise and
    example; see docs/course.md), a file, or inline JSON: nested lists of leaf values seen from MAX
    ([[3,12,8],[2,4,6],[14,5,2]]) or the labelled form {"label": "A", "children": [{"label": "x", "value": 3}]}.
    """
    from plies.teach.trace import solve_tree

    speak_environment_language()
    trace = solve_tree(_read_tree(tree), algo, order)
    _draw(trace, svg, png, engine=engine, quiet=as_json)
    if as_json:
        d = trace.to_dict()
        d["steps"] = [s.text for s in trace.steps]
        emit_json(d)
        return
    _print_trace(trace, steps)


@tree_group.command("show")
@click.argument("game", type=click.Choice(["othello", "tictactoe", "hexthello"]))
@click.argument("position", required=False)
@click.option("--depth", type=click.IntRange(1, 8), default=2, show_default=True)
@click.option("--algo", type=click.Choice(["minimax", "alphabeta"]), default="alphabeta", show_default=True)
@click.option("--order", type=click.Choice(["left", "right", "best"]), default="left", show_default=True,
              help="Move order: as generated, reversed, or best first by the evaluation.")
@click.option("--eval", "heuristic", help="Evaluation function (default: the game's default).")
@load_option
@click.option("--max-nodes", type=click.IntRange(1, 5000), default=300, show_default=True,
              help="Refuse to draw a bigger tree.")
@click.option("--thumbnails/--no-thumbnails", default=None, help="Board pictures at the nodes (default: if small).")
@click.option("--svg", type=click.Path(dir_okay=False), help="Draw the tree to this SVG file.")
@click.option("--png", type=click.Path(dir_okay=False), help="Draw the tree to this PNG file.")
@click.option("--steps", is_flag=True, help="Also print every step of the search as a sentence.")
@engine_option
@json_option
def show_cmd(game: str, position: str | None, depth: int, algo: str, order: str, heuristic: str | None,
             modules: tuple[str, ...], max_nodes: int, thumbnails: bool | None, svg: str | None, png: str | None,
             steps: bool, engine: str, as_json: bool) -> None:
    """Draw the actual search tree of a real POSITION (default: the start) to --depth plies."""
    from plies.games import start_position
    from plies.heuristics import get
    from plies.teach.trace import trace_search

    load_modules(modules)
    if position is None or position.strip().lower() in (game, "start"):
        state = start_position(game)
    else:
        state = read_position(position, game=game)
    if state.game != game:
        raise ParseError(f"that is a {state.game} position, not {game}")
    evaluate = get(game, heuristic)
    trace = trace_search(state, depth, evaluate, algo, order, max_nodes=max_nodes)
    _draw(trace, svg, png, thumbnails, engine, quiet=as_json)
    if as_json:
        d = trace.to_dict()
        d["position"] = state.to_text()
        d["evaluation"] = evaluate.name
        d["steps"] = [s.text for s in trace.steps]
        emit_json(d)
        return
    console.print(str(state))
    root_kids = [n for n in trace.nodes.values() if len(n.path) == 1]
    table = Table(title=f"{algo} to depth {depth} with {evaluate.name}")
    for col in ("move", "value", "note"):
        table.add_column(col)
    for n in root_kids:
        note = "pruned ✗" if n.pruned else ("chosen" if n.on_pv else "")
        table.add_row(n.move or n.label, n.value_text(), note)
    console.print(table)
    if len(trace.nodes) <= 60:
        _print_trace(trace, steps)
    else:
        from plies.teach.draw import summary

        console.print(f"[bold]{summary(trace)}[/bold] ({len(trace.nodes)} nodes; the picture shows them all)")


@tree_group.command("quiz")
@click.option("--shape", default="3x2", show_default=True,
              help="BRANCHINGxDEPTH (3x2: three children, two levels, like the lab notes' example), or "
                   "LOW-HIGHxDEPTH for uneven trees (2-3x3).")
@click.option("--values", "value_range", default="-9..9", show_default=True, help="Leaf values LOW..HIGH.")
@click.option("--algo", type=click.Choice(["alphabeta", "minimax"]), default="alphabeta", show_default=True)
@click.option("--ask", default="value,move,order,pruned", show_default=True,
              help="The questions, comma-separated: value, move, order, pruned.")
@click.option("--seed", type=int, help="Same seed, same exercise (a worksheet for a class); default: random.")
@click.option("--count", type=click.IntRange(1, 50), default=1, show_default=True,
              help="How many exercises (seeds SEED, SEED+1, ...).")
@click.option("--answer", "answers", multiple=True, metavar="KIND=TEXT",
              help="Check this answer instead of asking (repeatable: --answer value=3 --answer pruned='F G').")
@click.option("--svg", type=click.Path(dir_okay=False), help="Draw the exercise (the tree, leaf values only).")
@click.option("--key", type=click.Path(dir_okay=False), help="Draw the answer key (the solved tree): .svg/.png.")
@click.option("--solution", is_flag=True, help="Print the answers and every step of the search; ask nothing.")
@json_option
def quiz_cmd(shape: str, value_range: str, algo: str, ask: str, seed: int | None, count: int,
             answers: tuple[str, ...], svg: str | None, key: str | None, solution: bool, as_json: bool) -> None:
    """A random game tree to solve by hand: asks for the root's value, MAX's choice, the order the leaves are
    evaluated and the leaves alpha-beta never evaluates, and checks the answers.

    Interactive by default; --json prints the worksheet (tree, questions, answers) for teachers' scripts, and
    --answer checks given answers without asking.
    """
    import random as _random

    from plies import draw as canvas
    from plies.draw.tree import explicit_nodes, tree_scene
    from plies.games.tree import build
    from plies.teach import draw, quiz

    kinds = [k.strip().lower() for k in ask.split(",") if k.strip()]
    values = quiz.parse_values(value_range)
    sh = quiz.parse_shape(shape)
    given: dict[str, str] = {}
    for a in answers:
        if "=" not in a:
            raise ParseError(f"--answer {a!r} should be KIND=TEXT (like value=3 or pruned='F G')")
        k, v = a.split("=", 1)
        k = k.strip().lower()
        if k not in quiz.KINDS:
            raise ParseError(f"unknown question {k!r}; choose from: {', '.join(quiz.KINDS)}")
        given[k] = v
    if given and count > 1:
        raise ParseError("--answer checks one exercise: leave out --count")
    base = seed if seed is not None else _random.SystemRandom().randrange(1, 1_000_000)
    quizzes = [quiz.make_quiz(base + i, sh, values, algo, kinds) for i in range(count)]
    for path, solved in ((svg, False), (key, True)):
        if path:
            if count > 1:
                raise ParseError("--svg/--key draw one exercise: leave out --count")
            q = quizzes[0]
            if solved:
                draw.save(q.trace, path)
            else:
                canvas.save(tree_scene(explicit_nodes(build(q.tree)), f"Exercise (seed {q.seed}, {q.shape.text})",
                                       label="exercise tree"), path)
    if as_json:
        out = []
        for q in quizzes:
            d = q.to_dict()
            if given:
                d["results"] = [q.check(k, v).to_dict() for k, v in given.items()]
            out.append(d)
        emit_json(out[0] if count == 1 else out)
        return
    for n, q in enumerate(quizzes, 1):
        title = f"Exercise {n}" if count > 1 else "Exercise"
        console.print(f"[bold]{title}[/bold] (seed {q.seed}, shape {q.shape.text}, "
                      f"{'alpha-beta' if q.algorithm == 'alphabeta' else 'minimax'}, left to right)")
        console.print(q.text_tree(), highlight=False, markup=False)
        if solution:
            for i, question in enumerate(q.questions, 1):
                console.print(f"  {i}. {question.prompt} [bold]{question.answer}[/bold]", highlight=False)
            console.print("Steps:")
            for i, step in enumerate(q.trace.steps, 1):
                console.print(f"  {i:3d}. {step.text}", highlight=False, markup=False)
            continue
        if given:
            results = [q.check(k, v) for k, v in given.items()]
        elif count > 1:
            for i, question in enumerate(q.questions, 1):
                console.print(f"  {i}. {question.prompt}", highlight=False, markup=False)
            continue
        else:
            results = []
            for question in q.questions:
                try:
                    text = click.prompt(question.prompt, default="", show_default=False, prompt_suffix=" ")
                except click.Abort:
                    raise PliesError("no answer (input closed): use --answer KIND=TEXT, or --json for the "
                                     "worksheet") from None
                r = q.check(question.kind, text)
                _print_result(r)
                results.append(r)
        if given:
            for r in results:
                _print_result(r)
        right = sum(r.correct for r in results)
        console.print(f"[bold]{right} of {len(results)} right.[/bold] Every step: plies tree quiz --seed {q.seed} "
                      f"--shape {q.shape.text} --values {values[0]}..{values[1]} --algo {algo} --solution",
                      highlight=False)
    if count > 1 and not given and not solution:
        console.print(f"Answers: plies tree quiz --seed {base} --count {count} --shape {sh.text} --solution",
                      highlight=False)


def _print_result(r: Result) -> None:
    mark = "[green]✓ right[/green]" if r.correct else "[red]✗ wrong[/red]"
    console.print(f"  {mark}: {r.feedback}", highlight=False)


@click.group("study")
def study_group() -> None:
    """Measure the textbook searches on real Othello positions: node counts, the horizon effect."""


@study_group.command("nodes")
@click.option("--depth", "max_depth", type=click.IntRange(1, 7), default=4, show_default=True)
@click.option("--positions", type=click.IntRange(1, 200), default=6, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the sample of positions.")
@click.option("--eval", "heuristic", help="Othello evaluation (default: the default heuristic).")
@load_option
@click.option("--plot", type=click.Path(dir_okay=False), help="Save a log-scale plot (.png or .svg).")
@json_option
def nodes_cmd(max_depth: int, positions: int, seed: int, heuristic: str | None, modules: tuple[str, ...],
              plot: str | None, as_json: bool) -> None:
    """Leaves and nodes of minimax, alpha-beta (unordered, ordered) and iterative deepening + TT, vs b^d, b^(d/2)."""
    from plies.teach import study

    load_modules(modules)
    sample = study.sample_positions(positions, seed)
    report = study.node_study(sample, max_depth, heuristic, progress=not as_json)
    if plot:
        study.plot_nodes(report, plot)
        if not as_json:
            console.print(f"[dim]plotted {plot}[/dim]")
    if as_json:
        emit_json(report)
        return
    console.print(study.nodes_table(report))
    for line in study.nodes_conclusions(report):
        console.print(line)


@study_group.command("horizon")
@click.option("--depth", type=click.IntRange(1, 4), default=1, show_default=True, help="The short search.")
@click.option("--deeper", type=click.IntRange(1, 3), default=2, show_default=True,
              help="How many plies deeper the reference search looks.")
@click.option("--positions", type=click.IntRange(1, 1000), default=150, show_default=True,
              help="Scan at most this many sampled positions (the scan stops once --show cases are found).")
@click.option("--show", type=click.IntRange(1, 20), default=3, show_default=True, help="Cases to find and print.")
@click.option("--seed", type=int, default=7, show_default=True)
@click.option("--eval", "heuristic", default="discs", show_default=True,
              help="Evaluation of the short search (a naive one shows the effect best).")
@load_option
@json_option
def horizon_cmd(depth: int, deeper: int, positions: int, show: int, seed: int, heuristic: str,
                modules: tuple[str, ...], as_json: bool) -> None:
    """Positions where a depth-limited search likes a move whose refutation lies past its horizon."""
    from plies.teach import study

    load_modules(modules)
    sample = study.sample_positions(positions, seed)
    cases, scanned = study.horizon_cases(sample, depth, deeper, heuristic, limit=show, progress=not as_json)
    if as_json:
        emit_json({"depth": depth, "deeper": depth + deeper, "evaluation": heuristic, "scanned": scanned,
                   "cases": [c.to_dict() for c in cases]})
        return
    if not cases:
        console.print(f"No horizon case among {scanned} positions; try --positions more or another --seed.")
        return
    for c in cases:
        study.print_case(console, c)
    console.print(f"[bold]{len(cases)} case(s) in {scanned} positions.[/bold]")
    for i, r in enumerate(cases[0].remedies):
        fixed = sum(1 for c in cases if c.fixes(c.remedies[i]))
        console.print(f"  {r.name}: avoids the trap in {fixed} of {len(cases)}.")


@click.group("class")
def class_group() -> None:
    """A class's exercises: a worksheet per student with an answer key, a mark sheet from their answers, and
    exercise and solution versions of notebooks."""


@class_group.command("worksheets")
@click.option("--students", "roster", type=click.Path(dir_okay=False),
              help="The roster: a file with a student's name a line (or a CSV whose first column is the name).")
@click.option("--count", type=click.IntRange(1, 1000), help="No roster: this many students, student01, student02...")
@click.option("--seed", type=int, required=True, help="The class's seed: the same seed and roster, the same sheets.")
@click.option("--out", type=click.Path(file_okay=False), required=True, help="The folder to write into.")
@click.option("--format", "formats", default="html,svg", show_default=True,
              help="Any of html, svg, pdf (PDF needs the plots extra), comma-separated.")
@click.option("--trees", type=click.IntRange(0, 6), default=2, show_default=True, help="Tree exercises a sheet.")
@click.option("--tictactoe", type=click.IntRange(0, 6), default=1, show_default=True,
              help="Tic-tac-toe positions a sheet.")
@click.option("--othello", type=click.IntRange(0, 6), default=1, show_default=True, help="Othello positions a sheet.")
@json_option
def worksheets_cmd(roster: str | None, count: int | None, seed: int, out: str, formats: str, trees: int,
                   tictactoe: int, othello: int, as_json: bool) -> None:
    """Every student their own worksheet (OUT/sheets), the answer key (OUT/key, OUT/key.json) and an empty
    answers file to hand in (OUT/answers/NAME.json)."""
    from plies.teach import worksheet

    if (roster is None) == (count is None):
        raise ParseError("give the class as --students FILE or --count N (one of them)")
    if roster is not None:
        try:
            with open(roster, encoding="utf-8-sig") as f:
                students = worksheet.read_roster(f.read())
        except OSError as e:
            raise PliesError(f"cannot read {roster}: {e.strerror}") from None
    else:
        assert count is not None
        students = [f"student{i:02d}" for i in range(1, count + 1)]
    if not -(2**63) <= seed < 2**63:
        raise ParseError("the seed must fit in 64 bits")
    fmts = tuple(f.strip().lower() for f in formats.split(",") if f.strip())
    key = worksheet.write_sheets(students, seed, out, fmts, trees, tictactoe, othello)
    if as_json:
        emit_json({"out": out, "students": len(students), "questions": sum(
            len(e["items"]) for e in key["sheets"][0]["exercises"]), "formats": list(fmts)})
        return
    questions = sum(len(e["items"]) for e in key["sheets"][0]["exercises"])
    console.print(f"{len(students)} worksheet(s) of {len(key['sheets'][0]['exercises'])} exercises and {questions} "
                  f"questions in {out}/sheets, the key in {out}/key and {out}/key.json, empty answers in "
                  f"{out}/answers", highlight=False)


@class_group.command("mark")
@click.argument("key", type=click.Path(dir_okay=False))
@click.argument("answers", nargs=-1, required=True)
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), help="Write the mark sheet here (default: print).")
@click.option("--details", type=click.Path(dir_okay=False),
              help="Also write every answer with the expected one and why (CSV).")
@json_option
def mark_cmd(key: str, answers: tuple[str, ...], csv_path: str | None, details: str | None, as_json: bool) -> None:
    """Mark the students' ANSWERS (JSON files, or folders of them) against KEY (key.json of 'plies class
    worksheets'): a mark sheet with a row per student and a column per question."""
    from pathlib import Path

    from plies.teach import worksheet

    sheets = worksheet.load_key(key)
    files: list[str | Path] = []
    for a in answers:
        p = Path(a)
        if p.is_dir():
            files += sorted(p.glob("*.json"))
        elif p.exists():
            files.append(p)
        else:
            raise PliesError(f"no answers file or folder {a!r}")
    rows = worksheet.mark(sheets, files)
    table = worksheet.marks_csv(rows)
    for path, text in ((csv_path, table), (details, worksheet.details_csv(rows) if details else None)):
        if path and text is not None:
            try:
                Path(path).write_text(text, encoding="utf-8")
            except OSError as e:
                raise PliesError(f"cannot write {path}: {e.strerror}") from None
    if as_json:
        emit_json([{"student": r.student, "file": r.source, "right": r.right, "out_of": len(r.marks), "note": r.note,
                    "marks": [m.__dict__ for m in r.marks]} for r in rows])
        return
    if not csv_path:
        click.echo(table, nl=False)
    console.print(worksheet.summary(rows), highlight=False)


@class_group.command("notebooks")
@click.argument("notebooks", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--out", type=click.Path(file_okay=False), required=True,
              help="Write OUT/exercises/NAME.ipynb and OUT/solutions/NAME.ipynb.")
@click.option("--lang", "language", type=click.Choice(sorted(LANGUAGES), case_sensitive=False), default="en",
              show_default=True, help="The notebooks' language: el also writes OUT/NAME.ipynb, the whole notebook in "
                                      "Greek (the course notebooks' text from plies' catalog).")
def notebooks_cmd(notebooks: tuple[str, ...], out: str, language: str) -> None:
    """Split each source NOTEBOOK into an exercise version (answers hidden, checked on request) and a solution
    version; notebooks that ask nothing are skipped (with --lang el they are still translated)."""
    from plies.teach import notebooks as nb

    language = language.lower()
    for path in notebooks:
        missing = nb.untranslated(nb.read(path), language)
        if missing:
            err_console.print(f"[yellow]{path}: {len(missing)} text cell(s) have no translation and stay as "
                              f"written[/yellow]", highlight=False)
    written = nb.split_files(list(notebooks), out, language)
    if not written:
        raise PliesError("none of the notebooks asks anything (tag answer cells 'solution' with plies.answers)")
    for p in written:
        console.print(f"[dim]wrote {p}[/dim]")


def register(main_group: click.Group) -> None:
    main_group.add_command(tree_group)
    main_group.add_command(study_group)
    main_group.add_command(class_group)


__all__ = ["register"]
