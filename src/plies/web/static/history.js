// The history screen: the games played here (finished, or left unfinished), newest first, each with a link to replay it.
import { api } from "./api.js";
import { $, html } from "./dom.js";
import { _, word } from "./i18n.js";
import { gameLabel } from "./game.js";

// the result the server stores for a game nobody finished (a new game replaced it, or its browser left)
export const UNFINISHED = "Unfinished (abandoned)";

// ---------------------------------------------------------------- history
export async function loadHistory() {
  const body = $("#history-rows");
  body.textContent = "";
  try {
    const data = await api("GET", "/api/history?limit=200");
    $("#history-count").textContent = !data.total ? _("No games yet.")
      : data.total === 1 ? _("1 game.") : _("{n} games, newest first.", { n: data.total });
    for (const g of data.games) {
      const tr = html("tr", { "data-id": g.id }, body);
      html("td", { class: "h-date", text: g.finished_at.replace("T", " ").replace("+00:00", "").slice(0, 16) }, tr);
      html("td", { class: "h-game", text: gameLabel(g) }, tr);
      html("td", { class: "h-p0", "data-label": _("Black / X"), text: word(g.players[0]) }, tr);
      html("td", { class: "h-p1", "data-label": _("White / O"), text: word(g.players[1]) }, tr);
      html("td", { class: "h-result" + (g.winner === null && g.result === UNFINISHED ? " unfinished" : ""), text: word(g.result) }, tr);
      html("td", { class: "h-moves", text: _("{n} moves", { n: g.plies }) }, tr);
      const td = html("td", { class: "h-link" }, tr);
      html("a", { href: `#/replay/${g.id}`, text: _("Replay"), class: "replay-link" }, td);
    }
  } catch (e) { $("#history-count").textContent = e.message; }
}
