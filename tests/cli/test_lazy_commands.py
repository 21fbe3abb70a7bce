"""``plies --help`` lists every command from a table without importing the command modules: the table must
say what the modules really register."""

from __future__ import annotations

import subprocess
import sys

import plies.cli as cli


def test_command_table_matches_the_registered_commands() -> None:
    group = cli.load_commands()
    assert set(cli.COMMANDS) == set(group.commands)
    for name, (module, text) in cli.COMMANDS.items():
        cmd = group.commands[name]
        assert cmd.get_short_help_str(limit=300) == text, name
        fresh = type(group)(commands={})
        __import__(f"plies.cli.{module}", fromlist=["register"]).register(fresh)
        assert name in fresh.commands, f"{name} is not registered by plies.cli.{module}"


def test_help_imports_no_command_module() -> None:
    code = ("import sys; from plies.cli import main; main(['--help']); "
            "print(sorted(m for m in sys.modules if m.startswith('plies.cli.') and m != 'plies.cli._common'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"
    assert "numpy" not in out


def test_running_a_command_imports_its_module_only() -> None:
    code = ("import sys; from plies.cli import main; main(['heuristics', 'tictactoe']); "
            "print(sorted(m for m in sys.modules if m.startswith('plies.cli.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] in ("['plies.cli._common', 'plies.cli.analysis']", "['plies.cli.analysis']")
