"""``plies show`` and ``plies convert``: read any standard Othello format (detected automatically), print it
or write it in another one."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from plies.formats import board as board_fmt
from plies.formats import csvgames, ggf, obf, transcript, wthor
from plies.formats.detect import FORMATS, Loaded, load, load_path_or_text
from plies.formats.model import OthelloGame
from plies.game import PASS, PliesError

from ._common import console, emit_json, json_option

TARGETS = ("ggf", "transcript", "obf", "csv", "board", "wtb")
EXTENSIONS = {".ggf": "ggf", ".txt": "transcript", ".obf": "obf", ".csv": "csv", ".wtb": "wtb", ".board": "board"}


def _read(source: str, fmt: str | None) -> Loaded:
    if fmt is None:
        return load_path_or_text(source)
    p = Path(source)
    if source != "-" and len(source) < 4096 and p.is_file():
        return load(p.read_bytes(), str(p), fmt)
    return load(sys.stdin.buffer.read() if source == "-" else source, None if source != "-" else "<stdin>", fmt)


def game_json(g: OthelloGame) -> dict[str, Any]:
    score = g.score()
    final = g.final
    return {
        "black": g.black, "white": g.white, "date": g.date, "place": g.place,
        "result": score, "finished": final.is_over(),
        "moves": g.move_names(), "evals": g.evals, "times": g.times,
        "transcript": transcript.write_transcript(g),
        "start": board_fmt.write_board(g.start), "final": board_fmt.write_board(final),
        "props": g.props,
    }


def position_json(p: obf.ObfPosition) -> dict[str, Any]:
    s = p.state
    return {
        "board": board_fmt.write_board(s), "to_move": "black" if s.to_move == 0 else "white",
        "empties": s.empties(), "legal": [s.move_str(m) for m in s.legal_moves()],
        "scores": {("pass" if m == PASS else s.move_str(m)): v for m, v in p.scores.items()},
        "best_score": p.best_score, "best_moves": [s.move_str(m) for m in p.best_moves],
        "id": p.id, "comment": p.comment,
    }


def _result_text(g: OthelloGame) -> str:
    score = g.score()
    if score is None:
        return "?"
    return f"{score:+g}" + ("" if g.final.is_over() else " (stated)")


@click.command("show")
@click.argument("source")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None, help="Skip detection.")
@click.option("--limit", type=click.IntRange(1), default=None, help="Show at most this many games/positions.")
@json_option
def show(source: str, fmt: str | None, limit: int | None, as_json: bool) -> None:
    """Print the game(s) or position(s) in SOURCE: a file (transcript, board, OBF, GGF, WTHOR .wtb/.JOU/.TRN),
    '-' for stdin, or the text itself (e.g. 'f5d6c3').  The format is detected automatically."""
    data = _read(source, fmt)
    if as_json:
        emit_json({
            "format": data.format, "source": data.source,
            "games": [game_json(g) for g in data.games[:limit]],
            "positions": [position_json(p) for p in data.positions[:limit]],
            "names": data.names[:limit],
            "count": len(data.games) + len(data.positions) + len(data.names),
        })
        return
    limit = limit or 20
    console.print(f"[bold]{data.format}[/bold]" + (f" from {data.source}" if data.source else ""))
    if data.names:
        for i, name in enumerate(data.names[:limit]):
            click.echo(f"{i:5d}  {name}")
        _more(len(data.names), limit, "names")
    if len(data.games) == 1:
        g = data.games[0]
        if g.black or g.white:
            click.echo(f"Black: {g.black or '?'}   White: {g.white or '?'}" + (f"   ({g.date})" if g.date else ""))
        click.echo(f"Result (Black's view): {_result_text(g)}   moves: {sum(1 for m in g.moves if m != PASS)}")
        click.echo(transcript.write_transcript(g, style="playok"))
        if any(v is not None for v in g.evals) or any(t is not None for t in g.times):
            names = g.move_names()
            click.echo("  ".join(f"{n}({'' if e is None else f'{e:g}'}/{'' if t is None else f'{t:g}s'})"
                                 for n, e, t in zip(names, g.evals, g.times, strict=False)))
        click.echo(g.final.board_str())
    elif data.games:
        table = Table("#", "Black", "White", "Result", "Moves", "Transcript")
        for i, g in enumerate(data.games[:limit], 1):
            t = transcript.write_transcript(g)
            table.add_row(str(i), g.black, g.white, _result_text(g), str(sum(1 for m in g.moves if m != PASS)),
                          t if len(t) <= 40 else t[:38] + "..")
        console.print(table)
        _more(len(data.games), limit, "games")
    for p in data.positions[:limit]:
        s = p.state
        side = "Black (X)" if s.to_move == 0 else "White (O)"
        click.echo(s.board_str())
        extra = f"   % {p.comment}" if p.comment else f"   (#{p.id})" if p.best_given and p.id is not None else ""
        click.echo(f"{side} to move, {s.empties()} empties{extra}")
        if p.scores:
            click.echo("scores: " + ", ".join(f"{'pass' if m == PASS else s.move_str(m)} {v:+d}"
                                              for m, v in sorted(p.scores.items(), key=lambda kv: -kv[1])))
        elif p.best is not None:
            best = ", ".join(s.move_str(m) for m in p.best_moves)
            click.echo(f"score: {p.best:+d}" + (f"   best: {best}" if best else ""))
    if data.positions:
        _more(len(data.positions), limit, "positions")


def _more(total: int, limit: int, what: str) -> None:
    if total > limit:
        click.echo(f"... {total - limit} more {what} ({total} in all; use --limit)")


def convert_data(data: Loaded, to: str, passes: bool = False) -> str | bytes:
    """``data`` written in format ``to`` (see TARGETS)."""
    games, positions = data.games, data.positions
    if to in ("obf", "board") and not positions and games:
        positions = [obf.ObfPosition(g.final) for g in games]  # a game's final position
    if to == "ggf":
        if not games and positions:
            games = [OthelloGame(start=p.state) for p in positions]  # a set-up position, no moves yet
        _need(games, "games", to)
        return ggf.write_ggf_games(games)
    if to == "transcript":
        _need(games, "games", to)
        for g in games:
            if g.start.to_text() != OthelloGame().start.to_text() and g.start.n == 8:
                raise PliesError("a transcript cannot hold a game that starts from a set-up position; use ggf")
        return "".join(transcript.write_transcript(g, passes=passes) + "\n" for g in games)
    if to == "csv":
        _need(games, "games", to)
        return csvgames.write_csv(games)
    if to == "wtb":
        _need(games, "games", to)
        return wthor.write_wtb([wthor.WthorGame.from_game(g) for g in games])
    if to == "obf":
        _need(positions, "positions", to)
        return obf.write_obf(positions)
    if to == "board":
        _need(positions, "positions", to)
        return "".join(board_fmt.write_board(p.state) + "\n" for p in positions)
    raise PliesError(f"cannot convert to {to!r}; use one of {', '.join(TARGETS)}")


def _need(items: list[Any], what: str, to: str) -> None:
    if not items:
        raise PliesError(f"nothing to write as {to}: the input holds no {what}")


@click.command("convert")
@click.argument("source")
@click.argument("target")
@click.option("--to", "to", type=click.Choice(TARGETS), default=None,
              help="Output format (default: from TARGET's extension).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None, help="Input format (default: detect).")
@click.option("--passes", is_flag=True, help="Write forced passes in transcripts.")
def convert(source: str, target: str, to: str | None, fmt: str | None, passes: bool) -> None:
    """Convert SOURCE (file, '-' or text; any format 'plies show' reads) to TARGET ('-' = stdout).

    Games go to ggf, transcript, csv or wtb (WTHOR); positions to obf or board (games give their final
    position); positions to ggf become set-up games without moves.
    """
    if to is None:
        to = EXTENSIONS.get(Path(target).suffix.lower())
        if to is None:
            raise PliesError(f"cannot tell the output format from {target!r}; add --to {'|'.join(TARGETS)}")
    data = _read(source, fmt)
    out = convert_data(data, to, passes)
    if target == "-":
        if isinstance(out, bytes):
            sys.stdout.buffer.write(out)
            sys.stdout.buffer.flush()
        else:
            click.echo(out, nl=False)
        return
    try:
        if isinstance(out, bytes):
            Path(target).write_bytes(out)
        else:
            Path(target).write_text(out, encoding="utf-8")
    except OSError as e:
        raise PliesError(f"cannot write {target}: {e.strerror}") from None
    count = len(data.games) or len(data.positions)
    click.echo(f"wrote {count} {'games' if data.games else 'positions'} as {to} to {target}", err=True)


def register(main_group: click.Group) -> None:
    main_group.add_command(show)
    main_group.add_command(convert)
