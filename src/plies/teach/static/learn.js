// plies Learn page: replays a recorded minimax / alpha-beta search step by step (no autoplay), and checks the
// answers to random exercises. The server runs the textbook search and lays the tree out (plies' own tidy
// layout, the same as its SVG pictures); this file only draws and replays. Its words come in English and Greek
// from the server's gettext catalog (api/learn/messages), in the browser's language or the one chosen (EL/EN), by
// the browser app's own language module.
import { _, firstLanguage, i18n, initLanguageSwitch, loadLanguage, onLanguage } from "./i18n.js";

const api = (p) => "api/learn/" + p;
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

const page = { presets: {}, tree: null, data: null, step: 0, reveal: false, quiz: null, marked: new Set(), asked: 0,
  exercise: false, solved: false };

// Exercise mode (learn?mode=exercise, or a server run with PLIES_LEARN=exercise): no "Show answer", and an
// exercise's search can be stepped through only once its answers are right.
page.exercise = new URLSearchParams(location.search).get("mode") === "exercise" ||
  document.body.dataset.mode === "exercise";
const locked = () => page.exercise && page.quiz !== null && !page.solved;

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

// The server's own words for an error: FastAPI's {"detail": "..."} (or its list of validation errors),
// else the text it sent, else the HTTP status.
async function errorText(r) {
  const text = await r.text();
  try {
    const d = JSON.parse(text);
    if (typeof d.detail === "string") return d.detail;
    if (Array.isArray(d.detail)) {
      return d.detail.map((e) => (e.loc ? e.loc.filter((x) => x !== "body").join(".") + ": " : "") + e.msg).join("; ");
    }
    if (d.detail !== undefined) return JSON.stringify(d.detail);
    if (typeof d.error === "string") return d.error;
  } catch (e) { /* not JSON: show it as it came */ }
  return text.trim() ? `${r.status} ${r.statusText}: ${text.trim().slice(0, 300)}` : `${r.status} ${r.statusText}`;
}

async function post(path, body) {
  let r;
  try {
    r = await fetch(api(path), {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ...body, lang: i18n.lang }),
    });
  } catch (e) {
    showError(_("cannot reach the server: {reason}", { reason: e.message }));
    return null;
  }
  if (!r.ok) { showError(await errorText(r)); return null; }
  showError(null);
  return r.json();
}

// Requests can finish out of order (two quick leaf edits): only the answer to the latest one is drawn.
async function fetchTrace() {
  const body = { tree: page.tree, algorithm: $("algo").value, order: $("order").value };
  const asked = ++page.asked;
  const data = await post("trace", body);
  if (!data || asked !== page.asked) return;
  page.data = data;
  page.byId = Object.fromEntries(data.nodes.map((n) => [n.id, n]));
  const n = data.steps.length;
  page.step = Math.min(page.step, n);
  $("step-slider").max = String(n);
  $("tree-json").value = locked() ? "" : JSON.stringify(data.tree);
  const dl = $("download");
  if (dl.href.startsWith("blob:")) URL.revokeObjectURL(dl.href);
  dl.href = URL.createObjectURL(new Blob([data.svg], { type: "image/svg+xml" }));
  dl.hidden = false;
  buildLeaves();
  show();
}

function showError(msg) {
  $("error").hidden = !msg;
  $("error").textContent = msg || "";
}

// The picture and panels after the first k steps (plies.teach.stepper.snapshot does the same in Python).
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
      window = s.id;
    } else if (s.kind === "leaf" || s.kind === "exit") {
      n.visited = true;
      n.value = s.kind === "leaf" ? fmt(s.value) : page.byId[s.id].value_text;
      if (s.kind === "leaf") { n.alpha = s.alpha; n.beta = s.beta; }
      if (s.parent !== null) {
        const p = st[s.parent];
        p.value = (page.byId[s.parent].kind === "max" ? "≥" : "≤") + fmt(s.parent_best);
        if (s.parent_alpha !== null) { p.alpha = s.parent_alpha; p.beta = s.parent_beta; }
        window = s.parent;
      } else {
        window = s.id;
      }
    } else {                                          // alpha-cutoff / beta-cutoff
      condition = s.text;
      for (const pid of s.pruned) {
        for (const m of d.nodes) if (m.id === pid || m.id.startsWith(pid + ".")) st[m.id].pruned = true;
      }
      n.alpha = s.alpha; n.beta = s.beta;
      window = s.id;
    }
  }
  const w = window ? st[window] : null;
  return { st, current, alpha: w ? w.alpha : null, beta: w ? w.beta : null, condition, done: k === d.steps.length };
}

// The least a phone shrinks a tree: with its words drawn 1.3 times larger (--zoom) the names stay at 10 px or more
// and the α/β notes at 8.5 px; a wider tree scrolls sideways in its box.
const MIN_PHONE_SCALE = 0.65;

function pictureWidth(natural) {
  // A tree a little wider than its box (on a phone) shrinks to fit it, its words drawn larger so that they stay
  // readable (--zoom); a much wider one scrolls sideways in its box instead.
  const box = $("picture").clientWidth - 10;
  if (box >= natural) return Math.min(box, natural * 1.25);   // a small tree grows a little on a big screen
  return Math.max(box, natural * (window.innerWidth < 600 ? MIN_PHONE_SCALE : 0.8));
}

function draw(snap) {
  const d = page.data, svg = $("tree-svg");
  const L = d.layout, pad = 10;
  svg.innerHTML = "";
  const W = L.width + 2 * pad, H = L.height + 2 * pad;
  svg.setAttribute("viewBox", `${-pad} ${-pad} ${W} ${H}`);
  const width = pictureWidth(W);
  svg.style.width = width + "px";
  const zoom = Math.min(1.3, Math.max(1, W / width));
  svg.style.setProperty("--zoom", String(zoom));
  const pv = new Set(snap.done ? d.pv.map((p) => "r" + p.map((i) => "." + i).join("")) : []);
  if (snap.done) pv.add("r");
  const ab = d.algorithm === "alphabeta";
  const edges = el("g", { class: "edges" }, svg);
  const nodes = el("g", { class: "nodes" }, svg);
  const notes = el("g", { class: "notes" }, svg);
  for (const n of d.nodes) {
    const pos = L.nodes[n.id];
    if (!pos) continue;
    const s = snap.st[n.id];
    const kind = n.leaf ? "leaf" : n.kind;
    if (n.path.length) {
      const pid = n.id.slice(0, n.id.lastIndexOf("."));
      const pp = L.nodes[pid];
      const cls = ["edge"];
      if (s.pruned) cls.push("pruned");
      else if (!s.visited) cls.push("unseen");
      if (pv.has(n.id)) cls.push("pv");
      const g = el("g", { class: cls.join(" "), "data-id": n.id }, edges);
      const y2 = pos.y - pos.h / 2 + (kind === "max" ? 2 : 0);
      el("line", { x1: pp.x, y1: pp.y + pp.h / 2, x2: pos.x, y2 }, g);
      if (n.edge) {                                  // the move, beside the edge (as plies' own pictures write it)
        const t = 0.7, x1 = pp.x, yA = pp.y + pp.h / 2;
        const side = pos.x >= x1 ? 1 : -1;
        const m = el("text", { x: x1 + (pos.x - x1) * t + side * 4, y: yA + (y2 - yA) * t, class: "move",
          "text-anchor": side > 0 ? "start" : "end", "dominant-baseline": "central" }, g);
        m.textContent = n.edge;
      }
      if (s.pruned && n.pruned) {
        const t = el("text", { x: (pp.x + pos.x) / 2, y: (pp.y + pp.h / 2 + y2) / 2, class: "cross",
          "text-anchor": "middle", "dominant-baseline": "central" }, g);
        t.textContent = "✗";
      }
    }
    const cls = ["node", kind];
    if (s.visited) cls.push("visited"); else cls.push("unseen");
    if (s.pruned) cls.push("pruned");
    if (snap.current === n.id) cls.push("current");
    if (pv.has(n.id)) cls.push("pv");
    if (page.marked.has(n.label) && n.leaf) cls.push("marked");
    const g = el("g", { class: cls.join(" "), "data-id": n.id, transform: `translate(${pos.x},${pos.y})` }, nodes);
    const w = pos.w, h = pos.h;
    if (n.leaf) {
      el("rect", { x: -w / 2, y: -h / 2, width: w, height: h, rx: 3, class: "shape" }, g);
    } else if (n.kind === "max") {
      el("polygon", { points: `0,${-h / 2} ${w / 2},${h / 2} ${-w / 2},${h / 2}`, class: "shape" }, g);
    } else {
      el("polygon", { points: `${-w / 2},${-h / 2} ${w / 2},${-h / 2} 0,${h / 2}`, class: "shape" }, g);
    }
    const shown = s.value || (n.leaf && n.given !== null ? fmt(n.given) : "");
    const [nameY, valY, onlyY] = n.leaf ? [-8, 9, 0] : (n.kind === "max" ? [3, 15, 10] : [-15, -3, -10]);
    if (n.named && shown) {  // (words drawn larger stand further apart)
      const mid = (nameY + valY) / 2, half = ((valY - nameY) / 2) * zoom;
      el("text", { y: mid - half }, g).textContent = n.label;
      el("text", { y: mid + half, class: "val" }, g).textContent = shown;
    } else {
      el("text", { y: onlyY, class: shown ? "val" : "" }, g).textContent = shown || (n.named ? n.label : "");
    }
    if (page.marked.has(n.label) && n.leaf) {
      el("text", { x: w / 2 - 2, y: -h / 2 + 2, class: "mark-x" }, g).textContent = "✗";
    }
    let note = "";
    if (s.visited) {
      const visit = page.byId[n.id].visit;
      note = visit !== null ? "#" + visit : "";
      if (ab && !n.leaf && s.alpha !== null) note += ` α=${fmt(s.alpha)} β=${fmt(s.beta)}`;
    }
    if (note) {
      const t = n.leaf
        ? el("text", { x: pos.x, y: pos.y + h / 2 + 10, class: "note-text", "text-anchor": "middle" }, notes)
        : el("text", { x: pos.x + w / 2 + 5, y: pos.y + (n.kind === "max" ? h / 4 : -h / 4), class: "note-text" }, notes);
      t.textContent = note;
    }
    const title = el("title", {}, g);
    title.textContent = `${n.label} (${n.leaf ? _("leaf") : n.kind.toUpperCase()})`;
    if (n.leaf) g.addEventListener("click", () => clickLeaf(n));
  }
}

// When the tree is wider than its box (a phone), keep the node of the current step in sight.
function followNode(id) {
  const box = $("picture"), svg = $("tree-svg"), pos = page.data.layout.nodes[id];
  if (!pos || box.scrollWidth <= box.clientWidth + 1) return;
  const vb = svg.viewBox.baseVal;
  const x = (pos.x - vb.x) * (svg.getBoundingClientRect().width / vb.width);
  if (x < box.scrollLeft + 40 || x > box.scrollLeft + box.clientWidth - 40) {
    box.scrollLeft = Math.max(0, x - box.clientWidth / 2);
  }
}

function answerText(d) {
  return d.summary + (d.pruned.length ? _("; pruned: ") +
    d.pruned.map((p) => page.byId["r" + p.map((i) => "." + i).join("")].label).join(", ") : "");
}

function show() {
  const d = page.data;
  if (!d) return;
  if (locked()) page.step = 0;
  const k = page.step, n = d.steps.length;
  $("step-slider").value = String(k);
  $("step-slider").disabled = locked();
  $("step-count").textContent = `${k} / ${n}`;
  $("step-first").disabled = $("step-prev").disabled = k === 0 || locked();
  $("step-last").disabled = $("step-next").disabled = k === n || locked();
  const snap = snapshot(k);
  draw(snap);
  followNode(snap.current || "r");
  const cur = snap.current ? page.byId[snap.current] : null;
  $("current").textContent = cur ? `${cur.label} (${cur.leaf ? _("leaf") : cur.kind.toUpperCase()})` : "—";
  const ab = d.algorithm === "alphabeta";
  $("alpha").textContent = ab && cur ? fmt(snap.alpha) : "—";
  $("beta").textContent = ab && cur ? fmt(snap.beta) : "—";
  $("step-text").textContent = k === 0 ? _("Press forward to start the search.") : d.steps[k - 1].text;
  $("condition").textContent = snap.condition || (ab ? "—" : _("minimax never prunes"));
  $("condition").parentElement.classList.toggle("active", !!snap.condition);
  // the answer (with what is pruned) stays hidden until the last step, or until asked for
  const open = !locked() && (snap.done || page.reveal);
  $("answer").textContent = open ? answerText(d)
    : locked() ? _("Exercise mode: check your answers; once they are right, step through the search to see why.")
    : page.exercise ? _("Hidden until the last step: step through the search.")
    : _("Hidden until the last step: step through the search, or press “Show answer”.");
  $("answer").classList.toggle("hidden-answer", !open);
  $("show-answer").hidden = open || page.exercise;
  const log = $("log");
  log.innerHTML = "";
  d.steps.slice(0, k).forEach((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.text;
    if (i === k - 1) li.className = "now";
    log.appendChild(li);
  });
  log.scrollTop = log.scrollHeight;           // scroll the log itself, never the page
  // exercise mode: nothing that would give the answer away (the solved picture, the tree to load elsewhere,
  // a leaf edited into another tree) until the answers are right
  for (const i of $("leaves").querySelectorAll("input")) i.disabled = locked();
  $("tree-load").disabled = locked();
  if (locked()) $("tree-json").value = "";
  $("download").hidden = locked();
}

function go(k) {
  if (!page.data || locked()) return;
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

// One input per leaf.  When the leaves are the same as before, the inputs stay (with what the user is typing in
// them); only the values of the inputs not being edited are refreshed.
function buildLeaves() {
  const box = $("leaves");
  const leaves = page.data.nodes.filter((n) => n.leaf);
  const inputs = box.querySelectorAll("input");
  if (inputs.length === leaves.length && leaves.every((n, i) => inputs[i].id === "leaf-" + n.id)) {
    leaves.forEach((n, i) => {
      inputs[i].parentElement.firstChild.nodeValue = n.label;
      if (inputs[i] !== document.activeElement) inputs[i].value = n.given;
    });
    return;
  }
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

function resetView() {
  page.step = 0;
  page.reveal = false;
}

function leaveQuiz() {
  page.quiz = null;
  page.solved = false;
  page.marked.clear();
  $("quiz-questions").hidden = true;
}

function editLeaf(path, text) {
  const v = Number(text);
  if (text === "" || !Number.isFinite(v)) { showError(_("a leaf value must be a number")); return; }
  const [kids, i] = leafAt(page.tree, path);
  if (kids[i] !== null && typeof kids[i] === "object") kids[i].value = v; else kids[i] = v;
  setNote(() => _("You changed a leaf: the search below is re-run on your values."));
  leaveQuiz();
  fetchTrace();
}

function clickLeaf(n) {
  if (page.quiz && page.quiz.questions.some((q) => q.kind === "pruned")) {
    // in an exercise a click marks (or unmarks) the leaf as pruned, as the exercise's X
    if (page.marked.has(n.label)) page.marked.delete(n.label); else page.marked.add(n.label);
    $("quiz-pruned").value = [...page.marked].sort().join(" ");
    show();
    return;
  }
  const i = $("leaf-" + n.id);
  if (i) { i.focus(); i.select(); }
}

// -- exercises ---------------------------------------------------------------------------------------------
function quizSpec() {
  return { shape: $("quiz-shape").value, seed: page.quiz ? page.quiz.seed : null, algorithm: $("algo").value };
}

// The note under the controls, kept as a function so that it can be said again in another language.
function setNote(say) {
  page.note = say;
  $("note").textContent = say();
}

function quizOptionText(q) {
  return _("Exercise (seed {seed}, {shape})", { seed: q.seed, shape: q.shape });
}

async function newQuiz() {
  const seedText = $("quiz-seed").value.trim();
  const body = { shape: $("quiz-shape").value, seed: seedText === "" ? null : Number(seedText),
    algorithm: $("algo").value };
  const q = await post("quiz", body);
  if (!q) return;
  page.quiz = q;
  page.solved = false;
  page.marked.clear();
  $("quiz-seed").value = String(q.seed);
  const list = $("quiz-list");
  list.innerHTML = "";
  for (const question of q.questions) {
    const div = document.createElement("div");
    div.className = "q";
    const lab = document.createElement("label");
    const prompt = document.createElement("span");
    prompt.className = "prompt"; prompt.id = "prompt-" + question.kind;
    prompt.textContent = question.prompt;
    lab.appendChild(prompt);
    const inp = document.createElement("input");
    inp.id = "quiz-" + question.kind; inp.name = question.kind; inp.autocomplete = "off";
    if (question.kind === "pruned") {
      inp.placeholder = _("e.g. F G, or none");
      inp.addEventListener("input", () => {
        page.marked = new Set(inp.value.toUpperCase().split(/[^A-Z0-9]+/).filter(Boolean));
        show();
      });
    }
    lab.appendChild(inp);
    const verdict = document.createElement("div");
    verdict.className = "verdict"; verdict.id = "verdict-" + question.kind;
    div.append(lab, verdict);
    list.appendChild(div);
  }
  $("quiz-score").textContent = "";
  $("quiz-questions").hidden = false;
  let sel = $("preset").querySelector("option[value='__quiz__']");
  if (!sel) {
    sel = document.createElement("option");
    sel.value = "__quiz__";
    $("preset").appendChild(sel);
  }
  sel.textContent = quizOptionText(q);
  $("preset").value = "__quiz__";
  setNote(() => page.exercise
    ? _("Exercise, seed {seed}: answer the questions, then check. The search opens once your answers are right.",
      { seed: q.seed })
    : _("Exercise, seed {seed}: answer the questions, then check. Stepping shows the solution.", { seed: q.seed }));
  page.tree = q.tree;
  resetView();
  show();                                             // locked at once in exercise mode, before the new tree comes
  await fetchTrace();
}

async function checkQuiz(e) {
  e.preventDefault();
  if (!page.quiz) return;
  const answers = {};
  for (const question of page.quiz.questions) answers[question.kind] = $("quiz-" + question.kind).value;
  const res = await post("quiz/check", { ...quizSpec(), answers, reveal: !page.exercise });
  if (!res) return;
  let right = 0;
  for (const r of res.results) {
    const v = $("verdict-" + r.kind);
    v.textContent = r.expected === undefined ? (r.correct ? _("✓ right") : _("✗ not right yet"))
      : (r.correct ? _("✓ right: ") : _("✗ wrong: ")) + r.feedback;
    v.className = "verdict " + (r.correct ? "right" : "wrong");
    if (r.correct) right++;
  }
  if (res.all_correct) page.solved = true;
  $("quiz-score").textContent = _("{right} of {total} right", { right, total: res.results.length }) +
    (res.all_correct ? _(" — well done! Step through the search to see why.")
      : locked() ? _(". Try again: the search shows once every answer is right.")
        : _(". Step through the search to see why."));
  show();
}

function setMode() {
  const link = $("mode-link");
  if (document.body.dataset.locked) { link.hidden = true; return; }
  link.href = page.exercise ? "learn" : "learn?mode=exercise";
  link.textContent = page.exercise ? _("Leave exercise mode (show answers)") : _("Exercise mode: answers stay hidden");
  $("mode-note").hidden = !page.exercise;
}

// The course's trees, their titles and notes in the page's language; false when the server cannot be asked.
async function loadPresets() {
  let r;
  try {
    r = await fetch(api("presets?lang=" + i18n.lang));
  } catch (e) {
    showError(_("cannot reach the server: {reason}", { reason: e.message }));
    return false;
  }
  if (!r.ok) { showError(await errorText(r)); return false; }
  page.presets = await r.json();
  const sel = $("preset");
  for (const [name, p] of Object.entries(page.presets)) {
    let o = sel.querySelector(`option[value='${name}']`);
    if (!o) {
      o = document.createElement("option");
      o.value = name;
      sel.insertBefore(o, sel.querySelector("option[value^='__']"));
    }
    o.textContent = p.title;
  }
  return true;
}

// EL/EN: the page's words, the server's (steps, answer, presets, questions) and the notes, in the new language.
async function languageChanged() {
  setMode();
  await loadPresets();
  const own = $("preset").querySelector("option[value='__own__']");
  if (own) own.textContent = _("Your own tree");
  const sel = $("preset").querySelector("option[value='__quiz__']");
  if (sel && page.quiz) sel.textContent = quizOptionText(page.quiz);
  if (page.note) $("note").textContent = page.note();
  const pruned = $("quiz-pruned");
  if (pruned) pruned.placeholder = _("e.g. F G, or none");
  if (page.quiz) {
    const q = await post("quiz", quizSpec());
    if (q) for (const question of q.questions) {
      const span = $("prompt-" + question.kind);
      if (span) span.textContent = question.prompt;
    }
  }
  if (page.tree) await fetchTrace(); else show();
}

async function init() {
  i18n.endpoint = api("messages");
  await loadLanguage(firstLanguage());
  onLanguage(languageChanged);
  initLanguageSwitch();
  setMode();
  $("step-text").textContent = _("Press forward to start the search.");
  if (!await loadPresets()) return;
  const sel = $("preset");
  const loadPreset = () => {
    const p = page.presets[sel.value];
    if (!p) return;                                   // "Your own tree" / an exercise: keep what is loaded
    page.tree = JSON.parse(JSON.stringify(p.tree));
    const name = sel.value;
    setNote(() => page.presets[name].note);
    leaveQuiz();
    resetView();
    fetchTrace();
  };
  sel.addEventListener("change", loadPreset);
  $("algo").addEventListener("change", () => { resetView(); fetchTrace(); });
  $("order").addEventListener("change", () => { resetView(); fetchTrace(); });
  $("step-first").addEventListener("click", () => go(0));
  $("step-prev").addEventListener("click", () => go(page.step - 1));
  $("step-next").addEventListener("click", () => go(page.step + 1));
  $("step-last").addEventListener("click", () => go(Infinity));
  $("step-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  $("show-answer").addEventListener("click", () => { page.reveal = true; show(); });
  $("quiz-new").addEventListener("click", newQuiz);
  $("quiz-questions").addEventListener("submit", checkQuiz);
  $("tree-load").addEventListener("click", () => {
    try { page.tree = JSON.parse($("tree-json").value); } catch (e) {
      showError(_("not JSON: {reason}", { reason: e.message }));
      return;
    }
    setNote(() => _("Your own tree."));
    let own = sel.querySelector("option[value='__own__']");
    if (!own) {
      own = document.createElement("option");
      own.value = "__own__"; own.textContent = _("Your own tree");
      sel.appendChild(own);
    }
    sel.value = "__own__";
    leaveQuiz();
    resetView();
    fetchTrace();
  });
  window.addEventListener("resize", () => { if (page.data) show(); });
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
