// A WTHOR file opened on the start screen: its bytes (and a WTHOR.JOU picked with it, for the players' names) go to
// the server, which lists the games; the one picked comes back as a GGF game and starts as a pasted one would.
import { api, app } from "./api.js";
import { $, html } from "./dom.js";
import { _ } from "./i18n.js";

export const MAX_WTHOR = 1500000; // bytes of the .wtb and its WTHOR.JOU together (the server's limit)

export function isWthor(files) { return files.some((f) => /\.wtb$/i.test(f.name)); }

async function base64(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

// The games of the .wtb picked, listed under the file picker to choose one.
export async function openWthor(files) {
  const wtb = files.find((f) => /\.wtb$/i.test(f.name));
  const jou = files.find((f) => /\.jou$/i.test(f.name));
  const box = $("#file-game-box"), sel = $("#opt-file-game");
  app.wthor = null;
  box.hidden = true;
  sel.textContent = "";
  if (wtb.size + (jou ? jou.size : 0) > MAX_WTHOR) {
    $("#start-error").textContent = _("{file} is {size} kB: the page opens a WTHOR file of up to {max} kB; plies web --games FILE opens any size in the Library", { file: wtb.name, size: Math.round(wtb.size / 1000), max: MAX_WTHOR / 1000 });
    return;
  }
  const body = { data: await base64(wtb), players: jou ? await base64(jou) : null, name: wtb.name };
  const found = await api("POST", "/api/files/wthor", body);
  if (!found.total) { $("#start-error").textContent = _("{file} holds no game", { file: wtb.name }); return; }
  for (const g of found.games) {
    const facts = [_("{n} moves", { n: g.moves }), g.result, g.date].filter(Boolean).join(", ");
    html("option", { value: g.index, text: `${g.index}. ${g.black} – ${g.white} (${facts})` }, sel);
  }
  $("#file-game-count").textContent = found.total > found.games.length
    ? _("the first {k} of its {n} games", { k: found.games.length, n: found.total }) : _("its {n} games", { n: found.total });
  $("#opt-position").value = "";
  $("#start-position").open = true;
  box.hidden = false;
  app.wthor = body;
}

// The game picked in a WTHOR file, as the GGF text that starts it.
export async function wthorGame() {
  const picked = await api("POST", "/api/files/wthor", { ...app.wthor, index: +$("#opt-file-game").value });
  return picked.ggf;
}
