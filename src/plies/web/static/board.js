// Drawing boards as SVG from the layout the server sends: square grids (discs or X/O marks) and hexagons, with
// legal moves, the last move, flips, hints, values and the review's rings.
import { marksGame } from "./api.js";
import { $, el } from "./dom.js";
import { fmtVal, moveValue } from "./values.js";

// ---------------------------------------------------------------- drawing boards
export function drawBoard(container, g, opts) {
  container.textContent = "";
  const layout = g.layout;
  if (layout.kind === "hex") return drawHex(container, g, opts);
  const rows = layout.rows, cols = layout.cols, C = 60, M = 26;
  const marked = marksGame(layout);
  const pieces = layout.pieces || ["black", "white"];
  const svg = el("svg", { viewBox: `0 0 ${cols * C + M * 2} ${rows * C + M * 2}`,
    class: `board-${layout.surface || "felt"}${marked ? " ttt" : " othello"}` }, container);
  // the coordinates stay at least 12 px high on the screen: their font grows as the board is drawn smaller
  const shown = container.clientWidth;
  if (shown) svg.style.setProperty("--coord-size", `${Math.min(M * 0.8, Math.max(14, (12 * (cols * C + M * 2)) / shown)).toFixed(1)}px`);
  for (let c = 0; c < cols; c++) {
    el("text", { x: M + c * C + C / 2, y: M / 2, class: "coord", text: layout.files[c] }, svg);
    el("text", { x: M + c * C + C / 2, y: M + rows * C + M / 2, class: "coord", text: layout.files[c] }, svg);
  }
  for (let r = 0; r < rows; r++) {
    el("text", { x: M / 2, y: M + r * C + C / 2, class: "coord", text: layout.ranks[r] }, svg);
    el("text", { x: M + cols * C + M / 2, y: M + r * C + C / 2, class: "coord", text: layout.ranks[r] }, svg);
  }
  const legal = new Map((opts.legal || []).map((m) => [m.index, m.move]));
  const center = (i) => [M + (i % cols) * C + C / 2, M + Math.floor(i / cols) * C + C / 2];
  for (let i = 0; i < rows * cols; i++) {
    const [cx, cy] = center(i);
    const rect = el("rect", { x: cx - C / 2, y: cy - C / 2, width: C, height: C, class: "cell", "data-index": i,
      "data-square": layout.files[i % cols] + layout.ranks[Math.floor(i / cols)] }, svg);
    if (legal.has(i) || opts.clickAll) {
      rect.classList.add("legal");
      rect.addEventListener("click", () => opts.onClick && opts.onClick(i));
    } else if (opts.onMiss) rect.addEventListener("click", () => opts.onMiss(rect.dataset.square));
    if (marked && opts.lastMove === i) rect.classList.add("last-cell");
    if (layout.surface === "rack") el("circle", { cx, cy, r: C * 0.41, class: "slot" }, svg);
  }
  for (const [r, c] of layout.stars || []) el("circle", { cx: M + c * C, cy: M + r * C, r: 3.5, class: "star" }, svg);
  g.cells.forEach((v, i) => {
    if (!v) return;
    const [cx, cy] = center(i);
    if (marked) {
      if (v === "X") {
        const d = C * 0.28;
        el("line", { x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d, class: "mark-x" }, svg);
        el("line", { x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d, class: "mark-x" }, svg);
      } else el("circle", { cx, cy, r: C * 0.3, class: "mark-o" }, svg);
      return;
    }
    disc(svg, cx, cy, C * 0.41, v, i, { ...opts, pieces });
  });
  winLine(svg, g.highlight || [], center);
  marks(svg, g, opts, center, !marked, 6, 5, C);
}

// the winning line the server marks (its first and last cells)
export function winLine(svg, cells, center) {
  if (cells.length < 2) return;
  const [x1, y1] = center(cells[0]), [x2, y2] = center(cells[cells.length - 1]);
  el("line", { x1, y1, x2, y2, class: "win-line" }, svg);
}

export function marks(svg, g, opts, center, dots, dotR, lastR, C) {
  const shown = new Set();
  const at = (m) => (m.cell !== undefined && m.cell !== null ? m.cell : m.index);
  if (opts.values) for (const mv of opts.values.a.moves) if (at(mv) >= 0) shown.add(at(mv));
  for (const m of opts.dots || opts.legal || []) {
    if (shown.has(m.index)) continue;
    const [cx, cy] = center(m.index);
    if (dots) el("circle", { cx, cy, r: dotR, class: "legal-mark" }, svg);
  }
  if (opts.lastMove !== null && opts.lastMove !== undefined && opts.lastMove >= 0 && dots) {
    const [cx, cy] = center(opts.lastMove);
    el("circle", { cx, cy, r: lastR, class: "last-mark" }, svg);
  }
  if (opts.review) {
    const byName = new Map([...(opts.dots || opts.legal || []).map((m) => [m.move, m.index]),
      ...(opts.values ? opts.values.a.moves : []).map((m) => [m.move, at(m)])]);
    for (const [name, cls] of [[opts.review.best, "best-ring"], [opts.review.move, "played-ring"]]) {
      const idx = indexOfMove(g, name, byName);
      if (idx === null || (cls === "played-ring" && opts.review.move === opts.review.best)) continue;
      const [cx, cy] = center(idx);
      el("circle", { cx, cy, r: C * 0.44, class: cls }, svg);
    }
  }
  if (opts.values) {
    const a = opts.values.a;
    const best = a.moves.length ? a.moves[0].value : null;
    for (const mv of a.moves) {
      if (at(mv) < 0) continue;
      const [cx, cy] = center(at(mv));
      const v = moveValue(mv.value, opts.values.mover);
      el("text", { x: cx, y: cy + 1, class: "value-text" + (mv.value === best ? " best" : ""), "data-index": at(mv),
        text: fmtVal(v, a.unit, { bare: true }), "font-size": Math.round(C * (a.unit === "discs" || a.unit === "result" ? 0.3 : 0.24)) }, svg);
    }
  }
  if (opts.hints) {
    opts.hints.forEach((h, k) => {
      if (h.index === undefined || at(h) < 0) return;
      const [cx, cy] = center(at(h));
      const dx = opts.values ? C * 0.3 : 0, dy = opts.values ? -C * 0.3 : 0;
      el("circle", { cx: cx + dx, cy: cy + dy, r: C * 0.2, class: "hint-mark" }, svg);
      el("text", { x: cx + dx, y: cy + dy + 1, class: "hint-text", text: String(k + 1), "font-size": Math.round(C * 0.22) }, svg);
    });
  }
}

export function indexOfMove(g, name, byName) {
  if (byName.has(name)) return byName.get(name);
  const layout = g.layout;
  if (layout.kind === "hex") {
    const m = name.match(/^(\d+) (\d+)$/);
    return m ? +m[1] * layout.cols + +m[2] : null;
  }
  const c = layout.files.indexOf(name[0]), r = layout.ranks.indexOf(name.slice(1));
  return c < 0 || r < 0 ? null : r * layout.cols + c;
}

export function disc(svg, cx, cy, r, v, i, opts) {
  if (v === "#") { el("circle", { cx, cy, r: r * 0.9, class: "hole", "data-index": i }, svg); return null; }
  const pieces = opts.pieces || ["black", "white"];
  const colour = v === "X" ? pieces[0] : pieces[1];
  const d = el("circle", { cx, cy, r, class: `disc ${colour}`, "data-index": i }, svg);
  if (opts.flips && opts.flips.includes(i)) {
    d.style.setProperty("--from", v === "X" ? "var(--white)" : "var(--black)");
    d.style.setProperty("--to", v === "X" ? "var(--black)" : "var(--white)");
    d.classList.add("flipping");
  } else if (opts.placed === i) d.classList.add("placed");
  return d;
}

export function drawHex(container, g, opts) {
  const layout = g.layout, size = layout.cols, R = 17, s3 = Math.sqrt(3);
  const mid = (size - 1) / 2;
  const at = (row, col) => {  // also for the cells just outside the board, where the coordinates go
    const q = col - mid, r = row - mid;
    return [s3 * R * (q + r / 2), 1.5 * R * r];
  };
  const pos = (i) => at(Math.floor(i / size), i % size);
  const ext = s3 * R * (mid + 1) + 20;
  const svg = el("svg", { viewBox: `${-ext} ${-ext} ${2 * ext} ${2 * ext}`, class: "hex" }, container);
  const legal = new Map((opts.legal || []).map((m) => [m.index, m.move]));
  const corners = [...Array(6).keys()].map((k) => {
    const a = Math.PI / 180 * (60 * k - 30);
    return [R * Math.cos(a), R * Math.sin(a)];
  });
  const on = new Set(layout.cells_on_board);
  for (const i of layout.cells_on_board) {
    const [x, y] = pos(i);
    const poly = el("polygon", { points: corners.map(([dx, dy]) => `${x + dx},${y + dy}`).join(" "), class: "cell",
      "data-index": i, "data-square": `${Math.floor(i / size)} ${i % size}` }, svg);
    el("title", { text: `${Math.floor(i / size)} ${i % size}` }, poly);
    if (legal.has(i) || (opts.clickAll && g.cells[i] !== "#")) {
      poly.classList.add("legal");
      poly.addEventListener("click", () => opts.onClick && opts.onClick(i));
    } else if (opts.onMiss) poly.addEventListener("click", () => opts.onMiss(poly.dataset.square));
  }
  // coordinates on the edge, where the next cell of the line would be: each column's number beyond its top
  // cell (top and upper-left edges), each row's number after its last cell (right edges)
  for (let col = 0; col < size; col++) {
    const top = [...Array(size).keys()].find((r) => on.has(r * size + col));
    if (top === undefined) continue;
    const [x, y] = at(top - 1, col);
    el("text", { x, y, class: "coord hex-coord col", text: String(col) }, svg);
  }
  for (let row = 0; row < size; row++) {
    const cols = [...Array(size).keys()].filter((c) => on.has(row * size + c));
    if (!cols.length) continue;
    const [x, y] = at(row, cols[cols.length - 1] + 1);
    el("text", { x, y, class: "coord hex-coord row", text: String(row) }, svg);
  }
  g.cells.forEach((v, i) => { if (v) { const [x, y] = pos(i); disc(svg, x, y, R * 0.72, v, i, opts); } });
  marks(svg, g, opts, pos, true, 3.5, 3.5, R * 2);
}
