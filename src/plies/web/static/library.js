// The library screen (plies web --games PATH): the games of a WTHOR or GGF file, a page at a time, searched by
// player, by opening and by position reached; each opens on the board for replay and review.
import { api, app } from "./api.js";
import { $, html } from "./dom.js";
import { _, word } from "./i18n.js";
import { frameAt, showError, viewPly } from "./game.js";

const PAGE = 50;
let polling = null;

// The search in the address: #/library?player=..&opening=..&position=..&offset=..
function query() {
  const h = location.hash || "";
  const i = h.indexOf("?");
  return new URLSearchParams(i < 0 ? "" : h.slice(i + 1));
}

function go(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  location.hash = s ? `#/library?${s}` : "#/library";
}

export function initLibrary() {
  const on = !!(app.info && app.info.library);
  $("#nav-library").hidden = !on;
  $("#start-library").hidden = !on;
  $("#btn-find-position").hidden = !on;
  if (!on) return;
  $("#library-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    go({ player: $("#lib-player").value.trim(), opening: $("#lib-opening").value.trim(), position: $("#lib-position").value.trim() });
  });
  $("#lib-clear").addEventListener("click", () => go({}));
  $("#lib-prev").addEventListener("click", () => page(-1));
  $("#lib-next").addEventListener("click", () => page(1));
  $("#btn-find-position").addEventListener("click", findPosition);
}

function page(step) {
  const q = query();
  const offset = Math.max(0, (+q.get("offset") || 0) + step * PAGE);
  go({ player: q.get("player"), opening: q.get("opening"), position: q.get("position"), offset: offset ? String(offset) : "" });
}

// The position shown on the board (a game being played or replayed), searched in the library.
export function findPosition() {
  const g = app.g;
  const f = frameAt(viewPly());
  const position = (f && f.position) || (g && viewPly() === g.ply ? g.position : null);
  if (!g || g.game !== "othello" || !position || position.replace(/\s/g, "").length !== 65) {
    showError(_("The library holds 8×8 Othello games: show an 8×8 Othello position to find it there."));
    return;
  }
  go({ position: position.replace(/\s/g, "") });
}

export async function loadLibrary() {
  const q = query();
  $("#lib-player").value = q.get("player") || "";
  $("#lib-opening").value = q.get("opening") || "";
  $("#lib-position").value = q.get("position") || "";
  $("#library-error").textContent = "";
  const offset = +q.get("offset") || 0;
  const params = new URLSearchParams({ offset: String(offset), limit: String(PAGE) });
  for (const k of ["player", "opening", "position"]) if (q.get(k)) params.set(k, q.get(k));
  const asked = location.hash;
  let data;
  try { data = await api("GET", `/api/library/games?${params}`); }
  catch (e) { $("#library-error").textContent = e.message; $("#library-rows").textContent = ""; $("#library-count").textContent = ""; return; }
  if (location.hash !== asked) return;
  drawStatus(data);
  const searching = ["player", "opening", "position"].some((k) => q.get(k));
  const n = data.total;
  $("#library-count").textContent = !n ? (searching ? _("No game found.") : _("No games yet."))
    : _("Games {a}–{b} of {n}", { a: offset + 1, b: offset + data.games.length, n: n.toLocaleString() })
      + (searching ? " " + _("found") : "") + (data.indexing ? " " + _("(so far)") : "");
  $("#lib-prev").disabled = offset <= 0;
  $("#lib-next").disabled = offset + data.games.length >= n;
  const body = $("#library-rows");
  body.textContent = "";
  for (const g of data.games) {
    const tr = html("tr", { "data-id": g.id }, body);
    html("td", { class: "l-num", text: String(g.id + 1) }, tr);
    html("td", { class: "l-p0", "data-label": _("Black"), text: word(g.black) || "?" }, tr);
    html("td", { class: "l-p1", "data-label": _("White"), text: word(g.white) || "?" }, tr);
    html("td", { class: "l-result", text: g.result || "?" }, tr);
    html("td", { class: "l-moves", text: _("{n} moves", { n: g.moves }) }, tr);
    html("td", { class: "l-date", text: [g.date, g.file].filter(Boolean).join(" · ") }, tr);
    const td = html("td", { class: "l-link" }, tr);
    const at = g.ply != null ? `?ply=${g.ply}` : "";
    html("a", { href: `#/library/${g.id}${at}`, class: "library-open", text: g.ply != null ? _("Open at move {k}", { k: g.ply }) : _("Open") }, td);
  }
  body.dataset.shown = asked;  // the list now answers this address (a script or a test can wait for it)
  clearTimeout(polling);
  if (data.indexing) polling = setTimeout(() => { if (location.hash === asked) loadLibrary(); }, 1500);
}

function drawStatus(s) {
  const box = $("#library-progress");
  box.hidden = !s.indexing;
  $("#library-bar").value = s.progress || 0;
  $("#library-progress-text").textContent = _("Reading the games: {p}% ({n} so far)", { p: Math.floor((s.progress || 0) * 100), n: s.indexed.toLocaleString() });
  const notes = [];
  if (!s.indexing) notes.push(_("{n} games in {path}", { n: s.indexed.toLocaleString(), path: s.path }));
  if (s.files_left_out) notes.push(_("{n} files left out (neither GGF nor WTHOR)", { n: s.files_left_out }));
  if (s.skipped) notes.push(_("{n} games skipped (they do not replay)", { n: s.skipped.toLocaleString() }));
  if (s.error) notes.push(s.error);
  $("#library-note").textContent = notes.join("; ");
  $("#library-note").title = (s.problems || []).join("\n");
}

// #/library/N?ply=K: the game opened on the board (the route calls openReplay with this address).
export function libraryGameRoute(hash) {
  const m = hash.match(/^#\/library\/(\d+)(?:\?ply=(\d+))?/);
  return m ? { id: +m[1], path: `/api/library/games/${m[1]}`, ply: m[2] ? +m[2] : 0 } : null;
}
