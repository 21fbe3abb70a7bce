// Analysis, hints and the review of a game: every move of a position valued, the best moves, the mistakes.
import { api, app, separatorOf, sizeOf, variantOf } from "./api.js";
import { $, html } from "./dom.js";
import { _, word } from "./i18n.js";
import { frameAt, goto, moveName, render, showError, viewPly } from "./game.js";
import { discs, fmtVal, moveValue, povName, unitNote } from "./values.js";

// ---------------------------------------------------------------- analysis, hints, review
export function analysisLevel() { return app.g && app.g.analysis_level ? app.g.analysis_level : (+app.settings.analysis || (app.info && app.info.analysis.default) || 8); }

export function analysisKey(ply) {
  const f = frameAt(ply);
  const where = app.mode === "replay" ? `r${app.rec.id}:${ply}` : (f ? f.position : `?${ply}`);
  return `${where}@${analysisLevel()}`;
}

export function analysisAt(ply) {
  const key = analysisKey(ply);
  const a = app.analyses.get(key);
  if (a) return a;
  if (!key.startsWith("?")) fetchAnalysis(ply, key);
  return null;
}

export async function fetchAnalysis(ply, key) {
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

export function drawHints(ply, frame) {
  const box = $("#hints");
  if (app.showHints !== ply) { box.hidden = true; return null; }
  box.hidden = false;
  const a = analysisAt(ply);
  box.textContent = "";
  if (!a) { html("div", { class: "muted", text: _("Looking for the best moves…") }, box); return null; }
  if (!a.moves.length) { html("div", { text: _("No moves here.") }, box); return null; }
  html("div", { class: "small muted", text: _("Best moves, {unit} from {side}'s view", { unit: unitNote(a.unit), side: povName() }) + ` — ${a.source}` }, box);
  const ol = html("ol", { class: "hint-list" }, box);
  const mover = frame ? frame.to_move : a.to_move;
  for (const h of a.moves.slice(0, 3)) {
    const li = html("li", {}, ol);
    html("b", { class: "hint-move", text: h.move }, li);
    html("span", { class: "hint-value", text: fmtVal(moveValue(h.value, mover), a.unit) + (h.exact && a.unit === "discs" ? " " + _("exact") : "") }, li);
    if (h.pv.length > 1) html("span", { class: "hint-line", text: _("then {line}", { line: h.pv.slice(1).join(separatorOf(a.game)) }) }, li);
  }
  return a.moves.slice(0, 3);
}


export function clearReview() {
  app.review = null; app.reviewing = null;
  $("#review-box").hidden = true;
}

export async function startReview() {
  if (!app.g || app.reviewing) return;
  const body = { level: analysisLevel() };
  if (app.mode === "replay" && app.rec.library != null) body.library_id = app.rec.library;
  else if (app.mode === "replay") body.history_id = app.rec.id; else body.game_id = app.gameId;
  const box = $("#review-box");
  box.hidden = false;
  $("#review-summary").textContent = ""; $("#review-mistakes").textContent = "";
  $("#review-progress").hidden = false;
  $("#review-bar").value = 0;
  $("#review-progress-text").textContent = _("Starting the review…");
  try {
    let job = await api("POST", "/api/reviews", body);
    app.reviewing = job.id;
    while (job.status === "running") {
      $("#review-bar").max = job.total; $("#review-bar").value = job.done;
      $("#review-progress-text").textContent = _("Analysing position {k} of {n}…", { k: Math.min(job.done + 1, job.total), n: job.total });
      await new Promise((r) => setTimeout(r, 200));
      if (app.reviewing !== job.id) return;
      job = await api("GET", `/api/reviews/${job.id}`);
    }
    app.reviewing = null;
    $("#review-progress").hidden = true;
    if (job.status !== "done") throw new Error(job.error || _("the review failed"));
    app.review = job.review;
    render();
  } catch (e) {
    app.reviewing = null;
    $("#review-progress").hidden = true;
    $("#review-summary").textContent = e.message;
  }
}

export function drawReview() {
  const r = app.review;
  if (!r) return;
  const box = $("#review-box");
  box.hidden = false;
  const sum = $("#review-summary");
  sum.textContent = "";
  const unit = r.unit;
  const lossWord = unit === "discs" ? _("discs lost") : unit === "result" ? _("results thrown away") : _("{heuristic} units lost", { heuristic: unit });
  html("div", { class: "small muted", text: `${_("Review")} — ${r.source}. ` + (unit === "discs" ? _("A mistake loses at least {n} discs against the best move.", { n: r.threshold }) : unit === "result" ? _("A mistake loses a better result against the best move.") : _("A mistake loses much more than the other moves against the best move.")) }, sum);
  const table = html("table", { class: "review-table" }, sum);
  const head = html("tr", {}, html("thead", {}, table));
  const book = r.players.some((p) => p.book);  // 8x8 Othello: the moves that followed the opening book
  for (const t of ["", _("mistakes"), lossWord, _("worst"), ...(book ? [_("book")] : [])]) html("th", { text: t }, head);
  const body = html("tbody", {}, table);
  for (const p of r.players) {
    const tr = html("tr", { "data-side": p.side }, body);
    const who = app.g.players[p.side];
    html("td", { text: `${word(p.name)}${who && who.name && who.name !== p.name ? ` (${word(who.name)})` : ""}` }, tr);
    html("td", { class: "num", text: String(p.mistakes) }, tr);
    html("td", { class: "num", text: unit === "result" ? String(p.lost) : discs(p.lost).replace("+", "") }, tr);
    html("td", { text: p.worst ? `${moveName(p.worst.ply, null, p.worst.move)} (−${discs(p.worst.loss).replace("+", "")})` : "—" }, tr);
    if (book) html("td", { class: "num book-count", text: String(p.book || 0) }, tr);
  }
  const ol = $("#review-mistakes");
  ol.textContent = "";
  const here = viewPly() + 1;
  for (const m of r.moves.filter((x) => x.mistake)) {
    const li = html("li", { "data-ply": m.ply, class: m.ply === here ? "current" : "" }, ol);
    const b = html("button", { class: "mistake-link", text: moveName(m.ply, m.side, m.move) }, li);
    b.addEventListener("click", () => goto(m.ply - 1));
    html("span", { class: "loss", text: ` −${discs(m.loss).replace("+", "")}${unit === "discs" ? " " + _("discs") : ""}${m.exact ? ` (${_("exact")})` : ""}` }, li);
    html("span", { class: "muted", text: ", " + _("best {move}", { move: m.best }) + (m.book ? ` (${_("book")})` : "") }, li);
  }
  ol.hidden = !ol.childElementCount;
  if (!ol.childElementCount) html("p", { class: "muted", text: _("No mistakes.") }, sum);
}
