// plies Learn page: replays a recorded minimax / alpha-beta search step by step (no autoplay).
// The server runs the textbook search and lays the tree out with graphviz; this file only draws and replays.
"use strict";

const api = (p) => "api/learn/" + p;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const page = { presets: {}, tree: null, data: null, step: 0 };

function fmt(v) {
  if (v === null || v === undefined) return "—";
  if (v === "inf") return "+∞";
  if (v === "-inf") return "−∞";
  return String(v);
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

async function fetchTrace() {
  const body = { tree: page.tree, algorithm: $("algo").value, order: $("order").value };
  const r = await fetch(api("trace"), {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await r.json();
  if (!r.ok) { showError(data.detail || "the server could not solve this tree"); return; }
  showError(null);
  page.data = data;
  page.byId = Object.fromEntries(data.nodes.map((n) => [n.id, n]));
  const n = data.steps.length;
  page.step = Math.min(page.step, n);
  $("step-slider").max = String(n);
  $("tree-json").value = JSON.stringify(data.tree);
  buildLeaves();
  show();
}

function showError(msg) {
  $("error").hidden = !msg;
  $("error").textContent = msg || "";
}

// The picture and panels after the first k steps.
function snapshot(k) {
  const d = page.data;
  const st = {};
  for (const n of d.nodes) st[n.id] = { value: "", alpha: null, beta: null, visited: false, pruned: false };
  let current = null, window = null, condition = null;
  for (let i = 0; i < k; i++) {
    const s = d.steps[i];
    const n = st[s.id];
    current = s.id;
    condition = null;
    if (s.kind === "enter") {
      n.visited = true; n.alpha = s.alpha; n.beta = s.beta; n.value = "";
      window = { node: s.id, alpha: s.alpha, beta: s.beta };
    } else if (s.kind === "leaf" || s.kind === "exit") {
      n.visited = true;
      n.value = s.kind === "leaf" ? fmt(s.value) : page.byId[s.id].value_text;
      if (s.kind === "leaf") { n.alpha = s.alpha; n.beta = s.beta; }
      if (s.parent !== null) {
        const p = st[s.parent];
        const kind = page.byId[s.parent].kind;
        p.value = (kind === "max" ? "≥" : "≤") + fmt(s.parent_best);
        if (s.parent_alpha !== null) { p.alpha = s.parent_alpha; p.beta = s.parent_beta; }
        window = { node: s.parent, alpha: p.alpha, beta: p.beta };
      } else {
        window = { node: s.id, alpha: n.alpha, beta: n.beta };
      }
    } else {                                          // alpha-cutoff / beta-cutoff
      condition = s.text;
      for (const pid of s.pruned) {
        for (const m of d.nodes) if (m.id === pid || m.id.startsWith(pid + ".")) st[m.id].pruned = true;
      }
      window = { node: s.id, alpha: s.alpha, beta: s.beta };
    }
  }
  return { st, current, window, condition, done: k === d.steps.length };
}

function draw(snap) {
  const d = page.data, svg = $("tree-svg");
  const L = d.layout, pad = 30;
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${L.width + 2 * pad} ${L.height + 2 * pad}`);
  const pv = new Set(snap.done ? d.pv.map((p) => "r" + p.map((i) => "." + i).join("")) : []);
  if (snap.done) pv.add("r");
  const edges = el("g", { class: "edges" }, svg);
  const nodes = el("g", { class: "nodes" }, svg);
  for (const n of d.nodes) {
    const pos = L.nodes[n.id];
    if (!pos) continue;
    if (n.path.length) {
      const pid = n.id.slice(0, n.id.lastIndexOf("."));
      const pp = L.nodes[pid];
      const cls = ["edge"];
      if (snap.st[n.id].pruned) cls.push("pruned");
      if (pv.has(n.id)) cls.push("pv");
      const g = el("g", { class: cls.join(" "), "data-id": n.id }, edges);
      el("line", { x1: pp.x, y1: pp.y, x2: pos.x, y2: pos.y }, g);
      if (snap.st[n.id].pruned && n.pruned) {
        const t = el("text", { x: (pp.x + pos.x) / 2 + 8, y: (pp.y + pos.y) / 2, class: "cross" }, g);
        t.textContent = "✗";
      }
    }
    const s = snap.st[n.id];
    const cls = ["node", n.leaf ? "leaf" : n.kind];
    if (s.visited) cls.push("visited"); else cls.push("unseen");
    if (s.pruned) cls.push("pruned");
    if (snap.current === n.id) cls.push("current");
    if (pv.has(n.id)) cls.push("pv");
    const g = el("g", { class: cls.join(" "), "data-id": n.id, transform: `translate(${pos.x},${pos.y})` }, nodes);
    if (n.leaf) {
      el("rect", { x: -24, y: -17, width: 48, height: 34, rx: 3, class: "shape" }, g);
    } else if (n.kind === "max") {
      el("polygon", { points: "0,-30 36,22 -36,22", class: "shape" }, g);
    } else {
      el("polygon", { points: "-36,-22 36,-22 0,30", class: "shape" }, g);
    }
    const named = n.named;
    const shown = s.value || (s.pruned ? "✗" : (n.leaf && n.given !== null ? fmt(n.given) : ""));
    const y0 = n.leaf ? 0 : (n.kind === "max" ? 6 : -8);
    if (named) {
      el("text", { y: y0 - 8 }, g).textContent = n.label;
      el("text", { y: y0 + 7, class: "val" }, g).textContent = shown;
    } else {
      el("text", { y: y0, class: "val" }, g).textContent = shown;
    }
    if (!n.leaf && s.visited && s.alpha !== null && d.algorithm === "alphabeta") {
      el("text", { y: n.kind === "max" ? 34 : -30, class: "win" }, g).textContent =
        `α=${fmt(s.alpha)} β=${fmt(s.beta)}`;
    }
    const title = el("title", {}, g);
    title.textContent = `${n.label} (${n.leaf ? "leaf" : n.kind.toUpperCase()})`;
    if (n.leaf) g.addEventListener("click", () => { const i = $("leaf-" + n.id); if (i) { i.focus(); i.select(); } });
  }
}

function show() {
  const d = page.data;
  if (!d) return;
  const k = page.step, n = d.steps.length;
  $("step-slider").value = String(k);
  $("step-count").textContent = `${k} / ${n}`;
  const snap = snapshot(k);
  draw(snap);
  const cur = snap.current ? page.byId[snap.current] : null;
  $("current").textContent = cur ? `${cur.label} (${cur.leaf ? "leaf" : cur.kind.toUpperCase()})` : "—";
  const w = snap.window;
  const ab = d.algorithm === "alphabeta";
  $("alpha").textContent = ab && w ? fmt(w.alpha) : "—";
  $("beta").textContent = ab && w ? fmt(w.beta) : "—";
  $("step-text").textContent = k === 0 ? "Press forward to start the search." : d.steps[k - 1].text;
  $("condition").textContent = snap.condition || (ab ? "—" : "minimax never prunes");
  $("condition").parentElement.classList.toggle("active", !!snap.condition);
  $("answer").textContent = d.summary + (d.pruned.length ? "; pruned: " +
    d.pruned.map((p) => page.byId["r" + p.map((i) => "." + i).join("")].label).join(", ") : "");
  const log = $("log");
  log.innerHTML = "";
  d.steps.slice(0, k).forEach((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.text;
    if (i === k - 1) li.className = "now";
    log.appendChild(li);
  });
  if (log.lastChild) log.lastChild.scrollIntoView({ block: "nearest" });
}

function go(k) {
  if (!page.data) return;
  page.step = Math.max(0, Math.min(page.data.steps.length, k));
  show();
}

function leafAt(tree, path) {
  // returns [container, key] so that container[key] is the leaf (a number or a {label, value} object)
  let node = tree, parent = null, key = null;
  for (const i of path) {
    const kids = Array.isArray(node) ? node : node.children;
    parent = kids; key = i; node = kids[i];
  }
  return [parent, key];
}

function buildLeaves() {
  const box = $("leaves");
  box.innerHTML = "";
  for (const n of page.data.nodes) {
    if (!n.leaf) continue;
    const lab = document.createElement("label");
    lab.textContent = n.label;
    const inp = document.createElement("input");
    inp.type = "number"; inp.step = "any"; inp.id = "leaf-" + n.id; inp.dataset.path = JSON.stringify(n.path);
    inp.value = n.given;
    inp.addEventListener("change", () => editLeaf(n.path, inp.value));
    lab.appendChild(inp);
    box.appendChild(lab);
  }
}

function editLeaf(path, text) {
  const v = Number(text);
  if (text === "" || !Number.isFinite(v)) { showError("a leaf value must be a number"); return; }
  const [kids, i] = leafAt(page.tree, path);
  if (kids[i] !== null && typeof kids[i] === "object") kids[i].value = v; else kids[i] = v;
  $("note").textContent = "You changed a leaf: the search below is re-run on your values.";
  fetchTrace();
}

async function init() {
  const r = await fetch(api("presets"));
  page.presets = await r.json();
  const sel = $("preset");
  for (const [name, p] of Object.entries(page.presets)) {
    const o = document.createElement("option");
    o.value = name; o.textContent = p.title;
    sel.appendChild(o);
  }
  const loadPreset = () => {
    const p = page.presets[sel.value];
    if (!p) return;                                   // "Your own tree": keep what is loaded
    page.tree = JSON.parse(JSON.stringify(p.tree));
    $("note").textContent = p.note;
    page.step = 0;
    fetchTrace();
  };
  sel.addEventListener("change", loadPreset);
  $("algo").addEventListener("change", () => { page.step = 0; fetchTrace(); });
  $("order").addEventListener("change", () => { page.step = 0; fetchTrace(); });
  $("step-first").addEventListener("click", () => go(0));
  $("step-prev").addEventListener("click", () => go(page.step - 1));
  $("step-next").addEventListener("click", () => go(page.step + 1));
  $("step-last").addEventListener("click", () => go(Infinity));
  $("step-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("tree-load").addEventListener("click", () => {
    try { page.tree = JSON.parse($("tree-json").value); } catch (e) { showError("not JSON: " + e.message); return; }
    $("note").textContent = "Your own tree.";
    let own = sel.querySelector("option[value='__own__']");
    if (!own) {
      own = document.createElement("option");
      own.value = "__own__"; own.textContent = "Your own tree";
      sel.appendChild(own);
    }
    sel.value = "__own__";
    page.step = 0;
    fetchTrace();
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") go(page.step + 1);
    else if (e.key === "ArrowLeft") go(page.step - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(Infinity);
  });
  loadPreset();
}

init();
