"""``plies play``: a game in the terminal, person against person or computer, as the course documents show it.

Moves are typed in standard notation (``d3``; HexThello ``7 3``) or the lab notes' 0-based ``row col``
(``2 3``).  During a game: ``undo``, ``hint``, ``show``, ``view black|white``, ``level N``, ``save FILE``,
``board``, ``help``, ``quit``.  Bad input is asked again with the reason.  Values are in discs (the engine's
evaluation, exact final disc differences in the endgame) from Black's point of view unless ``view white``;
a textbook search's heuristic value is named as that heuristic's.  While the computer searches, a terminal shows
a live "thinking" line (the engine's depth, value, nodes and line as it deepens); at the end the moves are
printed, the game may be saved, and ``plies review`` is named as the next step.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from plies import heuristics
from plies.analysis.levels import (
    ALGORITHMS,
    DEFAULT_ANALYSIS_LEVEL,
    DEFAULT_LEVEL,
    MAX_LEVEL,
    TEACHING_MAX,
    difficulty,
    engine_applies,
    engine_level,
    fallback_applies,
)
from plies.analysis.openings import position_name
from plies.analysis.position import Analysis, analyse_position, move_value, new_engine, textbook_analysis
from plies.analysis.value import Value, from_search
from plies.game import PASS, Move, ParseError, PliesError, State
from plies.games import TYPES, game_type, is_game_name, parse_position, start_position, type_of
from plies.games.record import Game, move_names
from plies.i18n import N_, _, ngettext
from plies.match.record import play_on
from plies.players import GreedyPlayer, HumanPlayer, Player, SearchPlayer, parse_player
from plies.search.result import SearchResult

if TYPE_CHECKING:
    from plies.engine import Engine

from . import lang_option, speak_environment_language
from ._common import read_position

DEFAULT_GAME = next(iter(TYPES))
"""The game a transcript or file is read as when nothing says which (the first registered: Othello), and the one
whose file formats (transcripts, GGF, WTHOR ...) ``plies show`` reads."""


def help_text(state: State) -> str:
    """The in-game help, with a move of this game as the example."""
    t = type_of(state)
    example = (t.move_help if t is not None and t.move_help
               else state.move_str(state.legal_moves()[0]) if state.legal_moves() else _("a move"))
    sides = "|".join(name.split()[0].lower() for name in state.player_names)  # black|white, x|o
    return _("Type a move ({example}), or: undo, hint (the best move and its value), show (every move's value), "
             "view {sides} (whose point of view values are from), level N (the engine level of hints), "
             "save FILE, board, help, quit.").format(example=example, sides=sides)


SIDE_NAMES = (N_("Black"), N_("White"), N_("Red"), N_("Yellow"))
"""The games' names of their sides, translated where the terminal game shows them (X and O stay as they are)."""


def side_name(name: str) -> str:
    """A side's name in the language in force: ``Black`` -> ``Μαύρα``."""
    return _(name) if name in SIDE_NAMES else name


class QuitGame(Exception):
    """The person typed quit (or input ended)."""


def separator(state: State) -> str:
    """Between moves in a list: ``, `` where a move has a space in it (HexThello's ``7 3``), else a space."""
    t = type_of(state)
    return t.separator if t is not None else " "


class PlaySession:
    """A game in the terminal: the ``Game``, who plays each side, and the terminal it talks through; the play
    loop (``play_on``) drives it.

    ``moves`` are played from ``start`` before the game goes on (a transcript's history: undo goes back into
    it); ``view`` is the side whose point of view values are shown from; ``hint_level`` the engine level of
    hints (default: the engine opponent's level, else 8); ``status`` the terminal's console where the live
    "thinking" line runs while the computer searches (None: no such line)."""

    def __init__(self, start: State, players: tuple[Player, Player], read: Callable[[str], str],
                 write: Callable[[str], None], rowcol: bool = False, moves: Sequence[Move] = (), view: int = 0,
                 hint_level: int | None = None, status: Console | None = None) -> None:
        self.game = Game(start, moves)
        self.players, self.read, self.write = players, read, write
        self.rowcol, self.view, self.hint_level, self.status = rowcol, view, hint_level, status
        self._engine: Engine | None = None
        for p in self.players:
            if isinstance(p, HumanPlayer):
                p.ask = self.ask_human
            elif isinstance(p, GreedyPlayer):  # document 000 prints the greedy player's candidates
                p.verbose = lambda s, values: self.write(
                    " ".join(f"{self.square(m, s)}->{v:g}" for m, v in values))

    @property
    def state(self) -> State:
        return self.game.state

    # --- output -------------------------------------------------------------------------------------------
    def name(self, side: int) -> str:
        sym = getattr(self.state, "symbols", None)
        names = [side_name(n) for n in self.state.player_names]
        return f"{names[side]} ({sym[side]})" if sym and sym[side] != self.state.player_names[side] else names[side]

    def square(self, move: Move, state: State | None = None) -> str:
        s = state or self.state
        t = type_of(s)
        if self.rowcol and move != PASS and t is not None and t.rowcol:  # the lab notes' 0-based (row col)
            view = t.view(s)
            cell = view.cell_of(move)
            if cell is not None:
                r, c = divmod(cell, view.cols)
                return f"({r} {c})"
        return s.move_str(move)

    def in_rowcol(self, text: str) -> str:
        """``text`` with its square names (``d3``) as ``(2 3)`` in the row/column view, as the board shows them."""
        t = type_of(self.state)
        if not self.rowcol or t is None or not t.rowcol:
            return text
        return re.sub(r"\b([a-j])(10|[1-9])\b", lambda m: f"({int(m[2]) - 1} {ord(m[1]) - 97})", text)

    @staticmethod
    def _paren(text: str) -> str:
        return f"({text})" if " " in text and not text.startswith("(") else text

    def draw(self) -> None:
        s = self.state
        last = self.game.moves[-1] if self.game.moves else None
        board = getattr(s, "board_str", None)
        human = not s.is_over() and isinstance(self.players[s.to_move], HumanPlayer)
        self.write(board(last=last, rowcol=self.rowcol, marks=human) if board else str(s))
        t = type_of(s)
        if t is not None and t.result == "result":  # no score line under the board: a blank line ends it
            self.write("")

    def announce_turn(self) -> None:
        s = self.state
        moves = s.legal_moves()
        if self.rowcol:
            listing = "".join(self._paren(self.square(m)) for m in moves)  # document 000: (2 4)(3 5)...
        else:
            listing = separator(s).join(s.move_str(m) for m in moves)
        self.write(_("Player {name} turn, valid moves={moves}").format(name=self.name(s.to_move), moves=listing))

    def pov(self, value: Value, mover: int) -> str:
        """A value of ``mover``'s from the chosen point of view: ``-1.5 discs for Black``, ``win for X``,
        ``weighted-squares heuristic +24 for Black``; one decimal at most."""
        return value.seen_by(mover, self.view).text(side_name(self.state.player_names[self.view]))

    # --- the human's prompt -------------------------------------------------------------------------------
    def ask_human(self, state: State) -> Move:
        """Show the moves, then read until a legal move; handle the in-game commands on the way."""
        self.announce_turn()
        while True:
            try:
                text = self.read(_("Enter move: ")).strip()
            except EOFError:
                raise QuitGame from None
            if not text:
                continue
            word, _sep, arg = text.partition(" ")
            cmd = word.lower()
            if cmd in ("quit", "exit", "q"):
                raise QuitGame
            if cmd in ("help", "?"):
                self.write(help_text(self.state))
                continue
            if cmd == "board":
                self.draw()
                continue
            if cmd == "undo":
                if self.undo():
                    self.draw()
                    self.announce_turn()
                else:
                    self.write(_("Nothing to undo."))
                continue
            if cmd == "hint":
                self.hint()
                continue
            if cmd == "show":
                self.show()
                continue
            if cmd == "view":
                self.set_view(arg.strip())
                continue
            if cmd == "level":
                self.set_level(arg.strip())
                continue
            if cmd == "save":
                self.save(arg.strip())
                continue
            try:
                return self.state.parse_move(text)  # self.state: an undo may have changed the position
            except PliesError as e:
                self.write(self.in_rowcol(_("Illegal: {reason}. Try again.").format(reason=e)))

    # --- commands -----------------------------------------------------------------------------------------
    def undo(self) -> bool:
        """Take back to the last earlier position where a person was to move (the computer's replies and forced
        passes go too; between two people, one move)."""
        ply = self.game.turn_before({i for i, p in enumerate(self.players) if isinstance(p, HumanPlayer)})
        if ply is None:
            return False
        self.game.undo(ply)
        return True

    def set_view(self, arg: str) -> None:
        names = [n.lower() for n in self.state.player_names]
        symbols = [s.lower() for s in getattr(self.state, "symbols", names)]
        a = arg.lower()
        if a in (names[0], symbols[0]):
            self.view = 0
        elif a in (names[1], symbols[1]):
            self.view = 1
        else:
            self.write(_("Usage: view {first} | view {second}").format(first=names[0], second=names[1]))
            return
        self.write(_("Values are now from {side}'s point of view.").format(
            side=side_name(self.state.player_names[self.view])))

    def set_level(self, arg: str) -> None:
        if not arg.isdigit() or not 1 <= int(arg) <= MAX_LEVEL:
            self.write(_("Usage: level N (1 to {max}): the engine level of hints").format(max=MAX_LEVEL))
            return
        self.hint_level = int(arg)
        self.write(_("Hints now come from the engine at level {level}.").format(level=self.hint_level))

    def engine_level(self) -> int:
        """The level of hints: the one set, else the engine opponent's, else the analysis default (8)."""
        if self.hint_level is not None:
            return self.hint_level
        kind: type
        if fallback_applies(self.state):  # no compiled core: the engine's pure-Python stand-in plays
            from plies.players.engine_fallback import FallbackEnginePlayer

            kind = FallbackEnginePlayer
        else:
            from plies.players.engine import EnginePlayer  # (asked where the engine plays: it loads)

            kind = EnginePlayer
        levels = [int(p.level) for p in self.players if isinstance(p, kind) and p.level is not None]
        return levels[0] if levels else DEFAULT_ANALYSIS_LEVEL

    def adviser(self) -> SearchPlayer:
        """Where the engine does not play: the computer opponent's own search, or alpha-beta depth 4."""
        for p in self.players:
            if isinstance(p, SearchPlayer):
                return p
        return SearchPlayer("alphabeta", 4, None, self.state.game)

    def analysis(self) -> Analysis:
        """Every legal move of the position valued, best first (``plies.analysis``): the engine on 8x8
        Othello, else the textbook search of ``adviser``."""
        s = self.state
        if engine_applies(s):
            self._engine = self._engine or new_engine(64)
            return analyse_position(s, self.engine_level(), True, self._engine)
        if fallback_applies(s):
            return analyse_position(s, self.engine_level(), False)
        adviser = self.adviser()
        return textbook_analysis(s, adviser.depth, adviser.heuristic)

    def hint(self) -> None:
        a = self.analysis()
        if not a["moves"]:
            self.write(_("No move to hint at."))
            return
        best = a["moves"][0]
        mover = self.state.to_move
        then = [self.in_rowcol(m) for m in best["pv"][1:]]
        line = _("; then {moves}").format(moves=separator(self.state).join(then)) if then else ""
        self.write(_("Hint: {move}, {value} ({source}){then}").format(
            move=self.square(best["index"]), value=self.pov(move_value(a, best), mover), source=a["source"], then=line))

    def show(self) -> None:
        """The lab notes' candidate list: ``move->value`` for every move (``(r c)->value`` in its row/column
        view), valued by the same search as the hint, from the chosen point of view."""
        a = self.analysis()
        mover = self.state.to_move
        parts = []
        by_index = {r["index"]: r for r in a["moves"]}
        for move in self.state.legal_moves():
            r = by_index.get(move)
            if r is None:
                continue
            parts.append(f"{self.square(move)}->{Value(r['value'], a['unit']).seen_by(mover, self.view).short()}")
        who = side_name(self.state.player_names[self.view])
        heuristic = a["unit"].removesuffix(" heuristic") if a["unit"].endswith(" heuristic") else None
        unit = ({"discs": _("discs"), "result": _("result")}.get(a["unit"])
                or (_("{name} heuristic's value").format(name=heuristic) if heuristic is not None
                    else _("{name}'s value").format(name=a["unit"])))
        self.write(_("{moves}   ({unit} for {side}; {source})").format(
            moves=separator(self.state).join(parts), unit=unit, side=who, source=a["source"]))

    def transcript(self) -> str:
        return self.game.transcript()

    def save(self, path: str) -> bool:
        """Write the game so that ``plies play @FILE`` and ``plies review FILE`` (and for Othello ``plies show`` /
        ``convert``) read it back: the moves in the game's notation, after a ``# game`` line where the moves alone
        do not say the game (tic-tac-toe's squares read as Othello's; no moves) and a ``# start`` line when the
        game did not begin at the start position."""
        if not path:
            self.write(_("Usage: save FILE"))
            return False
        text = self.transcript()
        start, moves = self.game.start, self.game.moves
        header = []
        if start.game != DEFAULT_GAME and _reads_as_default(text):
            header.append(f"# game {start.game}")
        if _custom_start(start):
            header.append(f"# start {start.to_text()}")
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write("".join(h + "\n" for h in header) + text + "\n")
        except OSError as e:
            self.write(_("Cannot save to {path}: {reason}").format(path=path, reason=e.strerror))
            return False
        passes = sum(1 for m in moves if m == PASS)
        also = _(" ({passes} of them passes)").format(passes=passes) if passes else ""
        self.write(ngettext("Saved {n} move{also} to {path}", "Saved {n} moves{also} to {path}", len(moves)).format(
            n=len(moves), also=also, path=path))
        return True

    # --- the game loop ------------------------------------------------------------------------------------
    def play(self) -> State:
        """Play to the end (or until quit); returns the last state."""
        self.draw()
        shown = tuple(p if isinstance(p, HumanPlayer) or self.status is None else Thinking(p, self, side)
                      for side, p in enumerate(self.players))
        try:
            play_on(self.game, shown, on_move=self.moved, forfeits=False, ask_passes=False)
        except QuitGame:
            self.write(self.abandoned_text())
            return self.state
        except KeyboardInterrupt:  # Ctrl-C: the moves go to the screen before the program ends
            self.write(self.abandoned_text())
            raise
        self.summary()
        return self.state

    def moved(self, game: Game[State]) -> None:
        """After each move: a forced pass said, the computer's move with its value, the board."""
        before, move = game.states[-2], game.moves[-1]
        side, player = before.to_move, self.players[before.to_move]
        if move == PASS:
            self.write(_("Player {name} has no valid move and passes.").format(name=self.name(side)))
            return
        if not isinstance(player, HumanPlayer):
            self.write(_("Computer {name} [{player}] plays {move}{value}").format(
                name=self.name(side), player=player.name, move=self.square(move, before),
                value=self.result_text(player.last_result, side)))
        self.draw()
        named = position_name(game.state)
        if named is not None:
            self.write(_("Opening: {name}").format(name=named))

    def abandoned_text(self) -> str:
        """``Game abandoned.`` and, when moves were played, the transcript that ``plies play`` takes to go on."""
        if not any(m != PASS for m in self.game.moves):
            return _("Game abandoned.")
        start = _(" from {position}").format(position=repr(self.game.start.to_text())) \
            if _custom_start(self.game.start) else ""
        return _("Game abandoned. Moves played{start}: {moves}").format(start=start, moves=self.transcript())

    def result_text(self, res: SearchResult | None, mover: int) -> str:
        """`` (-1.5 discs for Black; depth 10, 12,345 nodes)`` for the computer's move, from the chosen view."""
        if res is None:
            return ""
        if res.algorithm == "book":
            return _(" (from the opening book)")
        detail = _("depth {depth}, {nodes} nodes").format(depth=res.depth_text(), nodes=f"{res.stats.nodes:,}") \
            if res.stats.nodes else ""
        shown = self.pov(self.search_value(res), mover)
        return _(" ({value}; {detail})").format(value=shown, detail=detail) if detail else f" ({shown})"

    def search_value(self, res: SearchResult) -> Value:
        """A search's value in its unit: a result or discs once proven, discs for the engine, else the heuristic's."""
        value, proven = from_search(res.value, bool(res.exact))
        t = type_of(self.state)
        if t is not None and t.result == "result" and proven:
            unit = "result"
        elif proven or res.exact or res.evaluation in ("learned", "exact"):
            unit = "discs"
        else:
            unit = f"{res.evaluation} heuristic" if res.evaluation else "value"
        return Value(value, unit, proven)

    def progress_text(self, res: SearchResult, state: State) -> str:
        """The thinking line's news after a depth: ``depth 9: -1.5 discs for Black, 1,234,567 nodes; line d3 c5``."""
        line = [self.in_rowcol(m) for m in move_names(state, res.pv[:4])]
        text = _("depth {depth}: {value}, {nodes} nodes").format(
            depth=res.depth_text(), value=self.pov(self.search_value(res), state.to_move), nodes=f"{res.stats.nodes:,}")
        return text + (_("; line {moves}").format(moves=separator(state).join(line)) if line else "")

    def summary(self) -> None:
        s = self.state
        outcome = s.outcome()
        assert outcome is not None
        counts = getattr(s, "counts", None)
        detail = ""
        if counts:
            b, w = counts()
            detail = _(" — final score X={black} O={white}").format(black=b, white=w)
        names = tuple(self.name(i) for i in (0, 1))
        self.write(_("Game over: {outcome}{detail}.").format(outcome=outcome.describe(names), detail=detail))
        if not any(m != PASS for m in self.game.moves):
            return
        if _custom_start(self.game.start):
            self.write(_("Moves from {start}: {moves}").format(start=repr(self.game.start.to_text()),
                                                               moves=self.transcript()))
        else:
            self.write(_("Moves: {moves}").format(moves=self.transcript()))
        saved = self.offer_save() if any(isinstance(p, HumanPlayer) for p in self.players) else None
        self.write(self.next_step(saved))

    def offer_save(self) -> str | None:
        """Ask for a file to save the finished game in; the file saved, or None (Enter, or no more input)."""
        while True:
            try:
                path = self.read(_("Save the game? A file name, or Enter to skip: ")).strip()
            except EOFError:
                return None
            if not path:
                return None
            if self.save(path):
                return path

    def next_step(self, saved: str | None) -> str:
        """``Next: plies review ...`` with the file saved, else the transcript when it reads back as this game."""
        what = _("(every move against the best one: the mistakes and what they cost)")
        if saved is not None:
            return _("Next: plies review {args}  {what}").format(args=shlex.quote(saved), what=what)
        text = self.transcript()
        try:
            start, moves = read_game(text)
        except PliesError:
            start, moves = self.game.start, []
        if start == self.game.start and moves == self.game.moves:
            return _("Next: plies review {args}  {what}").format(args=shlex.quote(text), what=what)
        later = _("Next: plies review FILE, once the game is saved with its start (save FILE during a game)  {what}")
        return later.format(what=what)


class Thinking(Player):
    """A computer player as the terminal drives it: while it searches, a live line on the session's console
    says who is thinking and for how long, and with the engine its depth, value, nodes and line as it deepens."""

    def __init__(self, inner: Player, session: PlaySession, side: int) -> None:
        self.inner, self.session, self.side = inner, session, side
        self.name = inner.name

    def new_game(self, state: State) -> None:
        self.inner.new_game(state)

    def stop(self) -> None:
        self.inner.stop()

    def choose(self, state: State) -> Move:
        console = self.session.status
        assert console is not None
        # (its move's line names the player)
        line = ThinkingLine(_("{name} is thinking").format(name=self.session.name(self.side)))
        with console.status(line, spinner="dots") as shown:
            def progress(res: SearchResult) -> None:
                line.detail = self.session.progress_text(res, state)
                shown.update(line)

            self.inner.on_progress = progress
            try:
                move = self.inner.choose(state)
            finally:
                self.inner.on_progress = None
        self.last_result = self.inner.last_result
        return move


class ThinkingLine:
    """The text of the thinking line, drawn afresh at each refresh: who, the seconds so far, the latest depth."""

    def __init__(self, who: str) -> None:
        self.who, self.detail, self.since = who, "", time.monotonic()

    def __rich__(self) -> Text:
        seconds = time.monotonic() - self.since
        return Text(f"{self.who}… {seconds:.1f} s" + (f" — {self.detail}" if self.detail else ""))


def _custom_start(start: State) -> bool:
    """Whether a game began elsewhere than its game's start position (a saved game then says where)."""
    standard = getattr(type(start), "start", None)
    return standard is None or start != standard()


# --- reading a game back -----------------------------------------------------------------------------------


def read_game(arg: str, game: str | None = None, layout: str = "standard",
              index: int = 1) -> tuple[State, list[Move]]:
    """A start position and the moves played from it: a game name, a board, a transcript (its moves kept), or
    a file (``@FILE`` or a path; what ``save`` writes, any format ``plies show`` reads: its ``index``-th game);
    ParseError naming the bad move otherwise."""
    from plies.formats.detect import binary_kind, saved_headers
    from plies.formats.stream import check_not_a_missing_file, path_kind, read_bytes

    text = arg
    if not arg.startswith("@"):
        check_not_a_missing_file(arg)
    if arg.startswith("@") or path_kind(arg) in ("file", "stream"):  # a FIFO or a device is read, not its name
        path = arg[1:] if arg.startswith("@") else arg
        check_not_a_missing_file(path)
        raw = read_bytes(path)
        if binary_kind(raw, path) is not None:  # a WTHOR game database (or its names file)
            if (game is not None and game_type(game).name != DEFAULT_GAME) or layout != "standard":
                raise PliesError(f"{path} is a WTHOR file: {game_type(DEFAULT_GAME).title} games on the standard "
                                 "board")
            return _othello_formats(raw, index, path)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise PliesError(f"{path} is not a UTF-8 text file") from None
    headers, body = saved_headers(text)
    start_text = headers.get("start")
    game = game or (headers["game"].lower() if "game" in headers else None)
    moves_text = body.strip()
    if start_text is None and _is_position_text(moves_text):  # a name, a board or a tree: no history
        return read_position(moves_text, game=game, layout=layout), []
    if start_text is not None:
        start = parse_position(start_text, game=game)
    elif game is not None:
        start = start_position(game, layout)
    else:
        start = start_position(DEFAULT_GAME, layout)
        if not moves_text:
            return start, []
        if layout == "standard":
            try:
                return _othello_formats(moves_text, index)
            except PliesError as othello_error:
                found = _other_game(moves_text)
                if found is None:
                    raise othello_error from None
                return found
    if not moves_text:
        return start, []
    return start, Game.from_transcript(type_of(start), moves_text, start).moves


def _other_game(text: str) -> tuple[State, list[Move]] | None:
    """The start and moves of a transcript that is not the default game's: the game that reads it in the fewest
    moves (its notation says the most: HexThello's ``7 3, 6 5`` before the same digits as four tic-tac-toe or
    Connect Four moves), the first registered on a tie; None when no game reads it."""
    best: tuple[State, list[Move]] | None = None
    for name, t in TYPES.items():
        if name == DEFAULT_GAME:
            continue
        try:
            s = t.start(None, "standard")
            moves = Game.from_transcript(t, text, s).moves
        except PliesError:
            continue
        if moves and (best is None or len(moves) < len(best[1])):
            best = s, moves
    return best


def _reads_as_default(text: str) -> bool:
    """Whether a transcript reads as moves in the default game's notation (tic-tac-toe's ``b2a1`` as Othello
    squares; no moves at all): a saved game then names its game, so that Othello readers refuse it by name."""
    try:
        game_type(DEFAULT_GAME).tokens(text)
    except PliesError:
        return False
    return True


def _is_position_text(text: str) -> bool:
    """A game name, a board with the side to move, or a game tree (rather than moves)."""
    low = text.strip().lower()
    if not low or "\n" in low:
        return False
    if low.startswith(("[", "{")) or is_game_name(low):
        return True
    return any(t.looks_like(text) for t in TYPES.values())


def _othello_formats(text: str | bytes, index: int = 1, name: str | None = None) -> tuple[State, list[Move]]:
    """The ``index``-th game of ``text`` (the file ``name``'s contents, if given) in any format ``plies show``
    reads (transcript, GGF, WTHOR ...), or its ``index``-th position."""
    from plies.formats.detect import load

    data = load(text, name)
    items = data.games or data.positions
    if not items:
        raise ParseError("no game or position in the input")
    if index > len(items):
        raise ParseError(f"the input holds {len(items)} game(s); there is no number {index}")
    if data.games:
        g = data.games[index - 1]
        return g.start, list(g.moves)
    return data.positions[index - 1].state, []


def _menu(read: Callable[[str], str], write: Callable[[str], None], title: str, options: list[str],
          default: int = 1) -> int:
    write(title)
    for i, o in enumerate(options, 1):
        write(f"  {i}) {o}")
    while True:
        try:
            text = read(_("Choice [{default}]: ").format(default=default)).strip()
        except EOFError:
            raise QuitGame from None
        if not text:
            return default
        if text.isdigit() and 1 <= int(text) <= len(options):
            return int(text)
        write(_("Please type a number from 1 to {n}.").format(n=len(options)))


def setup_interactively(state: State, read: Callable[[str], str], write: Callable[[str], None]) -> tuple[str, str]:
    """The start screen (the course's Othello project): play first or second, the difficulty, and at levels 1-5
    the computer's algorithm; the levels are the browser's (``plies.analysis.levels.difficulty``)."""
    names = [side_name(n) for n in state.player_names]
    order = _menu(read, write, _("Do you want to play first or second?"),
                  [_("first ({side})").format(side=names[0]), _("second ({side})").format(side=names[1]),
                   _("two people on this terminal"), _("computer against computer")])
    if order == 3:
        return "human", "human"
    level = _menu(read, write, _("Difficulty:"), [_level_text(state, d) for d in range(1, MAX_LEVEL + 1)],
                  default=DEFAULT_LEVEL)  # (each line's number is its level)
    algorithm, heuristic = "alphabeta", None
    if level <= TEACHING_MAX:
        t = type_of(state)
        greedy = _("most discs") if t is not None and t.result == "discs" else _("the best position one move on")
        algos = [_("alpha-beta"), "minimax", _("greedy ({what})").format(what=greedy), _("random")]
        algos += [_("the fast engine")] if engine_applies(state) else []
        algorithm = ("alphabeta", "minimax", "greedy", "random", "engine")[
            _menu(read, write, _("Computer's algorithm:"), algos) - 1]
        hs = heuristics.names(state.game)
        if algorithm in ALGORITHMS and hs:
            default = hs.index(heuristics.DEFAULTS[state.game]) + 1
            choice = _menu(read, write, _("Evaluation at the depth limit:"),
                           [f"{n}: {_(heuristics.get(state.game, n).description)}" for n in hs], default=default)
            heuristic = hs[choice - 1]
    spec = difficulty(state, level, algorithm, heuristic).spec
    if order == 4:
        return spec, spec
    return ("human", spec) if order == 1 else (spec, "human")


def _level_text(state: State, level: int) -> str:
    """A difficulty as the menu lists it: ``search depth 3``, ``the fast engine: depth 10, ...``, or what stands
    in for the engine where it does not play."""
    if level <= TEACHING_MAX:
        return _("search depth {depth}").format(depth=level)
    row = engine_level(level) if engine_applies(state) else None
    if row is not None:
        return _("the fast engine: {summary}").format(summary=row.summary)
    return difficulty(state, level).label.partition(": ")[2]


@click.command()
@click.argument("game", default="othello")
@click.option("--black", "--first", "-1", "first", default=None, metavar="SPEC",
              help="Who plays Black/X (moves first): human, random, greedy, minimax:depth=3,eval=NAME, "
                   "alphabeta:depth=5,eval=NAME[,pruning=off], engine:level=N ...")
@click.option("--white", "--second", "-2", "second", default=None, metavar="SPEC", help="Who plays White/O.")
@click.option("--layout", type=click.Choice(["standard", "doc000"]), default="standard", show_default=True,
              help="Othello start: standard, or the course lab notes' (X on d4/e5, X first); doc000 also numbers "
                   "rows and columns from 0 as the lab notes print them.")
@click.option("--rowcol/--algebraic", default=None, help="Show squares as 0-based 'row col' (the lab notes' notation).")
@click.option("--no-book", is_flag=True, help="The engine plays without its opening book.")
@click.option("--eval", "evaluation", default=None, metavar="NAME",
              help="The engine's evaluation: learned (its default), handmade, or an Othello heuristic by name "
                   "(see 'plies heuristics othello').")
@click.option("--view", type=click.Choice(["black", "white"], case_sensitive=False), default="black",
              show_default=True, help="Whose point of view values (hints, the computer's moves) are shown from.")
@click.option("--hint-level", type=click.IntRange(1, MAX_LEVEL), default=None,
              help="Engine level of the hints (default: the engine opponent's level, else 8).")
@click.option("--threads", type=click.IntRange(1, 256), default=None,
              help="Search threads of the engine players that do not name theirs (default: the machine's cores).")
@lang_option
def play(game: str, first: str | None, second: str | None, layout: str, rowcol: bool | None, no_book: bool,
         evaluation: str | None, view: str, hint_level: int | None, threads: int | None) -> None:
    """Play GAME (othello, tictactoe, a position or a transcript) in the terminal.

    A transcript's moves (or a saved game: @FILE) are replayed and kept, so undo goes back into them.
    Without --black/--white, asks who plays what: first or second, difficulty, algorithm.
    """
    speak_environment_language()
    if threads is not None:  # read by every engine player built without threads= (plies.players.engine)
        os.environ["PLIES_ENGINE_THREADS"] = str(threads)
    state, moves = read_game(game, layout=layout)
    final = Game(state, moves).state
    if final.is_over():
        raise PliesError("the game is already over in this position (plies review GAME analyses a finished game)")
    read = _reader
    write = click.echo
    if first is None and second is None:
        try:
            first, second = setup_interactively(final, read, write)
        except QuitGame:
            return
    first, second = (_engine_options(spec or "human", no_book, evaluation) for spec in (first, second))
    players = (parse_player(first, state.game), parse_player(second, state.game))
    status = Console(highlight=False)
    session = PlaySession(state, players, read, write, rowcol=(layout == "doc000") if rowcol is None else rowcol,
                          moves=list(moves), view=0 if view.lower() == "black" else 1, hint_level=hint_level,
                          status=status if status.is_terminal else None)
    if moves:
        write(_("Replayed {n} moves: {moves}").format(n=len(moves), moves=session.transcript()))
    session.play()


def _engine_options(spec: str, no_book: bool, evaluation: str | None) -> str:
    """``spec`` with --no-book / --eval added when it is the engine (options already in the spec win)."""
    kind, _sep, raw = spec.partition(":")
    if kind.strip().lower() != "engine":
        return spec
    extra = [opt for opt, on in ((f"eval={evaluation}", evaluation and "eval=" not in raw),
                                 ("book=off", no_book and "book=" not in raw)) if on]
    return spec if not extra else f"engine:{','.join(([raw] if raw else []) + extra)}"


def _reader(prompt: str) -> str:
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo()
        raise EOFError
    return line.rstrip("\n")


def register(main: click.Group) -> None:
    main.add_command(play)
