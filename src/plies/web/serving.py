"""How ``plies web`` is served: uvicorn with h11 and the limits that keep one client from holding the server.

- the request line and headers together: ``MAX_HEADER_BYTES`` (h11's ``max_incomplete_event_size``), else 400;
  the number of headers is ``plies.web.guard``'s ``MAX_HEADERS`` (431);
- a whole request (headers and body) must arrive within ``REQUEST_SECONDS`` of the connection or of the previous
  answer, else the connection is closed; an idle keep-alive connection lasts ``KEEP_ALIVE_SECONDS``;
- one address holds at most ``PER_ADDRESS_CONNECTIONS`` connections (WebSockets included; a new one over it is
  closed at once); the whole server ``LIMIT_CONCURRENCY`` connections and requests (uvicorn's
  ``limit_concurrency``: 503 beyond);
- WebSockets: messages of at most ``MAX_MESSAGE`` (``ws_max_size``, 1009 beyond), ``WS_MAX_QUEUE`` received and
  not yet handled (``ws_max_queue``), a ping every ``WS_PING_SECONDS`` answered within as long; answers left
  unread are ``plies.web.app``'s ``OUTBOX`` (1008 beyond).

The table of them all is in docs/web.md.  uvicorn itself has no limit on the time a request may take to arrive
(a client trickling one header byte at a time would hold its connection for ever), so ``DeadlineH11Protocol``
adds one to uvicorn's own h11 protocol; the rest are uvicorn's and h11's settings.  httptools, which uvicorn
prefers when it is installed, has no header limit, so ``plies web`` names h11.
"""

from __future__ import annotations

import asyncio
from typing import TypedDict

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from plies.web.guard import MAX_MESSAGE

MAX_HEADER_BYTES = 16 * 1024
"""Largest request line and headers together (bytes)."""
REQUEST_SECONDS = 10.0
"""Time a client has to send a whole request, from its connection or from the previous answer."""
KEEP_ALIVE_SECONDS = 5
"""Idle time after an answer before a keep-alive connection is closed."""
PER_ADDRESS_CONNECTIONS = 256
"""Open connections (HTTP and WebSocket) one client address may hold."""
LIMIT_CONCURRENCY = 1024
"""Connections and requests in progress on the whole server; beyond, requests are answered 503."""
WS_MAX_QUEUE = 32
WS_PING_SECONDS = 20.0


class DeadlineH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request (``request_seconds``: headers and body must have
    arrived by then, or the connection is closed) and at most ``per_address`` open connections per client
    address (a new one over it is closed at once).  A request that has arrived is never cut short: a long
    answer (``?wait=true``) or a WebSocket has no deadline."""

    request_seconds = REQUEST_SECONDS
    per_address = PER_ADDRESS_CONNECTIONS

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._deadline: asyncio.TimerHandle | None = None
        super().connection_made(transport)
        host = self.client[0] if self.client else None
        if host is not None:
            mine = sum(1 for c in self.connections if (getattr(c, "client", None) or (None,))[0] == host)
            if mine > self.per_address:
                self.logger.debug("connection from %s refused: %d open (limit %d)", host, mine - 1,
                                  self.per_address)
                self.transport.close()
                return
        self._arm()

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.request_seconds, self._expired)

    def _disarm(self) -> None:
        deadline = getattr(self, "_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._deadline = None

    def _expired(self) -> None:
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY):  # the request has not (wholly) arrived
            self.logger.debug("request from %s not complete within %g s: connection closed",
                              self.client[0] if self.client else "?", self.request_seconds)
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()  # the next request on this connection has its own deadline

    def handle_websocket_upgrade(self, event: h11.Request) -> None:
        self._disarm()
        super().handle_websocket_upgrade(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


class Settings(TypedDict):
    """uvicorn's keyword arguments for the protocol and the limits."""

    http: type[DeadlineH11Protocol]
    h11_max_incomplete_event_size: int
    timeout_keep_alive: int
    limit_concurrency: int
    ws_max_size: int
    ws_max_queue: int
    ws_ping_interval: float
    ws_ping_timeout: float


def server_settings(request_seconds: float = REQUEST_SECONDS, per_address: int = PER_ADDRESS_CONNECTIONS
                    ) -> Settings:
    """uvicorn's settings for ``plies web`` (``uvicorn.run(app, host=..., port=..., **server_settings())``)."""
    protocol = type("PliesH11Protocol", (DeadlineH11Protocol,),
                    {"request_seconds": request_seconds, "per_address": per_address})
    return {
        "http": protocol, "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
        "timeout_keep_alive": KEEP_ALIVE_SECONDS, "limit_concurrency": LIMIT_CONCURRENCY,
        "ws_max_size": MAX_MESSAGE, "ws_max_queue": WS_MAX_QUEUE,
        "ws_ping_interval": WS_PING_SECONDS, "ws_ping_timeout": WS_PING_SECONDS,
    }


__all__ = ["DeadlineH11Protocol", "server_settings"]
