"""What the start screen offers (``GET /api/info``): the games, each described by its ``GameType``, the levels,
the algorithms and heuristics, whether the fast engine plays here."""

from __future__ import annotations

from plies import heuristics
from plies.analysis import levels
from plies.games import GAMES, TYPES
from plies.i18n import N_, _
from plies.web import boards
from plies.web.views import GameEntry, Info, Variant

WORDS = (N_("Tic-tac-toe"), N_("Connect Four"), N_("Red"), N_("Yellow"),
         N_("three in a row"), N_("four in a row"), N_("You"))
"""Words the page shows as the server names them (a game's title, a side), which it translates itself (each page in
its own language, whatever the request that made the game said)."""


def info() -> Info:
    """What the start screen offers: the games (each described by its ``GameType``), levels, algorithms,
    heuristics per game, engine availability."""
    ok, text = levels.engine_status()
    notes: dict[int, str] = {}
    analysis: dict[int, str] = {}
    if ok:
        from plies.engine.levels import LEVELS

        notes = {lv: row.summary for lv, row in LEVELS.items() if lv > levels.TEACHING_MAX}
        said = _("depth {depth}, exact from {empties} empties")
        analysis = {lv: said.format(depth=row.depth, empties=row.exact_empties) for lv, row in LEVELS.items()}
    return {
        "games": game_entries(),
        "levels": {"teaching": [1, levels.TEACHING_MAX], "max": levels.MAX_LEVEL, "default": levels.DEFAULT_LEVEL},
        "algorithms": list(levels.ALGORITHMS),
        "engine": {"available": ok, "text": _(text), "levels": notes, "warm": levels.ENGINE_READY.is_set()},
        "analysis": {"levels": analysis, "default": levels.DEFAULT_ANALYSIS_LEVEL},
    }


def game_entries() -> list[GameEntry]:
    """Every game the page offers, from its ``GameType``: its variants (board sizes) with their start boards,
    the sides' names and symbols, how its results count, a move for the help, whether the engine plays it."""
    out: list[GameEntry] = []
    for name in GAMES:
        t = TYPES.get(name)
        start = GAMES[name]()
        default = t.board_size(start) if t is not None else None
        # the usual board first (the start screen's default), then the other sizes
        sizes = [default, *sorted(set(t.sizes) - {default})] if t is not None and t.sizes and default else [None]
        variants: list[Variant] = []
        for size in sizes:
            s = start if size in (None, default) else t.start(size, "standard")  # type: ignore[union-attr]
            variants.append({
                "name": name if size in (None, default) else f"{name}{size}",
                "label": (t.title if t else name) + (f" {size}×{size}" if size else ""), "size": size,
                "engine": levels.engine_applies(s),  # the levels' engine
                "layout": boards.layout(s), "start": boards.cells(s),
            })
        legal = start.legal_moves()
        out.append({
            "name": name, "title": t.title if t else name, "variants": variants,
            "sides": list(start.player_names), "symbols": list(getattr(start, "symbols", ("X", "O"))),
            "result": t.result if t else "discs", "line": t.line if t else "",
            "separator": t.separator if t else " ",
            "example": t.move_example if t and t.move_example else start.move_str(legal[0]) if legal else "",
            "heuristics": heuristics.names(name) if name in heuristics.HEURISTICS else [],
            "default_heuristic": heuristics.DEFAULTS.get(name),
        })
    return out
