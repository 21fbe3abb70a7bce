// The server: its JSON API, the page's state and the person's settings, and the games as the server describes
// them (variants, sides, symbols, separators): the page knows no game by name.
import { _, i18n } from "./i18n.js";

// Each request says the page's language (X-Plies-Lang): the server words its refusals in it.
export async function api(method, path, body) {
  const opts = { method, headers: { "X-Plies-Lang": i18n.lang }, credentials: "same-origin" };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = { error: _("server answered {status}", { status: res.status }) }; }
  if (!res.ok) throw new Error((data && data.error) || _("server answered {status}", { status: res.status }));
  return data;
}

export const app = {
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

export function loadSettings() {
  try { return JSON.parse(localStorage.getItem("plies.settings") || "{}"); } catch (e) { return {}; }
}
export function saveSettings() { try { localStorage.setItem("plies.settings", JSON.stringify(app.settings)); } catch (e) { /* private mode */ } }

// ---------------------------------------------------------------- the games, as the server describes them
// Every game comes with its variants (board sizes), sides, symbols, how its results count, a move to show and
// whether the fast engine plays it: the page knows no game by name.
export function variants() { return app.info ? app.info.games.flatMap((g) => g.variants.map((v) => ({ ...v, game: g }))) : []; }
export function variant(name) { return variants().find((v) => v.name === name) || null; }
export function gameEntry(name) {
  const v = variant(name);
  return v ? v.game : ((app.info && app.info.games.find((g) => g.name === name)) || null);
}
export function gameChoices() { return variants().map((v) => v.name); }
export function gameTitle(name) { const v = variant(name); return v ? v.label : name; }
// the variant of a game with this layout (an Othello board's size)
export function variantOf(game, layout) {
  const entry = gameEntry(game);
  if (!entry) return null;
  return entry.variants.find((v) => !layout || v.layout.rows === layout.rows) || entry.variants[0];
}
export function marksGame(layout) { return layout && layout.pieces && layout.pieces[0] === "x"; } // X and O marks, not discs

export function baseGame(name) { const e = gameEntry(name); return e ? e.name : name; }
export function sizeOf(name) { const v = variant(name); return v && v.game.variants.length > 1 ? v.size : null; }

export function separatorOf(game) { const e = gameEntry(game); return e ? e.separator : " "; }
