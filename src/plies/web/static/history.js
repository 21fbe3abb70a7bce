// The history screen: finished games, newest first, each with a link to replay it.
import { api } from "./api.js";
import { $, html } from "./dom.js";
import { gameLabel } from "./game.js";

// ---------------------------------------------------------------- history
export async function loadHistory() {
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
