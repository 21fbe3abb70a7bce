// The page in English or Greek.  _("English text {name}", {name: ...}) is the text in the page's language: the
// translation from the server's gettext catalog (/api/messages, the one catalog the terminal game and the Learn
// page read), or the English itself.  The HTML marks its words with data-i18n (an element's text) and
// data-i18n-ATTR (an attribute).  The language: the one chosen before on this browser (localStorage "plies.lang",
// shared with the Learn page), else the browser's own, else English; the EL/EN switch on the top bar changes it.
// The Learn page loads this same module (its router serves it) and reads the catalog at its own address.
export const LANG_KEY = "plies.lang";
export const LANGS = ["el", "en"];
export const i18n = { lang: "en", messages: {}, original: new WeakMap(), listeners: [], endpoint: "/api/messages" };

export function _(msg, args) {
  const text = i18n.messages[msg] || msg;
  return args ? text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : text;
}

// A word the server sends in English (a side's name, a game's, "Person 2" of two people on one screen), in the
// page's language where the catalog has it.
export function word(text) {
  if (text == null) return text;
  const person = /^Person (\d+)$/.exec(text);
  return person ? _("Person {n}", { n: person[1] }) : _(String(text));
}

export function firstLanguage() {
  let saved = null;
  try { saved = localStorage.getItem(LANG_KEY); } catch (e) { /* storage off: follow the browser */ }
  if (LANGS.includes(saved)) return saved;
  const tags = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || ""];
  for (const tag of tags) {
    const code = String(tag).toLowerCase().split(/[-_]/)[0];
    if (LANGS.includes(code)) return code;
  }
  return "en";
}

export function translatePage() {
  for (const e of document.querySelectorAll("[data-i18n]")) {
    if (!i18n.original.has(e)) i18n.original.set(e, e.textContent.trim().replace(/\s+/g, " "));
    e.textContent = _(i18n.original.get(e));
  }
  for (const e of document.querySelectorAll("*")) {
    for (const a of e.attributes) {
      if (a.name.startsWith("data-i18n-")) e.setAttribute(a.name.slice(10), _(a.value));
    }
  }
  document.documentElement.lang = i18n.lang;
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.setAttribute("aria-pressed", String(b.dataset.lang === i18n.lang));
  }
}

export async function loadLanguage(lang) {
  let messages = {};
  try {
    const r = await fetch(i18n.endpoint + "?lang=" + encodeURIComponent(lang));
    if (r.ok) messages = (await r.json()).messages;
    else lang = "en";
  } catch (e) {
    lang = "en";                                      // the page's own English words
  }
  i18n.lang = lang;
  i18n.messages = messages;
  translatePage();
}

// Something to say again in the new language once it is switched (the screen shown, a live game's socket).
export function onLanguage(fn) { i18n.listeners.push(fn); }

export async function switchLanguage(lang) {
  try { localStorage.setItem(LANG_KEY, lang); } catch (e) { /* not kept: this page only */ }
  await loadLanguage(lang);
  for (const fn of i18n.listeners) fn(lang);
}

export function initLanguageSwitch() {
  for (const b of document.querySelectorAll(".lang-switch button")) {
    b.addEventListener("click", () => { if (b.dataset.lang !== i18n.lang) switchLanguage(b.dataset.lang); });
  }
}
