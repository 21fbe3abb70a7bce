"""What the browser app checks before any route runs, and the limits on live games per client.

- **Host**: Starlette's ``TrustedHostMiddleware`` answers 400 to a ``Host`` header that is not this machine's
  loopback name (``localhost``, ``127.0.0.1``, ``::1``), the address the server listens on, or a name given
  with ``plies web --allow-host NAME``: a page on another site cannot reach the app through DNS rebinding.
- **Origin**: a request that changes something (POST, PUT, PATCH, DELETE) or opens a WebSocket, and carries an
  ``Origin`` header (every browser sends one), must come from the app's own origin (``Origin`` = the ``Host``
  it was sent to); else 403.  Programs that send no ``Origin`` (curl, scripts) are not browsers and pass.
- **Tokens**: a game can be moved in only with the token of the browser that created it, and every token is
  issued by this server: an HMAC of a random value under a secret drawn when the app starts.  A request that
  brings a token the server did not issue in ``X-Plies-Token`` is refused (403); such a cookie or ``token=``
  query parameter is dropped; a request under ``/api`` with no valid token gets a new one (in the request the
  routes see, and as the ``plies_token`` cookie of the answer).
- **Headers**: at most ``MAX_HEADERS`` (431); their size, and the time a request may take to arrive, are the
  server's limits (``plies.web.serving``).
- **Bodies**: at most ``MAX_BODY`` bytes (413; a route of ``UPLOADS``, which takes a file, its own limit), JSON
  only (415), nested at most ``MAX_DEPTH`` levels, without
  ``NaN``/``Infinity`` and without lone surrogates (400); WebSocket messages the same (``parse_json``).
- **Live games per client**: ``ClientSessions`` keeps at most ``per_token`` live games per browser token and
  ``per_address`` per client address; a client over its limit loses its own least recently used game, never
  someone else's; when the whole server is full (``max_sessions``) a new game is refused (503).
"""

from __future__ import annotations

import base64
import contextvars
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketClose

from plies.game import PliesError
from plies.web.sessions import IDLE_SECONDS, MAX_SESSIONS, GameSession, OnFinish, Sessions, Side

if TYPE_CHECKING:
    from plies.game import Move, State
    from plies.web.clock import Clock
    from plies.web.workers import Workers

COOKIE = "plies_token"
HEADER = "x-plies-token"
MAX_BODY = 64 * 1024
"""Largest request body (bytes); the app's requests are a few hundred bytes, a Learn tree a few kilobytes."""
UPLOADS = {"/api/files/wthor": 2 << 20}
"""Routes that take a file's bytes (base64 in JSON), with their larger body limit."""
MAX_DEPTH = 64
"""Deepest nesting of a JSON body or WebSocket message."""
MAX_HEADERS = 100
"""Most headers a request may have (a browser sends about 15); the bytes of all together are limited by the
server (``plies.web.serving``)."""
MAX_MESSAGE = 64 * 1024
"""Largest WebSocket message (bytes)."""
LOOPBACK = ("localhost", "127.0.0.1", "::1", "[::1]")
PER_TOKEN = 32
"""Live games one browser token may hold; its least recently used one goes first."""
PER_ADDRESS = 256
"""Live games one client address may hold (all its tokens together)."""

CLIENT: contextvars.ContextVar[str] = contextvars.ContextVar("plies_client", default="?")
"""The client address of the request being served (set by ``Guard``)."""


class Busy(PliesError):
    """The server holds as many live games as it may: a new one is refused (HTTP 503)."""


class Tokens:
    """Server-issued tokens: ``value.signature`` where the signature is an HMAC-SHA256 of the value under a
    secret drawn at start-up (so a restarted server issues new ones)."""

    def __init__(self, secret: bytes | None = None) -> None:
        self.secret = secret or secrets.token_bytes(32)

    def _sign(self, value: str) -> str:
        digest = hmac.new(self.secret, value.encode(), hashlib.sha256).digest()[:18]
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    def issue(self) -> str:
        value = secrets.token_urlsafe(18)
        return f"{value}.{self._sign(value)}"

    def valid(self, token: str | None) -> bool:
        if not token or len(token) > 200 or token.count(".") != 1:
            return False
        value, sig = token.split(".")
        return bool(value) and hmac.compare_digest(sig, self._sign(value))


def allowed_hosts(listen: str | None = None, extra: Sequence[str] = ()) -> list[str]:
    """The Host names the app answers: loopback, the listening address when it is a specific one, ``extra``
    (``*`` in ``extra`` allows any host: the check is then off)."""
    hosts = list(LOOPBACK)
    if listen and listen not in ("0.0.0.0", "::", ""):
        hosts.append(listen)
        if ":" in listen and not listen.startswith("["):
            hosts.append(f"[{listen}]")
    for h in extra:
        h = h.strip().lower()
        if h:
            hosts.append(h)
            if ":" in h and not h.startswith("[") and h != "*":
                hosts.append(f"[{h}]")
    return list(dict.fromkeys(hosts))


def too_deep(text: str, max_depth: int = MAX_DEPTH) -> str | None:
    """Why ``text`` nests deeper than ``max_depth`` arrays and objects, or None: one linear scan, before any
    parsing (a deep document would otherwise cost the parser's recursion)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > max_depth:
                    return f"JSON nested deeper than {max_depth} levels"
        elif ch in "]}":
            depth -= 1
    return None


def json_problem(text: str | bytes, max_depth: int = MAX_DEPTH) -> str | None:
    """Why ``text`` is not an acceptable JSON document (too deep, NaN/Infinity, a lone surrogate, not JSON),
    or None.  The nesting is measured before parsing, so a deep document costs one linear scan."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            return "the body is not UTF-8"
    deep = too_deep(text, max_depth)
    if deep:
        return deep

    def constant(name: str) -> NoReturn:
        raise ValueError(f"{name} is not a JSON number")

    try:
        data = json.loads(text, parse_constant=constant)
    except (ValueError, RecursionError) as e:
        return f"not valid JSON: {e}"
    if _has_surrogate(data):
        return "a string holds a lone surrogate (\\ud800-\\udfff), which is not text"
    return None


def _has_surrogate(data: object) -> bool:
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if any("\ud800" <= ch <= "\udfff" for ch in x):
                return True
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def parse_json(text: str | bytes, max_bytes: int = MAX_MESSAGE, max_depth: int = MAX_DEPTH) -> object:
    """A WebSocket message as JSON, or PliesError saying why it is refused."""
    if len(text) > max_bytes:
        raise PliesError(f"messages are at most {max_bytes} bytes")
    problem = json_problem(text, max_depth)
    if problem:
        raise PliesError(problem)
    return json.loads(text)


class JsonHostError:
    """Outside Starlette's ``TrustedHostMiddleware``: its refusal of a foreign ``Host`` (400, the plain text
    ``Invalid host header``) becomes ``{"error": ...}`` JSON like every other refused request."""

    REFUSAL = b"Invalid host header"

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: list[Message] = []

        async def relay(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 400:
                held.append(message)  # until its body shows whether it is the host check's refusal
                return
            if held and message["type"] == "http.response.body":
                start = held.pop()
                if message.get("body", b"") == self.REFUSAL and not message.get("more_body", False):
                    response = JSONResponse({"error": "this server does not answer to that Host name (use "
                                                      "--allow-host NAME to add one)"}, status_code=400)
                    await response(scope, receive, send)
                    return
                await send(start)
            await send(message)

        await self.app(scope, receive, relay)


class Guard:
    """The ASGI middleware of the checks above (the Host check is ``TrustedHostMiddleware``, outside it)."""

    def __init__(self, app: ASGIApp, tokens: Tokens, max_body: int = MAX_BODY, max_depth: int = MAX_DEPTH,
                 issue_under: tuple[str, ...] = ("/api",)) -> None:
        self.app, self.tokens, self.max_body, self.max_depth = app, tokens, max_body, max_depth
        self.issue_under = issue_under

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        kind = scope["type"]
        if len(scope.get("headers") or ()) > MAX_HEADERS:
            await self._deny(scope, receive, send, 431, f"a request has at most {MAX_HEADERS} headers")
            return
        headers = Headers(scope=scope)
        changing = kind == "websocket" or scope.get("method", "GET") not in ("GET", "HEAD", "OPTIONS")
        origin = headers.get("origin")
        if origin is not None and changing and not same_origin(origin, headers.get("host")):
            await self._deny(scope, receive, send, 403,
                             f"requests from the page at {origin[:100]!r} are refused: only this app's own pages "
                             "may use it")
            return
        client = scope.get("client")
        token = CLIENT.set(client[0] if client else "?")
        try:
            sent = headers.get(HEADER)
            if sent is not None and not self.tokens.valid(sent):
                await self._deny(scope, receive, send, 403,
                                 "this token was not issued by this server (POST /api/games gives one)")
                return
            scope, issued = self._tokens(scope, headers)
            if kind == "http" and changing:
                body = await self._body(scope, receive, send)
                if body is None:
                    return
                receive = _replay(body, receive)
            if issued is not None:
                send = _with_cookie(send, issued)
            await self.app(scope, receive, send)
        finally:
            CLIENT.reset(token)

    def _tokens(self, scope: Scope, headers: Headers) -> tuple[Scope, str | None]:
        """Drop tokens this server did not issue; give a request under ``/api`` without one a new one."""
        raw = list(scope.get("headers") or [])
        out: list[tuple[bytes, bytes]] = []
        valid = self.tokens.valid(headers.get(HEADER))
        for name, value in raw:
            if name == b"cookie":
                value = _drop_bad_cookie(value, self.tokens)
                if _cookie_token(value) is not None:
                    valid = True
                if not value:
                    continue
            out.append((name, value))
        query = scope.get("query_string", b"")
        if query and b"token=" in query:
            pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
            kept = [(k, v) for k, v in pairs if k != "token" or self.tokens.valid(v)]
            valid = valid or any(k == "token" for k, _ in kept)
            query = urlencode(kept).encode("latin-1")
        issued = None
        if not valid and scope["type"] == "http" and scope.get("path", "").startswith(self.issue_under):
            issued = self.tokens.issue()
            out.append((HEADER.encode(), issued.encode()))
        return {**scope, "headers": out, "query_string": query}, issued

    async def _body(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, checked; None after an error answer was sent."""
        headers = Headers(scope=scope)
        declared = headers.get("content-length")
        max_body = UPLOADS.get(scope.get("path", ""), self.max_body)
        if declared is not None:
            try:
                too_big = int(declared) > max_body
            except ValueError:
                await self._deny(scope, receive, send, 400, "bad Content-Length")
                return None
            if too_big:
                await self._deny(scope, receive, send, 413, f"request bodies are at most {max_body} bytes")
                return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > max_body:
                await self._deny(scope, receive, send, 413, f"request bodies are at most {max_body} bytes")
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body.strip():
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/json" and not ctype.endswith("+json"):
                await self._deny(scope, receive, send, 415,
                                 "request bodies are JSON: send Content-Type: application/json")
                return None
            problem = json_problem(body, self.max_depth)
            if problem:
                await self._deny(scope, receive, send, 400, f"bad request body: {problem}")
                return None
        return body

    async def _deny(self, scope: Scope, receive: Receive, send: Send, status: int, message: str) -> None:
        if scope["type"] == "websocket":
            await WebSocketClose(code=1008, reason=message[:120])(scope, receive, send)
        else:
            await JSONResponse({"error": message}, status_code=status)(scope, receive, send)


def same_origin(origin: str, host: str | None) -> bool:
    """``origin`` (a browser's Origin header) is the app's own: its host:port is the Host the request went to."""
    if not host or origin == "null":
        return False
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def _cookie_token(value: bytes) -> str | None:
    for part in value.decode("latin-1").split(";"):
        k, _, v = part.strip().partition("=")
        if k == COOKIE:
            return v
    return None


def _drop_bad_cookie(value: bytes, tokens: Tokens) -> bytes:
    parts = []
    for part in value.decode("latin-1").split(";"):
        k, _, v = part.strip().partition("=")
        if k == COOKIE and not tokens.valid(v):
            continue
        if part.strip():
            parts.append(part.strip())
    return "; ".join(parts).encode("latin-1")


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


def _with_cookie(send: Send, token: str) -> Send:
    cookie = f"{COOKIE}={token}; Max-Age={365 * 86400}; Path=/; HttpOnly; SameSite=strict".encode()

    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers") or [])
            if not any(k.lower() == b"set-cookie" and v.startswith(COOKIE.encode() + b"=") for k, v in headers):
                headers.append((b"set-cookie", cookie))
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


class ClientSessions(Sessions):
    """``Sessions`` with per-client limits: a client over its limit loses its own least recently used live
    game; when the server is full, a new game is refused (``Busy``), never someone else's dropped."""

    def __init__(self, pool: Workers, on_finish: OnFinish | None = None, max_sessions: int = MAX_SESSIONS,
                 idle_seconds: float = IDLE_SECONDS, *, per_token: int = PER_TOKEN,
                 per_address: int = PER_ADDRESS) -> None:
        super().__init__(pool, on_finish, max_sessions, idle_seconds)
        self.per_token, self.per_address = per_token, per_address
        self.address: dict[str, str] = {}

    async def create(self, owner: str, start: State, sides: Sequence[Side], delay: float = 0.0,
                     custom_start: bool = False, moves: Sequence[Move] = (), clock: Clock | None = None,
                     analysis_level: int | None = None) -> GameSession:
        addr = CLIENT.get()
        self._drop_stale()
        self._limit([s for s in self.games.values() if s.owner == owner], self.per_token)
        self._limit([self.games[g] for g, a in self.address.items() if a == addr and g in self.games],
                    self.per_address)
        if len(self.games) >= self.max_sessions:
            raise Busy(f"the server holds {len(self.games)} live games, its limit: try again later")
        session = await super().create(owner, start, sides, delay, custom_start, moves, clock, analysis_level)
        self.address[session.id] = addr
        return session

    def _limit(self, mine: list[GameSession], limit: int) -> None:
        mine.sort(key=lambda s: s.touched)
        while len(mine) >= max(1, limit):
            oldest = mine.pop(0)
            self.games.pop(oldest.id, None)
            self.address.pop(oldest.id, None)
            oldest.close(f"this game was ended: its browser started more than {limit} live games, and it was the "
                         "least recently used (finished games are kept in the history)")

    def _drop_stale(self) -> None:
        now = time.monotonic()
        for gid, s in list(self.games.items()):
            if now - s.touched > self.idle_seconds and not s.watchers:
                self.games.pop(gid).close()
        for gid in [g for g in self.address if g not in self.games]:
            del self.address[gid]


__all__ = ["CLIENT", "COOKIE", "HEADER", "MAX_BODY", "MAX_DEPTH", "MAX_MESSAGE", "PER_ADDRESS", "PER_TOKEN", "Busy",
           "ClientSessions", "Guard", "Tokens", "allowed_hosts", "json_problem", "parse_json"]
