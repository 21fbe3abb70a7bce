// plies web: the page.  Plain JavaScript, no build step.  Screens: start, board (+ end overlay), history, replay.
// The server owns the rules: this file only draws what /api and /ws/games/{id} send and sends moves back.
"use strict";

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";
const GAME_LABELS = { othello: "Othello 8×8", othello6: "Othello 6×6", othello10: "Othello 10×10",
  tictactoe: "Tic-tac-toe", hexthello: "HexThello (hexagon)" };

const app = {
  info: null,
  game: null,          // last state message from the server
  gameId: null,
  ws: null,
  wsRetry: 0,
  animatedPly: -1,     // last move whose flips were animated
  endShownFor: null,   // game id whose end screen was shown
  hints: null,
  settings: loadSettings(),
  replay: null,
};

function loadSettings() {
  try { return JSON.parse(localStorage.getItem("plies.settings") || "{}"); } catch (e) { return {}; }
}
function saveSettings(s) { try { localStorage.setItem("plies.settings", JSON.stringify(s)); } catch (e) { /* private mode */ } }

function el(tag, attrs = {}, parent = null, ns = SVGNS) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  if (parent) parent.appendChild(node);
  return node;
}
function html(tag, attrs = {}, parent = null) { return el(tag, attrs, parent, null); }

async function api(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: `server answered ${res.status}` }; }
  if (!res.ok) throw new Error((data && data.error) || `server answered ${res.status}`);
  return data;
}

// ---------------------------------------------------------------- routing
function show(name) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== `screen-${name}`;
}
async function route() {
  const h = location.hash || "#/";
  let m;
  if ((m = h.match(/^#\/game\/([\w-]+)/))) { show("board"); openGame(m[1]); }
  else if (h.startsWith("#/history")) { closeGame(); show("history"); loadHistory(); }
  else if ((m = h.match(/^#\/replay\/([\w-]+)/))) { closeGame(); show("replay"); loadReplay(m[1]); }
  else { closeGame(); show("start"); }
}
window.addEventListener("hashchange", route);

// ---------------------------------------------------------------- start screen
async function initStart() {
  app.info = await api("GET", "/api/info");
  const sel = $("#opt-game");
  const choices = [];
  for (const g of app.info.games) {
    if (g.name === "othello") choices.push("othello", "othello6", "othello10");
    else choices.push(g.name);
  }
  for (const name of choices) html("option", { value: name, text: GAME_LABELS[name] || name }, sel);
  const levelSel = $("#opt-level"), level2 = $("#opt-level2");
  for (let l = 1; l <= app.info.levels.max; l++) {
    const teach = l <= app.info.levels.teaching[1];
    const note = (app.info.engine.levels || {})[l];
    const text = teach ? `${l} — search depth ${l}`
      : `${l} — ${app.info.engine.available ? `engine (${note || "stronger"})` : "alpha-beta fallback (no engine)"}`;
    html("option", { value: l, text }, levelSel);
    html("option", { value: l, text }, level2);
  }
  $("#engine-note").textContent = `Levels 1–${app.info.levels.teaching[1]} are the textbook search at that depth; ${app.info.engine.text}.`;
  if (app.info.learn) { $("#nav-learn").hidden = false; $("#start-learn").hidden = false; }
  const s = app.settings;
  if (s.game && choices.includes(s.game)) sel.value = s.game;
  if (s.mode) for (const r of document.querySelectorAll("input[name=mode]")) r.checked = r.value === s.mode;
  levelSel.value = s.level || 2; level2.value = s.level2 || 3;
  if (s.algorithm) $("#opt-algorithm").value = s.algorithm;
  fillHeuristics();
  if (s.heuristic) $("#opt-heuristic").value = s.heuristic;
  sel.addEventListener("change", fillHeuristics);
  $("#start-form").addEventListener("change", updateStartForm);
  updateStartForm();
  $("#start-form").addEventListener("submit", (ev) => { ev.preventDefault(); startFromForm(); });
}

function baseGame(name) { return name.startsWith("othello") ? "othello" : name; }

function fillHeuristics() {
  const game = baseGame($("#opt-game").value);
  const sel = $("#opt-heuristic");
  sel.textContent = "";
  const entry = app.info.games.find((g) => g.name === game);
  const names = entry ? entry.heuristics : [];
  if (!names.length) html("option", { value: "", text: "disc difference" }, sel);
  for (const n of names) html("option", { value: n, text: n + (entry.default_heuristic === n ? " (default)" : "") }, sel);
  if (entry && entry.default_heuristic) sel.value = entry.default_heuristic;
  const sides = game === "tictactoe" ? ["X", "O"] : ["Black", "White"];
  for (const span of document.querySelectorAll("[data-side]")) span.textContent = sides[+span.dataset.side];
}

function updateStartForm() {
  const mode = document.querySelector("input[name=mode]:checked").value;
  const lvl = Math.max(+$("#opt-level").value, mode === "watch" ? +$("#opt-level2").value : 0);
  document.querySelector(".computer-only").hidden = mode === "people";
  document.querySelector(".watch-only").hidden = mode !== "watch";
  document.querySelector(".teaching-only").hidden = mode === "people" || lvl > app.info.levels.teaching[1];
}

function formSettings() {
  const f = $("#start-form");
  return {
    game: f.game.value, mode: f.mode.value, level: +f.level.value, level2: +f.level2.value,
    algorithm: f.algorithm.value, heuristic: f.heuristic.value, position: f.position.value.trim(),
  };
}

function gameRequest(s, position) {
  const comp = (level) => ({ kind: "computer", level, algorithm: s.algorithm, heuristic: s.heuristic || null });
  const human = { kind: "human" };
  const players = { first: [human, comp(s.level)], second: [comp(s.level), human], people: [human, human],
    watch: [comp(s.level), comp(s.level2)] }[s.mode];
  const m = s.game.match(/^othello(\d+)$/);
  return { game: baseGame(s.game), size: m ? +m[1] : null, position: position || null, players,
    delay: s.mode === "watch" ? 0.4 : 0, replaces: app.gameId };
}

async function startGame(s, position) {
  const data = await api("POST", "/api/games", gameRequest(s, position));
  app.settings = s;
  saveSettings({ ...s, position: "" });
  location.hash = `#/game/${data.game.id}`;
}

async function startFromForm() {
  $("#start-error").textContent = "";
  try { await startGame(formSettings(), formSettings().position); }
  catch (e) { $("#start-error").textContent = e.message; }
}

// ---------------------------------------------------------------- the live game
function closeGame() {
  if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
  app.gameId = app.gameId; // kept so that a new game can replace (stop) it
  $("#end").hidden = true;
}

function openGame(id) {
  if (app.ws && app.gameId === id) return;
  closeGame();
  app.gameId = id; app.game = null; app.animatedPly = -1; app.hints = null;
  $("#hints").hidden = true; $("#export-box").hidden = true; $("#game-error").textContent = "";
  connect(id);
}

function connect(id) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${id}`);
  app.ws = ws;
  ws.onopen = () => { app.wsRetry = 0; };
  ws.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "state") render(msg.game);
    else if (msg.type === "eval" && app.game) { app.game.evals[msg.ply] = msg.eval; drawGraph(app.game); }
    else if (msg.type === "hint") showHints(msg);
    else if (msg.type === "error") showError(msg.message);
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.ws = null;
    const wait = Math.min(5000, 300 * 2 ** app.wsRetry++);
    if (app.wsRetry > 6) { showError("lost the connection to the server"); return; }
    setTimeout(() => { if (!app.ws && app.gameId === id && location.hash.startsWith("#/game/")) connect(id); }, wait);
  };
}

function send(msg) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) { showError("not connected to the server"); return; }
  $("#game-error").textContent = "";
  app.ws.send(JSON.stringify(msg));
}

function showError(text) { $("#game-error").textContent = text; }

function playMove(move) {
  if (!app.game || app.game.over) return;
  send({ type: "move", move });
}

function humanToMove(g) {
  return g && !g.over && g.to_move !== null && g.players[g.to_move].kind === "human" && g.owner;
}

function render(g) {
  const prev = app.game;
  app.game = g;
  if (!prev || prev.ply !== g.ply) { app.hints = null; $("#hints").hidden = true; }
  const animate = g.last_move && g.last_move.ply > app.animatedPly && prev && prev.ply < g.ply;
  drawBoard($("#board"), g, {
    legal: humanToMove(g) ? g.legal : [],
    lastMove: g.last_move ? g.last_move.index : null,
    flips: animate ? g.flipped : [],
    placed: animate ? g.last_move.index : null,
    hints: app.hints,
    onClick: humanToMove(g) ? (idx) => {
      const m = g.legal.find((x) => x.index === idx);
      if (m) playMove(m.move);
    } : null,
  });
  if (g.last_move) app.animatedPly = g.last_move.ply;
  drawPlayers(g);
  const names = g.side_names;
  $("#turn").textContent = g.over ? (g.result ? g.result.text : "Game over")
    : `${names[g.to_move]} to move` + (humanToMove(g) ? ` — your turn (${g.legal.length} legal move${g.legal.length === 1 ? "" : "s"})` : "");
  const thinking = g.thinking !== null && g.thinking !== undefined;
  $("#thinking").hidden = !thinking;
  if (thinking) $("#thinking-text").textContent = `${names[g.thinking]} (${g.players[g.thinking].name}) is thinking…`;
  $("#notice").textContent = g.notice || "";
  if (g.error) showError(g.error);
  $("#btn-undo").disabled = !g.owner || !g.can_undo;
  $("#btn-redo").disabled = !g.owner || !g.can_redo;
  $("#btn-hint").disabled = !humanToMove(g);
  $("#move-input").disabled = !humanToMove(g);
  drawMoves($("#movelist"), g.moves, g.ply, (i) => i.move);
  drawGraph(g);
  if ($("#export-box").hidden === false) fillExport();
  if (g.over && app.endShownFor !== g.id) {
    app.endShownFor = g.id;
    setTimeout(() => showEnd(g), animate ? 700 : 0);
  }
  if (!g.over && app.endShownFor === g.id) app.endShownFor = null; // undone after the end
}

function drawPlayers(g) {
  const box = $("#players");
  box.textContent = "";
  const symbols = ["X", "O"];
  for (const p of [0, 1]) {
    const info = g.players[p];
    const row = html("div", { class: "player" + (g.to_move === p ? " to-move" : ""), "data-player": p }, box);
    html("span", { class: `chip ${symbols[p]}${g.game === "tictactoe" ? " mark" : ""}`,
      text: g.game === "tictactoe" ? symbols[p] : "" }, row);
    const who = html("div", { class: "who" }, row);
    who.append(`${g.side_names[p]}: ${info.name}`);
    html("small", { text: info.kind === "human" ? "person" : info.label }, who);
    html("span", { class: "count", text: g.game === "tictactoe" ? "" : g.counts[symbols[p]] }, row);
  }
}

function drawMoves(list, moves, current, name) {
  list.textContent = "";
  moves.forEach((m, i) => {
    const li = html("li", { text: name(m) + (m.value !== null && m.value !== undefined ? `  (${fmt(m.value)})` : "") }, list);
    if (m.move === "pass") li.classList.add("pass");
    if (i + 1 === current) li.classList.add("current");
  });
  list.scrollTop = list.scrollHeight;
}

function fmt(v) {
  if (v === null || v === undefined) return "";
  if (Math.abs(v) >= 1e6) return (v > 0 ? "win +" : "loss ") + Math.round(Math.abs(v) - 1e6);
  return (v > 0 ? "+" : "") + (Math.round(v * 10) / 10);
}

function drawGraph(g) {
  $("#graph-label").textContent = `Evaluation over the game (${g.side_names[0]}'s view: above the line is good for ${g.side_names[0]})`;
  const svg = $("#graph");
  svg.textContent = "";
  const n = Math.max(g.evals.length - 1, 1);
  const vals = g.evals.map((e) => (e ? e.value : null));
  const finite = vals.filter((v) => v !== null);
  const discs = g.game === "tictactoe" ? [] : g.disc_diff;
  const span = Math.max(1, ...finite.map(Math.abs), ...discs.map(Math.abs));
  const W = 300, H = 90;
  const x = (i) => (i / n) * W, y = (v) => H / 2 - (v / span) * (H / 2 - 4);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "zero" }, svg);
  if (discs.length) el("polyline", { class: "discs", points: discs.map((v, i) => `${x(i)},${y(v)}`).join(" ") }, svg);
  const pts = [];
  vals.forEach((v, i) => { if (v !== null) pts.push(`${x(i)},${y(v)}`); });
  if (pts.length) el("polyline", { class: "eval", points: pts.join(" ") }, svg);
  el("line", { x1: x(g.ply), y1: 0, x2: x(g.ply), y2: H, class: "now" }, svg);
}

function showHints(msg) {
  if (!app.game || (msg.ply !== null && msg.ply !== app.game.ply)) return;
  app.hints = msg.hints;
  const box = $("#hints");
  box.hidden = false;
  box.textContent = "";
  html("div", { text: `Best moves (${msg.source}):` }, box);
  const ol = html("ol", {}, box);
  for (const h of msg.hints) html("li", { text: `${h.move}  ${h.value_text}   ${h.pv.join(" ")}` }, ol);
  render(app.game);
}

function showEnd(g) {
  if (!app.game || app.game.id !== g.id || !app.game.over) return;
  const r = g.result;
  $("#end-title").textContent = r ? r.text : "Game over";
  $("#end-score").textContent = g.game === "tictactoe" ? (r && r.winner === null ? "No line of three." : "Three in a row.")
    : `${g.side_names[0]} ${g.counts.X} – ${g.counts.O} ${g.side_names[1]}`;
  $("#end").hidden = false;
}

function fillExport() {
  const g = app.game;
  if (!g) return;
  $("#export-text").value = g.custom_start ? `${g.start}\n${g.transcript}` : g.transcript;
  $("#export-position").value = g.position;
}

// ---------------------------------------------------------------- drawing boards
function drawBoard(container, g, opts) {
  container.textContent = "";
  const layout = g.layout;
  if (layout.kind === "hex") return drawHex(container, g, opts);
  const n = layout.cols, C = 60, M = 24;
  const ttt = g.game === "tictactoe";
  const svg = el("svg", { viewBox: `0 0 ${n * C + M * 2} ${n * C + M * 2}`, class: ttt ? "ttt" : "othello" }, container);
  for (let c = 0; c < n; c++) {
    el("text", { x: M + c * C + C / 2, y: M / 2, class: "coord", text: layout.files[c] }, svg);
  }
  for (let r = 0; r < n; r++) el("text", { x: M / 2, y: M + r * C + C / 2, class: "coord", text: layout.ranks[r] }, svg);
  const legal = new Map((opts.legal || []).map((m) => [m.index, m.move]));
  const center = (i) => [M + (i % n) * C + C / 2, M + Math.floor(i / n) * C + C / 2];
  for (let i = 0; i < n * n; i++) {
    const [cx, cy] = center(i);
    const rect = el("rect", { x: cx - C / 2, y: cy - C / 2, width: C, height: C, class: "cell", "data-index": i,
      "data-square": layout.files[i % n] + layout.ranks[Math.floor(i / n)] }, svg);
    if (legal.has(i)) { rect.classList.add("legal"); rect.addEventListener("click", () => opts.onClick && opts.onClick(i)); }
    if (ttt && opts.lastMove === i) rect.classList.add("last-cell");
  }
  if (!ttt && n === 8) for (const [r, c] of [[2, 2], [2, 6], [6, 2], [6, 6]]) {
    el("circle", { cx: M + c * C, cy: M + r * C, r: 3.5, fill: "#184d2e" }, svg);
  }
  g.cells.forEach((v, i) => {
    if (!v) return;
    const [cx, cy] = center(i);
    if (ttt) {
      if (v === "X") {
        const d = C * 0.28;
        el("line", { x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d, class: "mark-x" }, svg);
        el("line", { x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d, class: "mark-x" }, svg);
      } else el("circle", { cx, cy, r: C * 0.3, class: "mark-o" }, svg);
      return;
    }
    disc(svg, cx, cy, C * 0.41, v, i, opts);
  });
  for (const [i] of legal) {
    const [cx, cy] = center(i);
    if (!ttt) el("circle", { cx, cy, r: 6, class: "legal-mark" }, svg);
  }
  if (!ttt && opts.lastMove !== null && opts.lastMove !== undefined && opts.lastMove >= 0) {
    const [cx, cy] = center(opts.lastMove);
    el("circle", { cx, cy, r: 5, class: "last-mark" }, svg);
  }
  hintMarks(svg, opts.hints, g, (i) => center(i));
}

function disc(svg, cx, cy, r, v, i, opts) {
  const colour = v === "X" ? "black" : "white";
  const d = el("circle", { cx, cy, r, class: `disc ${colour}`, "data-index": i }, svg);
  if (opts.flips && opts.flips.includes(i)) {
    d.style.setProperty("--from", v === "X" ? "var(--white)" : "var(--black)");
    d.style.setProperty("--to", v === "X" ? "var(--black)" : "var(--white)");
    d.classList.add("flipping");
  } else if (opts.placed === i) d.classList.add("placed");
  return d;
}

function hintMarks(svg, hints, g, center) {
  if (!hints || !g.legal) return;
  const byName = new Map(g.legal.map((m) => [m.move, m.index]));
  hints.forEach((h, k) => {
    const idx = byName.get(h.move);
    if (idx === undefined) return;
    const [cx, cy] = center(idx);
    el("circle", { cx, cy, r: 13, class: "hint-mark" }, svg);
    el("text", { x: cx, y: cy + 1, class: "hint-text", text: String(k + 1) }, svg);
  });
}

function drawHex(container, g, opts) {
  const layout = g.layout, size = layout.cols, R = 17, s3 = Math.sqrt(3);
  const mid = (size - 1) / 2;
  const pos = (i) => {
    const row = Math.floor(i / size), col = i % size;
    const q = col - mid, r = row - mid;
    return [s3 * R * (q + r / 2), 1.5 * R * r];
  };
  const ext = s3 * R * (mid + 1) + 4;
  const svg = el("svg", { viewBox: `${-ext} ${-ext} ${2 * ext} ${2 * ext}`, class: "hex" }, container);
  const legal = new Map((opts.legal || []).map((m) => [m.index, m.move]));
  const corners = [...Array(6).keys()].map((k) => {
    const a = Math.PI / 180 * (60 * k - 30);
    return [R * Math.cos(a), R * Math.sin(a)];
  });
  for (const i of layout.cells_on_board) {
    const [x, y] = pos(i);
    const poly = el("polygon", { points: corners.map(([dx, dy]) => `${x + dx},${y + dy}`).join(" "), class: "cell",
      "data-index": i, "data-square": `${Math.floor(i / size)} ${i % size}` }, svg);
    el("title", { text: `${Math.floor(i / size)} ${i % size}` }, poly);
    if (legal.has(i)) { poly.classList.add("legal"); poly.addEventListener("click", () => opts.onClick && opts.onClick(i)); }
  }
  g.cells.forEach((v, i) => { if (v) { const [x, y] = pos(i); disc(svg, x, y, R * 0.72, v, i, opts); } });
  for (const [i] of legal) { const [x, y] = pos(i); el("circle", { cx: x, cy: y, r: 3.5, class: "legal-mark" }, svg); }
  if (opts.lastMove !== null && opts.lastMove !== undefined && opts.lastMove >= 0) {
    const [x, y] = pos(opts.lastMove);
    el("circle", { cx: x, cy: y, r: 3.5, class: "last-mark" }, svg);
  }
  hintMarks(svg, opts.hints, g, pos);
}

// ---------------------------------------------------------------- board buttons and keys
function initBoard() {
  $("#btn-undo").addEventListener("click", () => send({ type: "undo" }));
  $("#btn-redo").addEventListener("click", () => send({ type: "redo" }));
  $("#btn-hint").addEventListener("click", () => send({ type: "hint", count: 3 }));
  $("#btn-newgame").addEventListener("click", () => { location.hash = "#/"; });
  $("#btn-export").addEventListener("click", () => { const b = $("#export-box"); b.hidden = !b.hidden; fillExport(); });
  $("#btn-copy").addEventListener("click", () => { $("#export-text").select(); navigator.clipboard && navigator.clipboard.writeText($("#export-text").value); });
  $("#move-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const text = $("#move-input").value.trim();
    if (text) { playMove(text); $("#move-input").value = ""; }
  });
  $("#btn-setup").addEventListener("click", async () => {
    const text = $("#setup-text").value.trim();
    if (!text) { showError("paste a transcript or a board first"); return; }
    try { await startGame(app.settings.mode ? app.settings : formSettings(), text); }
    catch (e) { showError(e.message); }
  });
  $("#btn-again").addEventListener("click", async () => {
    $("#end").hidden = true;
    try { await startGame(app.settings.mode ? app.settings : formSettings(), ""); } catch (e) { showError(e.message); }
  });
  $("#btn-back").addEventListener("click", () => { $("#end").hidden = true; location.hash = "#/"; });
  $("#btn-review").addEventListener("click", () => { $("#end").hidden = true; });
  document.addEventListener("keydown", (ev) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (!$("#screen-replay").hidden && !typing) return replayKey(ev);
    if ($("#screen-board").hidden) return;
    const mod = (ev.ctrlKey || ev.metaKey) && !typing; // in a text box Ctrl+Z stays the box's own undo
    if (mod && ev.key.toLowerCase() === "z" && !ev.shiftKey) { ev.preventDefault(); send({ type: "undo" }); return; }
    if (mod && (ev.key.toLowerCase() === "y" || (ev.key.toLowerCase() === "z" && ev.shiftKey))) {
      ev.preventDefault(); send({ type: "redo" }); return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.key === "?") send({ type: "hint", count: 3 });
    else if (/^[a-j0-9]$/i.test(ev.key) && !$("#move-input").disabled) {
      $("#move-input").focus(); // the key lands in the move box: type d3 then Enter
    }
  });
}

// ---------------------------------------------------------------- history and replay
async function loadHistory() {
  const body = $("#history-rows");
  body.textContent = "";
  try {
    const data = await api("GET", "/api/history?limit=200");
    $("#history-count").textContent = data.total ? `${data.total} finished game${data.total === 1 ? "" : "s"}, newest first.` : "No finished games yet.";
    for (const g of data.games) {
      const tr = html("tr", { "data-id": g.id }, body);
      html("td", { text: g.finished_at.replace("T", " ").replace("+00:00", " UTC") }, tr);
      html("td", { text: g.game }, tr);
      html("td", { text: g.players[0] }, tr);
      html("td", { text: g.players[1] }, tr);
      html("td", { text: g.result }, tr);
      html("td", { text: g.plies }, tr);
      const td = html("td", {}, tr);
      html("a", { href: `#/replay/${g.id}`, text: "Replay", class: "replay-link" }, td);
    }
  } catch (e) { $("#history-count").textContent = e.message; }
}

async function loadReplay(id) {
  $("#replay-board").textContent = "";
  try {
    const rec = await api("GET", `/api/history/${id}`);
    app.replay = { rec, ply: 0 };
    $("#replay-title").textContent = `Replay: ${rec.game}, ${rec.finished_at.slice(0, 10)}`;
    $("#replay-players").textContent = `${rec.players[0]}  vs  ${rec.players[1]}`;
    $("#replay-result").textContent = rec.result;
    $("#rp-slider").max = rec.frames.length - 1;
    showFrame(0);
  } catch (e) { $("#replay-title").textContent = e.message; }
}

function showFrame(k) {
  const rp = app.replay;
  if (!rp) return;
  const frames = rp.rec.frames;
  k = Math.max(0, Math.min(frames.length - 1, k));
  const prev = rp.ply;
  rp.ply = k;
  const f = frames[k];
  const g = { game: rp.rec.game, layout: rp.rec.layout, cells: f.cells, legal: [] };
  let flips = [];
  if (k === prev + 1) flips = f.cells.map((v, i) => (v && frames[k - 1].cells[i] && v !== frames[k - 1].cells[i] ? i : -1)).filter((i) => i >= 0);
  drawBoard($("#replay-board"), g, { legal: [], lastMove: f.last_move, flips, placed: k === prev + 1 ? f.last_move : null });
  $("#rp-slider").value = k;
  const names = rp.rec.side_names;
  const counts = rp.rec.game === "tictactoe" ? "" : `  ${names[0]} ${f.counts.X} – ${f.counts.O} ${names[1]}`;
  $("#replay-pos").textContent = (k === 0 ? "Start position" : `Move ${k}: ${names[f.side]} ${f.move}`) + counts;
  drawMoves($("#replay-moves"), frames.slice(1), k, (fr) => `${fr.move}`);
}

function replayKey(ev) {
  if (!app.replay) return;
  const k = app.replay.ply;
  if (ev.key === "ArrowRight") showFrame(k + 1);
  else if (ev.key === "ArrowLeft") showFrame(k - 1);
  else if (ev.key === "Home") showFrame(0);
  else if (ev.key === "End") showFrame(1e9);
}

function initReplay() {
  $("#rp-first").addEventListener("click", () => showFrame(0));
  $("#rp-prev").addEventListener("click", () => showFrame(app.replay.ply - 1));
  $("#rp-next").addEventListener("click", () => showFrame(app.replay.ply + 1));
  $("#rp-last").addEventListener("click", () => showFrame(1e9));
  $("#rp-slider").addEventListener("input", (ev) => showFrame(+ev.target.value));
}

// ---------------------------------------------------------------- boot
(async function main() {
  initBoard();
  initReplay();
  try { await initStart(); } catch (e) { $("#start-error").textContent = `cannot reach the server: ${e.message}`; }
  route();
})();
