// The start screen: the game, who plays, the difficulty, a clock, a pasted position; it starts a game.
import { api, app, baseGame, gameChoices, gameTitle, saveSettings, sizeOf, variant, variantOf } from "./api.js";
import { $, html } from "./dom.js";
import { pov } from "./values.js";

export async function initStart() {
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
  if (s.name) { $("#opt-name").value = s.name; $("#join-name").value = s.name; }
  $("#join-form").addEventListener("submit", (ev) => { ev.preventDefault(); joinFromForm(); });
  $("#opt-file").addEventListener("change", openFile);
  $("#opt-position").addEventListener("change", listFileGames);
}

export const MAX_FILE = 60000; // the server reads a pasted game of up to 60,000 characters

// A file picked on the start screen: its text goes into the box, where Start reads it as a pasted game would be.
export async function openFile(ev) {
  const file = ev.target.files && ev.target.files[0];
  $("#start-error").textContent = "";
  if (!file) return;
  if (file.size > MAX_FILE) {
    $("#start-error").textContent = `${file.name} is ${Math.round(file.size / 1000)} kB: the page opens a game file of up to ${MAX_FILE / 1000} kB (one game, or a few)`;
    ev.target.value = "";
    return;
  }
  $("#opt-position").value = await file.text();
  $("#start-position").open = true;
  listFileGames();
}

// A file of several games (GGF, tagged transcripts): a list to pick the one to open.
export async function listFileGames() {
  const box = $("#file-game-box"), sel = $("#opt-file-game");
  const text = $("#opt-position").value;
  box.hidden = true;
  sel.textContent = "";
  if (!/^\s*(\(;|\[)/.test(text)) return; // only game files hold several games
  try {
    const found = await api("POST", "/api/files/games", { text });
    if (found.total < 2) return;
    for (const g of found.games) {
      const who = [g.black || "?", g.white || "?"].join(" – ");
      const facts = [`${g.moves} moves`, g.result, g.date].filter(Boolean).join(", ");
      html("option", { value: g.index, text: `${g.index}. ${who} (${facts})` }, sel);
    }
    $("#file-game-count").textContent = found.total > found.games.length
      ? `the first ${found.games.length} of its ${found.total} games` : `its ${found.total} games`;
    box.hidden = false;
  } catch (e) { $("#start-error").textContent = e.message; }
}

// A friend's invite: the code (from the link or typed) takes the open seat of their game, or, both taken, watches it.
export async function openJoin(code) {
  document.body.classList.add("joining");
  $("#join-code").value = code;
  $("#join-title").textContent = "You are invited to a game";
  $("#join-error").textContent = "";
  $("#join-about").textContent = "";
  $("#btn-join").textContent = "Join";
  $("#join-name").focus();
  try {
    const about = await api("GET", `/api/join/${encodeURIComponent(code)}`);
    const v = variantOf(about.game, about.layout);
    const what = v ? v.label : about.game;
    if (about.open) {
      $("#join-title").textContent = `${about.host || "A friend"} invites you to a game of ${what}`;
      $("#join-about").textContent = `You play ${about.seat}.`;
    } else {
      $("#join-title").textContent = `A game of ${what}`;
      $("#join-about").textContent = "Both seats are taken: you can watch it.";
      $("#btn-join").textContent = "Watch";
    }
  } catch (e) { $("#join-error").textContent = e.message; }
}

export async function joinFromForm() {
  $("#join-error").textContent = "";
  const code = $("#join-code").value.trim();
  if (!code) { $("#join-error").textContent = "type the invite code your friend sent"; return; }
  const name = $("#join-name").value.trim();
  try {
    const data = await api("POST", "/api/join", { code, name: name || null });
    if (name) { app.settings.name = name; saveSettings(); }
    location.hash = `#/game/${data.game.id}`;
  } catch (e) { $("#join-error").textContent = e.message; }
}


export function fillHeuristics() {
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
export function engineGame(name) { const v = variant(name); return !!(v && v.engine && app.info.engine.available); }
export function labelLevels() {
  const fast = engineGame($("#opt-game").value);
  for (const sel of [$("#opt-level"), $("#opt-level2")]) {
    for (const o of sel.options) {
      const l = +o.value;
      if (l > app.info.levels.teaching[1]) o.textContent = `${l}: ${fast ? "fast engine" : "alpha-beta"}`;
    }
  }
}

export function levelNote(level) {
  if (level <= app.info.levels.teaching[1]) {
    return `Level ${level}: the textbook search looks ${level} move${level === 1 ? "" : "s"} ahead with the evaluation below.`;
  }
  const game = $("#opt-game").value;
  if (!engineGame(game)) return `Level ${level}: alpha-beta with move ordering (the fast engine plays 8×8 Othello only).`;
  return `Level ${level}: ${(app.info.engine.levels || {})[level] || "the fast engine"}.`;
}

export function updateStartForm() {
  if (!app.info) return;
  const mode = document.querySelector("input[name=mode]:checked").value;
  const lvl = Math.max(+$("#opt-level").value, mode === "watch" ? +$("#opt-level2").value : 0);
  document.querySelector(".computer-only").hidden = mode === "people" || mode === "friend";
  document.querySelector(".friend-only").hidden = mode !== "friend";
  document.querySelector(".watch-only").hidden = mode !== "watch";
  document.querySelector(".teaching-only").hidden = mode === "people" || mode === "friend" || lvl > app.info.levels.teaching[1];
  $("#level-note").textContent = mode === "people" || mode === "friend" ? "" : levelNote(+$("#opt-level").value);
}

export function formSettings() {
  const f = $("#start-form");
  return {
    game: f.game.value, mode: f.mode.value, level: +f.level.value, level2: +f.level2.value,
    algorithm: f.algorithm.value, heuristic: f.heuristic.value,
    minutes: f.minutes.value.trim(), increment: f.increment.value.trim(), name: f.myname.value.trim(),
  };
}

// The evaluation chosen for the computer when the game has it; else (one chosen for another game, e.g. before the
// editor switched game) null: the game's default.
export function heuristicFor(game, name) {
  const entry = app.info.games.find((g) => g.name === baseGame(game));
  return name && entry && entry.heuristics.includes(name) ? name : null;
}

export function gameRequest(s, position, extra = {}) {
  const heuristic = heuristicFor(s.game, s.heuristic);
  const comp = (level) => ({ kind: "computer", level, algorithm: s.algorithm, heuristic });
  const human = { kind: "human" };
  const players = { first: [human, comp(s.level)], second: [comp(s.level), human], people: [human, human],
    watch: [comp(s.level), comp(s.level2)], friend: [{ kind: "human", name: s.name || null }, { kind: "friend" }] }[s.mode];
  const minutes = parseFloat(s.minutes);
  const body = { game: baseGame(s.game), size: sizeOf(s.game), position: position || null, players,
    delay: s.mode === "watch" ? 0.4 : 0, replaces: app.gameId, ...extra };
  if (minutes > 0) body.clock = { minutes, increment: Math.max(0, parseFloat(s.increment) || 0) };
  if (app.settings.analysis) body.analysis_level = +app.settings.analysis;
  return body;
}

export async function startGame(s, position, extra) {
  const data = await api("POST", "/api/games/new", gameRequest(s, position, extra));
  Object.assign(app.settings, s);
  saveSettings();
  location.hash = `#/game/${data.game.id}`;
  return data;
}

export async function startFromForm() {
  $("#start-error").textContent = "";
  try {
    const extra = $("#file-game-box").hidden ? {} : { index: +$("#opt-file-game").value };
    await startGame(formSettings(), $("#opt-position").value.trim(), extra);
    $("#opt-position").value = ""; // the next game starts from the start unless pasted again
    $("#opt-file").value = "";
    $("#file-game-box").hidden = true;
    $("#start-position").open = false;
  } catch (e) { $("#start-error").textContent = e.message; }
}
