"""Soak check of the HexThello client: matches with colour swaps against a fixed-depth agent, on loopback, on both
servers (plies' and the course framework's C server written again, tests/hexthello/cframework.py).

plies joins as ``plies hexthello client`` does (``HexClient`` with the compiled engine, one thread, ``--time S`` or
``--depth N``); the agent is a C-style client on a plain socket that plays a plies player's moves, by default
``alphabeta:depth=3,eval=discs``: the course's baseline (my discs minus the opponent's, depth 3, the first best
move in the course's scan order), which grabs every disc it can.  Its first ``--random-moves`` moves of each game
are random (seeded), so that the games differ.  The agent connects first: it is White in game 1 and plies is
White in game 2, the first game after the colours swap.

Every game is checked against the server's own record of it:

- every move plies sent is the move its search chose, and the search was given the position the server had,
  with plies' side to move (the record replayed from the start position);
- plies' own review: a deeper search of the engine (``--review-depth``, and at least one ply deeper than plies'
  own search of the move) values each of plies' moves against the best move of its position, in discs (a
  predicted final disc difference, or the exact one when the search sees the end).  A move that loses more than
  ``--threshold`` discs is looked at again two plies deeper still; the games where it still loses that much are
  the mistakes reported (and the first look's verdicts are listed as ``flagged``), and so is every game plies
  did not win.

    .venv/bin/python tools/soak_hexthello.py --games 200 --time 0.05 --seed 1

Prints a JSON report; exits 1 when a check failed, a move lost more than the threshold or plies lost a game.
tests/hexthello/test_hex_match_play.py runs short versions.  Everything stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import random
import socket
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # tests.hexthello: the course's C server written again, the server runner

from tests.hexthello.cframework import CServer  # noqa: E402
from tests.hexthello.netutil import running_server  # noqa: E402

from plies.game import PASS, WIN, PliesError  # noqa: E402
from plies.games.hexthello import HexThelloState, compact  # noqa: E402
from plies.hexsearch import HexEngine  # noqa: E402
from plies.hexsearch import kernels as k  # noqa: E402
from plies.net.hexthello import protocol as P  # noqa: E402
from plies.net.hexthello.client import HexClient  # noqa: E402
from plies.players import Player, parse_player  # noqa: E402
from plies.players.hexthello import HexEnginePlayer  # noqa: E402

AGENT = "alphabeta:depth=3,eval=discs"
"""The course's baseline agent: depth 3, my discs minus the opponent's."""
TIMEOUT = 60.0
SERVERS = ("plies", "course")


@dataclass
class Choice:
    """One move plies' player chose: the position it was given, the move, the depth its search reached."""

    state: HexThelloState
    move: int
    depth: int
    ply: int = 0  # its ply in the game (from 1, counted from the start position), once the game is checked


class Recorder(Player):
    """Passes every call to ``inner`` and keeps, game by game, what it was asked and what it chose."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.games: list[list[Choice]] = []

    def new_game(self, state: Any) -> None:
        self.inner.new_game(state)
        self.games.append([])

    def choose(self, state: Any) -> Any:
        move = self.inner.choose(state)
        result = getattr(self.inner, "last_result", None)
        depth = int(getattr(getattr(result, "stats", None), "depth", 0) or 0)
        if not self.games:  # a move before any 101: kept all the same, the check then says so
            self.games.append([])
        self.games[-1].append(Choice(state, move, depth))
        return move


class ScriptedAgent:
    """A course-style agent on a plain socket: takes the messages in any order, keeps its own board, and answers
    104 with ``player``'s move (its first ``random_moves`` moves of a game at random, from ``rng``)."""

    def __init__(self, port: int, player: Player, name: bytes = b"agent", random_moves: int = 0,
                 rng: random.Random | None = None) -> None:
        self.port, self.player, self.name = port, player, name
        self.random_moves, self.rng = random_moves, rng or random.Random(0)
        self.state = HexThelloState.start()
        self.me = 0
        self.moved = 0
        self.error: str | None = None

    def run(self) -> None:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=TIMEOUT) as sock:
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self._loop(sock)
        except (ConnectionError, OSError, PliesError) as e:  # PliesError: a move its own board refuses
            self.error = self.error or str(e)

    def _loop(self, sock: socket.socket) -> None:
        while True:
            msg = P.recv_exact(sock, 1)[0]
            if msg in (P.COLOR_W, P.COLOR_B):
                self.me = 1 if msg == P.COLOR_W else 0
            elif msg == P.REQUEST_NAME:
                sock.sendall(bytes([len(self.name)]) + self.name)
            elif msg == P.NEW_POSITION:
                self.state = P.decode_position(P.recv_exact(sock, P.POSITION_BYTES))
                self.player.new_game(self.state)
                self.moved = 0
            elif msg == P.PREPARE_TO_RECEIVE_MOVE:
                move = P.move_from_rowcol(*P.decode_move(P.recv_exact(sock, 2)))
                self.state = self.state.with_side(1 - self.me).play(move)
            elif msg == P.REQUEST_MOVE:
                state = self.state.with_side(self.me)
                legal = state.legal_moves()
                if legal == [PASS] or not legal:
                    move = PASS
                elif self.moved < self.random_moves:
                    move = self.rng.choice(legal)
                else:
                    move = self.player.choose(state)
                self.moved += 1
                sock.sendall(P.encode_move(move))
                if legal:
                    self.state = state.play(move)
            elif msg == P.QUIT:
                return
            else:
                self.error = f"unknown message byte {msg}"
                return


@dataclass
class Game:
    """One game as the server recorded it, and what plies' player was asked during it."""

    server: str
    match: int
    game: int
    plies_side: int  # 0 Black, 1 White
    moves: list[int]
    reason: str
    choices: list[Choice] = field(default_factory=list)

    def final(self, start: HexThelloState) -> HexThelloState:
        s = start
        for m in self.moves:
            s = s.play(m)
        return s


def _plies_player(seconds: float | None, depth: int | None) -> Player:
    if depth is not None:
        return HexEnginePlayer(depth=depth, threads=1)
    return HexEnginePlayer(seconds=seconds or 0.05, threads=1)


def play_match(server: str, match: int, games: int, player: Player, agent_player: Player, random_moves: int,
               seed: int, start: HexThelloState) -> tuple[list[Game], list[str]]:
    """One match of ``games`` games with colour swaps on ``server`` ("plies" or "course"): the games and any
    problem with the session itself."""
    recorder = Recorder(player)
    problems: list[str] = []
    rng = random.Random(f"{seed}:{server}:{match}")
    out: list[Game] = []
    if server == "plies":
        with running_server(games=games, swap=True, start=start, move_time=TIMEOUT) as srv:
            agent = ScriptedAgent(srv.port, agent_player, random_moves=random_moves, rng=rng)
            client = HexClient(recorder, "plies", port=srv.port, connect_wait=TIMEOUT, timeout=TIMEOUT)
            threads = _connect_in_order(srv.port, agent, client, accepted=lambda: len(srv.agents))
            for t in threads:
                t.join(TIMEOUT * games * 4)
            rows = srv.store.games()
        for n, r in enumerate(rows):
            side = 1 if r["white"] == "plies" else 0
            moves = [P.move_from_rowcol(m["row"], m["col"]) for m in r["moves"]]
            out.append(Game(server, match, n + 1, side, moves, r["reason"]))
    else:
        cs = CServer(games=games, swap=True, start=start)
        serving = threading.Thread(target=cs.serve, daemon=True)
        serving.start()
        agent = ScriptedAgent(cs.port, agent_player, random_moves=random_moves, rng=rng)
        client = HexClient(recorder, "plies", port=cs.port, connect_wait=TIMEOUT, timeout=TIMEOUT)
        threads = _connect_in_order(cs.port, agent, client, accepted=lambda: cs.accepted)
        for t in threads:
            t.join(TIMEOUT * games * 4)
        serving.join(TIMEOUT)
        colours = client.record.colours
        for n, log in enumerate(cs.log):
            side = 1 if n < len(colours) and colours[n] == "white" else 0
            moves = [P.move_from_rowcol(*P.decode_move(raw)) for raw in log.moves]
            reason = "normal" if log.illegal is None else f"illegal move {log.illegal}"
            if log.illegal is not None:
                moves = moves[:-1]
            out.append(Game(server, match, n + 1, side, moves, reason))
        if len(cs.log) != games:
            problems.append(f"{server} match {match}: {len(cs.log)} of {games} games were played")
    if agent.error:
        problems.append(f"{server} match {match}: the agent: {agent.error}")
    if not client.record.quit:
        problems.append(f"{server} match {match}: plies never got 107")
    if len(recorder.games) != len(out):
        problems.append(f"{server} match {match}: plies saw {len(recorder.games)} new games, the server played "
                        f"{len(out)}")
    for g, choices in zip(out, recorder.games, strict=False):
        g.choices = choices
    sent = [m for g in out for m in _plies_moves(g, start)]
    if sent != client.record.sent:
        problems.append(f"{server} match {match}: the moves plies sent are not the moves the server recorded as "
                        "plies' moves")
    return out, problems


def _connect_in_order(port: int, agent: ScriptedAgent, client: HexClient,
                      accepted: Callable[[], int]) -> list[threading.Thread]:
    """The agent connects first (WHITE in game 1), plies once the server has taken the agent's connection."""
    a = threading.Thread(target=agent.run, daemon=True)
    a.start()
    deadline = time.monotonic() + TIMEOUT
    while accepted() < 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    b = threading.Thread(target=client.run, daemon=True)
    b.start()
    return [a, b]


def _plies_moves(game: Game, start: HexThelloState) -> list[int]:
    """The moves of plies' side in ``game`` (passes included), in order."""
    out, s = [], start
    for m in game.moves:
        if s.to_move == game.plies_side:
            out.append(m)
        s = s.play(m)
    return out


def check_game(game: Game, start: HexThelloState) -> list[str]:
    """Every position where plies had a move to choose: the position its search was given, and the move sent."""
    problems = []
    where = f"{game.server} match {game.match} game {game.game}"
    choices = iter(game.choices)
    s = start
    for ply, m in enumerate(game.moves, 1):
        if s.to_move == game.plies_side and s.legal_moves() != [PASS]:
            c = next(choices, None)
            if c is None:
                problems.append(f"{where} ply {ply}: plies sent a move its player never chose")
            elif c.state != s:
                problems.append(f"{where} ply {ply}: plies searched another position (or side) than the server's")
            elif c.move != m:
                problems.append(f"{where} ply {ply}: plies sent {compact(m)}, its search chose {compact(c.move)}")
            if c is not None:
                c.ply = ply
        s = s.play(m)
    extra = sum(1 for _ in choices)
    if extra:
        problems.append(f"{where}: {extra} move(s) plies chose were never played")
    return problems


def discs(value: float) -> float:
    """An engine value in discs: an exact result (beyond WIN) is its disc difference; a learned value is in
    1/EVAL_SCALE discs."""
    if abs(value) >= WIN:
        return value - math.copysign(WIN, value)
    return value / k.EVAL_SCALE


def move_value(engine: HexEngine, state: HexThelloState, move: int, depth: int) -> float:
    """The value in discs, for the side to move in ``state``, of ``move`` searched ``depth - 1`` plies below."""
    child = state.play(move)
    if child.is_over():
        b, w = child.counts()
        return float(b - w if state.to_move == 0 else w - b)
    if child.legal_moves() == [PASS]:  # the same side moves again after the forced pass
        return discs(engine.search(child.play(PASS), depth=max(1, depth - 1)).value)
    return -discs(engine.search(child, depth=max(1, depth - 1)).value)


def _loss(engine: HexEngine, c: Choice, depth: int) -> tuple[float, int]:
    """(discs ``c.move`` loses against the best move of a depth-``depth`` search, that best move)."""
    best = engine.search(c.state, depth=depth)
    if best.move == c.move:
        return 0.0, best.move
    return max(0.0, discs(best.value) - move_value(engine, c.state, c.move, depth)), best.move


def review_game(game: Game, depth: int, threshold: float) -> list[dict[str, Any]]:
    """plies' moves of ``game`` valued against the best move of each position by a search ``depth`` plies deep
    (at least one ply deeper than plies' own search of the move): [{ply, move, best, loss (discs), depth}].
    A move that loses more than ``threshold`` discs is looked at again two plies deeper, by a fresh engine
    (``confirmed``: the loss it finds then): a mistake must survive a deeper look, not just one horizon, and two
    plies keep the horizon on the same side (the evaluation leans towards the side that has just moved, so
    values one ply apart swing)."""
    engine = HexEngine(threads=1)
    rows = []
    for c in game.choices:
        d = max(depth, c.depth + 1)
        loss, best = _loss(engine, c, d)
        row: dict[str, Any] = {"ply": c.ply, "move": compact(c.move), "best": compact(best), "loss": round(loss, 1),
                               "depth": c.depth, "review_depth": d}
        if loss > threshold:
            again, best2 = _loss(HexEngine(threads=1), c, d + 2)
            row["confirmed"] = round(again, 1)
            row["confirmed_best"] = compact(best2)
        rows.append(row)
    return rows


def run(games: int = 200, seconds: float | None = 0.05, depth: int | None = None, agent: str = AGENT,
        review_depth: int = 6, threshold: float = 20.0, match_games: int = 8, random_moves: int = 2, seed: int = 1,
        start: HexThelloState | None = None, servers: tuple[str, ...] = SERVERS,
        progress: Any = None) -> dict[str, Any]:
    """Play ``games`` games in matches of ``match_games`` (colours swapped after each game), alternately on each
    of ``servers``, check them and review plies' moves; the report."""
    t0 = time.perf_counter()
    start = start or HexThelloState.start()
    agent_player = parse_player(agent, "hexthello")
    all_games: list[Game] = []
    problems: list[str] = []
    match = 0
    while len(all_games) < games:
        server = servers[match % len(servers)]
        match += 1
        n = min(match_games, games - len(all_games))
        played, trouble = play_match(server, match, n, _plies_player(seconds, depth), agent_player, random_moves,
                                     seed, start)
        problems += trouble
        all_games += played
        if progress:
            progress(f"match {match} on {server}'s server: {len(all_games)} of {games} games")
        if not played:
            problems.append(f"{server} match {match}: no game was played")
            break
    results = []
    mistakes: list[dict[str, Any]] = []
    flagged: list[dict[str, Any]] = []
    depths: collections.Counter[int] = collections.Counter()
    reviewed = 0
    for g in all_games:
        problems += check_game(g, start)
        final = g.final(start)
        b, w = final.counts()
        margin = (b - w) if g.plies_side == 0 else (w - b)
        if g.reason != "normal":
            problems.append(f"{g.server} match {g.match} game {g.game}: {g.reason}")
        rows = review_game(g, review_depth, threshold)
        reviewed += len(rows)
        depths.update(c.depth for c in g.choices)
        worst = max(rows, key=lambda r: r["loss"], default=None)
        entry = {"server": g.server, "match": g.match, "game": g.game, "plies": ("black", "white")[g.plies_side],
                 "margin": margin, "worst": worst, "moves": " ".join(compact(m) for m in g.moves)}
        results.append(entry)
        over = [r for r in rows if r["loss"] > threshold]
        if over:
            flagged.append({**entry, "flagged": over})
        if any(r["confirmed"] > threshold for r in over):
            mistakes.append({**entry, "mistakes": [r for r in over if r["confirmed"] > threshold]})
    margins = [r["margin"] for r in results]
    not_won = [r for r in results if r["margin"] <= 0]
    return {
        "games": len(results), "servers": list(servers), "plies": f"time={seconds:g}" if depth is None else
        f"depth={depth}", "agent": agent, "review_depth": review_depth, "threshold": threshold,
        "distinct_games": len({r["moves"] for r in results}), "wins": sum(m > 0 for m in margins),
        "draws": sum(m == 0 for m in margins), "losses": sum(m < 0 for m in margins),
        "margin_min": min(margins, default=None), "margin_mean": round(sum(margins) / len(margins), 1) if margins
        else None, "moves_reviewed": reviewed, "plies_depths": dict(sorted(depths.items())),
        "flagged_games": len(flagged), "mistakes_over_threshold": len(mistakes), "mistake_games": mistakes,
        "flagged": flagged, "games_not_won": not_won,
        "problems": problems, "seconds": round(time.perf_counter() - t0, 1),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--time", type=float, default=0.05, help="plies' seconds a move (the client's --time)")
    ap.add_argument("--depth", type=int, default=None, help="plies at a fixed depth instead of --time")
    ap.add_argument("--agent", default=AGENT, help=f"the agent's player (default {AGENT})")
    ap.add_argument("--review-depth", type=int, default=6)
    ap.add_argument("--threshold", type=float, default=20.0, help="discs a reported move loses, at least")
    ap.add_argument("--match-games", type=int, default=8, help="games a match (-g), colours swapped after each")
    ap.add_argument("--random-moves", type=int, default=2, help="the agent's random moves at the start of a game")
    ap.add_argument("--start", default=None, help="every game starts from this position (a transcript)")
    ap.add_argument("--servers", default=",".join(SERVERS), help="plies, course or both (plies,course)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    servers = tuple(x.strip() for x in a.servers.split(",") if x.strip())
    if not servers or any(x not in SERVERS for x in servers):
        ap.error("--servers takes plies, course or both")
    start = HexThelloState.from_text(a.start) if a.start else None
    report = run(a.games, a.time, a.depth, a.agent, a.review_depth, a.threshold, a.match_games, a.random_moves,
                 a.seed, start, servers, progress=lambda text: print(text, file=sys.stderr, flush=True))
    print(json.dumps(report))
    return 1 if report["problems"] or report["mistakes_over_threshold"] or report["losses"] else 0


if __name__ == "__main__":
    sys.exit(main())
