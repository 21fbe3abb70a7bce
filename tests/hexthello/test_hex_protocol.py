"""The course protocol byte for byte: encodings, the plies server against C-style raw clients, the plies
client against a fake raw server, a full swapped match, time-outs, disconnects and garbage."""

from __future__ import annotations

import socket
import threading

import pytest

from plies.game import PASS
from plies.games.hexthello import HexThelloState, index
from plies.net.hexthello import protocol as P
from plies.net.hexthello.client import HexClient
from plies.players import RandomPlayer

from .netutil import TIMEOUT, RawAgent, b_never_moves, running_server

pytestmark = pytest.mark.timeout(120)


def test_encodings() -> None:
    s = HexThelloState.start()
    pos = P.encode_position(s)
    assert len(pos) == 228 and pos[225:] == bytes([4, 3, 1])  # score[WHITE], score[BLACK], turn BLACK
    assert pos[index(7, 7)] == 0 and pos[index(7, 6)] == 1 and pos[index(0, 7)] == 2 and pos[0] == 4
    assert P.decode_position(pos) == s
    assert P.encode_move(PASS) == b"\xce\x00" and P.decode_move(b"\xce\x05") == (-50, 5)
    assert P.move_from_rowcol(-50, 9) == PASS and P.move_from_rowcol(7, 3) == index(7, 3)
    assert P.encode_move(index(7, 3)) == b"\x07\x03"
    assert P.encode_name("alice") == b"\x05alice" and P.decode_name(b"verylongname") == "verylong"
    with pytest.raises(P.ProtocolError):
        P.move_from_rowcol(0, 0)
    with pytest.raises(P.ProtocolError):
        P.decode_position(b"\x00" * 10)


def test_server_speaks_the_course_order_to_c_clients() -> None:
    with running_server(games=1) as server:
        a = RawAgent(server.port, b"first")
        b = RawAgent(server.port, b"second")
        assert a.msg() == P.COLOR_W and b.msg() == P.COLOR_B
        assert a.msg() == P.REQUEST_NAME
        a.send_name()
        assert b.msg() == P.REQUEST_NAME
        b.send_name()
        a.me, b.me = 1, 0
        for agent in (a, b):
            assert agent.msg() == P.NEW_POSITION
            pos = agent.read(228)
            assert pos == P.encode_position(HexThelloState.start())
            agent.state = HexThelloState.from_array(pos[:225], pos[227])
        assert b.msg() == P.REQUEST_MOVE  # black moves first
        move = b.first_legal()
        b.send(move)
        assert a.msg() == P.PREPARE_TO_RECEIVE_MOVE
        assert a.read(2) == move
        a.apply_opponent(move)
        assert a.msg() == P.REQUEST_MOVE
        # the rest of the game by the generic loop of each agent, in two threads
        a.send(a.first_legal())
        threads = [threading.Thread(target=x.play_until_quit) for x in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(TIMEOUT)
        assert a.log[-1] == P.QUIT and b.log[-1] == P.QUIT
        rows = server.store.games()
        assert len(rows) == 1 and rows[0]["status"] == "finished" and rows[0]["reason"] == "normal"
        assert rows[0]["black"] == "second" and rows[0]["white"] == "first"
        assert rows[0]["moves"][0]["colour"] == "black"
        final = HexThelloState.start()
        for m in rows[0]["moves"]:
            final = final.play(P.move_from_rowcol(m["row"], m["col"]))
        assert (rows[0]["black_discs"], rows[0]["white_discs"]) == final.counts() and final.is_over()
        assert final in (a.state, b.state)  # the side that moved last knows the final position


def _match(server_kwargs: dict, misbehave: dict[int, bytes] | None = None, close_on: int | None = None):
    """Two raw agents play a match; agent B (second, Black first) may misbehave or close at its n-th 104."""
    with running_server(**server_kwargs) as server:
        a = RawAgent(server.port, b"alpha")
        b = RawAgent(server.port, b"beta")
        if close_on is not None:
            orig = b.first_legal
            count = {"n": 0}

            def closing() -> bytes:
                count["n"] += 1
                if count["n"] == close_on:
                    b.sock.shutdown(socket.SHUT_RDWR)
                    raise ConnectionError("closed on purpose")
                return orig()

            b.first_legal = closing  # type: ignore[method-assign]
        ta = threading.Thread(target=a.play_until_quit)
        tb = threading.Thread(target=b.play_until_quit, args=(misbehave,))
        ta.start()
        tb.start()
        ta.join(TIMEOUT)
        tb.join(TIMEOUT)
        return server, a, b, server.store.games()


def test_illegal_and_garbage_moves_lose_and_the_match_goes_on() -> None:
    server, a, b, rows = _match({"games": 3}, misbehave={1: b"\xff\xff", 5: b"\x07\x07"})
    assert len(rows) == 3
    assert rows[0]["winner"] == "white" and "illegal move (-1 -1)" in rows[0]["reason"]
    assert "not a cell" in rows[0]["reason"]
    assert rows[0]["moves"][0]["row"] == -1  # the bad move itself is on record
    assert all(r["status"] == "finished" for r in rows)
    assert any("occupied" in r["reason"] for r in rows[1:])
    assert a.log[-1] == P.QUIT and b.log[-1] == P.QUIT
    tally = {row["name"]: row for row in server.summary_rows()}
    assert tally["beta"]["losses"] >= 2 and tally["alpha"]["games"] == 3


def test_a_pass_when_a_move_exists_is_illegal() -> None:
    _, _, _, rows = _match({"games": 1}, misbehave={1: b"\xce\x00"})
    assert rows[0]["winner"] == "white" and "cannot pass while a move exists" in rows[0]["reason"]


def test_time_out_loses_and_the_server_keeps_serving() -> None:
    with running_server(games=2, move_time=0.3, matches=2) as server:
        a = RawAgent(server.port, b"quick")
        b = RawAgent(server.port, b"sleepy")
        assert a.msg() == P.COLOR_W and b.msg() == P.COLOR_B
        b_never_moves(a, b)
        assert a.msg() == P.QUIT  # game 2 is forfeited by the absent one: nothing more to play
        rows = server.store.games()
        assert rows[0]["winner"] == "white" and rows[0]["reason"].startswith("time")
        assert rows[1]["reason"].startswith("absent") and rows[1]["winner"] == "white"
        # a second match on the same server
        c, d = RawAgent(server.port, b"c"), RawAgent(server.port, b"d")
        tc, td = threading.Thread(target=c.play_until_quit), threading.Thread(target=d.play_until_quit)
        tc.start(), td.start()
        tc.join(TIMEOUT), td.join(TIMEOUT)
        rows = server.store.games()
        assert len(rows) == 4 and rows[2]["match"] == 2 and rows[2]["reason"] == "normal"


def test_disconnect_loses_the_game() -> None:
    _, a, _, rows = _match({"games": 2}, close_on=3)
    assert rows[0]["winner"] == "white" and rows[0]["reason"].startswith("disconnected")
    assert len(rows[0]["moves"]) == 4
    assert rows[1]["reason"].startswith("absent")
    assert a.log[-1] == P.QUIT


def test_names_are_cut_to_8_and_a_silent_pair_does_not_block() -> None:
    with running_server(games=1, name_time=0.5, matches=1) as server:
        mute = RawAgent(server.port, b"x")
        other = RawAgent(server.port, b"averyverylongname")
        assert mute.msg() == P.COLOR_W  # mute never answers its name: the match does not start
        third = RawAgent(server.port, b"third")
        t1 = threading.Thread(target=other.play_until_quit)
        t2 = threading.Thread(target=third.play_until_quit)
        t1.start(), t2.start()
        t1.join(TIMEOUT), t2.join(TIMEOUT)
        rows = server.store.games()
        assert len(rows) == 1 and {rows[0]["black"], rows[0]["white"]} == {"averyver", "third"}


def test_full_swapped_match_between_two_plies_clients() -> None:
    with running_server(games=4, swap=True) as server:
        c1 = HexClient(RandomPlayer(1), "one", port=server.port, timeout=TIMEOUT)
        c2 = HexClient(RandomPlayer(2), "two", port=server.port, timeout=TIMEOUT)
        t1 = threading.Thread(target=c1.run)
        t1.start()
        while not server.lobby:
            threading.Event().wait(0.01)
        t2 = threading.Thread(target=c2.run)
        t2.start()
        t1.join(TIMEOUT), t2.join(TIMEOUT)
        rows = server.store.games()
    assert [r["black"] for r in rows] == ["two", "one", "two", "one"]
    # as the C server: 102/103 after every game, the last one too, then 107
    assert c1.record.colours == ["white", "black", "white", "black", "white"] and c1.record.quit and c2.record.quit
    assert c1.record.positions == 4 and all(r["reason"] == "normal" for r in rows)
    tally = {row["name"]: row for row in server.summary_rows()}
    assert tally["one"]["games"] == 4 and tally["one"]["wins"] + tally["one"]["draws"] + tally["one"]["losses"] == 4
    assert tally["one"]["discs_for"] == tally["two"]["discs_against"]


def test_plies_client_satisfies_a_fake_course_server() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    client = HexClient(RandomPlayer(5), "pliesbot", port=port, timeout=TIMEOUT)
    thread = threading.Thread(target=client.run)
    thread.start()
    conn, _ = listener.accept()
    conn.settimeout(TIMEOUT)

    def read(n: int) -> bytes:
        data = b""
        while len(data) < n:
            data += conn.recv(n - len(data))
        return data

    # messages in an unusual order: name first, then colour, then a mid-game position with white to move
    conn.sendall(bytes([P.REQUEST_NAME]))
    n = read(1)[0]
    assert read(n) == b"pliesbot"
    conn.sendall(bytes([P.COLOR_W]))
    state = HexThelloState.start().play(index(6, 6))
    conn.sendall(bytes([P.NEW_POSITION]) + P.encode_position(state))
    for _ in range(6):
        conn.sendall(bytes([P.REQUEST_MOVE]))
        row, col = P.decode_move(read(2))
        move = P.move_from_rowcol(row, col)
        assert move in state.legal_moves()
        state = state.play(move)
        if state.is_over():
            break
        reply = state.legal_moves()[0]
        conn.sendall(bytes([P.PREPARE_TO_RECEIVE_MOVE]) + P.encode_move(reply))
        state = state.play(reply)
    conn.sendall(bytes([P.QUIT]))
    thread.join(TIMEOUT)
    conn.close()
    listener.close()
    assert client.record.quit and len(client.record.sent) == 6 and client.record.colours == ["white"]
    assert client.state == state
