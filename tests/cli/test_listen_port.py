"""The port check of ``plies web`` and the HexThello viewer binds as their servers do: a server restarted on its
port while a client still holds a connection to the old one starts, and a port someone listens on is refused."""

from __future__ import annotations

import socket

import pytest

from plies.cli._common import listen_port
from plies.game import PliesError


def listener() -> socket.socket:
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn and asyncio.start_server do
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


def test_a_port_whose_server_went_while_a_client_holds_a_connection_is_free() -> None:
    server = listener()
    port = server.getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port))
    accepted, _ = server.accept()
    try:
        accepted.close()  # the server goes first (a restart): its side of the connection stays in FIN_WAIT
        server.close()
        assert listen_port("127.0.0.1", port) == port
    finally:
        client.close()


def test_a_port_someone_listens_on_is_in_use() -> None:
    server = listener()
    port = server.getsockname()[1]
    try:
        with pytest.raises(PliesError, match=f"port {port} on 127.0.0.1 is in use \\(try --port 0 for a free one\\)"):
            listen_port("127.0.0.1", port)
    finally:
        server.close()
