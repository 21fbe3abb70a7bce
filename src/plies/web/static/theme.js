// Light or dark colours: the system's (prefers-color-scheme), or the one chosen with the ☀ ◐ ☾ switch on the top
// bar, remembered on this browser (localStorage "plies.theme", shared by the games and the Learn page).  A plain
// script loaded in <head>, so that the page never shows in the other colours first.  It sets data-theme on <html>
// to the colours shown ("light" or "dark", following the system while the choice is "system"): the style sheets
// hold the dark colours once, under [data-theme="dark"].
(function () {
  const KEY = "plies.theme";
  const root = document.documentElement;
  const system = window.matchMedia("(prefers-color-scheme: dark)");
  function chosen() {
    try {
      const t = localStorage.getItem(KEY);
      return t === "light" || t === "dark" ? t : "system";
    } catch (e) { return "system"; }
  }
  function apply(theme) {
    root.dataset.theme = theme === "system" ? (system.matches ? "dark" : "light") : theme;
    for (const b of document.querySelectorAll(".theme-switch button")) {
      b.setAttribute("aria-pressed", String(b.dataset.setTheme === theme));
    }
  }
  apply(chosen());
  system.addEventListener("change", () => apply(chosen()));  // the system switched: follow it unless told not to
  document.addEventListener("DOMContentLoaded", () => {
    for (const b of document.querySelectorAll(".theme-switch button")) {
      b.addEventListener("click", () => {
        try {
          if (b.dataset.setTheme === "system") localStorage.removeItem(KEY); else localStorage.setItem(KEY, b.dataset.setTheme);
        } catch (e) { /* storage off: the choice lasts for this page */ }
        apply(b.dataset.setTheme);
      });
    }
    apply(chosen());
  });
})();
