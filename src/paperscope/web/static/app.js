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

  // The browse page's sort applies when chosen (its button stays for a browser without scripts).
  document.querySelectorAll("form.order select").forEach((select) => {
    select.addEventListener("change", () => select.form.submit());
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
  for (const id of ["mode", "order"]) {  // a new mode or sort applies at once, as typing does
    const control = document.getElementById(id);
    if (control) control.addEventListener("change", update);
  }
})();

// The map: wheel zooms, drag pans, a search marks the papers it finds.
(function () {
  const svg = document.getElementById("map");
  if (!svg) return;
  const full = svg.viewBox.baseVal;
  const home = [full.x, full.y, full.width, full.height];
  let view = home.slice();
  const apply = () => svg.setAttribute("viewBox", view.join(" "));

  svg.addEventListener("wheel", (event) => {
    event.preventDefault();
    const box = svg.getBoundingClientRect();
    const fx = (event.clientX - box.left) / box.width, fy = (event.clientY - box.top) / box.height;
    const scale = event.deltaY < 0 ? 0.8 : 1.25;
    const width = Math.min(home[2], view[2] * scale), height = Math.min(home[3], view[3] * scale);
    view = [view[0] + (view[2] - width) * fx, view[1] + (view[3] - height) * fy, width, height];
    apply();
  }, { passive: false });

  let drag = null, moved = false;
  svg.addEventListener("pointerdown", (event) => { drag = [event.clientX, event.clientY, view[0], view[1]]; moved = false; });
  window.addEventListener("pointerup", () => { drag = null; });
  svg.addEventListener("pointermove", (event) => {
    if (!drag) return;
    const box = svg.getBoundingClientRect();
    const dx = (event.clientX - drag[0]) * view[2] / box.width, dy = (event.clientY - drag[1]) * view[3] / box.height;
    if (Math.abs(dx) + Math.abs(dy) > 2) moved = true;
    view[0] = drag[2] - dx; view[1] = drag[3] - dy;
    apply();
  });
  svg.addEventListener("click", (event) => { if (moved) event.preventDefault(); }, true);

  const box = document.getElementById("map-q");
  const reset = document.getElementById("map-reset");
  let timer = null;
  async function mark() {
    const q = box.value.trim();
    svg.classList.toggle("searching", q !== "");
    svg.querySelectorAll("circle.hit").forEach((dot) => dot.classList.remove("hit"));
    if (!q) return;
    const response = await fetch("/api/search?limit=50&q=" + encodeURIComponent(q));
    if (!response.ok) return;
    const found = await response.json();
    for (const result of found.results) {
      const dot = svg.querySelector('circle[data-id="' + result.id + '"]');
      if (dot) dot.classList.add("hit");
    }
  }
  box.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(mark, 300); });
  document.getElementById("map-form").addEventListener("submit", (event) => { event.preventDefault(); mark(); });
  reset.addEventListener("click", () => { view = home.slice(); apply(); box.value = ""; mark(); });
})();

// The reader's own library: reading state, tags and note on a paper page; "+ To read" on results.
(function () {
  async function send(method, path, body) {
    const response = await fetch(path, {
      method, headers: { "Content-Type": "application/json", "X-Paperscope": "1" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error((await response.json()).error || response.statusText);
    return response.json();
  }

  document.addEventListener("click", async (event) => {
    const dismiss = event.target.closest("[data-not-relevant]");
    if (dismiss) {  // on the recommendations page: marked, and gone from the list
      await send("PUT", "/api/papers/" + dismiss.dataset.notRelevant + "/not-relevant");
      dismiss.closest("li").remove();
      return;
    }
    const queue = event.target.closest("[data-queue]");
    if (!queue) return;
    await send("PUT", "/api/papers/" + queue.dataset.queue + "/state", { state: "to read" });
    queue.disabled = true;
    queue.textContent = "✓";
  });

  const mine = document.getElementById("mine");
  if (!mine) return;
  const base = "/api/papers/" + mine.dataset.paper;
  const reload = () => location.reload();
  mine.querySelectorAll("[data-state]").forEach((button) => button.addEventListener("click", async () => {
    await send("PUT", base + "/state", { state: button.dataset.state || null });
    mine.querySelectorAll("[data-state]").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
  }));
  const notRelevant = document.getElementById("not-relevant");
  notRelevant.addEventListener("click", async () => {  // never suggested while pressed
    const marked = notRelevant.getAttribute("aria-pressed") === "true";
    await send(marked ? "DELETE" : "PUT", base + "/not-relevant");
    notRelevant.setAttribute("aria-pressed", String(!marked));
  });
  mine.querySelectorAll("[data-untag]").forEach((button) => button.addEventListener("click", async () => {
    await send("DELETE", base + "/tags/" + encodeURIComponent(button.dataset.untag));
    reload();
  }));
  document.getElementById("tag-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = document.getElementById("new-tag");
    if (input.value.trim()) { await send("POST", base + "/tags", { tag: input.value }); reload(); }
  });
  document.getElementById("note-save").addEventListener("click", async () => {
    const saved = await send("PUT", base + "/note", { text: document.getElementById("note-text").value });
    document.getElementById("note-html").innerHTML = saved.note_html || "";  // sanitised by the server (nh3)
  });
})();
