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

import click

from plies.game import PliesError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="plies")
def main_group() -> None:
    """plies: two-player games of skill — play, search, analyse, teach, run matches."""


_loaded = False


def load_commands() -> click.Group:
    """Import every module of plies.cli that defines ``register`` and let it add its commands."""
    global _loaded
    if not _loaded:
        _loaded = True
        for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
            if info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            register = getattr(module, "register", None)
            if register is not None:
                register(main_group)
    return main_group


_BOARD_ARG = re.compile(r"[-.XxOo0*]+\s?[XxOo0*]")
_BOARD_SIZES = {10, 17, 37, 65, 101}


def board_safe(argv: list[str]) -> list[str]:
    """Board arguments often start with '-' (empty squares), which the option parser would take for an option;
    pass such a board with '.' for its empty squares instead (the same position)."""
    out = []
    for a in argv:
        if a.startswith("-") and len(a.replace(" ", "")) in _BOARD_SIZES and _BOARD_ARG.fullmatch(a):
            a = a.replace("-", ".")
        out.append(a)
    return out


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the command, turn every user error into one line on stderr and a non-zero exit."""
    group = load_commands()
    args = board_safe(sys.argv[1:] if argv is None else list(argv))
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
