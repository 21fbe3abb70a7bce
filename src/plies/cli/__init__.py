"""The ``plies`` command.  Each module in this package adds its subcommands with ``register(main)``.

Errors a user can cause (bad position, illegal move, missing file, wrong option) print one line and exit 2;
nothing a user types produces a traceback (set PLIES_DEBUG=1 to see one for a real bug).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import sys
from typing import TYPE_CHECKING

import click

from plies import i18n
from plies.game import PliesError

if TYPE_CHECKING:
    from ._common import Decorated

# Every command: name -> (module of plies.cli that registers it, its one-line help), for ``plies --help``
# without importing the modules.
COMMANDS: dict[str, tuple[str, str]] = {
    'analyse': ('engine', 'Analyse an 8x8 Othello POSITION with the fast engine: value for the side to move, '
                          'best move(s), principal variation, nodes and time.'),
    'bench': ('engine', 'Measure the engine: perft, endgame suite, midgame search speed.'),
    'class': ('teach', "A class's exercises: a worksheet per student with an answer key, a mark sheet from their "
                       'answers, and exercise and solution versions of notebooks.'),
    'convert': ('formats', "Convert SOURCE (file, '-' or text; any format 'plies show' reads) to TARGET ('-' = "
                           'stdout).'),
    'grade': ('grade', 'Grade a class: every agent in FOLDER against reference players and in a round robin, '
                       'with a result sheet.'),
    'heuristics': ('analysis', 'List the evaluation functions a game accepts (names usable in --eval and '
                               'eval=NAME).'),
    'hexthello': ('hexthello', "HexThello and the TUC course's client/server framework: client, server, "
                               'stored games.'),
    'levels': ('engine', "The engine levels: 1-5 search as many plies as their number and slip like learners; "
                         '6-12 are the full engine.'),
    'match': ('match', 'Play PLAYER_A against PLAYER_B over paired openings and report score, Elo difference '
                       'and margins.'),
    'nboard': ('nboard', "Speak the NBoard engine protocol on stdin/stdout (point NBoard's 'engine' at 'plies "
                         "nboard')."),
    'perft': ('analysis', 'Count the leaves DEPTH plies below POSITION (default: the Othello start).'),
    'play': ('play', 'Play GAME (othello, tictactoe, a position or a transcript) in the terminal.'),
    'review': ('review', 'Review GAME: each move against the best move, the discs it lost, the mistakes and a '
                         'sum per player.'),
    'search': ('analysis', 'Run minimax and/or alpha-beta on POSITION: value, best move, principal variation, '
                           'node counts.'),
    'show': ('formats', 'Print the game(s) or position(s) in SOURCE: a file (transcript, board, OBF, GGF, WTHOR'
                        " .wtb/.JOU/.TRN), '-' for stdin, or the text itself (e.g."),
    'solve': ('engine', 'Solve every position of a test suite FILE (FFO list or OBF lines) exactly and compare '
                        'with its answers.'),
    'study': ('teach', 'Measure the textbook searches on real Othello positions: node counts, the horizon '
                       'effect.'),
    'tournament': ('match', 'Round robin or gauntlet from a TOML file: cross table, points, Elo ± 95%, disc '
                            'margins, failures.'),
    'train': ('train', 'Train the learned Othello evaluation and build the opening book (see docs/training.md).'),
    'tree': ('teach', "Solve and draw game trees step by step (minimax, alpha-beta): the lessons' exercises."),
    'web': ('web', 'Play in the browser: Othello, tic-tac-toe (and HexThello), against the computer or a '
                   'friend.'),
}


class LazyGroup(click.Group):
    """The top-level group: it knows every command's name, module and one-line help without importing the
    modules, and imports only the module of the command that runs (``plies --help`` stays a fraction of a
    second; a test checks the table against the real commands)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(COMMANDS) | set(self.commands))

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands and name in COMMANDS:
            _register(COMMANDS[name][0])
        return self.commands.get(name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(n) for n in names)
        rows = []
        for name in names:
            cmd = self.commands.get(name)
            text = cmd.get_short_help_str(limit) if cmd is not None else COMMANDS[name][1]
            rows.append((name, _shorten(text, limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


def _shorten(text: str, limit: int) -> str:
    """``text`` cut at a word to fit ``limit`` characters, with '...' when cut (as click shortens help)."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 3)].rsplit(" ", 1)[0].rstrip(" ,;:") + "..."


def _choose_language(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        i18n.set_language(value)
        ctx.find_root().meta["plies.lang"] = value


def lang_option(f: Decorated) -> Decorated:
    """``--lang el|en``: the language of what the command says (default: PLIES_LANG, else the locale, for the
    commands that speak Greek; English for the others)."""
    return click.option("--lang", type=click.Choice(sorted(i18n.LANGUAGES), case_sensitive=False), default=None,
                        expose_value=False, is_eager=True, callback=_choose_language,
                        help="Language: el (Greek) or en (default: PLIES_LANG, else the locale, LANG).")(f)


def speak_environment_language() -> None:
    """In a command that speaks Greek as a whole (``play``, ``tree solve``): without ``--lang``, the language the
    environment asks for (PLIES_LANG, the locale).  Every other command stays in English unless told, so that a
    Greek locale never mixes the two in a server's answers, a match's records or a grading sheet."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or "plies.lang" not in ctx.find_root().meta:
        i18n.set_language(None)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="plies")
@lang_option
def main_group() -> None:
    """plies: two-player games of skill — play, search, analyse, teach, run matches."""


_registered: set[str] = set()


def _register(module_name: str) -> None:
    """Import ``plies.cli.<module_name>`` and let it add its commands (once)."""
    if module_name not in _registered:
        _registered.add(module_name)
        module = importlib.import_module(f"{__name__}.{module_name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(main_group)


def load_commands() -> click.Group:
    """Import every module of plies.cli that defines ``register`` and let it add its commands."""
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.name.startswith("_"):
            _register(info.name)
    return main_group


_BOARD_ARG = re.compile(r"[-.XxOo0*#]+\s?[XxOo0*]")
_BOARD_SIZES = {10, 17, 37, 65, 101, 170}  # the boards (+ the side to move): tic-tac-toe, Othello 4x4-10x10, HexThello


def board_safe(argv: list[str]) -> list[str]:
    """Board arguments often start with '-' (empty squares), which the option parser would take for an option;
    pass such a board with '.' for its empty squares instead (the same position).  An argument that starts with
    three dashes is no option either: a board, maybe a malformed one, which the board reader then explains."""
    out = []
    for a in argv:
        if a.startswith("-") and (a.startswith("---") or len(a.replace(" ", "")) in _BOARD_SIZES
                                  and _BOARD_ARG.fullmatch(a)):
            a = a.replace("-", ".")
        out.append(a)
    return out


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the command, turn every user error into one line on stderr and a non-zero exit."""
    group = main_group
    args = board_safe(sys.argv[1:] if argv is None else list(argv))
    if "numpy" not in sys.modules and (not args or args[0] != "train"):
        # numpy's BLAS threads spin on every core for a while after they start; only fitting uses them
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    i18n.set_language(i18n.DEFAULT)  # English, until --lang (or, in play and tree solve, the environment) says
    try:
        rv = group.main(args=args, prog_name="plies", standalone_mode=False)
        return rv if isinstance(rv, int) else 0
    except click.UsageError as e:
        if type(e).__name__ == "NoArgsIsHelpError":  # 'plies' or a group alone: show its help
            click.echo(e.format_message())
            return 0
        path = e.ctx.command_path if e.ctx else "plies"
        hint = f" (see '{path} --help')"
        click.echo(f"plies: error: {e.format_message()}{hint}", err=True)
        return 2
    except click.exceptions.Exit as e:
        return e.exit_code
    except click.Abort:
        click.echo("plies: interrupted", err=True)
        return 130
    except click.ClickException as e:
        click.echo(f"plies: error: {e.format_message()}", err=True)
        return e.exit_code or 1
    except PliesError as e:
        click.echo(f"plies: error: {e}", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("plies: interrupted", err=True)
        return 130
    except (OSError, EOFError) as e:
        click.echo(f"plies: error: {e}", err=True)
        return 2
    except Exception as e:  # a bug: still one line unless asked for the traceback
        if os.environ.get("PLIES_DEBUG"):
            raise
        click.echo(f"plies: internal error: {type(e).__name__}: {e} (set PLIES_DEBUG=1 for details)", err=True)
        return 3


def run() -> None:
    """Console-script wrapper."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
