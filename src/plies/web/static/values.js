// Values as the page shows them: in discs (or a result, or a heuristic's units), from the chosen point of view.
import { app } from "./api.js";
import { _, word } from "./i18n.js";

// ---------------------------------------------------------------- values in discs, from the chosen point of view
export function pov() { const p = app.settings.pov; return p === "1" || p === "mover" ? p : "0"; }
export function graphSide() { return pov() === "1" ? 1 : 0; }
export function povName() {
  const names = (app.g && app.g.side_names) || ["Black", "White"];
  return pov() === "mover" ? _("the side to move") : word(names[+pov()]);
}
// a position's value is Black's (player 0's) view; a move's value is its mover's view.  With "the side to move's
// view", a position after a move is valued for the player who made that move (``who``).
export function posValue(v, who) {
  if (v === null || v === undefined) return null;
  if (pov() === "mover") return who === 1 ? -v : v;
  return pov() === "1" ? -v : v;
}
export function moveValue(v, mover) {
  if (v === null || v === undefined) return null;
  if (pov() === "mover") return v;
  return (+pov() === mover) ? v : -v;
}
export function discs(v) {
  const r = Math.round(v * 10) / 10;
  if (r === 0) return "0";
  const s = Math.abs(r).toFixed(1).replace(/\.0$/, "");
  return (r > 0 ? "+" : "−") + s;
}
export function fmtVal(v, unit, opts = {}) {
  if (v === null || v === undefined) return "";
  if (unit === "result") return v > 0 ? _("win") : v < 0 ? _("loss") : _("draw");
  const text = discs(v);
  if (unit === "discs") return opts.bare ? text : (Math.abs(Math.round(v * 10) / 10) === 1 ? _("{value} disc", { value: text }) : _("{value} discs", { value: text }));
  return opts.bare ? text : `${text} (${unit})`;
}
export function unitNote(unit) {
  if (unit === "discs") return _("in discs");
  if (unit === "result") return _("win / draw / loss");
  return _("{heuristic}'s value (not discs)", { heuristic: unit });
}
