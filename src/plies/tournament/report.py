"""Rich tables of an event: standings with Elo, cross table, pairs with disc margins, failures by player."""

from __future__ import annotations

from rich.console import Console, Group, JustifyMethod, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from plies.tournament.standings import Pair, Standings


def _pts(x: float) -> str:
    return f"{x:g}"


def standings_table(s: Standings, title: str = "Standings") -> Table:
    t = Table(title=title, title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("#", "right"), ("player", "left"), ("games", "right"), ("points", "right"), ("score", "right"),
        ("W-D-L", "center"), ("Elo (95%)", "right"), ("failures", "left"))
    for col, just in columns:
        t.add_column(col, justify=just)
    for k, ln in enumerate(s.ranking(), 1):
        fails = ", ".join(f"{n} {r}" for r, n in sorted(ln.failures.items()))
        t.add_row(str(k), escape(ln.name), str(ln.games), _pts(ln.points), f"{100 * ln.score:.1f}%",
                  f"{ln.wins}-{ln.draws}-{ln.losses}", s.ratings.estimates[ln.name].text(), fails)
    return t


def cross_table(s: Standings) -> Table:
    """Points of the row player against the column player, ``points/games``."""
    order = [ln.name for ln in s.ranking()]
    t = Table(title="Cross table (row's points against column)", title_justify="left")
    t.add_column("")
    for k, _ in enumerate(order, 1):
        t.add_column(str(k), justify="center")
    t.add_column("total", justify="right")
    for i, a in enumerate(order, 1):
        cells = []
        for b in order:
            if a == b:
                cells.append("·")
                continue
            p = s.pair(a, b)
            cells.append(f"{_pts(p.points)}/{p.games}" if p.games else "")
        t.add_row(escape(f"{i} {a}"), *cells, _pts(s.lines[a].points))
    return t


def pairs_table(s: Standings) -> Table:
    """Each pairing: W-D-L, points, mean disc margin (normal games) and the Elo difference."""
    t = Table(title="Pairs", title_justify="left")
    columns: tuple[tuple[str, JustifyMethod], ...] = (
        ("player", "left"), ("opponent", "left"), ("W-D-L", "center"), ("points", "right"),
        ("mean margin", "right"), ("Elo diff (95%)", "right"), ("LOS", "right"))
    for col, just in columns:
        t.add_column(col, justify=just)
    order = [ln.name for ln in s.ranking()]
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            p = s.pair(a, b)
            if p.games:
                _pair_row(t, p)
    return t


def _pair_row(t: Table, p: Pair) -> None:
    mm, los = p.mean_margin, p.elo.los
    t.add_row(escape(p.a), escape(p.b), f"{p.wins}-{p.draws}-{p.losses}", f"{_pts(p.points)}/{p.games}",
              "" if mm is None else f"{mm:+.1f}", p.elo.text(), "" if los is None else f"{100 * los:.1f}%")


def failures_table(s: Standings) -> Table | None:
    if not s.failures:
        return None
    t = Table(title="Illegal moves, time losses and crashes", title_justify="left")
    for col in ("player", "reason", "game", "detail"):
        t.add_column(col)
    for f in s.failures:
        t.add_row(escape(f.player), f.reason, str(f.index + 1), escape(f.detail[:100]))
    return t


def report(s: Standings, title: str = "Standings", cross: bool = True) -> RenderableType:
    """Everything, in reading order."""
    parts: list[RenderableType] = [standings_table(s, escape(title))]
    if s.ratings.regularized:
        parts.append(Text("Elo: someone won or lost every game against a group, so one virtual draw per pairing "
                          "keeps the ratings finite.", style="dim"))
    if cross and len(s.players) > 2:
        parts.append(cross_table(s))
    parts.append(pairs_table(s))
    ft = failures_table(s)
    if ft is not None:
        parts.append(ft)
    return Group(*parts)


def print_report(console: Console, s: Standings, title: str = "Standings") -> None:
    console.print(report(s, title))


__all__ = ["cross_table", "failures_table", "pairs_table", "print_report", "report", "standings_table"]
