// The start screen: the game, who plays, the difficulty, a clock, a pasted position; it starts a game.
import { api, app, baseGame, gameChoices, gameTitle, saveSettings, sizeOf, variant, variantOf } from "./api.js";
import { $, html } from "./dom.js";
import { _, word } from "./i18n.js";
import { pov } from "./values.js";
import { isWthor, openWthor, wthorGame } from "./upload.js";

export async function initStart() {
  app.info = await api("GET", "/api/info");
  const sel = $("#opt-game");
  for (const name of gameChoices()) html("option", { value: name }, sel);
  const levelSel = $("#opt-level"), level2 = $("#opt-level2");
  for (let l = 1; l <= app.info.levels.max; l++) {
    html("option", { value: l }, levelSel);
    html("option", { value: l }, level2);
  }
  for (const [l] of Object.entries(app.info.analysis.levels || {})) html("option", { value: l }, $("#opt-analysis"));
  labelStart();
  if (app.info.learn) { $("#nav-learn").hidden = false; $("#start-learn").hidden = false; }
  const s = app.settings;
  if (s.game && gameChoices().includes(s.game)) sel.value = s.game;
  if (s.mode) for (const r of document.querySelectorAll("input[name=mode]")) r.checked = r.value === s.mode;
  levelSel.value = s.level || app.info.levels.default; level2.value = s.level2 || app.info.levels.default;
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

// The words of the start screen that come from the server's lists (said again when the language changes).
export function labelStart() {
  for (const sel of [$("#opt-game"), $("#ed-game")]) for (const o of sel.options) o.textContent = word(gameTitle(o.value));
  const analysis = app.info.analysis.levels || {};
  for (const o of $("#opt-analysis").options) o.textContent = _("level {level} ({what})", { level: o.value, what: word(analysis[o.value]) });
  $("#engine-note").textContent = _("Levels 1–{n} are the textbook search at that depth; {engine}.", { n: app.info.levels.teaching[1], engine: word(app.info.engine.text) });
  fillHeuristics(true);
}

export const MAX_FILE = 60000; // the server reads a pasted game of up to 60,000 characters

// A file picked on the start screen: its text goes into the box, where Start reads it as a pasted game would be.
export async function openFile(ev) {
  const files = [...(ev.target.files || [])];
  const file = files.find((f) => !/\.jou$/i.test(f.name)) || files[0];
  $("#start-error").textContent = "";
  app.wthor = null;
  if (!file) return;
  if (isWthor(files)) {
    try { await openWthor(files); } catch (e) { $("#start-error").textContent = e.message; ev.target.value = ""; }
    return;
  }
  if (file.size > MAX_FILE) {
    $("#start-error").textContent = _("{file} is {size} kB: the page opens a game file of up to {max} kB (one game, or a few)", { file: file.name, size: Math.round(file.size / 1000), max: MAX_FILE / 1000 });
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
  if (!/^\s*(\(;|\[)/.test(text) && !/;/.test(text)) return; // only game files (and OBF) hold several games
  try {
    const found = await api("POST", "/api/files/games", { text });
    if (found.total < 2) return;
    for (const g of found.games) {
      if (g.label) { html("option", { value: g.index, text: `${g.index}. ${g.label}` }, sel); continue; } // an OBF position
      const who = [g.black || "?", g.white || "?"].join(" – ");
      const facts = [_("{n} moves", { n: g.moves }), g.result, g.date].filter(Boolean).join(", ");
      html("option", { value: g.index, text: `${g.index}. ${who} (${facts})` }, sel);
    }
    $("#file-game-count").textContent = found.total > found.games.length
      ? _("the first {k} of its {n} games", { k: found.games.length, n: found.total }) : _("its {n} games", { n: found.total });
    box.hidden = false;
  } catch (e) { $("#start-error").textContent = e.message; }
}

// A friend's invite: the code (from the link or typed) takes the open seat of their game, or, both taken, watches it.
export async function openJoin(code) {
  document.body.classList.add("joining");
  $("#join-code").value = code;
  $("#join-title").textContent = _("You are invited to a game");
  $("#join-error").textContent = "";
  $("#join-about").textContent = "";
  $("#btn-join").textContent = _("Join");
  $("#join-name").focus();
  try {
    const about = await api("GET", `/api/join/${encodeURIComponent(code)}`);
    const v = variantOf(about.game, about.layout);
    const what = v ? v.label : about.game;
    if (about.open) {
      $("#join-title").textContent = _("{host} invites you to a game of {game}", { host: about.host || _("A friend"), game: word(what) });
      $("#join-about").textContent = _("You play {side}.", { side: word(about.seat) });
    } else {
      $("#join-title").textContent = _("A game of {game}", { game: word(what) });
      $("#join-about").textContent = _("Both seats are taken: you can watch it.");
      $("#btn-join").textContent = _("Watch");
    }
  } catch (e) { $("#join-error").textContent = e.message; }
}

export async function joinFromForm() {
  $("#join-error").textContent = "";
  const code = $("#join-code").value.trim();
  if (!code) { $("#join-error").textContent = _("type the invite code your friend sent"); return; }
  const name = $("#join-name").value.trim();
  try {
    const data = await api("POST", "/api/join", { code, name: name || null });
    if (name) { app.settings.name = name; saveSettings(); }
    location.hash = `#/game/${data.game.id}`;
  } catch (e) { $("#join-error").textContent = e.message; }
}


export function fillHeuristics(keep = false) {
  const game = baseGame($("#opt-game").value);
  const sel = $("#opt-heuristic");
  const chosen = sel.value;
  sel.textContent = "";
  const entry = app.info.games.find((g) => g.name === game);
  const names = entry ? entry.heuristics : [];
  if (!names.length) html("option", { value: "", text: _("disc difference") }, sel);
  for (const n of names) html("option", { value: n, text: n + (entry.default_heuristic === n ? ` (${_("default")})` : "") }, sel);
  if (entry && entry.default_heuristic) sel.value = entry.default_heuristic;
  if (keep && names.includes(chosen)) sel.value = chosen;
  const sides = entry ? entry.sides : ["Black", "White"];
  for (const span of document.querySelectorAll("[data-side]")) span.textContent = word(sides[+span.dataset.side]);
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
      if (l <= app.info.levels.teaching[1]) o.textContent = _("{level}: textbook search, depth {level}", { level: l });
      else o.textContent = `${l}: ${!app.info.engine.available ? _("alpha-beta (no engine)") : fast ? _("fast engine") : _("alpha-beta")}`;
    }
  }
}

export function levelNote(level) {
  if (level <= app.info.levels.teaching[1]) {
    return level === 1 ? _("Level 1: the textbook search looks 1 move ahead with the evaluation below.")
      : _("Level {level}: the textbook search looks {level} moves ahead with the evaluation below.", { level });
  }
  const game = $("#opt-game").value;
  if (!engineGame(game)) return _("Level {level}: alpha-beta with move ordering (the fast engine plays 8×8 Othello only).", { level });
  return _("Level {level}: {what}.", { level, what: word((app.info.engine.levels || {})[level]) || _("the fast engine") });
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
    const wthor = app.wthor && !$("#file-game-box").hidden;
    const extra = $("#file-game-box").hidden || wthor ? {} : { index: +$("#opt-file-game").value };
    await startGame(formSettings(), wthor ? await wthorGame() : $("#opt-position").value.trim(), extra);
    app.wthor = null;
    $("#opt-position").value = ""; // the next game starts from the start unless pasted again
    $("#opt-file").value = "";
    $("#file-game-box").hidden = true;
    $("#start-position").open = false;
  } catch (e) { $("#start-error").textContent = e.message; }
}
