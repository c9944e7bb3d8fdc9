// Search as you type (debounced), the query kept in the URL, and keyboard navigation.
"use strict";
(function () {
  const form = document.getElementById("search-form");
  const box = document.getElementById("q");
  const results = document.getElementById("results");

  function links() {
    return Array.from(document.querySelectorAll("#results a.result-link, main ol.results a.result-link"));
  }

  document.addEventListener("keydown", (event) => {
    const active = document.activeElement;
    const typing = active && (active.tagName === "INPUT" || active.tagName === "SELECT" || active.tagName === "TEXTAREA");
    if (event.key === "/" && !typing && box) {
      event.preventDefault();
      box.focus();
      box.select();
      return;
    }
    if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
    const all = links();
    if (!all.length || (typing && active !== box)) return;
    const at = all.indexOf(active);
    let next = event.key === "ArrowDown" ? at + 1 : at - 1;
    if (active === box) next = event.key === "ArrowDown" ? 0 : -1;
    event.preventDefault();
    if (next < 0) { if (box) box.focus(); return; }
    all[Math.min(next, all.length - 1)].focus();
  });

  if (!form || !box || !results) return;
  let timer = null;
  let latest = 0;

  async function update() {
    const params = new URLSearchParams(new FormData(form));
    if (!params.get("q")) params.delete("q");
    const shown = "/?" + params.toString();
    params.set("fragment", "1");
    const ticket = ++latest;
    const response = await fetch("/?" + params.toString(), { headers: { "Accept": "text/html" } });
    if (ticket !== latest || !response.ok) return;  // a newer search has started, or this one failed
    results.innerHTML = await response.text();  // server-rendered, escaped HTML of our own
    history.replaceState(null, "", shown);
  }

  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(update, 250);
  });
  const mode = document.getElementById("mode");
  if (mode) mode.addEventListener("change", update);
})();
