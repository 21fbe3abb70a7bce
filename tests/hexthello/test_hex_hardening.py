"""What an attacker, a flaky network or the course's own C programs do to the HexThello parts, each sent
exactly: names that are rich markup, signed name lengths, holes (ILLEGAL cells), the C server's 102/103
before 107, pass bytes, silent and slow connections, a client started before its server, log lines in a
file, games cut by a kill and match numbers across restarts."""

from __future__ import annotations

import asyncio
import random
import socket
import threading
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from plies.cli import main
from plies.game import PASS
from plies.games.hexthello import ILLEGAL, HexThelloState, index, read_holes
from plies.net.hexthello import protocol as P
from plies.net.hexthello.client import HexClient
from plies.net.hexthello.server import HexServer, summary_table
from plies.net.hexthello.store import Store
from plies.net.hexthello.viewer import create_app, parse_message
from plies.players import RandomPlayer

from .cframework import CServer
from .netutil import TIMEOUT, RawAgent, running_server

pytestmark = pytest.mark.timeout(120)

HOLES = "5 6, 5 7, 7 5, 9 6, 6 9, 8 8, 4 8"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(check, what: str, limit: float = TIMEOUT) -> None:  # type: ignore[no-untyped-def]
    end = time.monotonic() + limit
    while not check():
        if time.monotonic() > end:
            raise AssertionError(f"never: {what}")
        time.sleep(0.02)


def named(port: int, name: bytes) -> RawAgent:
    """A C-style agent that takes its colour and gives its name, and then does nothing more."""
    x = RawAgent(port, name)
    x.msg(), x.msg()
    x.send_name()
    return x


def play_pair(port: int, names: tuple[bytes, bytes] = (b"alpha", b"beta")) -> tuple[RawAgent, RawAgent]:
    a = RawAgent(port, names[0])
    time.sleep(0.05)
    b = RawAgent(port, names[1])
    threads = [threading.Thread(target=x.play_until_quit) for x in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(TIMEOUT)
    return a, b


# --- rules: holes ---------------------------------------------------------------------------------------------

def test_holes_are_honoured_by_the_rules() -> None:
    holes = read_holes(HOLES)
    s = HexThelloState.start(holes)
    # black's legal cells at the start are 5 6, 5 7, 6 9, 7 9, 8 5, 8 8, 9 5, 9 6: holes take five away
    assert [s.move_str(m) for m in s.legal_moves()] == ["5 8", "6 6", "7 9", "8 5", "9 5"]
    with pytest.raises(Exception, match="hole"):
        s.play(index(5, 6))
    assert s.to_array()[index(7, 5)] == ILLEGAL and s.empties() == 169 - 7 - 7
    assert HexThelloState.from_array(s.to_array(), 1) == s and HexThelloState.from_text(s.to_text()) == s
    assert "#" in s.board_str() and s != HexThelloState.start()
    # a line of discs stops at a hole: (7 5) is a hole, so White cannot flip through it
    with pytest.raises(Exception, match="start cells"):
        read_holes("7 7")
    with pytest.raises(Exception, match="not on the board"):
        read_holes("0 0")
    rng = random.Random(3)
    while not s.is_over():  # a whole game never puts a disc on a hole
        s = s.play(rng.choice(s.legal_moves()))
        assert not (s.black | s.white) & holes


# --- the plies client against the C server (recorded byte exchanges) -----------------------------------------

def serve_two(server: CServer, first: HexClient, second: HexClient, wait: float) -> None:
    """``server``'s session with ``first`` (connected first: white) and ``second``, each in a thread."""
    threads = [threading.Thread(target=server.serve), threading.Thread(target=first.run)]
    for t in threads:
        t.start()
    wait_until(lambda: server.accepted == 1, "first client connected")
    threads.append(threading.Thread(target=second.run))
    threads[-1].start()
    for t in threads:
        t.join(wait)


def test_plies_clients_meet_the_c_server_exactly() -> None:
    """Two plies clients, one with a name of 13 bytes, against the framework's server with holes and -s:
    names of at most 8 bytes, no move on a hole (the C server would call it illegal), 102/103 after every
    game before 107, and passes sent with a row of -50."""
    holes = read_holes(HOLES)
    server = CServer(games=2, swap=True, holes=holes)
    c1 = HexClient(RandomPlayer(11), "averylongname", port=server.port, timeout=TIMEOUT)
    c2 = HexClient(RandomPlayer(12), "two", port=server.port, timeout=TIMEOUT)
    serve_two(server, c1, c2, TIMEOUT)
    p1, p2 = server.players
    assert p1.received[:9] == b"\x08averylon" and p1.name == b"averylon" and p2.name == b"two"
    assert not server.name_errors
    assert [g.illegal for g in server.log] == [None, None] and all(g.final.is_over() for g in server.log)
    # what the C server sent: 102 106 101 ... after game 1: 103, game 2, then 102 before 107
    assert p1.sent[:2] == bytes([P.COLOR_W, P.REQUEST_NAME]) and p1.sent[2] == P.NEW_POSITION
    colours = [b for b in p1.sent if b in (P.COLOR_W, P.COLOR_B)]
    assert len(colours) >= 3 and p1.sent[-2:] == bytes([P.COLOR_W, P.QUIT])
    assert p2.sent[-2:] == bytes([P.COLOR_B, P.QUIT])
    assert c1.record.colours == ["white", "black", "white"] and c2.record.colours == ["black", "white", "black"]
    assert c1.record.quit and c2.record.quit and c1.record.positions == 2
    for g in server.log:  # passes were sent as row -50
        assert all(m[0] == 0xCE or P.move_from_rowcol(*P.decode_move(m)) != PASS for m in g.moves)


def test_compiled_agents_play_around_holes() -> None:
    """The default agent searches on the compiled board, which has no holes: on a board with holes the client
    plays document 004's alpha-beta through the textbook search instead, never a hole."""
    from plies.players.hexthello import Doc004Player, HexEnginePlayer

    holes = read_holes(HOLES)
    server = CServer(games=1, holes=holes)
    c1 = HexClient(HexEnginePlayer(depth=1), "engine", port=server.port, timeout=TIMEOUT)
    c2 = HexClient(Doc004Player(1), "doc004", port=server.port, timeout=TIMEOUT)
    serve_two(server, c1, c2, TIMEOUT * 3)
    assert server.log[0].illegal is None and server.log[0].final.is_over()


def test_the_compiled_searchers_take_holes_as_walls() -> None:
    """With holes on the board the compiled document-004 search equals the textbook one with the doc004
    evaluation (the rules' holes), and the engine's moves are legal there."""
    import random

    from plies import heuristics
    from plies.games.hexthello import index
    from plies.hexsearch import HexEngine, doc004_value
    from plies.search import alphabeta

    rng = random.Random(4)
    holes = sum(1 << index(i, j) for i, j in ((7, 3), (5, 9), (9, 5), (3, 11), (11, 3)))
    checked = 0
    for _ in range(6):
        s = HexThelloState.start(holes)
        for _ in range(rng.randrange(0, 30)):
            if s.is_over():
                break
            s = s.play(rng.choice(s.legal_moves()))
        if s.is_over():
            continue
        for depth in (1, 2):
            assert doc004_value(s, depth) == alphabeta(s, depth, heuristics.get("hexthello", "doc004")).value
        assert HexEngine(table_bits=12).search(s, depth=3).move in s.legal_moves()
        checked += 1
    assert checked >= 3


def test_c_server_reads_a_signed_name_length() -> None:
    """A 200-byte name breaks the C server (its length byte is a signed char): plies never sends one."""
    assert P.encode_name("x" * 200)[0] == 8 and P.encode_name("δδδδδ")[0] == 8  # cut at a character boundary
    assert P.encode_name("δδδδδ")[1:].decode() == "δδδδ"
    assert P.name_length(127) == 127
    with pytest.raises(P.ProtocolError, match="signed char"):
        P.name_length(200)


# --- the plies server against C-style agents ----------------------------------------------------------------

def test_markup_name_does_not_kill_the_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The exact input: connect, read two bytes, send b'\\x03[/]'; the name is printed as text, the match
    is played and stored, and ``plies hexthello games`` lists it."""
    port, db = free_port(), tmp_path / "hex.sqlite"
    codes: dict[str, int] = {}
    server = threading.Thread(target=lambda: codes.setdefault("server", main(
        ["hexthello", "server", "-p", str(port), "--db", str(db), "--summary-every", "0"])))
    server.start()
    end = time.monotonic() + TIMEOUT
    while True:
        try:
            s = socket.create_connection(("127.0.0.1", port))
            break
        except OSError:
            assert time.monotonic() < end
            time.sleep(0.05)
    s.recv(1)
    s.recv(1)
    s.sendall(b"\x03[/]")
    other = RawAgent(port, b"[bold]x")
    t = threading.Thread(target=other.play_until_quit)
    t.start()
    agent = RawAgent.__new__(RawAgent)  # the socket goes on playing as a C client
    agent.sock, agent.name, agent.state, agent.me, agent.log, agent.positions = s, b"[/]", \
        HexThelloState.start(), 1, [], []
    agent.play_until_quit()
    t.join(TIMEOUT)
    server.join(TIMEOUT)
    assert codes == {"server": 0}
    out = capsys.readouterr().out
    assert "[/]" in out and "[bold]x" in out and "internal error" not in out
    assert main(["hexthello", "games", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    assert "[/]" in listing and "[bold]x" in listing


def test_games_lists_a_database_with_markup_everywhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "[b]x.sqlite"
    store = Store(str(db))
    gid = store.start_game(1, 1, "[/]", "[red")
    store.finish_game(gid, "black", 10, 2, "illegal move [/b]")
    store.close()
    assert main(["hexthello", "games", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "[/]" in out and "[red" in out and "[/b]" in out
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all" * 100)
    assert main(["hexthello", "games", "--db", str(tmp_path / "junk.sqlite")]) == 2
    assert "junk.sqlite is not a HexThello games database" in capsys.readouterr().err


def test_server_reads_the_name_length_as_a_signed_char() -> None:
    with running_server(games=1, matches=1) as server:
        bad = socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT)
        assert bad.recv(1) + bad.recv(1) == bytes([P.COLOR_W, P.REQUEST_NAME])
        bad.sendall(bytes([200]) + b"x" * 200)  # negative as the C server reads it: dropped
        assert bad.recv(16) == b""
        long = RawAgent(server.port, b"y" * 127)  # the longest name the C server can read: kept as 8
        other = RawAgent(server.port, b"z")
        threads = [threading.Thread(target=x.play_until_quit) for x in (long, other)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        rows = server.store.games()
    assert len(rows) == 1 and {rows[0]["black"], rows[0]["white"]} == {"yyyyyyyy", "z"}


def test_c_order_with_swap_and_holes() -> None:
    """-g 2 -s with holes: the byte log of each agent is the C server's: 102 106 101 ... 103 101 ... 102 107
    (and 103 ... 102 ... 103 107 for the second); positions carry ILLEGAL on the holes."""
    holes = read_holes(HOLES)
    with running_server(games=2, swap=True, holes=holes) as server:
        a, b = play_pair(server.port)
        rows = server.store.games()
    assert a.positions[0][index(7, 5)] == ILLEGAL and a.positions[0] == P.encode_position(HexThelloState.start(holes))
    colours_a = [m for m in a.log if m in (P.COLOR_W, P.COLOR_B, P.QUIT, P.NEW_POSITION, P.REQUEST_NAME)]
    colours_b = [m for m in b.log if m in (P.COLOR_W, P.COLOR_B, P.QUIT, P.NEW_POSITION, P.REQUEST_NAME)]
    assert colours_a == [102, 106, 101, 103, 101, 102, 107]
    assert colours_b == [103, 106, 101, 102, 101, 103, 107]
    assert len(rows) == 2 and all(r["reason"] == "normal" for r in rows)
    for r in rows:  # nobody played on a hole
        assert not any(holes >> (m["row"] * 15 + m["col"]) & 1 for m in r["moves"] if m["row"] >= 0)


def test_an_agent_playing_on_a_hole_loses() -> None:
    with running_server(games=1, holes=read_holes(HOLES)) as server:
        rows_before = server.store.games()
        a = RawAgent(server.port, b"white")
        time.sleep(0.05)
        b = RawAgent(server.port, b"black")
        ta = threading.Thread(target=a.play_until_quit)
        tb = threading.Thread(target=b.play_until_quit, args=({1: b"\x05\x06"},))
        ta.start(), tb.start()
        ta.join(TIMEOUT), tb.join(TIMEOUT)
        rows = server.store.games()
    assert not rows_before and rows[0]["winner"] == "white" and "hole" in rows[0]["reason"]


def _game_with_a_pass() -> list[int]:
    """A game from the start, by seeded random play, in which someone must pass (found, not typed in)."""
    for seed in range(1000):
        rng, s, moves = random.Random(seed), HexThelloState.start(), []
        while not s.is_over():
            m = rng.choice(s.legal_moves())
            moves.append(m)
            s = s.play(m)
        if PASS in moves:
            return moves
    raise AssertionError("no game with a pass")


def test_a_pass_is_forwarded_with_the_clients_column_byte() -> None:
    moves = _game_with_a_pass()
    script = iter(moves)
    received: dict[str, list[bytes]] = {"white": [], "black": []}

    def agent(name: bytes, colour: str) -> None:
        x = RawAgent(port, name)
        while True:
            m = x.msg()
            if m == P.REQUEST_NAME:
                x.send_name()
            elif m == P.NEW_POSITION:
                x.read(228)
            elif m == P.PREPARE_TO_RECEIVE_MOVE:
                received[colour].append(x.read(2))
            elif m == P.REQUEST_MOVE:
                move = next(script)
                x.send(b"\xce\x09" if move == PASS else bytes(divmod(move, 15)))
            elif m == P.QUIT:
                return

    with running_server(games=1) as server:
        port = server.port
        ta = threading.Thread(target=agent, args=(b"w", "white"))
        ta.start()
        wait_until(lambda: server.lobby or server.naming, "first agent")
        time.sleep(0.05)
        tb = threading.Thread(target=agent, args=(b"b", "black"))
        tb.start()
        ta.join(TIMEOUT), tb.join(TIMEOUT)
        rows = server.store.games()
    assert rows[0]["reason"] == "normal" and len(rows[0]["moves"]) == len(moves)
    forwarded = received["white"] + received["black"]
    assert b"\xce\x09" in forwarded  # as the C server: the two bytes as they came


def test_silent_connections_cost_only_their_own_slot() -> None:
    """Six connections that never give a name, then two agents: the match is played at once (names are asked
    when each connects, not in turn), while the silent six are still waiting for their name time."""
    with running_server(games=3, name_time=60, matches=0) as server:
        silent = [socket.create_connection(("127.0.0.1", server.port), timeout=TIMEOUT) for _ in range(6)]
        wait_until(lambda: len(server.naming) == 6, "six silent connections")
        a, b = play_pair(server.port)
        rows = server.store.games()
        assert len(rows) == 3 and all(r["reason"] == "normal" for r in rows)
        assert len(server.naming) == 6  # still within their name time: they never held anyone up
        for s in silent:
            s.close()


def test_a_stuck_match_does_not_hold_up_another() -> None:
    """Matches run side by side: a match whose agent never moves (move time 60 s) does not delay the next."""
    with running_server(games=1, matches=2) as server:
        stuck_a = named(server.port, b"stuck")  # they give their names, then never move
        stuck_b = named(server.port, b"mute")
        wait_until(lambda: any(r["status"] == "playing" for r in server.store.games()), "stuck match started")
        a, b = play_pair(server.port, (b"one", b"two"))
        rows = server.store.games()
        assert [r["status"] for r in rows] == ["playing", "finished"]
        assert rows[1]["match"] == 2 and a.log[-1] == P.QUIT
        stuck_a.close(), stuck_b.close()


def test_names_print_as_text_and_log_lines_are_not_wrapped(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    port, db = free_port(), tmp_path / "hex.sqlite"
    codes: dict[str, int] = {}
    server = threading.Thread(target=lambda: codes.setdefault("server", main(
        ["hexthello", "server", "-p", str(port), "--db", str(db)])))
    server.start()
    wait_until(lambda: db.exists(), "server up")
    time.sleep(0.2)
    a = RawAgent(port, b"[/]white")
    time.sleep(0.05)
    b = RawAgent(port, b"[b]black")
    ta = threading.Thread(target=a.play_until_quit)
    tb = threading.Thread(target=b.play_until_quit, args=({1: b"\x07\x07"},))
    ta.start(), tb.start()
    ta.join(TIMEOUT), tb.join(TIMEOUT)
    server.join(TIMEOUT)
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("match 1 game 1:"))
    assert len(line) > 80 and line.endswith("is occupied")  # one line, not wrapped at 80 columns
    assert "[b]black (black) vs [/]white (white)" in line


def test_client_retries_until_the_server_is_up() -> None:
    port = free_port()
    said: list[str] = []
    client = HexClient(RandomPlayer(1), "early", port=port, timeout=TIMEOUT, connect_wait=TIMEOUT,
                       log=said.append)
    thread = threading.Thread(target=client.run)
    thread.start()
    wait_until(lambda: said, "a first failed try")
    assert "retrying every 1 s" in said[0]
    listener = socket.create_server(("127.0.0.1", port))
    listener.settimeout(TIMEOUT)
    conn, _ = listener.accept()  # the client's next try, a second later
    conn.sendall(bytes([P.QUIT]))
    thread.join(TIMEOUT)
    conn.close(), listener.close()
    assert client.record.quit
    with pytest.raises(Exception, match="cannot connect"):
        HexClient(RandomPlayer(1), port=free_port(), connect_wait=0).run()


def test_interrupted_games_and_match_numbers_across_restarts(tmp_path: Path) -> None:
    db = str(tmp_path / "hex.sqlite")
    store = Store(db)
    gid = store.start_game(4, 1, "left", "behind")  # what a killed server leaves: a game still "playing"
    store.add_move(gid, 1, "black", 6, 6, 0.1)
    store.close()
    with running_server(games=1, store=Store(db)) as server:
        play_pair(server.port)
        rows = server.store.games()
    assert rows[0]["status"] == "interrupted" and "interrupted" in rows[0]["reason"] and len(rows[0]["moves"]) == 1
    assert rows[1]["match"] == 5 and rows[1]["status"] == "finished"


def test_stopping_the_server_marks_the_game_in_progress_interrupted(tmp_path: Path) -> None:
    store = Store(str(tmp_path / "hex.sqlite"))
    with running_server(games=1, store=store) as server:
        a = named(server.port, b"a")
        b = named(server.port, b"b")  # neither ever moves
        wait_until(lambda: server.store.games(), "game started")
    rows = store.games()
    assert rows[0]["status"] == "interrupted" and "stopped" in rows[0]["reason"]
    a.close(), b.close()


def test_summary_is_rate_limited_and_bounded() -> None:
    calls: list[int] = []
    with running_server(games=3, summary_every=3600, on_game=lambda s: calls.append(len(s.tally))) as server:
        play_pair(server.port)
    assert len(calls) == 1  # three games, one table
    for k in range(2000):  # agents choose their names: a table of 2,000 names shows the first 20
        server.tally[f"n{k}"] = type(server.tally["alpha"])(games=1, wins=k % 7)
    server._summary_cache = None
    table = summary_table(server)
    assert table.row_count == 20 and "1982 more" in str(table.caption)


def test_the_person_at_the_viewer_is_timed() -> None:
    from plies.cli.hexthello import log_line  # the command line's log: the seat's name "[/]" is text

    with running_server(games=1, person_time=0.3, matches=0, log=log_line) as server:
        app = TestClient(create_app(server), base_url="http://localhost")
        with app.websocket_connect("ws://localhost/ws") as ws:
            ws.receive_json()
            ws.send_json({"type": "play", "colour": "black", "name": "[/]"})
            agent = RawAgent(server.port, b"agent")
            t = threading.Thread(target=agent.play_until_quit)
            t.start()
            seen = None
            while seen is None:
                event = ws.receive_json()
                if event.get("type") == "state" and event.get("result"):
                    seen = event
            t.join(TIMEOUT)
        rows = server.store.games()
    assert rows[0]["black"] == "[/]" and rows[0]["winner"] == "white" and "did not move" in rows[0]["reason"]


def test_viewer_refuses_deep_long_and_odd_messages() -> None:
    with pytest.raises(ValueError, match="nest"):
        parse_message("[" * 100_000 + "]" * 100_000, max_bytes=1_000_000)
    with pytest.raises(ValueError, match="at most"):
        parse_message("x" * 5000)
    with pytest.raises(ValueError, match="JSON"):
        parse_message('{"row": NaN}')
    with running_server(games=1) as server:
        app = TestClient(create_app(server), base_url="http://localhost")
        with app.websocket_connect("ws://localhost/ws") as ws:
            ws.receive_json()
            ws.send_text("[" * 100_000 + "]" * 100_000)
            assert "at most" in ws.receive_json()["text"]
            ws.send_text("[" * 50 + "]" * 50)
            assert "nest" in ws.receive_json()["text"]
            ws.send_text('"\\ud800"')
            assert "unknown request" in ws.receive_json()["text"]
            ws.send_json({"type": "move", "row": 2**70, "col": 1})
            assert "take a seat" in ws.receive_json()["text"]
            ws.send_json({"type": "ping"})
            assert "unknown request" in ws.receive_json()["text"]


def test_a_viewer_that_stops_reading_is_bounded_and_closed() -> None:
    """A WebSocket viewer that never reads: its queue stays bounded, and once a send is stuck it is closed,
    while the server goes on publishing."""
    import uvicorn

    from plies.net.hexthello import viewer

    with running_server(games=1, matches=0) as server:
        old = viewer.SEND_TIME
        viewer.SEND_TIME = 0.5
        try:
            port = free_port()
            web = uvicorn.Server(uvicorn.Config(create_app(server), host="127.0.0.1", port=port,
                                               log_level="warning", lifespan="off"))
            box: dict[str, object] = {}
            thread = threading.Thread(target=lambda: asyncio.run(web.serve()), daemon=True)
            thread.start()
            wait_until(lambda: web.started, "viewer up")
            raw = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            raw.sendall(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            wait_until(lambda: server.listeners, "viewer registered")
            big = {"type": "notice", "text": "x" * 100_000}
            for _ in range(400):  # 40 MB to a reader that takes nothing
                server._call(server.publish, big)
                time.sleep(0.001)
                if not server.listeners:
                    break
            wait_until(lambda: not server.listeners, "the silent viewer closed")
            box["closed"] = True
            raw.close()
            web.should_exit = True
            thread.join(TIMEOUT)
        finally:
            viewer.SEND_TIME = old
    assert box["closed"]


def test_hexserver_accepts_holes_and_a_zero_move_time() -> None:
    server = HexServer(port=0, holes=read_holes("7 3"), move_time=0, name_time=0)
    assert server.move_time is None and server.name_time is None
    assert server.start_state.holes == 1 << index(7, 3)


def test_viewer_answers_only_its_own_host_and_page() -> None:
    from starlette.websockets import WebSocketDisconnect

    with running_server(games=1) as server:
        assert TestClient(create_app(server), base_url="http://evil.example").get("/api/state").status_code == 400
        lan = TestClient(create_app(server, allow_hosts=["hex.lan"]), base_url="http://hex.lan:8080")
        assert lan.get("/api/state").status_code == 200
        app = TestClient(create_app(server), base_url="http://localhost")
        with pytest.raises(WebSocketDisconnect) as e, app.websocket_connect(
                "ws://localhost/ws", headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
        assert e.value.code == 1008 and not server.listeners
        with app.websocket_connect("ws://localhost/ws", headers={"origin": "http://localhost"}) as ws:
            assert ws.receive_json()["type"] == "idle"
