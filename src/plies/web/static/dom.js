// The page's DOM helpers: a query, and elements (SVG or HTML) made with their attributes.
export const $ = (sel) => document.querySelector(sel);
export const SVGNS = "http://www.w3.org/2000/svg";

export function el(tag, attrs = {}, parent = null, ns = SVGNS) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v; else node.setAttribute(k, v);
  }
  if (parent) parent.appendChild(node);
  return node;
}
export function html(tag, attrs = {}, parent = null) { return el(tag, attrs, parent, null); }
