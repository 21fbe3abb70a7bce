"""The games resource (``/api/games``, docs/web.md): start a live game, read it and its positions, play, undo,
redo, go back and play on, resign, a rematch, stop it; a friend's seat taken with the invite code
(``/api/join``); and its WebSocket, the game live."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime

from fastapi import APIRouter, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from plies.game import PliesError, State
from plies.games import type_of
from plies.games.record import Game
from plies.i18n import N_
from plies.web import boards, views
from plies.web.clock import Clock
from plies.web.files import ggf_file, list_games, open_file, transcript_file
from plies.web.guard import parse_json
from plies.web.routes import NOT_YOURS, Route, found, live, owned, seated, set_token, token_of
from plies.web.routes.analysis import hint
from plies.web.schemas import MOVE_MAX_LENGTH, BranchIn, FileIn, JoinIn, MoveIn, PlayerSpec, SettingsIn, StartGame
from plies.web.sessions import GameSession, NotSeated, Sessions, Side
from plies.web.setup import read_setup, start_for
from plies.web.turns import Computer, make_computer
from plies.web.views import FileGames, GameView, JoinView, Message, PositionView, TranscriptView

router = APIRouter(tags=["games"], route_class=Route)
OUTBOX = 512
"""Messages a WebSocket may leave unread; one more and the server closes it (1008)."""
WAIT_SECONDS = 120.0
"""The longest a ``?wait=true`` answer waits for the computer."""


def _side(state: State, spec: PlayerSpec) -> Side:
    if spec.kind in ("human", "friend"):
        return Side("human", name=(spec.name or "").strip(), friend=spec.kind == "friend")
    return Side("computer", make_computer(state, spec.level, spec.algorithm, spec.heuristic), name=spec.name or "")


async def start_game(sessions: Sessions, token: str, spec: StartGame) -> GameSession:
    """A new game from ``spec`` for the browser with ``token``: a pasted transcript's moves become the game's
    history, a board starts without one; PliesError names what is wrong."""
    if spec.replaces:
        old = sessions.get(spec.replaces)
        if old is not None and old.owner == token:
            old.abandon()
    opened = open_file(spec.game, spec.size, spec.position, spec.index) if spec.position else None
    if opened is not None:
        played = Game(opened.start, opened.moves)
        for k, name in enumerate(spec.moves or (), len(played.moves) + 1):
            try:
                played.play(name)
            except PliesError as e:
                raise PliesError(f"move {k} ({name}): {e}") from None
        start, moves = played.start, played.moves
    else:
        start, moves = read_setup(spec.game, spec.size, spec.position, spec.moves)
    if start.is_over():
        raise PliesError("that position is already finished: nothing to play")
    kinds = sorted(p.kind for p in spec.players)
    if "friend" in kinds and kinds != ["friend", "human"]:
        raise PliesError("a game with a friend has one side 'human' (this browser) and one side 'friend'")
    names = opened.names if opened is not None else ("", "")
    if Game(start, moves).over:  # a finished game opened for review: its players, never "You" and a computer
        sides = [Side("human", name=name) for name in names]
    else:
        sides = [_side(start, p) for p in spec.players]
        if all(p.kind == "human" and not p.name for p in spec.players):  # two people go on with the file's game
            for side, name in zip(sides, names, strict=True):
                side.name = name
    clock = Clock(spec.clock.minutes * 60.0, spec.clock.increment) if spec.clock is not None else None
    t = type_of(start)
    custom = start != start_for(spec.game, t.board_size(start) if t is not None else None)
    session = await sessions.create(token, start, sides, spec.delay, custom_start=custom, moves=moves, clock=clock,
                                    analysis_level=spec.analysis_level)
    if opened is not None and opened.games > 1:
        session.say(N_("Game {index} of the {games} in the file."), index=str(spec.index), games=str(opened.games))
    return session


@router.post("/api/games/new", summary="Start a game: a transcript's moves kept, a board, a clock, the analysis level;"
             " answers the game and this browser's token")
async def new_game(spec: StartGame, request: Request) -> JSONResponse:
    token = token_of(request) or request.app.state.tokens.issue()  # the guard gave this request a server token
    session = await start_game(request.app.state.sessions, token, spec)
    response = JSONResponse({"token": token, "game": await session.answer(token)})
    set_token(response, token)
    return response


async def _answer(session: GameSession, request: Request, wait: bool = False) -> GameView:
    """The game as the page draws it, after the computer's reply when ``wait``."""
    if wait:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(session.idle.wait(), WAIT_SECONDS)
    return await session.answer(token_of(request))


@router.post("/api/files/games", summary="The games of a game file (GGF, tagged transcripts), to pick one to open")
async def post_file_games(body: FileIn) -> FileGames:
    return list_games(body.text)


@router.get("/api/games/{gid}", summary="A game as the page draws it")
async def get_game(gid: str, request: Request, wait: bool = False) -> GameView:
    return await _answer(live(request, gid), request, wait)


@router.post("/api/games/{gid}/moves", summary="Play a move; with wait=true, answer after the computer replied")
async def post_move(gid: str, body: MoveIn, request: Request, wait: bool = False) -> GameView:
    session = seated(request, gid)
    await session.move(body.move, token_of(request))
    return await _answer(session, request, wait)


@router.post("/api/games/{gid}/resign", summary="Resign: the other side wins (on one screen, the side to move resigns)")
async def post_resign(gid: str, request: Request) -> GameView:
    session = seated(request, gid)
    session.resign(token_of(request))
    return await _answer(session, request)


async def rematch(sessions: Sessions, session: GameSession, token: str | None) -> GameSession:
    """The game again with the colours swapped (the same players, levels, clock and start), once it is over;
    the players' pages follow ``session.rematch`` to it.  A second request gets the same game."""
    if not session.seats_of(token):
        raise NotSeated(NOT_YOURS)
    if not session.game.over:
        raise PliesError("a rematch starts once the game is over")
    if session.rematch is not None and (again := sessions.get(session.rematch)) is not None:
        return again
    start = session.game.start
    sides = [Side(s.kind, Computer(s.computer.difficulty, s.computer.difficulty.player(start.game))
                  if s.computer is not None else None, name=s.name, token=s.token, friend=s.friend)
             for s in reversed(session.sides)]
    clock = Clock(session.clock.initial, session.clock.increment) if session.clock is not None else None
    again = await sessions.create(session.owner, start, sides, session.delay, custom_start=session.custom_start,
                                  clock=clock, analysis_level=session.analysis_level)
    session.rematch = again.id
    session.say(N_("A rematch has started, with the colours swapped."))
    session.touch()
    return again


@router.post("/api/games/{gid}/rematch", summary="A finished game again with the colours swapped")
async def post_rematch(gid: str, request: Request) -> GameView:
    session = await rematch(request.app.state.sessions, live(request, gid), token_of(request))
    return await _answer(session, request)


@router.get("/api/join/{code}", summary="What an invite code opens: the game, who invites, the seat still open")
async def get_join(code: str, request: Request) -> JoinView:
    session = _invited(request, code)
    seat = session.open_seat()
    host = next((s.name for s in session.sides if s.kind == "human" and not s.friend), "")
    return {"id": session.id, "game": session.state.game, "layout": boards.layout(session.game.start),
            "host": host, "open": seat is not None,
            "seat": session.state.player_names[seat] if seat is not None else None, "over": session.game.over}


def _invited(request: Request, code: str) -> GameSession:
    """The live game of an invite code (404 when there is none)."""
    session: GameSession | None = request.app.state.sessions.by_code(code)
    if session is None:
        raise HTTPException(404, f"no game with the invite code {code.strip()[:20]!r} on this server (a code lasts "
                                 "as long as its game is live)")
    return session


@router.post("/api/join", summary="Take the friend's seat of a game with its invite code (both taken: watch it)")
async def post_join(body: JoinIn, request: Request) -> JSONResponse:
    session = _invited(request, body.code)
    token = token_of(request) or request.app.state.tokens.issue()
    seat = session.join(token, body.name or "")
    response = JSONResponse({"token": token, "seat": seat, "game": await session.answer(token)})
    set_token(response, token)
    return response


@router.post("/api/games/{gid}/undo", summary="Take back to your previous turn (two browsers: ask, or agree)")
async def post_undo(gid: str, request: Request) -> GameView:
    session = live(request, gid)
    if session.with_friend:
        await session.take_back(token_of(request))
    else:
        await owned(request, gid).undo()
    return await _answer(session, request)


@router.post("/api/games/{gid}/undo/decline", summary="Two browsers: say no to the other player's take-back")
async def post_decline(gid: str, request: Request) -> GameView:
    session = live(request, gid)
    session.decline(token_of(request))
    return await _answer(session, request)


@router.post("/api/games/{gid}/redo", summary="Play again what undo took back")
async def post_redo(gid: str, request: Request, wait: bool = False) -> GameView:
    session = owned(request, gid)
    await session.redo()
    return await _answer(session, request, wait)


@router.post("/api/games/{gid}/branch", summary="Play on from an earlier position: the moves after it are replaced")
async def post_branch(gid: str, body: BranchIn, request: Request) -> GameView:
    session = owned(request, gid)
    await session.branch(body.ply, body.move)
    return await _answer(session, request)


@router.post("/api/games/{gid}/settings", summary="The engine level of the game's analysis (graph, hints, review)")
async def post_settings(gid: str, body: SettingsIn, request: Request) -> GameView:
    session = owned(request, gid)
    session.set_analysis_level(body.analysis_level)
    return await _answer(session, request)


@router.post("/api/games/{gid}/abandon", summary="Stop a game (its computer stops searching)")
async def post_abandon(gid: str, request: Request) -> dict[str, bool]:
    owned(request, gid).abandon()
    return {"ok": True}


@router.get("/api/games/{gid}/positions/{ply}", summary="The position after PLY moves, as the page draws it")
async def get_position(gid: str, ply: int, request: Request) -> PositionView:
    session = live(request, gid)
    await session.settled()  # the last position says whether the game is over: only once it is stored
    return {**views.frame(session, ply), "version": session.version}


@router.get("/api/games/{gid}/transcript", summary="The moves so far, the start position, the game as files")
async def get_transcript(gid: str, request: Request) -> TranscriptView:
    session = live(request, gid)
    game = session.game
    names = [views.side_view(side, colour)["name"] for side, colour in zip(session.sides, game.start.player_names,
                                                                            strict=True)]
    date = datetime.fromtimestamp(session.started_at, UTC).isoformat(timespec="seconds")
    return {"game": game.state.game, "start": game.start.to_text(), "transcript": game.transcript(),
            "moves": game.names(), "position": game.state.to_text(), "file": transcript_file(game),
            "ggf": ggf_file(game, names[0], names[1], date)}


@router.websocket("/ws/games/{gid}")
async def ws_game(websocket: WebSocket, gid: str) -> None:
    """Live game: the server sends ``state``/``eval``/``hint``/``error`` messages; the client sends
    ``{"type": "move", "move": "d3"}``, ``undo``, ``redo``, ``hint`` (``count``), ``abandon``, ``ping``."""
    await websocket.accept()
    session = found(websocket, gid)
    if session is None:
        await websocket.send_json({"type": "error", "message": f"no game {gid!r} on this server"})
        await websocket.close(code=4404)
        return
    token = token_of(websocket)
    queue = Outbox()
    session.watchers.add(queue)
    queue.put_nowait({"type": "state"})
    sender = asyncio.create_task(_pump(websocket, session, queue, token))
    try:
        while True:
            try:
                message = await websocket.receive()
            except (WebSocketDisconnect, RuntimeError):
                break
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            raw: str | bytes = text if isinstance(text, str) else message.get("bytes") or b""
            try:
                await _handle(websocket, session, parse_json(raw), token, queue)
            except PliesError as e:
                queue.put_nowait({"type": "error", "message": str(e)})
            if queue.overflowed:  # a client that sends without reading: its socket ends, the game goes on
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender
                with contextlib.suppress(Exception):
                    await websocket.close(code=1008, reason=f"more than {OUTBOX} messages left unread")
                break
    finally:
        session.watchers.discard(queue)
        session.left()
        sender.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await sender


async def _handle(websocket: WebSocket, session: GameSession, msg: object, token: str | None,
                  queue: Outbox) -> None:
    """One message from the page; PliesError says what is wrong with it."""
    kind = msg.get("type") if isinstance(msg, dict) else None
    if kind in ("ping", "state"):
        queue.put_nowait({"type": "pong" if kind == "ping" else "state"})
        return
    if kind not in ("move", "undo", "redo", "hint", "abandon", "resign", "decline"):
        raise PliesError(f"unknown message type {kind!r}")
    owner, seated = token is not None and token == session.owner, bool(session.seats_of(token))
    players = kind in ("move", "resign", "decline") or (kind == "undo" and session.with_friend)
    if not (seated if players else seated or owner if kind == "hint" else owner):
        raise PliesError(NOT_YOURS)
    assert isinstance(msg, dict)
    if kind == "resign":
        session.resign(token)
    elif kind == "decline":
        session.decline(token)
    elif kind == "undo" and session.with_friend:
        await session.take_back(token)
    elif kind == "move":
        move = msg.get("move")
        if not isinstance(move, str):
            raise PliesError("a move message needs 'move', e.g. {\"type\": \"move\", \"move\": \"d3\"}")
        if not 1 <= len(move) <= MOVE_MAX_LENGTH:  # as POST .../moves: no move is longer
            raise PliesError(f"a move is 1 to {MOVE_MAX_LENGTH} characters long, not {len(move)}")
        await session.move(move, token)
    elif kind == "undo":
        await session.undo()
    elif kind == "redo":
        await session.redo()
    elif kind == "abandon":
        session.abandon()
    else:
        count = msg.get("count", 3)
        count = count if isinstance(count, int) and 1 <= count <= 20 else 3
        queue.put_nowait({"type": "hint", **await hint(websocket.app.state.pool, session, count)})


async def _pump(websocket: WebSocket, session: GameSession, queue: asyncio.Queue[Message],
                token: str | None) -> None:
    """Send queued messages; several pending state changes go out as one ``state`` message."""
    while True:
        batch = [await queue.get()]
        while not queue.empty():
            batch.append(queue.get_nowait())
        sent_state = False
        for m in batch:
            if m.get("type") == "closed":  # the server dropped the game: say why, then end the socket
                await websocket.send_json({"type": "error", "message": m["message"]})
                await websocket.close(code=4404)
                return
            if m.get("type") == "state":
                if not sent_state:
                    sent_state = True
                    await websocket.send_json({"type": "state", "game": await session.answer(token)})
            elif m.get("type") != "eval" or not sent_state:  # (an eval after a state: the state holds it)
                await websocket.send_json(m)


class Outbox(asyncio.Queue[Message]):
    """The messages waiting to go out on one WebSocket, at most ``OUTBOX``: ``put_nowait`` never raises; a
    message that finds it full is dropped and ``overflowed`` set, and the socket is then closed with code 1008
    (the page reconnects and is sent the game afresh).  A flood costs the flooder its socket, never the game."""

    def __init__(self) -> None:
        super().__init__(maxsize=OUTBOX)
        self.overflowed = False

    def put_nowait(self, item: Message) -> None:
        if self.full():
            self.overflowed = True
            return
        super().put_nowait(item)
