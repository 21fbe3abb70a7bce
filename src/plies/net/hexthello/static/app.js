// Live view of a plies HexThello server: draws the hexagon from the server's snapshots (WebSocket /ws).
"use strict";
const SIZE = 15, R = 20;                       // hexagon cell radius in SVG units
const svg = document.getElementById("board");
const NS = "http://www.w3.org/2000/svg";
let ws = null, seated = false, snapshot = null, myGame = null;

function centre(i, j) {                        // pointy-top axial layout: (i-1, j) up-left, (i-1, j+1) up-right
  return [Math.sqrt(3) * R * (j + i / 2 - 3.5), 1.5 * R * i];
}
function hexPoints(x, y) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k - 30);
    pts.push((x + R * Math.cos(a)).toFixed(1) + "," + (y + R * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}
function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}
function draw(s) {
  svg.replaceChildren();
  const legal = new Set((s.legal || []).map(([i, j]) => i * SIZE + j));
  const last = s.last ? s.last[0] * SIZE + s.last[1] : -1;
  for (const [i, j, v] of s.cells || []) {
    const [x, y] = centre(i, j);
    const k = i * SIZE + j;
    const cls = "cell" + (v === "#" ? " hole" : "") + (legal.has(k) ? " legal" : "") + (k === last ? " last" : "");
    const poly = el("polygon", {points: hexPoints(x, y), class: cls, "data-row": i, "data-col": j});
    if (legal.has(k)) poly.addEventListener("click", () => send({type: "move", row: i, col: j}));
    const title = el("title", {}); title.textContent = `${i} ${j}`; poly.appendChild(title);
    svg.appendChild(poly);
    if (v === "X" || v === "O") svg.appendChild(el("circle", {cx: x, cy: y, r: R * 0.72, class: "stone " + v,
                                                              "pointer-events": "none"}));
    else if (i + j === 7 || j === 0 || i === 0) {
      const t = el("text", {x: x, y: y + 3, class: "coord"}); t.textContent = `${i},${j}`; svg.appendChild(t);
    }
  }
}
function text(id, value) { document.getElementById(id).textContent = value; }
function show(s) {
  if (s.type === "notice") { notice(s.text); return; }
  if (s.type === "lobby") { lobby(s.lobby); return; }
  if (s.type === "seated") { myGame = s.game_id; notice(`your game has started: you play ${s.colour}`); return; }
  if (s.type !== "state" && s.type !== "idle") return;
  // follow this page's own game when seated, else the server's featured game
  if (s.type === "state" && (myGame !== null ? s.game_id !== myGame : s.featured === false)) { games(s.live || []); return; }
  snapshot = s;
  if (s.type === "state") {
    draw(s);
    text("black-name", s.black); text("white-name", s.white);
    text("black-score", "B: " + s.score.black); text("white-score", "W: " + s.score.white);
    text("tomove", s.to_move ? `${s.to_move} to move` : "");
    text("last", s.last_text ? `last move: ${s.last_text}` : "");
    text("status", `match ${s.match}, game ${s.game}, ply ${s.plies}`);
    const res = document.getElementById("result");
    res.hidden = !s.result; res.textContent = s.result ? "Result: " + s.result : "";
    document.getElementById("pass").hidden = !s.must_pass;
    summary(s.summary || []); history(s.history || []); games(s.live || []);
    if (myGame !== null && s.result) myGame = null;
  } else {
    text("status", "waiting for agents");
    if (s.cells) draw(s);
  }
  lobby(s.lobby || []);
}
function lobby(names) {
  const ul = document.getElementById("lobby");
  ul.replaceChildren(...(names.length ? names : ["no agent waiting"]).map(n => {
    const li = document.createElement("li"); li.textContent = n; return li; }));
}
function notice(t) {
  const li = document.createElement("li"); li.textContent = t;
  const ul = document.getElementById("notices"); ul.prepend(li);
  while (ul.children.length > 8) ul.lastChild.remove();
}
function summary(rows) {
  const tb = document.querySelector("#summary tbody");
  tb.replaceChildren(...rows.map(r => {
    const tr = document.createElement("tr");
    for (const v of [r.name, r.games, r.wins, r.draws, r.losses, `${r.discs_for}:${r.discs_against}`]) {
      const td = document.createElement("td"); td.textContent = v; tr.appendChild(td);
    }
    return tr;
  }));
}
function games(rows) {
  const ul = document.getElementById("live");
  ul.replaceChildren(...(rows.length ? rows : [{none: true}]).map(r => {
    const li = document.createElement("li");
    li.textContent = r.none ? "none" : `m${r.match} g${r.game}: ${r.black} vs ${r.white}, ply ${r.plies}`;
    return li; }));
}
function history(rows) {
  const ul = document.getElementById("history");
  ul.replaceChildren(...rows.slice().reverse().map(r => {
    const li = document.createElement("li"); li.textContent = `m${r.match} g${r.game}: ${r.result}`; return li; }));
}
function send(msg) { if (ws && ws.readyState === 1) ws.send(JSON.stringify(msg)); }
function seat(colour) {
  send({type: "play", colour: colour, name: document.getElementById("myname").value});
  seated = true; document.getElementById("leave").hidden = false;
}
document.getElementById("play-black").onclick = () => seat("black");
document.getElementById("play-white").onclick = () => seat("white");
document.getElementById("pass").onclick = () => send({type: "pass"});
document.getElementById("leave").onclick = () => {
  send({type: "leave"}); seated = false; myGame = null; document.getElementById("leave").hidden = true; };
function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onmessage = ev => show(JSON.parse(ev.data));
  ws.onclose = () => { text("status", "disconnected, retrying…"); setTimeout(connect, 2000); };
}
connect();
