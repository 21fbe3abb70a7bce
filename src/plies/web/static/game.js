// The board screen: a live game over its WebSocket, or a finished one replayed from the history; the board, the
// players and clocks, the move list, the evaluation graph, the end overlay, the buttons and keys.
import { drawAnalysis, initAnalysis, stopThinking } from "./analysis.js";
import { api, app, gameEntry, marksGame, saveSettings, separatorOf, variantOf } from "./api.js";
import { drawBoard } from "./board.js";
import { $, el, html } from "./dom.js";
import { _, i18n, word } from "./i18n.js";
import { analysisAt, analysisLevel, clearReview, drawHints, drawReview, startReview } from "./review.js";
import { engineGame, formSettings, startGame } from "./start.js";
import { discs, fmtVal, graphSide, moveValue, posValue, unitNote } from "./values.js";

// ---------------------------------------------------------------- the board screen: common state
export function resetBoardScreen(mode) {
  app.mode = mode;
  app.g = null; app.rec = null; app.viewPly = null; app.shownPly = null;
  app.frames = new Map(); app.showHints = null; app.review = null; app.reviewing = null;
  $("#hints").hidden = true; $("#export-box").hidden = true; $("#game-error").textContent = "";
  $("#review-box").hidden = true; $("#move-note").hidden = true; $("#end").hidden = true;
  $("#board").textContent = ""; $("#movelist").textContent = "";
  document.body.classList.toggle("replaying", mode === "replay");
  $("#replay-head").hidden = mode !== "replay";
}

export function lastPly() { return app.g ? app.g.ply : 0; }
export function viewPly() { return app.viewPly === null ? lastPly() : Math.min(app.viewPly, lastPly()); }

export function frameAt(ply) {
  const g = app.g;
  if (!g) return null;
  if (app.mode === "replay") return app.rec.frames[ply] || null;
  if (ply === g.ply) {
    return { ply, cells: g.cells, counts: g.counts, to_move: g.to_move, legal: g.legal, last_move: g.last_move,
      flipped: g.flipped, position: g.position, over: g.over, highlight: g.highlight || [] };
  }
  const f = app.frames.get(ply);
  if (f && f.version === g.version) return f;
  fetchFrame(ply);
  return f || null;
}

export async function fetchFrame(ply) {
  const key = `f${ply}`;
  if (app.pending.has(key) || app.mode !== "live") return;
  app.pending.add(key);
  const id = app.gameId;
  try {
    const f = await api("GET", `/api/games/${id}/positions/${ply}`);
    if (app.gameId === id) { app.frames.set(ply, f); render(); }
  } catch (e) { showError(e.message); }
  finally { app.pending.delete(key); }
}

export function goto(ply) {
  if (!app.g) return;
  const last = lastPly();
  ply = Math.max(0, Math.min(last, ply));
  app.viewPly = ply === last ? null : ply;
  render();
}

// ---------------------------------------------------------------- the live game
export function closeGame() {
  const g = app.g;
  if (app.mode === "live" && g && g.owner && !g.over && g.players.every((p) => p.kind === "computer") && app.ws
      && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify({ type: "abandon" })); // a watched game stops when you leave it
  }
  if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
  stopThinking(); // leaving the game stops its think or solve
  $("#end").hidden = true;
  if (app.mode === "live") app.mode = null;
}

export function openGame(id) {
  if (app.ws && app.gameId === id && app.mode === "live") return;
  closeGame();
  resetBoardScreen("live");
  app.gameId = id;
  app.endShownFor = null; // a finished game opened again shows its end (and its rematch) again
  connect(id);
}

export function connect(id) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${id}?lang=${i18n.lang}`);
  app.ws = ws;
  ws.onopen = () => { app.wsRetry = 0; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (app.mode !== "live" || app.gameId !== id) return;
    if (msg.type === "state") onState(msg.game);
    else if (msg.type === "eval" && app.g) {
      app.g.evals[msg.ply] = msg.eval;
      drawGraph(); drawMoveList();
    }
    else if (msg.type === "error") showError(msg.message);
  };
  ws.onclose = (ev) => {
    if (app.ws !== ws) return;
    app.ws = null;
    if (ev.code === 4404) return; // the server has no such game (any more): its message says why, no retry
    const wait = Math.min(5000, 300 * 2 ** app.wsRetry++);
    if (app.wsRetry > 6) { showError(_("lost the connection to the server")); return; }
    setTimeout(() => { if (!app.ws && app.gameId === id && location.hash.startsWith("#/game/")) connect(id); }, wait);
  };
}

export function send(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) { showError(_("not connected to the server")); return; }
  $("#game-error").textContent = "";
  app.ws.send(JSON.stringify(msg));
}

export function showError(text) { $("#game-error").textContent = text; }

export function movesKey(g) { return g.moves.map((m) => m.move).join(" "); }

export function onState(g) {
  const prev = app.g;
  // an answer that arrives after a newer state (the computer's reply pushed while a request was on its way)
  if (prev && prev.id === g.id && typeof prev.version === "number" && g.version < prev.version) return;
  app.g = g;
  app.clockAt = performance.now();
  if (!prev || movesKey(prev) !== movesKey(g) || prev.start !== g.start) {
    app.frames = new Map();
    if (app.viewPly !== null && app.viewPly >= g.ply) app.viewPly = null;
    if (app.review && !movesKey(g).startsWith(app.review.moves.map((m) => m.move).join(" "))) clearReview();
    if (prev && prev.ply !== g.ply) app.showHints = null;
  }
  if (prev && prev.ply < g.ply && app.viewPly === null) app.shownPly = Math.min(app.shownPly ?? g.ply, g.ply - 1);
  $("#opt-analysis").value = g.analysis_level;
  render();
  if (g.over && app.endShownFor !== g.id) {
    app.endShownFor = g.id;
    if (g.ply > g.setup_moves || (g.result && g.result.reason !== "end")) setTimeout(() => showEnd(g), 650);
  }
  if (!g.over && app.endShownFor === g.id) app.endShownFor = null; // undone after the end
  if (g.rematch && (!prev || prev.rematch !== g.rematch)) showEnd(g); // the other player started a rematch
}

// The sides this browser plays (both on one screen, one against the computer or a friend, none when watching).
export function mySides() { return (app.mode === "live" && app.g && app.g.you) || []; }

export function humanAt(frame) {
  const g = app.g;
  return app.mode === "live" && g && frame && !frame.over && frame.to_move !== null
    && g.players[frame.to_move].kind === "human" && mySides().includes(frame.to_move);
}

export function canPlayAt(frame) {
  if (!humanAt(frame)) return false;
  if (frame.ply === app.g.ply) return true;
  return app.g.can_branch && app.g.thinking === null;
}

export function playAt(frame, move) {
  if (frame.ply === app.g.ply) { send({ type: "move", move }); return; }
  api("POST", `/api/games/${app.gameId}/branch`, { ply: frame.ply, move })
    .then((g) => { app.viewPly = null; onState(g); })
    .catch((e) => showError(e.message));
}

// ---------------------------------------------------------------- replay of a finished game
export async function openReplay(id, path = `/api/history/${id}`, ply = 0) {
  resetBoardScreen("replay");
  app.gameId = null;
  try {
    const rec = await api("GET", path);
    if (app.mode !== "replay") return;
    app.rec = rec;
    const last = rec.frames[rec.frames.length - 1];
    app.g = {
      id: rec.id, game: rec.game, layout: rec.layout, side_names: rec.side_names, ply: rec.frames.length - 1,
      moves: rec.frames.slice(1).map((f) => ({ ply: f.ply, move: f.move, side: f.side })),
      players: rec.players.map((p) => ({ kind: p.startsWith("computer") ? "computer" : "human", name: p, label: "" })),
      evals: rec.frames.map(() => null), over: true, owner: false, start: rec.start, counts: last.counts, openings: rec.openings,
      transcript: transcriptOf(rec), position: rec.final, clock: null, thinking: null, result: { text: rec.result },
    };
    for (const f of rec.frames) f.legal = [];
    $("#replay-title").textContent = replayTitle(rec);
    $("#replay-result").textContent = word(rec.result);
    app.viewPly = Math.min(ply, rec.frames.length - 1);
    render();
  } catch (e) { $("#replay-title").textContent = e.message; $("#replay-head").hidden = false; }
}

// A history game by its kind and date; a library game by its players and the file it came from.
function replayTitle(rec) {
  if (rec.library != null) return `${word(rec.players[0])} – ${word(rec.players[1])}${rec.started_at ? ", " + rec.started_at : ""} (${rec.source})`;
  return `${gameLabel(rec)}, ${rec.finished_at.slice(0, 10)}`;
}

export function transcriptOf(rec) {
  const moves = rec.moves.filter((m) => m !== "pass");
  return moves.some((m) => m.includes(" ")) ? moves.join(", ") : moves.join("");
}

export function gameLabel(rec) {
  const v = variantOf(rec.game, rec.layout);
  return word(v ? v.label : rec.game);
}

// The language has changed: the board screen says its words again; a live game's socket is opened again so that
// what the server words (results, refusals) comes in the new language, the game itself going on untouched.
export function relabelGame() {
  if (app.mode === "live" && app.gameId) {
    if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
    connect(app.gameId);
  }
  if (app.mode === "replay" && app.rec) $("#replay-title").textContent = replayTitle(app.rec);
  $("#game-error").textContent = "";  // (said in the other language)
  if (!app.g) return;
  render();
  if (!$("#end").hidden) showEnd(app.g);
}

export async function playOn() {
  const rec = app.rec;
  if (!rec) return;
  const k = viewPly();
  const s = { ...(app.settings.mode ? app.settings : formSettings()) };
  const v = variantOf(rec.game, rec.layout);
  s.game = v ? v.name : rec.game;
  if (s.mode === "watch") s.mode = "people";
  try { await startGame(s, rec.start, { moves: rec.moves.slice(0, k) }); }
  catch (e) { showError(e.message); }
}

// ---------------------------------------------------------------- rendering the board screen
export function render() {
  const g = app.g;
  if (!g) return;
  const k = viewPly();
  const f = frameAt(k);
  const atEnd = k === lastPly();
  const reviewRow = app.review ? app.review.moves.find((m) => m.ply === k + 1) : null;
  const hints = f ? drawHints(k, f) : null;
  let values = null;
  if ($("#opt-values").checked && f && !f.over) {
    const a = analysisAt(k);
    if (a) values = { a, mover: f.to_move };
  }
  if (f) {
    const step = app.shownPly !== null && k === app.shownPly + 1;
    const clickable = canPlayAt({ ...f, ply: k });
    // not this browser's move (watching, the friend's turn): a click still asks the server, which says why not
    const refused = !clickable && app.mode === "live" && atEnd && !g.over && f.to_move !== null
      && (g.watching || (g.players[f.to_move].kind === "human" && !mySides().includes(f.to_move)));
    drawBoard($("#board"), { game: g.game, layout: g.layout, cells: f.cells, highlight: f.highlight || [] }, {
      legal: clickable || refused ? f.legal : [],
      // the dots mark the moves of a side this browser plays: none for the computer's or the friend's turn
      dots: clickable || (app.mode === "live" && atEnd && f.to_move !== null && mySides().includes(f.to_move)) ? f.legal : [],
      lastMove: f.last_move ? (typeof f.last_move === "object" ? f.last_move.index : f.last_move) : null,
      flips: step ? flipsOf(f) : [],
      placed: step && f.last_move !== null && f.last_move !== undefined ? (typeof f.last_move === "object" ? f.last_move.index : f.last_move) : null,
      hints, values,
      review: reviewRow && reviewRow.best && !reviewRow.forced ? reviewRow : null,
      onClick: clickable || refused ? (idx) => {
        const m = f.legal.find((x) => x.index === idx);
        if (m && refused) send({ type: "move", move: m.move });
        else if (m) playAt({ ...f, ply: k }, m.move);
      } : null,
      // a click off the marked squares on your turn says why nothing happened
      onMiss: clickable ? (square) => showError(values
        ? _("{square} is not a legal move here (the values mark yours)", { square })
        : _("{square} is not a legal move here (the dots mark yours)", { square })) : null,
    });
    if (app.shownPly !== null && app.shownPly !== k) boardIntoView();
    app.shownPly = k;
  }
  const known = (g.evals || []).find((e) => e);
  const v = variantOf(g.game, g.layout);
  $("#analysis-level-box").hidden = !(v && engineGame(v.name) && (!known || known.unit === "discs"));
  if (app.mode === "replay") $("#opt-analysis").value = analysisLevel();
  drawPlayers(f);
  drawFriend();
  drawStatus(f, k);
  drawNav(k);
  drawMoveNote(k, f);
  drawMoveList();
  drawGraph();
  drawReview();
  drawAnalysis(k, f);
  if (!$("#export-box").hidden) fillExport();
}

// On a narrow screen the board is above the panel: a position chosen below it (the move list, the review's
// mistakes, the graph) scrolls the board back into view.
export function boardIntoView() {
  if (!window.matchMedia("(max-width: 820px)").matches) return;
  const r = $("#board").getBoundingClientRect();
  if (r.top >= 0 && r.bottom <= window.innerHeight) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  $("#board").scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

export function flipsOf(f) {
  if (Array.isArray(f.flipped)) return f.flipped;
  const prev = app.mode === "replay" ? app.rec.frames[f.ply - 1] : null;
  if (!prev) return [];
  return f.cells.map((v, i) => (v && prev.cells[i] && v !== prev.cells[i] ? i : -1)).filter((i) => i >= 0);
}

export function drawPlayers(f) {
  const g = app.g;
  const box = $("#players");
  box.textContent = "";
  box.classList.toggle("timed", !!g.clock);
  const symbols = ["X", "O"];
  const pieces = g.layout.pieces || ["black", "white"];
  const marked = marksGame(g.layout);
  const counts = f ? (f.counts || g.counts) : g.counts;
  for (const p of [0, 1]) {
    const info = g.players[p];
    const row = html("div", { class: "player" + (f && f.to_move === p ? " to-move" : ""), "data-player": p }, box);
    html("span", { class: `chip ${symbols[p]} ${pieces[p]}${marked ? " mark" : ""}`,
      text: marked ? symbols[p] : "" }, row);
    const who = html("div", { class: "who" }, row);
    html("span", { class: "colour", text: word(g.side_names[p]) }, who);
    html("span", { class: "name", text: ` ${word(info.name)}` }, who);
    if (g.friend && app.mode === "live" && mySides().length === 1 && mySides()[0] === p) html("span", { class: "you", text: " (you)" }, who);
    if (info.friend && !info.joined) html("small", { text: _("waiting for your friend to join…") }, who);
    if (info.kind === "computer" && info.label) html("small", { text: word(info.label.replace(/^level \d+: /, "")) }, who);
    if (g.clock) html("span", { class: "clock" + (g.clock.running === p ? " running" : "") + (g.clock.flagged === p ? " flagged" : ""), "data-clock": p, text: clockText(p) }, row);
    html("span", { class: "count", text: marked ? "" : counts[symbols[p]] }, row);
  }
}

export function clockLeft(p) {
  const c = app.g && app.g.clock;
  if (!c) return 0;
  let t = c.remaining[p];
  if (c.running === p) t -= (performance.now() - app.clockAt) / 1000;
  return Math.max(0, t);
}
export function clockText(p) {
  const t = clockLeft(p);
  if (t < 10) return `0:0${t.toFixed(1)}`.replace(/^0:0(\d\d)/, "0:$1");
  const s = Math.ceil(t);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
export function tickClocks() {
  if (!app.g || !app.g.clock || app.mode !== "live") return;
  for (const node of document.querySelectorAll("[data-clock]")) {
    const p = +node.dataset.clock;
    node.textContent = clockText(p);
    node.classList.toggle("low", clockLeft(p) < 10);
  }
}
setInterval(tickClocks, 100);

export function drawStatus(f, k) {
  const g = app.g;
  const names = g.side_names.map(word);
  let turn;
  if (app.mode === "replay") turn = k === 0 ? _("Start position") : _("After {move}", { move: plyName(k) });
  else if (g.over && k === g.ply) turn = g.result ? g.result.text : _("Game over");
  else if (!f) turn = "…";
  else if (f.to_move === null) turn = _("Game over in this position");
  else {
    turn = _("{side} to move", { side: names[f.to_move] });
    const other = g.players[f.to_move];
    if (humanAt(f) && k === g.ply) turn += " — " + (f.legal.length === 1 ? _("your turn ({n} legal move)", { n: 1 }) : _("your turn ({n} legal moves)", { n: f.legal.length }));
    else if (app.mode === "live" && g.friend && mySides().length && k === g.ply) turn += " — " + (other.joined ? _("waiting for {name}", { name: other.name }) : _("waiting for your friend to join"));
  }
  $("#turn").textContent = turn;
  const thinking = app.mode === "live" && g.thinking !== null && g.thinking !== undefined;
  $("#thinking").hidden = !thinking;
  if (thinking) $("#thinking-text").textContent = _("{side} ({player}) is thinking…", { side: names[g.thinking], player: word(g.players[g.thinking].name).toLowerCase() });
  $("#notice").textContent = app.mode === "live" && k === g.ply ? (g.notice || "") : "";
  if (app.mode === "live" && g.error) showError(g.error);
  const live = app.mode === "live";
  const offer = live && g.friend && g.undo_offer !== null && g.undo_offer !== undefined ? g.undo_offer : null;
  const asked = offer !== null && !mySides().includes(offer); // the other player asks: this one answers
  $("#btn-undo").disabled = !live || !(g.owner || g.friend) || !g.can_undo;
  $("#btn-undo").textContent = asked ? _("Agree to take back") : offer !== null ? _("Take-back asked…") : _("Undo");
  $("#btn-undo").title = g.friend ? (asked ? _("Take back the other player's last move, as they ask") : _("Ask the other player to let you take back your last move")) : _("Take back (Ctrl+Z)");
  $("#btn-decline").hidden = !asked;
  $("#btn-redo").disabled = !live || !g.owner || !g.can_redo;
  $("#btn-hint").disabled = !f || f.over || f.to_move === null || (live && g.friend && !g.over) || (live && g.watching);
  $("#btn-hint").title = live && g.friend && !g.over ? _("No hints while two people play") : _("Show the best moves (?)");
  $("#btn-resign").disabled = !live || g.over || !mySides().length;
  $("#btn-review").disabled = !!app.reviewing || !g.moves.some((m) => m.move !== "pass");
  $("#move-input").disabled = !live || !humanAt(f) || k !== g.ply;
  const entry = gameEntry(g.game);
  $("#move-input").placeholder = _("type a move, e.g. {example}", { example: entry ? entry.example : "d3" });
  const note = $("#view-note");
  if (live && k !== g.ply) {
    note.hidden = false;
    const at = { move: plyName(k), last: plyName(g.ply) };
    const where = k ? _("Position after {move} (the game is at {last}).", at) : _("The start position (the game is at {last}).", at);
    note.textContent = where + " " + (canPlayAt(f ? { ...f, ply: k } : null)
      ? _("Play a move here to go on from this position (the later moves are replaced; Undo takes it back).")
      : _("▶| returns to the game."));
  } else note.hidden = true;
}

export function drawNav(k) {
  const last = lastPly();
  $("#nav-pos").textContent = `${k} / ${last}`;
  $("#nav-first").disabled = $("#nav-prev").disabled = k === 0;
  $("#nav-last").disabled = $("#nav-next").disabled = k === last;
}

export function drawMoveNote(k, f) {
  const box = $("#move-note");
  const g = app.g;
  const r = app.review;
  const parts = [];
  const lastMove = k > 0 ? g.moves[k - 1] : null;
  const sep = separatorOf(g.game);
  if (r) {
    const row = r.moves.find((m) => m.ply === k + 1);
    if (row && row.best && !row.forced) {
      const mover = row.side;
      const mine = moveName(row.ply, mover, "") + _("played {move} ({value})", { move: row.move, value: fmtVal(moveValue(row.value, mover), r.unit) });
      const below = { loss: discs(row.loss).replace("+", ""), best: row.best, value: fmtVal(moveValue(row.best_value, mover), r.unit) };
      const verdict = row.loss > 0 ? ": " + (row.mistake ? _("a mistake") + ", " : "") + (r.unit === "discs" ? _("{loss} discs below {best} ({value})", below) : _("{loss} units below {best} ({value})", below)) : ", " + _("the best move");
      parts.push({ text: mine + verdict + (row.exact ? " — " + _("exact") : "") + (row.book ? " — " + _("book") : ""), cls: row.mistake ? "bad" : "" });
      parts.push({ text: _("Best line: {line}", { line: row.best_line.join(sep) }), cls: "line" });
    }
  }
  if (!parts.length && lastMove && app.mode === "replay") parts.push({ text: plyName(k), cls: "" });
  box.textContent = "";
  box.hidden = !parts.length;
  for (const p of parts) html("div", { class: p.cls, text: p.text }, box);
}

export function drawMoveList() {
  const g = app.g;
  const list = $("#movelist");
  if (!g) return;
  const k = viewPly();
  const r = app.review;
  list.textContent = "";
  const startBtn = html("button", { class: "mv start" + (k === 0 ? " current" : ""), "data-ply": 0, text: _("start") }, list);
  startBtn.addEventListener("click", () => goto(0));
  const evals = r ? r.evals : g.evals;
  const numbers = moveNumbers(g.moves);
  const named = new Map((g.openings || []).map((o) => [o.ply, o.name]));
  drawOpening(k, numbers);
  let row = null;
  g.moves.forEach((m, i) => {
    const ply = i + 1;
    if (m.side === 0 || !row) {
      row = html("div", { class: "mv-row" }, list);
      html("span", { class: "mv-num", text: `${numbers[ply]}.` }, row);
      if (m.side === 1) html("span", { class: "mv-empty" }, row);
    }
    const btn = html("button", { class: "mv" + (ply === k ? " current" : "") + (m.move === "pass" ? " pass" : "") + (named.has(ply) ? " named" : ""), "data-ply": ply, "aria-label": _("move {ply}: {move}", { ply, move: m.move }) }, row);
    if (named.has(ply)) btn.title = _("{name} opening", { name: named.get(ply) });
    html("span", { class: "mv-move", text: m.move }, btn);
    const ev = evals && evals[ply];
    if (ev && (ev.unit === "discs" || ev.unit === "result")) {
      html("span", { class: "mv-val" + (ev.exact ? " exact" : ""), text: fmtVal(posValue(ev.value, m.side), ev.unit, { bare: true }) }, btn);
    }
    const rv = r ? r.moves.find((x) => x.ply === ply) : null;
    if (rv && rv.book) {  // the game followed the opening book here
      btn.classList.add("book");
      html("span", { class: "mv-book", text: _("book") }, btn);
      btn.title = _("a book move (the opening book plays it)");
    }
    if (rv && rv.mistake) {
      btn.classList.add("mistake");
      html("span", { class: "mv-loss", text: `?−${discs(rv.loss).replace("+", "")}` }, btn);
      btn.title = _("lost {loss} against {best}", { loss: discs(rv.loss).replace("+", ""), best: rv.best });
    }
    btn.addEventListener("click", () => goto(ply));
    if (m.side === 1) row = null;
  });
  scrollIntoList(list, list.querySelector(".current"));
}

// The opening of the position shown: the last named one the game went through up to it (8x8 Othello).
export function drawOpening(k, numbers) {
  const box = $("#opening-name");
  const seen = (app.g.openings || []).filter((o) => o.ply <= k && o.ply > 0);
  const last = seen[seen.length - 1];
  box.hidden = !last;
  if (!last) return;
  const path = seen.slice(0, -1).map((o) => o.name).join(", ");
  box.textContent = path ? _("Opening: {name} (move {n}; by way of {path})", { name: last.name, n: numbers[last.ply], path })
    : _("Opening: {name} (move {n})", { name: last.name, n: numbers[last.ply] });
}

// The number of each ply's move as the move list shows it (a Black move and White's reply share one), so that
// the review and the notes name a move as the list does.
export function moveNumbers(moves) {
  const out = [0];
  let number = 0;
  moves.forEach((m, i) => {
    if (m.side === 0 || i === 0 || moves[i - 1].side === 1) number += 1;
    out.push(number);
  });
  return out;
}

export function moveName(ply, side, move) {
  const n = app.g ? moveNumbers(app.g.moves)[ply] ?? ply : ply;
  return `${n}. ${side === null ? "" : `${word(app.g.side_names[side])} `}${move}`;
}

// The move that led to the position after ``ply`` moves, as the move list numbers it: "5. Black b1".
export function plyName(ply) {
  const m = app.g && app.g.moves[ply - 1];
  return m ? moveName(ply, m.side, m.move) : String(ply);
}

export function scrollIntoList(list, item) {
  // scroll the list (only the list, never the page) so that ``item`` shows, with a row of context
  if (!item) return;
  const a = list.getBoundingClientRect(), b = item.getBoundingClientRect();
  if (b.top < a.top + 2) list.scrollTop -= a.top - b.top + 28;
  else if (b.bottom > a.bottom - 2) list.scrollTop += b.bottom - a.bottom + 28;
}

export function drawGraph() {
  const g = app.g;
  if (!g) return;
  const r = app.review;
  const evals = (r ? r.evals : g.evals) || [];
  const svg = $("#graph");
  const W = Math.max(200, Math.round(svg.clientWidth || svg.parentNode.clientWidth || 300)), H = 120;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.textContent = "";
  const known = evals.filter((e) => e);
  const unit = mostCommon(known.map((e) => e.unit));
  const side = graphSide();
  const names = g.side_names;
  const level = r ? r.source : (unit === "discs" ? _("fast engine, level {level}", { level: analysisLevel() }) : "");
  if (!known.length) {
    $("#graph-label").textContent = app.mode === "replay" && !r ? _("Evaluation: press Review to analyse every move.") : _("Evaluation: waiting for the analysis…");
  } else {
    $("#graph-label").textContent = _("Evaluation {unit}, {side}'s view", { unit: unitNote(unit), side: word(names[side]) }) + (level ? ` — ${level}` : "") + (known.some((e) => e.exact) ? ` (● ${_("exact")})` : "");
  }
  const n = Math.max(evals.length - 1, lastPly(), 1);
  const vals = evals.map((e) => (e && e.unit === unit ? (side === 1 ? -e.value : e.value) : null));
  let span = 1;
  if (unit === "discs") { const m = Math.max(4, ...vals.filter((v) => v !== null).map(Math.abs)); span = Math.min(64, Math.ceil(m / 4) * 4); }
  else if (unit !== "result") span = Math.max(1, ...vals.filter((v) => v !== null).map(Math.abs));
  const L = 38, R = 6, T = 8, B = 8;
  const x = (i) => L + (i / n) * (W - L - R), y = (v) => T + (H - T - B) / 2 - (v / span) * ((H - T - B) / 2);
  const grid = unit === "result" ? [[1, _("win")], [0, _("draw")], [-1, _("loss")]] : [[span, discs(span)], [span / 2, discs(span / 2)], [0, "0"], [-span / 2, discs(-span / 2)], [-span, discs(-span)]];
  for (const [v, label] of grid) {
    el("line", { x1: L, y1: y(v), x2: W - R, y2: y(v), class: v === 0 ? "zero" : "grid" }, svg);
    el("text", { x: L - 4, y: y(v), class: "axis", text: unit === "discs" || unit === "result" ? label : shortNumber(v) }, svg);
  }
  const pts = [];
  vals.forEach((v, i) => { if (v !== null) pts.push(`${x(i)},${y(Math.max(-span, Math.min(span, v)))}`); });
  if (pts.length) el("polyline", { class: "eval", points: pts.join(" ") }, svg);
  vals.forEach((v, i) => {
    if (v !== null && evals[i].exact) el("circle", { cx: x(i), cy: y(Math.max(-span, Math.min(span, v))), r: 2.5, class: "exact" }, svg);
  });
  if (r) for (const m of r.moves.filter((mm) => mm.mistake)) {
    el("circle", { cx: x(m.ply), cy: T + 3, r: 3, class: "mistake-dot" }, svg);
  }
  el("line", { x1: x(viewPly()), y1: T, x2: x(viewPly()), y2: H - B, class: "now" }, svg);
  svg.onclick = (ev) => {
    const rect = svg.getBoundingClientRect();
    const px = (ev.clientX - rect.left) * (W / rect.width);
    goto(Math.round(((px - L) / (W - L - R)) * n));
  };
}

export function mostCommon(items) {
  const count = new Map();
  for (const x of items) count.set(x, (count.get(x) || 0) + 1);
  let best = null;
  for (const [x, c] of count) if (best === null || c > count.get(best)) best = x;
  return best;
}

export function shortNumber(v) {
  const a = Math.abs(v);
  const t = a >= 1e4 ? `${Math.round(a / 1000)}k` : a >= 100 ? String(Math.round(a)) : String(Math.round(a * 10) / 10);
  return v === 0 ? "0" : (v > 0 ? "+" : "−") + t;
}

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

export function showEnd(g) {
  if (app.mode !== "live" || !app.g || app.g.id !== g.id || !app.g.over) return;
  g = app.g;
  const r = g.result;
  const mine = mySides();
  let title = r ? r.text : _("Game over");
  if (r && mine.length === 1) {
    const me = mine[0];
    title = r.winner === null ? _("Draw") : r.winner === me ? _("You win: {result}", { result: r.text }) : _("You lose: {result}", { result: r.text });
  }
  const rematch = $("#btn-rematch");
  rematch.hidden = !mine.length && !g.rematch;
  rematch.textContent = g.rematch ? _("Go to the rematch") : _("Rematch (colours swapped)");
  $("#end-title").textContent = title;
  const entry = gameEntry(g.game);
  $("#end-score").textContent = entry && entry.result === "result" ? (r && r.winner === null ? _("No {line}.", { line: word(entry.line || "line") }) : capital(word(entry.line || "a line")) + ".")
    : `${word(g.side_names[0])} ${g.counts.X} – ${g.counts.O} ${word(g.side_names[1])}`;
  const lost = g.saved === false ? g.error : "";  // the server could not store the game (full disk...)
  const rematchNote = g.rematch ? _("A rematch has started, with the colours swapped.") : "";
  $("#end-detail").textContent = [r && r.reason !== "end" ? g.notice : "", lost, rematchNote].filter(Boolean).join(" ");
  $("#btn-end-review").hidden = !g.moves.some((m) => m.move !== "pass");
  $("#end").hidden = false;
}

// A game between two browsers: the invite (link and code) while the friend's seat is open, the watcher's note.
export function drawFriend() {
  const g = app.g;
  const live = app.mode === "live";
  $("#watching").hidden = !(live && g.watching);
  const inv = live && g.invite && g.invite.open ? g.invite : null;
  $("#invite").hidden = !inv;
  if (!inv) return;
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(location.hostname);
  const lan = loopback && app.info && app.info.hosts && app.info.hosts.length ? app.info.hosts[0] : null;
  const base = lan ? `${location.protocol}//${lan.includes(":") && !lan.startsWith("[") ? `[${lan}]` : lan}${location.port ? `:${location.port}` : ""}` : location.origin;
  $("#invite-code").textContent = inv.code;
  $("#invite-link").value = `${base}/#/join/${inv.code}`;
  $("#invite-note").textContent = loopback && !lan
    ? _("This address works on this machine only (another browser or window here). For a friend on your network, start plies web --host 0.0.0.0 --allow-host with this machine's address.")
    : "";
}

export async function rematch() {
  const g = app.g;
  if (!g) return;
  $("#end").hidden = true;
  try {
    const again = g.rematch ? { id: g.rematch } : await api("POST", `/api/games/${app.gameId}/rematch`);
    location.hash = `#/game/${again.id}`;
  } catch (e) { showError(e.message); }
}

export function resign() {
  const b = $("#btn-resign");
  if (!b.classList.contains("confirm")) { // a second click within 4 s resigns
    b.classList.add("confirm"); b.textContent = _("Resign? Click again");
    setTimeout(() => { b.classList.remove("confirm"); b.textContent = _("Resign"); }, 4000);
    return;
  }
  b.classList.remove("confirm"); b.textContent = _("Resign");
  send({ type: "resign" });
}

// The game as files (a transcript as plies play saves it; GGF for Othello): the server writes them.
export async function gameFiles() {
  const id = app.gameId;
  const files = app.mode === "replay" ? app.rec : await api("GET", `/api/games/${id}/transcript`);
  if (files && app.gameId === id) $("#btn-save-ggf").hidden = !files.ggf;
  return files;
}

export async function saveFile(kind) {
  try {
    const files = await gameFiles();
    if (!files || !files[kind]) { showError(_("GGF holds Othello games only: save this game as a transcript")); return; }
    const day = new Date().toISOString().slice(0, 10);
    const name = `plies-${app.g.game}-${day}.${kind === "ggf" ? "ggf" : "txt"}`;
    const a = html("a", { href: URL.createObjectURL(new Blob([files[kind]], { type: "text/plain" })), download: name }, document.body);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  } catch (e) { showError(e.message); }
}

export function fillExport() {
  const g = app.g;
  if (!g) return;
  $("#export-text").value = g.custom_start ? `${g.start}\n${g.transcript}` : g.transcript;
  const f = frameAt(viewPly());
  $("#export-position").value = (f && f.position) || g.position || "";
}

// ---------------------------------------------------------------- buttons and keys
export function initBoard() {
  initAnalysis();
  $("#btn-undo").addEventListener("click", () => { app.viewPly = null; send({ type: "undo" }); });
  $("#btn-redo").addEventListener("click", () => { app.viewPly = null; send({ type: "redo" }); });
  $("#btn-decline").addEventListener("click", () => send({ type: "decline" }));
  $("#btn-hint").addEventListener("click", toggleHints);
  $("#btn-review").addEventListener("click", startReview);
  $("#btn-end-review").addEventListener("click", () => { $("#end").hidden = true; startReview(); });
  $("#btn-rematch").addEventListener("click", rematch);
  $("#btn-resign").addEventListener("click", resign);
  $("#btn-invite-copy").addEventListener("click", () => { $("#invite-link").select(); if (navigator.clipboard) navigator.clipboard.writeText($("#invite-link").value).catch(() => {}); });
  $("#btn-playon").addEventListener("click", playOn);
  $("#btn-newgame").addEventListener("click", () => { location.hash = "#/"; });
  $("#btn-export").addEventListener("click", () => { const b = $("#export-box"); b.hidden = !b.hidden; fillExport(); if (!b.hidden) gameFiles(); });
  $("#btn-save-transcript").addEventListener("click", () => saveFile("file"));
  $("#btn-save-ggf").addEventListener("click", () => saveFile("ggf"));
  $("#btn-copy").addEventListener("click", () => { $("#export-text").select(); if (navigator.clipboard) navigator.clipboard.writeText($("#export-text").value).catch(() => {}); });
  $("#nav-first").addEventListener("click", () => goto(0));
  $("#nav-prev").addEventListener("click", () => goto(viewPly() - 1));
  $("#nav-next").addEventListener("click", () => goto(viewPly() + 1));
  $("#nav-last").addEventListener("click", () => goto(lastPly()));
  $("#opt-pov").addEventListener("change", (ev) => { app.settings.pov = ev.target.value; saveSettings(); render(); });
  $("#opt-values").addEventListener("change", (ev) => { app.settings.values = ev.target.checked; saveSettings(); render(); });
  $("#opt-analysis").addEventListener("change", async (ev) => {
    app.settings.analysis = ev.target.value; saveSettings();
    if (app.mode === "live" && app.g && app.g.owner) {
      try { onState(await api("POST", `/api/games/${app.gameId}/settings`, { analysis_level: +ev.target.value })); }
      catch (e) { showError(e.message); }
    } else render();
  });
  $("#move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#move-input").value.trim();
    if (text && app.g && !app.g.over) { send({ type: "move", move: text }); $("#move-input").value = ""; }
  });
  $("#btn-again").addEventListener("click", async () => {
    $("#end").hidden = true;
    try { await startGame(app.settings.mode ? app.settings : formSettings(), ""); } catch (e) { showError(e.message); }
  });
  $("#btn-back").addEventListener("click", () => { $("#end").hidden = true; location.hash = "#/"; });
  $("#btn-look").addEventListener("click", () => { $("#end").hidden = true; });
  window.addEventListener("resize", () => { if (!$("#screen-board").hidden) drawGraph(); });
  document.addEventListener("keydown", (ev) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if ($("#screen-board").hidden || !app.g) return;
    const mod = (ev.ctrlKey || ev.metaKey) && !typing; // in a text box Ctrl+Z stays the box's own undo
    if (app.mode === "live" && mod && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); app.viewPly = null; send({ type: "undo" }); return; }
    if (app.mode === "live" && mod && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) {
      ev.preventDefault(); app.viewPly = null; send({ type: "redo" }); return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "ArrowLeft") { ev.preventDefault(); goto(viewPly() - 1); }
    else if (ev.key === "ArrowRight") { ev.preventDefault(); goto(viewPly() + 1); }
    else if (ev.key === "Home") { ev.preventDefault(); goto(0); }
    else if (ev.key === "End") { ev.preventDefault(); goto(lastPly()); }
    else if (ev.key === "?") toggleHints();
    else if (/^[a-j0-9]$/i.test(ev.key) && !$("#move-input").disabled) {
      $("#move-input").focus(); // the key lands in the move box: type d3 then Enter
    }
  });
}

export function toggleHints() {
  const k = viewPly();
  app.showHints = app.showHints === k ? null : k;
  render();
}
