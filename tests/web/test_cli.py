"""``plies web`` on the command line (the server itself is exercised by the other tests)."""

from __future__ import annotations

import socket
from pathlib import Path

from click.testing import CliRunner

from plies.cli import load_commands, main


def test_web_help_lists_the_options() -> None:
    result = CliRunner().invoke(load_commands(), ["web", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--no-browser", "--db"):
        assert option in result.output


def test_busy_port_is_a_one_line_error(tmp_path: Path, capsys: object) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code = main(["web", "--no-browser", "--port", str(port), "--db", str(tmp_path / "h.sqlite")])
    assert code == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert f"port {port}" in err and "in use" in err and "Traceback" not in err


def test_bad_port_is_a_usage_error() -> None:
    assert main(["web", "--no-browser", "--port", "70000"]) == 2


def test_an_address_that_is_not_this_machines_is_named_as_such(tmp_path: Path, capsys: object) -> None:
    code = main(["web", "--no-browser", "--host", "256.1.1.1", "--port", "8123", "--db", str(tmp_path / "h.sqlite")])
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert code == 2 and err.startswith("plies: error: cannot listen on 256.1.1.1:8123") and err.count("\n") == 1


def test_a_busy_viewer_port_stops_the_hexthello_server_in_one_line(tmp_path: Path, capsys: object) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        code = main(["hexthello", "server", "-p", "0", "--web", str(port), "--db", str(tmp_path / "x.sqlite")])
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert code == 2 and err == f"plies: error: port {port} on 127.0.0.1 is in use\n", err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_history_file_that_is_not_a_database_is_one_line(tmp_path: Path, capsys: object) -> None:
    noise = tmp_path / "h.sqlite"
    noise.write_bytes(bytes(range(256)) * 2)
    code = main(["web", "--no-browser", "--port", "0", "--db", str(noise)])
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert code == 2 and err == f"plies: error: cannot open the game history {noise}: file is not a database\n"
    assert noise.read_bytes() == bytes(range(256)) * 2
