// plies web: the page.  Plain JavaScript modules, no build step.  Screens: start, board editor, board (a live
// game, or a finished one replayed from the history, with the end overlay), history; one module each, and
// board.js, review.js, values.js, api.js and dom.js for the jobs they share.
// The server owns the rules and the analysis: the page draws what /api and /ws/games/{id} send and sends moves back.
import { $ } from "./dom.js";
import { _, firstLanguage, initLanguageSwitch, loadLanguage, onLanguage } from "./i18n.js";
import { openEditor } from "./editor.js";
import { app } from "./api.js";
import { closeGame, initBoard, openGame, openReplay, relabelGame } from "./game.js";
import { loadHistory } from "./history.js";
import { initLibrary, libraryGameRoute, loadLibrary } from "./library.js";
import { initStart, labelStart, openJoin, updateStartForm } from "./start.js";

// ---------------------------------------------------------------- routing
function show(name) {
  for (const s of document.querySelectorAll(".screen")) s.hidden = s.id !== `screen-${name}`;
}
async function route() {
  const h = location.hash || "#/";
  let m;
  document.body.classList.remove("joining");
  $("#join-title").textContent = _("Join a friend's game");
  $("#join-about").textContent = ""; $("#btn-join").textContent = _("Join");
  if ((m = h.match(/^#\/join\/([\w-]+)/))) { closeGame(); show("start"); openJoin(m[1]); }
  else if ((m = h.match(/^#\/game\/([\w-]+)/))) { show("board"); openGame(m[1]); }
  else if ((m = h.match(/^#\/replay\/([\w-]+)/))) { closeGame(); show("board"); openReplay(m[1]); }
  else if ((m = libraryGameRoute(h))) { closeGame(); show("board"); openReplay(m.id, m.path, m.ply); }
  else if (h.startsWith("#/library")) { closeGame(); show("library"); loadLibrary(); }
  else if (h.startsWith("#/history")) { closeGame(); show("history"); loadHistory(); }
  else if (h.startsWith("#/editor")) { closeGame(); show("editor"); openEditor(); }
  else { closeGame(); show("start"); }
}
window.addEventListener("hashchange", route);

// EL/EN on the top bar: the screen shown says its words again in the new language, the game going on as it was.
function relabel() {
  if (app.info) { labelStart(); updateStartForm(); }
  const h = location.hash || "#/";
  if (h.startsWith("#/history")) loadHistory();
  else if (h.startsWith("#/library") && !libraryGameRoute(h)) loadLibrary();
  else if (h.startsWith("#/editor")) openEditor();
  else if (h.startsWith("#/game/") || h.startsWith("#/replay/")) relabelGame();
  else if (h.startsWith("#/join/")) route();
  else { $("#join-title").textContent = _("Join a friend's game"); $("#btn-join").textContent = _("Join"); }
}

// ---------------------------------------------------------------- boot
(async function main() {
  await loadLanguage(firstLanguage());
  initLanguageSwitch();
  initBoard();
  try { await initStart(); initLibrary(); } catch (e) { $("#start-error").textContent = _("cannot reach the server: {reason}", { reason: e.message }); }
  onLanguage(relabel);
  route();
})();
