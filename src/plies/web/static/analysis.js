// Analysis controls of the board screen, for 8x8 Othello: the opening book's moves marked on the board with their
// values, "think for N seconds" with 1-5 lines and its live line (depth, value, nodes, time, principal line), and
// the exact solver.  The searches run on the server (one per game), polled here; leaving the position stops them.
import { api, app, saveSettings, separatorOf, sizeOf, variantOf } from "./api.js";
import { $, el, html } from "./dom.js";
import { _, i18n, word } from "./i18n.js";
import { render, showError, viewPly } from "./game.js";
import { discs, fmtVal, moveValue, povName } from "./values.js";

const POLL_MS = 250;
const think = { job: null, gid: null, error: "" };  // the job of this game shown in the box
const books = new Map();                             // position key -> the book's moves (or a promise of them)

// ---------------------------------------------------------------- which boards have a book and an engine
function othello8() {
  const g = app.g;
  const v = g ? variantOf(g.game, g.layout) : null;
  return !!(v && v.engine);  // the variant the fast engine plays: 8x8 Othello
}
function engineHere() { return othello8() && !!(app.info && app.info.engine && app.info.engine.available); }

// ---------------------------------------------------------------- the opening book on the board
function bookKey(k, f) { return app.mode === "replay" ? `r${app.rec.id}:${k}` : (f ? f.position : null); }

function bookAt(k, f) {
  const key = bookKey(k, f);
  if (!key) return null;
  const hit = books.get(key);
  if (hit && !(hit instanceof Promise)) return hit;
  if (!hit) {
    const g = app.g;
    const v = variantOf(g.game, g.layout);
    const body = app.mode === "replay"
      ? { game: app.rec.game, size: v ? sizeOf(v.name) : null, position: app.rec.start, moves: app.rec.moves.slice(0, k) }
      : { game: g.game, size: v ? sizeOf(v.name) : null, position: f.position };
    const p = api("POST", "/api/book", body).then((b) => {
      books.set(key, b);
      if (books.size > 300) books.delete(books.keys().next().value);
      render();
    }).catch((e) => { books.delete(key); showError(e.message); });
    books.set(key, p);
  }
  return null;
}

function drawBook(k, f) {
  if (!$("#opt-book").checked || !othello8() || !f || f.over || f.to_move === null) return;
  const b = bookAt(k, f);
  const svg = $("#board svg");
  if (!b || !svg) return;
  for (const m of b.moves) {
    const cell = svg.querySelector(`rect.cell[data-index="${m.index}"]`);
    if (!cell) continue;
    const x = +cell.getAttribute("x"), y = +cell.getAttribute("y"), w = +cell.getAttribute("width");
    const v = moveValue(m.value, f.to_move);
    el("rect", { x: x + 4, y: y + 4, width: w - 8, height: w - 8, rx: 7, class: "book-square", "data-book": m.move }, svg);
    el("text", { x: x + w / 2, y: y + w - 10, class: "book-text", "data-book-value": m.move,
      text: fmtVal(v, "discs", { bare: true }), "font-size": Math.round(w * 0.22) }, svg);
  }
}

// ---------------------------------------------------------------- the think / solve box
function buildBox() {
  const box = $("#think-box");
  if (box.dataset.built === i18n.lang) return box;  // built once, again in another language
  box.dataset.built = i18n.lang;
  box.textContent = "";
  const head = html("div", { class: "think-head" }, box);
  html("strong", { text: _("Engine analysis") }, head);
  html("span", { id: "think-pov", class: "muted small" }, head);
  const row = html("div", { class: "think-controls" }, box);
  const lines = html("label", {}, row);
  html("span", { text: _("Lines") + " " }, lines);
  const sel = html("select", { id: "think-lines", "aria-label": _("number of lines") }, lines);
  for (let n = 1; n <= 5; n++) html("option", { value: String(n), text: String(n) }, sel);
  sel.value = String(app.settings.thinkLines || 1);
  sel.addEventListener("change", () => { app.settings.thinkLines = +sel.value; saveSettings(); });
  const secs = html("label", {}, row);
  html("span", { text: _("Seconds") + " " }, secs);
  const inp = html("input", { id: "think-seconds", type: "number", min: "1", max: "60", step: "1", inputmode: "numeric",
    value: String(app.settings.thinkSeconds || 5), "aria-label": _("seconds to think") }, secs);
  inp.addEventListener("change", () => { app.settings.thinkSeconds = +inp.value; saveSettings(); });
  const buttons = html("div", { class: "think-buttons" }, box);
  html("button", { id: "btn-think", type: "button", title: _("Search the position shown for the seconds chosen"), text: _("Think") }, buttons)
    .addEventListener("click", startThink);
  html("button", { id: "btn-solve", type: "button", title: _("Solve the position shown exactly (the endgame solver)"), text: _("Solve") }, buttons)
    .addEventListener("click", startSolve);
  const wld = html("label", { class: "check small" }, buttons);
  html("input", { type: "checkbox", id: "think-wld" }, wld);
  html("span", { text: " " + _("win/draw/loss only") }, wld);
  html("button", { id: "btn-think-stop", type: "button", text: _("Stop"), disabled: "" }, buttons)
    .addEventListener("click", () => stopThinking(true));
  html("div", { id: "think-status", class: "think-status", role: "status" }, box);
  html("ol", { id: "think-result", class: "think-lines" }, box);
  return box;
}

export function drawAnalysis(k, f) {
  $(".book-only").hidden = !othello8();
  drawBook(k, f);
  const g = app.g;
  const job = think.job;
  if (job && job.status === "running" && (app.mode !== "live" || !shows(job, k, f))) {
    stopThinking(false);  // the position shown changed: its search stops
  }
  const show = app.mode === "live" && engineHere() && !g.watching && !(g.friend && !g.over);
  const box = $("#think-box");
  box.hidden = !show;
  if (!show) return;
  buildBox();
  drawThink(k, f);
}

// whether ``job`` is about the position shown (its ply, and the same position: an undo and another move change it)
function shows(job, k, f) { return think.gid === app.gameId && job.ply === k && (!f || job.position === f.position); }

function drawThink(k, f) {
  const job = think.job && shows(think.job, k, f) ? think.job : null;
  const running = !!(think.job && think.job.status === "running");
  const playable = !!(f && !f.over && f.to_move !== null);
  $("#btn-think").disabled = running || !playable;
  $("#btn-solve").disabled = running || !playable;
  $("#btn-think-stop").disabled = !running;
  $("#think-pov").textContent = " — " + _("values in discs, from {side}'s view", { side: povName() });
  const status = $("#think-status");
  const list = $("#think-result");
  list.textContent = "";
  status.className = "think-status";
  if (think.error && (!job || job.status !== "running")) {
    status.textContent = think.error; status.classList.add("error");
    status.dataset.status = "refused";
    if (!job) return;
  } else status.textContent = "";
  if (!job) { if (!think.error) delete status.dataset.status; return; }
  status.dataset.status = job.status;
  status.dataset.depth = String(job.depth);
  status.dataset.kind = job.kind;
  const names = app.g.side_names.map(word);
  const mover = job.to_move;
  const best = job.lines[0];
  const parts = [];
  if (job.kind === "solve") {
    if (job.status === "done" && job.result) {
      const r = job.result;
      const side = names[mover];
      parts.push(job.wld
        ? (r.outcome === "draw" ? _("Draw with perfect play") : r.outcome === "win" ? _("{side} wins with perfect play", { side }) : _("{side} loses with perfect play", { side }))
        : (r.outcome === "draw" ? _("Draw with perfect play (exact)") : (r.outcome === "win" ? _("{side} wins by {n} discs (exact)", { side, n: r.margin }) : _("{side} loses by {n} discs (exact)", { side, n: -r.margin }))));
    } else {
      const sel = job.selectivity;  // the last pass done: a selective one (its estimate), then the exact one runs
      const where = sel && best ? _("{p}% pass: {value} (estimate); exact pass running", { p: sel, value: fmtVal(moveValue(best.value, mover), "discs") })
        : job.steps.length ? _("exact pass") : _("presearch");
      parts.push(_("Solving {n} empties", { n: job.empties }) + ": " + where);
    }
  } else {
    parts.push(_("depth {d}", { d: job.depth }));
    if (best) parts.push(fmtVal(moveValue(best.value, mover), "discs") + (best.exact ? " " + _("exact") : ""));
  }
  parts.push(_("{n} nodes", { n: bigNumber(job.nodes) }));
  parts.push(`${job.elapsed.toFixed(1)} s` + (job.kind === "think" ? ` / ${job.limit} s` : ""));
  const lead = job.status === "running" ? (job.kind === "solve" ? "" : _("Thinking") + ": ")
    : job.status === "stopped" ? _("Stopped") + ": " : job.status === "failed" ? _("Failed") + ": " : job.kind === "think" ? _("Done") + ": " : "";
  status.textContent = lead + parts.join(" · ") + (job.error ? ` — ${job.error}` : "");
  if (job.status === "running") html("span", { class: "spinner" }, status);
  const sep = separatorOf(app.g.game);
  for (const line of job.lines) {
    const li = html("li", { "data-move": line.move, "data-value": String(line.value) }, list);
    html("b", { class: "hint-move", text: line.move }, li);
    html("span", { class: "hint-value", text: fmtVal(moveValue(line.value, mover), "discs", { bare: true }) + (line.exact ? " " + _("exact") : "") }, li);
    html("span", { class: "hint-line", text: line.pv.join(sep) }, li);
  }
}

function bigNumber(n) {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)} G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} k`;
  return String(n);
}

// ---------------------------------------------------------------- the jobs
async function begin(path, body) {
  const gid = app.gameId;
  think.error = "";
  try {
    const job = await api("POST", `/api/games/${gid}/${path}`, body);
    if (app.gameId !== gid) return;
    think.job = job; think.gid = gid;
    render();
    poll(gid, job.id);
  } catch (e) {
    think.error = e.message;
    if (think.job && think.job.ply !== viewPly()) think.job = null;
    render();
  }
}

function startThink() {
  const seconds = Math.max(1, Math.min(60, +$("#think-seconds").value || 5));
  $("#think-seconds").value = String(seconds);
  begin("think", { ply: viewPly(), seconds, lines: +$("#think-lines").value || 1 });
}

function startSolve() { begin("solve", { ply: viewPly(), wld: $("#think-wld").checked }); }

async function poll(gid, id) {
  while (think.job && think.job.id === id && think.job.status === "running") {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (!think.job || think.job.id !== id || think.gid !== gid) return;
    try {
      const job = await api("GET", `/api/games/${gid}/job`);
      if (!think.job || think.job.id !== id || job.id !== id) return;
      if (think.job.status !== "running") return;  // stopped here meanwhile
      think.job = job;
    } catch (e) { think.job = { ...think.job, status: "failed", error: e.message }; }
    if (app.gameId === gid) render();
  }
}

// Stop the game's search: ``keep`` shows what it found (the Stop button); else it is dropped (the position changed).
export function stopThinking(keep = false) {
  const job = think.job, gid = think.gid;
  if (!job) return;
  if (job.status === "running") {
    job.status = "stopped";
    api("POST", `/api/games/${gid}/job/stop`).then((j) => {
      if (keep && think.job && think.job.id === j.id) { think.job = j; render(); }
    }).catch(() => {});
  }
  if (!keep) think.job = null;
  if (keep) render();
}

export function initAnalysis() {
  const box = $("#opt-book");
  box.checked = !!app.settings.book;
  box.addEventListener("change", () => { app.settings.book = box.checked; saveSettings(); render(); });
}

