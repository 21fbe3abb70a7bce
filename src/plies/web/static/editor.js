// The board editor: any game's board set up by clicks, then played from.
import { app, baseGame, gameChoices, gameEntry, gameTitle, variant } from "./api.js";
import { drawBoard } from "./board.js";
import { $, html } from "./dom.js";
import { word } from "./i18n.js";
import { formSettings, startGame } from "./start.js";

// ---------------------------------------------------------------- board editor
// Every game the server offers, on its own board: the start position's layout and cells come with the game.
export function editorLayout(name) { return variant(name).layout; }

export function editorStart(name) { return [...variant(name).start]; }

export function openEditor() {
  const sel = $("#ed-game");
  if (!sel.options.length) {
    for (const name of gameChoices()) html("option", { value: name, text: word(gameTitle(name)) }, sel);
    sel.addEventListener("change", () => resetEditor(sel.value, true));
    $("#ed-clear").addEventListener("click", () => { app.editor.cells = app.editor.cells.map((c) => (c === "#" ? "#" : "")); drawEditor(); });
    $("#ed-start-pos").addEventListener("click", () => resetEditor(app.editor.name, true));
    for (const r of document.querySelectorAll("input[name=ed-side]")) r.addEventListener("change", drawEditor);
    $("#ed-play").addEventListener("click", playFromEditor);
  }
  const s = app.settings.mode ? app.settings : formSettings();  // the clock: the start screen's, changed here
  $("#ed-minutes").value = s.minutes || ""; $("#ed-increment").value = s.increment || "0";
  if (!app.editor) {
    const choices = gameChoices();
    const want = app.settings.game && choices.includes(app.settings.game) ? app.settings.game : choices[0];
    sel.value = want;
    resetEditor(sel.value, true);
  } else drawEditor();
}

export function resetEditor(name, start) {
  const layout = editorLayout(name);
  const blank = editorStart(name).map((c) => (c === "#" ? "#" : ""));
  app.editor = { name, layout, cells: start ? editorStart(name) : blank };
  if (start) document.querySelector("input[name=ed-side][value=X]").checked = true; // the start: the first side moves
  $("#ed-error").textContent = "";
  drawEditor();
}

// the position as the game's own text: its cells in board order with its symbols, then the side to move
export function editorText() {
  const e = app.editor;
  const symbols = gameEntry(e.name).symbols;
  const sym = (c) => (c === "X" ? symbols[0] : c === "O" ? symbols[1] : c === "#" ? "#" : "-");
  const side = document.querySelector("input[name=ed-side]:checked").value === "X" ? symbols[0] : symbols[1];
  const order = e.layout.kind === "hex" ? e.layout.cells_on_board : [...Array(e.cells.length).keys()];
  return order.map((i) => sym(e.cells[i])).join("") + " " + side;
}

export function drawEditor() {
  const e = app.editor;
  drawBoard($("#editor-board"), { game: baseGame(e.name), layout: e.layout, cells: e.cells }, {
    clickAll: true, legal: [],
    onClick: (i) => {
      if (e.cells[i] === "#") return;
      const tool = document.querySelector("input[name=ed-tool]:checked").value;
      e.cells[i] = e.cells[i] === tool ? "" : tool;
      drawEditor();
    },
  });
  const x = e.cells.filter((c) => c === "X").length, o = e.cells.filter((c) => c === "O").length;
  const names = gameEntry(e.name).sides;
  for (const span of document.querySelectorAll("[data-ed-side]")) span.textContent = word(names[+span.dataset.edSide]);
  $("#ed-count").textContent = `${word(names[0])} ${x}, ${word(names[1])} ${o}`;
  $("#ed-text").value = editorText();
}

export async function playFromEditor() {
  $("#ed-error").textContent = "";
  const s = { ...(app.settings.mode ? app.settings : formSettings()), game: app.editor.name,
    minutes: $("#ed-minutes").value.trim(), increment: $("#ed-increment").value.trim() };
  try { await startGame(s, editorText()); }
  catch (e) { $("#ed-error").textContent = e.message; }
}
