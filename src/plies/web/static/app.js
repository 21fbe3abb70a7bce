// plies web: the page.  Plain JavaScript, no build step.  Screens: start, board editor, board (a live game, or a
// finished one replayed from the history, with the end overlay), history.
// The server owns the rules and the analysis: this file draws what /api and /ws/games/{id} send and sends moves back.
"use strict";

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";

const app = {
  info: null,
  settings: loadSettings(),
  mode: null,          // "live" | "replay"
  g: null,             // live: the last state from the server; replay: built from the stored game
  gameId: null,
  ws: null,
  wsRetry: 0,
  rec: null,           // replay: the stored game
  viewPly: null,       // the position shown (null: the latest)
  shownPly: null,      // the position drawn last (to animate one step forward)
  frames: new Map(),   // live: ply -> position, fetched for earlier plies (cleared when the game changes)
  analyses: new Map(), // key -> analysis of a position (every legal move valued)
  pending: new Set(),
  showHints: null,     // the ply whose hints are shown
  review: null,        // the review of this game
  reviewing: null,     // the review job in progress
  endShownFor: null,
  clockAt: 0,
  editor: null,
};

function loadSettings() {
  try { return JSON.parse(localStorage.getItem("plies.settings") || "{}"); } catch (e) { return {}; }
}
function saveSettings() { try { localStorage.setItem("plies.settings", JSON.stringify(app.settings)); } catch (e) { /* private mode */ } }

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

// ---------------------------------------------------------------- values in discs, from the chosen point of view
function pov() { const p = app.settings.pov; return p === "1" || p === "mover" ? p : "0"; }
function graphSide() { return pov() === "1" ? 1 : 0; }
function povName() {
  const names = (app.g && app.g.side_names) || ["Black", "White"];
  return pov() === "mover" ? "the side to move" : names[+pov()];
}
// a position's value is Black's (player 0's) view; a move's value is its mover's view.  With "the side to move's
// view", a position after a move is valued for the player who made that move (``who``).
function posValue(v, who) {
  if (v === null || v === undefined) return null;
  if (pov() === "mover") return who === 1 ? -v : v;
  return pov() === "1" ? -v : v;
}
function moveValue(v, mover) {
  if (v === null || v === undefined) return null;
  if (pov() === "mover") return v;
  return (+pov() === mover) ? v : -v;
}
function discs(v) {
  const r = Math.round(v * 10) / 10;
  if (r === 0) return "0";
  const s = Math.abs(r).toFixed(1).replace(/\.0$/, "");
  return (r > 0 ? "+" : "−") + s;
}
function fmtVal(v, unit, opts = {}) {
  if (v === null || v === undefined) return "";
  if (unit === "result") return v > 0 ? "win" : v < 0 ? "loss" : "draw";
  const text = discs(v);
  if (unit === "discs") return opts.bare ? text : `${text} disc${Math.abs(Math.round(v * 10) / 10) === 1 ? "" : "s"}`;
  return opts.bare ? text : `${text} (${unit})`;
}
function unitNote(unit) {
  if (unit === "discs") return "in discs";
  if (unit === "result") return "win / draw / loss";
  return `${unit}'s value (not discs)`;
}

// ---------------------------------------------------------------- routing
function show(name) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== `screen-${name}`;
}
async function route() {
  const h = location.hash || "#/";
  let m;
  if ((m = h.match(/^#\/game\/([\w-]+)/))) { show("board"); openGame(m[1]); }
  else if ((m = h.match(/^#\/replay\/([\w-]+)/))) { closeGame(); show("board"); openReplay(m[1]); }
  else if (h.startsWith("#/history")) { closeGame(); show("history"); loadHistory(); }
  else if (h.startsWith("#/editor")) { closeGame(); show("editor"); openEditor(); }
  else { closeGame(); show("start"); }
}
window.addEventListener("hashchange", route);

// ---------------------------------------------------------------- the games, as the server describes them
// Every game comes with its variants (board sizes), sides, symbols, how its results count, a move to show and
// whether the fast engine plays it: the page knows no game by name.
function variants() { return app.info ? app.info.games.flatMap((g) => g.variants.map((v) => ({ ...v, game: g }))) : []; }
function variant(name) { return variants().find((v) => v.name === name) || null; }
function gameEntry(name) {
  const v = variant(name);
  return v ? v.game : ((app.info && app.info.games.find((g) => g.name === name)) || null);
}
function gameChoices() { return variants().map((v) => v.name); }
function gameTitle(name) { const v = variant(name); return v ? v.label : name; }
// the variant of a game with this layout (an Othello board's size)
function variantOf(game, layout) {
  const entry = gameEntry(game);
  if (!entry) return null;
  return entry.variants.find((v) => !layout || v.layout.rows === layout.rows) || entry.variants[0];
}
function marksGame(layout) { return layout && layout.pieces && layout.pieces[0] === "x"; } // X and O marks, not discs

async function initStart() {
  app.info = await api("GET", "/api/info");
  const sel = $("#opt-game");
  for (const name of gameChoices()) html("option", { value: name, text: gameTitle(name) }, sel);
  const levelSel = $("#opt-level"), level2 = $("#opt-level2");
  for (let l = 1; l <= app.info.levels.max; l++) {
    const teach = l <= app.info.levels.teaching[1];
    const text = teach ? `${l}: textbook search, depth ${l}`
      : `${l}: ${app.info.engine.available ? "fast engine" : "alpha-beta (no engine)"}`;
    html("option", { value: l, text }, levelSel);
    html("option", { value: l, text }, level2);
  }
  const analysis = $("#opt-analysis");
  for (const [l, text] of Object.entries(app.info.analysis.levels || {})) html("option", { value: l, text: `level ${l} (${text})` }, analysis);
  $("#engine-note").textContent = `Levels 1–${app.info.levels.teaching[1]} are the textbook search at that depth; ${app.info.engine.text}.`;
  if (app.info.learn) { $("#nav-learn").hidden = false; $("#start-learn").hidden = false; }
  const s = app.settings;
  if (s.game && gameChoices().includes(s.game)) sel.value = s.game;
  if (s.mode) for (const r of document.querySelectorAll("input[name=mode]")) r.checked = r.value === s.mode;
  levelSel.value = s.level || 2; level2.value = s.level2 || 3;
  if (s.algorithm) $("#opt-algorithm").value = s.algorithm;
  if (s.minutes) $("#opt-minutes").value = s.minutes;
  if (s.increment) $("#opt-increment").value = s.increment;
  fillHeuristics();
  if (s.heuristic) $("#opt-heuristic").value = s.heuristic;
  $("#opt-pov").value = pov();
  $("#opt-values").checked = !!s.values;
  sel.addEventListener("change", fillHeuristics);
  $("#start-form").addEventListener("change", updateStartForm);
  updateStartForm();
  $("#start-form").addEventListener("submit", (ev) => { ev.preventDefault(); startFromForm(); });
}

function baseGame(name) { const e = gameEntry(name); return e ? e.name : name; }
function sizeOf(name) { const v = variant(name); return v && v.game.variants.length > 1 ? v.size : null; }

function fillHeuristics() {
  const game = baseGame($("#opt-game").value);
  const sel = $("#opt-heuristic");
  sel.textContent = "";
  const entry = app.info.games.find((g) => g.name === game);
  const names = entry ? entry.heuristics : [];
  if (!names.length) html("option", { value: "", text: "disc difference" }, sel);
  for (const n of names) html("option", { value: n, text: n + (entry.default_heuristic === n ? " (default)" : "") }, sel);
  if (entry && entry.default_heuristic) sel.value = entry.default_heuristic;
  const sides = entry ? entry.sides : ["Black", "White"];
  for (const span of document.querySelectorAll("[data-side]")) span.textContent = sides[+span.dataset.side];
  labelLevels();
  updateStartForm();
}

// The high levels' names in the Difficulty lists: the fast engine where it plays, alpha-beta elsewhere.
function engineGame(name) { const v = variant(name); return !!(v && v.engine && app.info.engine.available); }
function labelLevels() {
  const fast = engineGame($("#opt-game").value);
  for (const sel of [$("#opt-level"), $("#opt-level2")]) {
    for (const o of sel.options) {
      const l = +o.value;
      if (l > app.info.levels.teaching[1]) o.textContent = `${l}: ${fast ? "fast engine" : "alpha-beta"}`;
    }
  }
}

function levelNote(level) {
  if (level <= app.info.levels.teaching[1]) {
    return `Level ${level}: the textbook search looks ${level} move${level === 1 ? "" : "s"} ahead with the evaluation below.`;
  }
  const game = $("#opt-game").value;
  if (!engineGame(game)) return `Level ${level}: alpha-beta with move ordering (the fast engine plays 8×8 Othello only).`;
  return `Level ${level}: ${(app.info.engine.levels || {})[level] || "the fast engine"}.`;
}

function updateStartForm() {
  if (!app.info) return;
  const mode = document.querySelector("input[name=mode]:checked").value;
  const lvl = Math.max(+$("#opt-level").value, mode === "watch" ? +$("#opt-level2").value : 0);
  document.querySelector(".computer-only").hidden = mode === "people";
  document.querySelector(".watch-only").hidden = mode !== "watch";
  document.querySelector(".teaching-only").hidden = mode === "people" || lvl > app.info.levels.teaching[1];
  $("#level-note").textContent = mode === "people" ? "" : levelNote(+$("#opt-level").value);
}

function formSettings() {
  const f = $("#start-form");
  return {
    game: f.game.value, mode: f.mode.value, level: +f.level.value, level2: +f.level2.value,
    algorithm: f.algorithm.value, heuristic: f.heuristic.value,
    minutes: f.minutes.value.trim(), increment: f.increment.value.trim(),
  };
}

// The evaluation chosen for the computer when the game has it; else (one chosen for another game, e.g. before the
// editor switched game) null: the game's default.
function heuristicFor(game, name) {
  const entry = app.info.games.find((g) => g.name === baseGame(game));
  return name && entry && entry.heuristics.includes(name) ? name : null;
}

function gameRequest(s, position, extra = {}) {
  const heuristic = heuristicFor(s.game, s.heuristic);
  const comp = (level) => ({ kind: "computer", level, algorithm: s.algorithm, heuristic });
  const human = { kind: "human" };
  const players = { first: [human, comp(s.level)], second: [comp(s.level), human], people: [human, human],
    watch: [comp(s.level), comp(s.level2)] }[s.mode];
  const minutes = parseFloat(s.minutes);
  const body = { game: baseGame(s.game), size: sizeOf(s.game), position: position || null, players,
    delay: s.mode === "watch" ? 0.4 : 0, replaces: app.gameId, ...extra };
  if (minutes > 0) body.clock = { minutes, increment: Math.max(0, parseFloat(s.increment) || 0) };
  if (app.settings.analysis) body.analysis_level = +app.settings.analysis;
  return body;
}

async function startGame(s, position, extra) {
  const data = await api("POST", "/api/games/new", gameRequest(s, position, extra));
  Object.assign(app.settings, s);
  saveSettings();
  location.hash = `#/game/${data.game.id}`;
  return data;
}

async function startFromForm() {
  $("#start-error").textContent = "";
  try {
    await startGame(formSettings(), $("#opt-position").value.trim());
    $("#opt-position").value = ""; // the next game starts from the start unless pasted again
    $("#start-position").open = false;
  } catch (e) { $("#start-error").textContent = e.message; }
}

// ---------------------------------------------------------------- the board screen: common state
function resetBoardScreen(mode) {
  app.mode = mode;
  app.g = null; app.rec = null; app.viewPly = null; app.shownPly = null;
  app.frames = new Map(); app.showHints = null; app.review = null; app.reviewing = null;
  $("#hints").hidden = true; $("#export-box").hidden = true; $("#game-error").textContent = "";
  $("#review-box").hidden = true; $("#move-note").hidden = true; $("#end").hidden = true;
  $("#board").textContent = ""; $("#movelist").textContent = "";
  document.body.classList.toggle("replaying", mode === "replay");
  $("#replay-head").hidden = mode !== "replay";
}

function lastPly() { return app.g ? app.g.ply : 0; }
function viewPly() { return app.viewPly === null ? lastPly() : Math.min(app.viewPly, lastPly()); }

function frameAt(ply) {
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

async function fetchFrame(ply) {
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

function goto(ply) {
  if (!app.g) return;
  const last = lastPly();
  ply = Math.max(0, Math.min(last, ply));
  app.viewPly = ply === last ? null : ply;
  render();
}

// ---------------------------------------------------------------- the live game
function closeGame() {
  const g = app.g;
  if (app.mode === "live" && g && g.owner && !g.over && g.players.every((p) => p.kind === "computer") && app.ws
      && app.ws.readyState === WebSocket.OPEN) {
    app.ws.send(JSON.stringify({ type: "abandon" })); // a watched game stops when you leave it
  }
  if (app.ws) { app.ws.onclose = null; app.ws.close(); app.ws = null; }
  $("#end").hidden = true;
  if (app.mode === "live") app.mode = null;
}

function openGame(id) {
  if (app.ws && app.gameId === id && app.mode === "live") return;
  closeGame();
  resetBoardScreen("live");
  app.gameId = id;
  connect(id);
}

function connect(id) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${proto}://${location.host}/ws/games/${id}`);
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

function movesKey(g) { return g.moves.map((m) => m.move).join(" "); }

function onState(g) {
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
    if (g.ply > g.setup_moves || (g.clock && g.clock.flagged !== null)) setTimeout(() => showEnd(g), 650);
  }
  if (!g.over && app.endShownFor === g.id) app.endShownFor = null; // undone after the end
}

function humanAt(frame) {
  const g = app.g;
  return app.mode === "live" && g && g.owner && frame && !frame.over && frame.to_move !== null
    && g.players[frame.to_move].kind === "human";
}

function canPlayAt(frame) {
  if (!humanAt(frame)) return false;
  if (frame.ply === app.g.ply) return true;
  return app.g.can_branch && app.g.thinking === null;
}

function playAt(frame, move) {
  if (frame.ply === app.g.ply) { send({ type: "move", move }); return; }
  api("POST", `/api/games/${app.gameId}/branch`, { ply: frame.ply, move })
    .then((g) => { app.viewPly = null; onState(g); })
    .catch((e) => showError(e.message));
}

// ---------------------------------------------------------------- replay of a finished game
async function openReplay(id) {
  resetBoardScreen("replay");
  app.gameId = null;
  try {
    const rec = await api("GET", `/api/history/${id}`);
    if (app.mode !== "replay") return;
    app.rec = rec;
    const last = rec.frames[rec.frames.length - 1];
    app.g = {
      id: rec.id, game: rec.game, layout: rec.layout, side_names: rec.side_names, ply: rec.frames.length - 1,
      moves: rec.frames.slice(1).map((f) => ({ ply: f.ply, move: f.move, side: f.side })),
      players: rec.players.map((p) => ({ kind: p.startsWith("computer") ? "computer" : "human", name: p, label: "" })),
      evals: rec.frames.map(() => null), over: true, owner: false, start: rec.start, counts: last.counts,
      transcript: transcriptOf(rec), position: rec.final, clock: null, thinking: null, result: { text: rec.result },
    };
    for (const f of rec.frames) f.legal = [];
    $("#replay-title").textContent = `${gameLabel(rec)}, ${rec.finished_at.slice(0, 10)}`;
    $("#replay-result").textContent = rec.result;
    app.viewPly = 0;
    render();
  } catch (e) { $("#replay-title").textContent = e.message; $("#replay-head").hidden = false; }
}

function transcriptOf(rec) {
  const moves = rec.moves.filter((m) => m !== "pass");
  return moves.some((m) => m.includes(" ")) ? moves.join(", ") : moves.join("");
}

function gameLabel(rec) {
  const v = variantOf(rec.game, rec.layout);
  return v ? v.label : rec.game;
}

async function playOn() {
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

// ---------------------------------------------------------------- analysis, hints, review
function analysisLevel() { return app.g && app.g.analysis_level ? app.g.analysis_level : (+app.settings.analysis || (app.info && app.info.analysis.default) || 8); }

function analysisKey(ply) {
  const f = frameAt(ply);
  const where = app.mode === "replay" ? `r${app.rec.id}:${ply}` : (f ? f.position : `?${ply}`);
  return `${where}@${analysisLevel()}`;
}

function analysisAt(ply) {
  const key = analysisKey(ply);
  const a = app.analyses.get(key);
  if (a) return a;
  if (!key.startsWith("?")) fetchAnalysis(ply, key);
  return null;
}

async function fetchAnalysis(ply, key) {
  if (app.pending.has(key)) return;
  app.pending.add(key);
  try {
    let a;
    if (app.mode === "replay") {
      const rec = app.rec;
      const v = variantOf(rec.game, rec.layout);
      a = await api("POST", "/api/analysis", { game: rec.game, size: v ? sizeOf(v.name) : null,
        position: rec.start, moves: rec.moves.slice(0, ply), level: analysisLevel() });
    } else {
      a = await api("GET", `/api/games/${app.gameId}/analysis?ply=${ply}&level=${analysisLevel()}`);
    }
    app.analyses.set(key, a);
    if (app.analyses.size > 500) app.analyses.delete(app.analyses.keys().next().value);
    render();
  } catch (e) { showError(e.message); }
  finally { app.pending.delete(key); }
}

function drawHints(ply, frame) {
  const box = $("#hints");
  if (app.showHints !== ply) { box.hidden = true; return null; }
  box.hidden = false;
  const a = analysisAt(ply);
  box.textContent = "";
  if (!a) { html("div", { class: "muted", text: "Looking for the best moves…" }, box); return null; }
  if (!a.moves.length) { html("div", { text: "No moves here." }, box); return null; }
  html("div", { class: "small muted", text: `Best moves, ${unitNote(a.unit)} from ${povName()}'s view — ${a.source}` }, box);
  const ol = html("ol", { class: "hint-list" }, box);
  const mover = frame ? frame.to_move : a.to_move;
  for (const h of a.moves.slice(0, 3)) {
    const li = html("li", {}, ol);
    html("b", { class: "hint-move", text: h.move }, li);
    html("span", { class: "hint-value", text: fmtVal(moveValue(h.value, mover), a.unit) + (h.exact && a.unit === "discs" ? " exact" : "") }, li);
    if (h.pv.length > 1) html("span", { class: "hint-line", text: `then ${h.pv.slice(1).join(separatorOf(a.game))}` }, li);
  }
  return a.moves.slice(0, 3);
}

function separatorOf(game) { const e = gameEntry(game); return e ? e.separator : " "; }

function clearReview() {
  app.review = null; app.reviewing = null;
  $("#review-box").hidden = true;
}

async function startReview() {
  if (!app.g || app.reviewing) return;
  const body = { level: analysisLevel() };
  if (app.mode === "replay") body.history_id = app.rec.id; else body.game_id = app.gameId;
  const box = $("#review-box");
  box.hidden = false;
  $("#review-summary").textContent = ""; $("#review-mistakes").textContent = "";
  $("#review-progress").hidden = false;
  $("#review-bar").value = 0;
  $("#review-progress-text").textContent = "Starting the review…";
  try {
    let job = await api("POST", "/api/reviews", body);
    app.reviewing = job.id;
    while (job.status === "running") {
      $("#review-bar").max = job.total; $("#review-bar").value = job.done;
      $("#review-progress-text").textContent = `Analysing position ${Math.min(job.done + 1, job.total)} of ${job.total}…`;
      await new Promise((r) => setTimeout(r, 200));
      if (app.reviewing !== job.id) return;
      job = await api("GET", `/api/reviews/${job.id}`);
    }
    app.reviewing = null;
    $("#review-progress").hidden = true;
    if (job.status !== "done") throw new Error(job.error || "the review failed");
    app.review = job.review;
    render();
  } catch (e) {
    app.reviewing = null;
    $("#review-progress").hidden = true;
    $("#review-summary").textContent = e.message;
  }
}

function drawReview() {
  const r = app.review;
  if (!r) return;
  const box = $("#review-box");
  box.hidden = false;
  const sum = $("#review-summary");
  sum.textContent = "";
  const unit = r.unit;
  const lossWord = unit === "discs" ? "discs lost" : unit === "result" ? "results thrown away" : `${unit} units lost`;
  html("div", { class: "small muted", text: `Review — ${r.source}. A mistake loses ${unit === "discs" ? `at least ${r.threshold} discs` : unit === "result" ? "a better result" : "much more than the other moves"} against the best move.` }, sum);
  const table = html("table", { class: "review-table" }, sum);
  const head = html("tr", {}, html("thead", {}, table));
  for (const t of ["", "mistakes", lossWord, "worst"]) html("th", { text: t }, head);
  const body = html("tbody", {}, table);
  for (const p of r.players) {
    const tr = html("tr", { "data-side": p.side }, body);
    const who = app.g.players[p.side];
    html("td", { text: `${p.name}${who && who.name && who.name !== p.name ? ` (${who.name})` : ""}` }, tr);
    html("td", { class: "num", text: String(p.mistakes) }, tr);
    html("td", { class: "num", text: unit === "result" ? String(p.lost) : discs(p.lost).replace("+", "") }, tr);
    html("td", { text: p.worst ? `${moveName(p.worst.ply, null, p.worst.move)} (−${discs(p.worst.loss).replace("+", "")})` : "—" }, tr);
  }
  const ol = $("#review-mistakes");
  ol.textContent = "";
  const here = viewPly() + 1;
  for (const m of r.moves.filter((x) => x.mistake)) {
    const li = html("li", { "data-ply": m.ply, class: m.ply === here ? "current" : "" }, ol);
    const b = html("button", { class: "mistake-link", text: moveName(m.ply, m.side, m.move) }, li);
    b.addEventListener("click", () => goto(m.ply - 1));
    html("span", { class: "loss", text: ` −${discs(m.loss).replace("+", "")}${unit === "discs" ? " discs" : ""}${m.exact ? " (exact)" : ""}` }, li);
    html("span", { class: "muted", text: `, best ${m.best}` }, li);
  }
  ol.hidden = !ol.childElementCount;
  scrollIntoList(ol, ol.querySelector(".current"));
  if (!ol.childElementCount) html("p", { class: "muted", text: "No mistakes." }, sum);
}

// ---------------------------------------------------------------- rendering the board screen
function render() {
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
    drawBoard($("#board"), { game: g.game, layout: g.layout, cells: f.cells, highlight: f.highlight || [] }, {
      legal: clickable ? f.legal : [],
      dots: clickable || (app.mode === "live" && atEnd && f.to_move !== null) ? f.legal : [],
      lastMove: f.last_move ? (typeof f.last_move === "object" ? f.last_move.index : f.last_move) : null,
      flips: step ? flipsOf(f) : [],
      placed: step && f.last_move !== null && f.last_move !== undefined ? (typeof f.last_move === "object" ? f.last_move.index : f.last_move) : null,
      hints, values,
      review: reviewRow && reviewRow.best && !reviewRow.forced ? reviewRow : null,
      onClick: clickable ? (idx) => {
        const m = f.legal.find((x) => x.index === idx);
        if (m) playAt({ ...f, ply: k }, m.move);
      } : null,
      // a click off the marked squares on your turn says why nothing happened
      onMiss: clickable ? (square) => showError(`${square} is not a legal move here (the dots mark yours)`) : null,
    });
    app.shownPly = k;
  }
  const known = (g.evals || []).find((e) => e);
  const v = variantOf(g.game, g.layout);
  $("#analysis-level-box").hidden = !(v && engineGame(v.name) && (!known || known.unit === "discs"));
  if (app.mode === "replay") $("#opt-analysis").value = analysisLevel();
  drawPlayers(f);
  drawStatus(f, k);
  drawNav(k);
  drawMoveNote(k, f);
  drawMoveList();
  drawGraph();
  drawReview();
  if (!$("#export-box").hidden) fillExport();
}

function flipsOf(f) {
  if (Array.isArray(f.flipped)) return f.flipped;
  const prev = app.mode === "replay" ? app.rec.frames[f.ply - 1] : null;
  if (!prev) return [];
  return f.cells.map((v, i) => (v && prev.cells[i] && v !== prev.cells[i] ? i : -1)).filter((i) => i >= 0);
}

function drawPlayers(f) {
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
    html("span", { class: "colour", text: g.side_names[p] }, who);
    html("span", { class: "name", text: ` ${info.name}` }, who);
    if (info.kind === "computer" && info.label) html("small", { text: info.label.replace(/^level \d+: /, "") }, who);
    if (g.clock) html("span", { class: "clock" + (g.clock.running === p ? " running" : "") + (g.clock.flagged === p ? " flagged" : ""), "data-clock": p, text: clockText(p) }, row);
    html("span", { class: "count", text: marked ? "" : counts[symbols[p]] }, row);
  }
}

function clockLeft(p) {
  const c = app.g && app.g.clock;
  if (!c) return 0;
  let t = c.remaining[p];
  if (c.running === p) t -= (performance.now() - app.clockAt) / 1000;
  return Math.max(0, t);
}
function clockText(p) {
  const t = clockLeft(p);
  if (t < 10) return `0:0${t.toFixed(1)}`.replace(/^0:0(\d\d)/, "0:$1");
  const s = Math.ceil(t);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
function tickClocks() {
  if (!app.g || !app.g.clock || app.mode !== "live") return;
  for (const node of document.querySelectorAll("[data-clock]")) {
    const p = +node.dataset.clock;
    node.textContent = clockText(p);
    node.classList.toggle("low", clockLeft(p) < 10);
  }
}
setInterval(tickClocks, 100);

function drawStatus(f, k) {
  const g = app.g;
  const names = g.side_names;
  let turn;
  if (app.mode === "replay") turn = k === 0 ? "Start position" : `After move ${k}`;
  else if (g.over && k === g.ply) turn = g.result ? g.result.text : "Game over";
  else if (!f) turn = "…";
  else if (f.to_move === null) turn = "Game over in this position";
  else {
    turn = `${names[f.to_move]} to move`;
    if (humanAt(f) && k === g.ply) turn += ` — your turn (${f.legal.length} legal move${f.legal.length === 1 ? "" : "s"})`;
  }
  $("#turn").textContent = turn;
  const thinking = app.mode === "live" && g.thinking !== null && g.thinking !== undefined;
  $("#thinking").hidden = !thinking;
  if (thinking) $("#thinking-text").textContent = `${names[g.thinking]} (${g.players[g.thinking].name.toLowerCase()}) is thinking…`;
  $("#notice").textContent = app.mode === "live" && k === g.ply ? (g.notice || "") : "";
  if (app.mode === "live" && g.error) showError(g.error);
  const live = app.mode === "live";
  $("#btn-undo").disabled = !live || !g.owner || !g.can_undo;
  $("#btn-redo").disabled = !live || !g.owner || !g.can_redo;
  $("#btn-hint").disabled = !f || f.over || f.to_move === null;
  $("#btn-review").disabled = !!app.reviewing || !g.moves.some((m) => m.move !== "pass");
  $("#move-input").disabled = !live || !humanAt(f) || k !== g.ply;
  const entry = gameEntry(g.game);
  $("#move-input").placeholder = `type a move, e.g. ${entry ? entry.example : "d3"}`;
  const note = $("#view-note");
  if (live && k !== g.ply) {
    note.hidden = false;
    note.textContent = canPlayAt(f ? { ...f, ply: k } : null)
      ? `Position after move ${k} of ${g.ply}. Play a move here to go on from this position (the later moves are replaced; Undo takes it back).`
      : `Position after move ${k} of ${g.ply}. ▶| returns to the game.`;
  } else note.hidden = true;
}

function drawNav(k) {
  const last = lastPly();
  $("#nav-pos").textContent = `${k} / ${last}`;
  $("#nav-first").disabled = $("#nav-prev").disabled = k === 0;
  $("#nav-last").disabled = $("#nav-next").disabled = k === last;
}

function drawMoveNote(k, f) {
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
      const mine = `${moveName(row.ply, mover, "")}played ${row.move} (${fmtVal(moveValue(row.value, mover), r.unit)})`;
      const verdict = row.loss > 0 ? `: ${row.mistake ? "a mistake, " : ""}${discs(row.loss).replace("+", "")} ${r.unit === "discs" ? "discs" : "units"} below ${row.best} (${fmtVal(moveValue(row.best_value, mover), r.unit)})` : ", the best move";
      parts.push({ text: mine + verdict + (row.exact ? " — exact" : ""), cls: row.mistake ? "bad" : "" });
      parts.push({ text: `Best line: ${row.best_line.join(sep)}`, cls: "line" });
    }
  }
  if (!parts.length && lastMove && app.mode === "replay") parts.push({ text: `Move ${k}: ${g.side_names[lastMove.side]} ${lastMove.move}`, cls: "" });
  box.textContent = "";
  box.hidden = !parts.length;
  for (const p of parts) html("div", { class: p.cls, text: p.text }, box);
}

function drawMoveList() {
  const g = app.g;
  const list = $("#movelist");
  if (!g) return;
  const k = viewPly();
  const r = app.review;
  list.textContent = "";
  const startBtn = html("button", { class: "mv start" + (k === 0 ? " current" : ""), "data-ply": 0, text: "start" }, list);
  startBtn.addEventListener("click", () => goto(0));
  const evals = r ? r.evals : g.evals;
  const numbers = moveNumbers(g.moves);
  let row = null;
  g.moves.forEach((m, i) => {
    const ply = i + 1;
    if (m.side === 0 || !row) {
      row = html("div", { class: "mv-row" }, list);
      html("span", { class: "mv-num", text: `${numbers[ply]}.` }, row);
      if (m.side === 1) html("span", { class: "mv-empty" }, row);
    }
    const btn = html("button", { class: "mv" + (ply === k ? " current" : "") + (m.move === "pass" ? " pass" : ""), "data-ply": ply, "aria-label": `move ${ply}: ${m.move}` }, row);
    html("span", { class: "mv-move", text: m.move }, btn);
    const ev = evals && evals[ply];
    if (ev && (ev.unit === "discs" || ev.unit === "result")) {
      html("span", { class: "mv-val" + (ev.exact ? " exact" : ""), text: fmtVal(posValue(ev.value, m.side), ev.unit, { bare: true }) }, btn);
    }
    const rv = r ? r.moves.find((x) => x.ply === ply) : null;
    if (rv && rv.mistake) {
      btn.classList.add("mistake");
      html("span", { class: "mv-loss", text: `?−${discs(rv.loss).replace("+", "")}` }, btn);
      btn.title = `lost ${discs(rv.loss).replace("+", "")} against ${rv.best}`;
    }
    btn.addEventListener("click", () => goto(ply));
    if (m.side === 1) row = null;
  });
  scrollIntoList(list, list.querySelector(".current"));
}

// The number of each ply's move as the move list shows it (a Black move and White's reply share one), so that
// the review and the notes name a move as the list does.
function moveNumbers(moves) {
  const out = [0];
  let number = 0;
  moves.forEach((m, i) => {
    if (m.side === 0 || i === 0 || moves[i - 1].side === 1) number += 1;
    out.push(number);
  });
  return out;
}

function moveName(ply, side, move) {
  const n = app.g ? moveNumbers(app.g.moves)[ply] ?? ply : ply;
  return `${n}. ${side === null ? "" : `${app.g.side_names[side]} `}${move}`;
}

function scrollIntoList(list, item) {
  // scroll the list (only the list, never the page) so that ``item`` shows, with a row of context
  if (!item) return;
  const a = list.getBoundingClientRect(), b = item.getBoundingClientRect();
  if (b.top < a.top + 2) list.scrollTop -= a.top - b.top + 28;
  else if (b.bottom > a.bottom - 2) list.scrollTop += b.bottom - a.bottom + 28;
}

function drawGraph() {
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
  const level = r ? r.source : (unit === "discs" ? `fast engine, level ${analysisLevel()}` : "");
  if (!known.length) {
    $("#graph-label").textContent = app.mode === "replay" && !r ? "Evaluation: press Review to analyse every move." : "Evaluation: waiting for the analysis…";
  } else {
    $("#graph-label").textContent = `Evaluation ${unitNote(unit)}, ${names[side]}'s view${level ? ` — ${level}` : ""}` + (known.some((e) => e.exact) ? " (● exact)" : "");
  }
  const n = Math.max(evals.length - 1, lastPly(), 1);
  const vals = evals.map((e) => (e && e.unit === unit ? (side === 1 ? -e.value : e.value) : null));
  let span = 1;
  if (unit === "discs") { const m = Math.max(4, ...vals.filter((v) => v !== null).map(Math.abs)); span = Math.min(64, Math.ceil(m / 4) * 4); }
  else if (unit !== "result") span = Math.max(1, ...vals.filter((v) => v !== null).map(Math.abs));
  const L = 38, R = 6, T = 8, B = 8;
  const x = (i) => L + (i / n) * (W - L - R), y = (v) => T + (H - T - B) / 2 - (v / span) * ((H - T - B) / 2);
  const grid = unit === "result" ? [[1, "win"], [0, "draw"], [-1, "loss"]] : [[span, discs(span)], [span / 2, discs(span / 2)], [0, "0"], [-span / 2, discs(-span / 2)], [-span, discs(-span)]];
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

function mostCommon(items) {
  const count = new Map();
  for (const x of items) count.set(x, (count.get(x) || 0) + 1);
  let best = null;
  for (const [x, c] of count) if (best === null || c > count.get(best)) best = x;
  return best;
}

function shortNumber(v) {
  const a = Math.abs(v);
  const t = a >= 1e4 ? `${Math.round(a / 1000)}k` : a >= 100 ? String(Math.round(a)) : String(Math.round(a * 10) / 10);
  return v === 0 ? "0" : (v > 0 ? "+" : "−") + t;
}

function showEnd(g) {
  if (app.mode !== "live" || !app.g || app.g.id !== g.id || !app.g.over) return;
  const r = g.result;
  const humans = g.players.filter((p) => p.kind === "human").length;
  let title = r ? r.text : "Game over";
  if (r && humans === 1) {
    const me = g.players.findIndex((p) => p.kind === "human");
    title = r.winner === null ? "Draw" : r.winner === me ? `You win: ${r.text}` : `You lose: ${r.text}`;
  }
  $("#end-title").textContent = title;
  const entry = gameEntry(g.game);
  $("#end-score").textContent = entry && entry.result === "result" ? (r && r.winner === null ? `No ${entry.line || "line"}.` : `${entry.line ? entry.line[0].toUpperCase() + entry.line.slice(1) : "A line"}.`)
    : `${g.side_names[0]} ${g.counts.X} – ${g.counts.O} ${g.side_names[1]}`;
  const lost = g.saved === false ? g.error : "";  // the server could not store the game (full disk...)
  $("#end-detail").textContent = [r && r.reason === "time" ? g.notice : "", lost].filter(Boolean).join(" ");
  $("#btn-end-review").hidden = !g.moves.some((m) => m.move !== "pass");
  $("#end").hidden = false;
}

function fillExport() {
  const g = app.g;
  if (!g) return;
  $("#export-text").value = g.custom_start ? `${g.start}\n${g.transcript}` : g.transcript;
  const f = frameAt(viewPly());
  $("#export-position").value = (f && f.position) || g.position || "";
}

// ---------------------------------------------------------------- drawing boards
function drawBoard(container, g, opts) {
  container.textContent = "";
  const layout = g.layout;
  if (layout.kind === "hex") return drawHex(container, g, opts);
  const rows = layout.rows, cols = layout.cols, C = 60, M = 26;
  const marked = marksGame(layout);
  const pieces = layout.pieces || ["black", "white"];
  const svg = el("svg", { viewBox: `0 0 ${cols * C + M * 2} ${rows * C + M * 2}`,
    class: `board-${layout.surface || "felt"}${marked ? " ttt" : " othello"}` }, container);
  for (let c = 0; c < cols; c++) {
    el("text", { x: M + c * C + C / 2, y: M / 2, class: "coord", text: layout.files[c] }, svg);
    el("text", { x: M + c * C + C / 2, y: M + rows * C + M / 2, class: "coord", text: layout.files[c] }, svg);
  }
  for (let r = 0; r < rows; r++) {
    el("text", { x: M / 2, y: M + r * C + C / 2, class: "coord", text: layout.ranks[r] }, svg);
    el("text", { x: M + cols * C + M / 2, y: M + r * C + C / 2, class: "coord", text: layout.ranks[r] }, svg);
  }
  const legal = new Map((opts.legal || []).map((m) => [m.index, m.move]));
  const center = (i) => [M + (i % cols) * C + C / 2, M + Math.floor(i / cols) * C + C / 2];
  for (let i = 0; i < rows * cols; i++) {
    const [cx, cy] = center(i);
    const rect = el("rect", { x: cx - C / 2, y: cy - C / 2, width: C, height: C, class: "cell", "data-index": i,
      "data-square": layout.files[i % cols] + layout.ranks[Math.floor(i / cols)] }, svg);
    if (legal.has(i) || opts.clickAll) {
      rect.classList.add("legal");
      rect.addEventListener("click", () => opts.onClick && opts.onClick(i));
    } else if (opts.onMiss) rect.addEventListener("click", () => opts.onMiss(rect.dataset.square));
    if (marked && opts.lastMove === i) rect.classList.add("last-cell");
    if (layout.surface === "rack") el("circle", { cx, cy, r: C * 0.41, class: "slot" }, svg);
  }
  for (const [r, c] of layout.stars || []) el("circle", { cx: M + c * C, cy: M + r * C, r: 3.5, class: "star" }, svg);
  g.cells.forEach((v, i) => {
    if (!v) return;
    const [cx, cy] = center(i);
    if (marked) {
      if (v === "X") {
        const d = C * 0.28;
        el("line", { x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d, class: "mark-x" }, svg);
        el("line", { x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d, class: "mark-x" }, svg);
      } else el("circle", { cx, cy, r: C * 0.3, class: "mark-o" }, svg);
      return;
    }
    disc(svg, cx, cy, C * 0.41, v, i, { ...opts, pieces });
  });
  winLine(svg, g.highlight || [], center);
  marks(svg, g, opts, center, !marked, 6, 5, C);
}

// the winning line the server marks (its first and last cells)
function winLine(svg, cells, center) {
  if (cells.length < 2) return;
  const [x1, y1] = center(cells[0]), [x2, y2] = center(cells[cells.length - 1]);
  el("line", { x1, y1, x2, y2, class: "win-line" }, svg);
}

function marks(svg, g, opts, center, dots, dotR, lastR, C) {
  const shown = new Set();
  const at = (m) => (m.cell !== undefined && m.cell !== null ? m.cell : m.index);
  if (opts.values) for (const mv of opts.values.a.moves) if (at(mv) >= 0) shown.add(at(mv));
  for (const m of opts.dots || opts.legal || []) {
    if (shown.has(m.index)) continue;
    const [cx, cy] = center(m.index);
    if (dots) el("circle", { cx, cy, r: dotR, class: "legal-mark" }, svg);
  }
  if (opts.lastMove !== null && opts.lastMove !== undefined && opts.lastMove >= 0 && dots) {
    const [cx, cy] = center(opts.lastMove);
    el("circle", { cx, cy, r: lastR, class: "last-mark" }, svg);
  }
  if (opts.review) {
    const byName = new Map([...(opts.dots || opts.legal || []).map((m) => [m.move, m.index]),
      ...(opts.values ? opts.values.a.moves : []).map((m) => [m.move, at(m)])]);
    for (const [name, cls] of [[opts.review.best, "best-ring"], [opts.review.move, "played-ring"]]) {
      const idx = indexOfMove(g, name, byName);
      if (idx === null || (cls === "played-ring" && opts.review.move === opts.review.best)) continue;
      const [cx, cy] = center(idx);
      el("circle", { cx, cy, r: C * 0.44, class: cls }, svg);
    }
  }
  if (opts.values) {
    const a = opts.values.a;
    const best = a.moves.length ? a.moves[0].value : null;
    for (const mv of a.moves) {
      if (at(mv) < 0) continue;
      const [cx, cy] = center(at(mv));
      const v = moveValue(mv.value, opts.values.mover);
      el("text", { x: cx, y: cy + 1, class: "value-text" + (mv.value === best ? " best" : ""), "data-index": at(mv),
        text: fmtVal(v, a.unit, { bare: true }), "font-size": Math.round(C * (a.unit === "discs" || a.unit === "result" ? 0.3 : 0.24)) }, svg);
    }
  }
  if (opts.hints) {
    opts.hints.forEach((h, k) => {
      if (h.index === undefined || at(h) < 0) return;
      const [cx, cy] = center(at(h));
      const dx = opts.values ? C * 0.3 : 0, dy = opts.values ? -C * 0.3 : 0;
      el("circle", { cx: cx + dx, cy: cy + dy, r: C * 0.2, class: "hint-mark" }, svg);
      el("text", { x: cx + dx, y: cy + dy + 1, class: "hint-text", text: String(k + 1), "font-size": Math.round(C * 0.22) }, svg);
    });
  }
}

function indexOfMove(g, name, byName) {
  if (byName.has(name)) return byName.get(name);
  const layout = g.layout;
  if (layout.kind === "hex") {
    const m = name.match(/^(\d+) (\d+)$/);
    return m ? +m[1] * layout.cols + +m[2] : null;
  }
  const c = layout.files.indexOf(name[0]), r = layout.ranks.indexOf(name.slice(1));
  return c < 0 || r < 0 ? null : r * layout.cols + c;
}

function disc(svg, cx, cy, r, v, i, opts) {
  if (v === "#") { el("circle", { cx, cy, r: r * 0.9, class: "hole", "data-index": i }, svg); return null; }
  const pieces = opts.pieces || ["black", "white"];
  const colour = v === "X" ? pieces[0] : pieces[1];
  const d = el("circle", { cx, cy, r, class: `disc ${colour}`, "data-index": i }, svg);
  if (opts.flips && opts.flips.includes(i)) {
    d.style.setProperty("--from", v === "X" ? "var(--white)" : "var(--black)");
    d.style.setProperty("--to", v === "X" ? "var(--black)" : "var(--white)");
    d.classList.add("flipping");
  } else if (opts.placed === i) d.classList.add("placed");
  return d;
}

function drawHex(container, g, opts) {
  const layout = g.layout, size = layout.cols, R = 17, s3 = Math.sqrt(3);
  const mid = (size - 1) / 2;
  const at = (row, col) => {  // also for the cells just outside the board, where the coordinates go
    const q = col - mid, r = row - mid;
    return [s3 * R * (q + r / 2), 1.5 * R * r];
  };
  const pos = (i) => at(Math.floor(i / size), i % size);
  const ext = s3 * R * (mid + 1) + 20;
  const svg = el("svg", { viewBox: `${-ext} ${-ext} ${2 * ext} ${2 * ext}`, class: "hex" }, container);
  const legal = new Map((opts.legal || []).map((m) => [m.index, m.move]));
  const corners = [...Array(6).keys()].map((k) => {
    const a = Math.PI / 180 * (60 * k - 30);
    return [R * Math.cos(a), R * Math.sin(a)];
  });
  const on = new Set(layout.cells_on_board);
  for (const i of layout.cells_on_board) {
    const [x, y] = pos(i);
    const poly = el("polygon", { points: corners.map(([dx, dy]) => `${x + dx},${y + dy}`).join(" "), class: "cell",
      "data-index": i, "data-square": `${Math.floor(i / size)} ${i % size}` }, svg);
    el("title", { text: `${Math.floor(i / size)} ${i % size}` }, poly);
    if (legal.has(i) || (opts.clickAll && g.cells[i] !== "#")) {
      poly.classList.add("legal");
      poly.addEventListener("click", () => opts.onClick && opts.onClick(i));
    } else if (opts.onMiss) poly.addEventListener("click", () => opts.onMiss(poly.dataset.square));
  }
  // coordinates on the edge, where the next cell of the line would be: each column's number beyond its top
  // cell (top and upper-left edges), each row's number after its last cell (right edges)
  for (let col = 0; col < size; col++) {
    const top = [...Array(size).keys()].find((r) => on.has(r * size + col));
    if (top === undefined) continue;
    const [x, y] = at(top - 1, col);
    el("text", { x, y, class: "coord hex-coord col", text: String(col) }, svg);
  }
  for (let row = 0; row < size; row++) {
    const cols = [...Array(size).keys()].filter((c) => on.has(row * size + c));
    if (!cols.length) continue;
    const [x, y] = at(row, cols[cols.length - 1] + 1);
    el("text", { x, y, class: "coord hex-coord row", text: String(row) }, svg);
  }
  g.cells.forEach((v, i) => { if (v) { const [x, y] = pos(i); disc(svg, x, y, R * 0.72, v, i, opts); } });
  marks(svg, g, opts, pos, true, 3.5, 3.5, R * 2);
}

// ---------------------------------------------------------------- board editor
// Every game the server offers, on its own board: the start position's layout and cells come with the game.
function editorLayout(name) { return variant(name).layout; }

function editorStart(name) { return [...variant(name).start]; }

function openEditor() {
  const sel = $("#ed-game");
  if (!sel.options.length) {
    for (const name of gameChoices()) html("option", { value: name, text: gameTitle(name) }, sel);
    sel.addEventListener("change", () => resetEditor(sel.value, true));
    $("#ed-clear").addEventListener("click", () => { app.editor.cells = app.editor.cells.map((c) => (c === "#" ? "#" : "")); drawEditor(); });
    $("#ed-start-pos").addEventListener("click", () => resetEditor(app.editor.name, true));
    for (const r of document.querySelectorAll("input[name=ed-side]")) r.addEventListener("change", drawEditor);
    $("#ed-play").addEventListener("click", playFromEditor);
  }
  if (!app.editor) {
    const choices = gameChoices();
    const want = app.settings.game && choices.includes(app.settings.game) ? app.settings.game : choices[0];
    sel.value = want;
    resetEditor(sel.value, true);
  } else drawEditor();
}

function resetEditor(name, start) {
  const layout = editorLayout(name);
  const blank = editorStart(name).map((c) => (c === "#" ? "#" : ""));
  app.editor = { name, layout, cells: start ? editorStart(name) : blank };
  if (start) document.querySelector("input[name=ed-side][value=X]").checked = true; // the start: the first side moves
  const sides = gameEntry(name).sides;
  for (const span of document.querySelectorAll("[data-ed-side]")) span.textContent = sides[+span.dataset.edSide];
  $("#ed-error").textContent = "";
  drawEditor();
}

// the position as the game's own text: its cells in board order with its symbols, then the side to move
function editorText() {
  const e = app.editor;
  const symbols = gameEntry(e.name).symbols;
  const sym = (c) => (c === "X" ? symbols[0] : c === "O" ? symbols[1] : c === "#" ? "#" : "-");
  const side = document.querySelector("input[name=ed-side]:checked").value === "X" ? symbols[0] : symbols[1];
  const order = e.layout.kind === "hex" ? e.layout.cells_on_board : [...Array(e.cells.length).keys()];
  return order.map((i) => sym(e.cells[i])).join("") + " " + side;
}

function drawEditor() {
  const e = app.editor;
  drawBoard($("#editor-board"), { game: baseGame(e.name), layout: e.layout, cells: e.cells }, {
    clickAll: true, legal: [],
    onClick: (i) => {
      if (e.cells[i] === "#") return;
      const tool = document.querySelector("input[name=ed-tool]:checked").value;
      e.cells[i] = e.cells[i] === tool ? "" : tool;
      drawEditor();
    },
  });
  const x = e.cells.filter((c) => c === "X").length, o = e.cells.filter((c) => c === "O").length;
  const names = gameEntry(e.name).sides;
  $("#ed-count").textContent = `${names[0]} ${x}, ${names[1]} ${o}`;
  $("#ed-text").value = editorText();
}

async function playFromEditor() {
  $("#ed-error").textContent = "";
  const s = { ...(app.settings.mode ? app.settings : formSettings()), game: app.editor.name };
  try { await startGame(s, editorText()); }
  catch (e) { $("#ed-error").textContent = e.message; }
}

// ---------------------------------------------------------------- buttons and keys
function initBoard() {
  $("#btn-undo").addEventListener("click", () => { app.viewPly = null; send({ type: "undo" }); });
  $("#btn-redo").addEventListener("click", () => { app.viewPly = null; send({ type: "redo" }); });
  $("#btn-hint").addEventListener("click", toggleHints);
  $("#btn-review").addEventListener("click", startReview);
  $("#btn-end-review").addEventListener("click", () => { $("#end").hidden = true; startReview(); });
  $("#btn-playon").addEventListener("click", playOn);
  $("#btn-newgame").addEventListener("click", () => { location.hash = "#/"; });
  $("#btn-export").addEventListener("click", () => { const b = $("#export-box"); b.hidden = !b.hidden; fillExport(); });
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

function toggleHints() {
  const k = viewPly();
  app.showHints = app.showHints === k ? null : k;
  render();
}

// ---------------------------------------------------------------- history
async function loadHistory() {
  const body = $("#history-rows");
  body.textContent = "";
  try {
    const data = await api("GET", "/api/history?limit=200");
    $("#history-count").textContent = data.total ? `${data.total} finished game${data.total === 1 ? "" : "s"}, newest first.` : "No finished games yet.";
    for (const g of data.games) {
      const tr = html("tr", { "data-id": g.id }, body);
      html("td", { class: "h-date", text: g.finished_at.replace("T", " ").replace("+00:00", "").slice(0, 16) }, tr);
      html("td", { class: "h-game", text: gameLabel(g) }, tr);
      html("td", { class: "h-p0", "data-label": "Black / X", text: g.players[0] }, tr);
      html("td", { class: "h-p1", "data-label": "White / O", text: g.players[1] }, tr);
      html("td", { class: "h-result", text: g.result }, tr);
      html("td", { class: "h-moves", text: `${g.plies} moves` }, tr);
      const td = html("td", { class: "h-link" }, tr);
      html("a", { href: `#/replay/${g.id}`, text: "Replay", class: "replay-link" }, td);
    }
  } catch (e) { $("#history-count").textContent = e.message; }
}

// ---------------------------------------------------------------- boot
(async function main() {
  initBoard();
  try { await initStart(); } catch (e) { $("#start-error").textContent = `cannot reach the server: ${e.message}`; }
  route();
})();
