// evotune dashboard: live updates, a readout under the pointer on the
// main chart, copy buttons and local times. No library, nothing fetched
// from elsewhere.
"use strict";

(function () {
  const body = document.body;
  const live = document.getElementById("live");

  // Live pages reload their content when the server's event stream says
  // the run's files changed (a checkpoint landed, run.log grew, the lock
  // was taken or released); the page itself is never reloaded.
  if (body.dataset.live) {
    let current = body.dataset.version;
    let busy = false, again = false;
    const refresh = async () => {
      if (busy) { again = true; return; }
      busy = true;
      try {
        const res = await fetch(body.dataset.fragment, { cache: "no-store", credentials: "same-origin" });
        if (res.ok) {
          const html = await res.text();
          current = res.headers.get("X-Version") || current;
          const content = document.getElementById("content");
          const y = window.scrollY;
          content.innerHTML = html;
          window.scrollTo(0, y);
          body.dataset.version = current;
          body.dataset.refreshed = String(Number(body.dataset.refreshed || 0) + 1);
          decorate();
          if (live) { live.classList.add("flash"); setTimeout(() => live.classList.remove("flash"), 400); }
        }
      } catch (e) {
        if (live) live.classList.add("off");
      } finally {
        busy = false;
        if (again) { again = false; refresh(); }
      }
    };
    const q = body.dataset.live === "list" ? "" : "?" + body.dataset.live;
    const es = new EventSource((body.dataset.base || "/") + "events" + q);
    es.onmessage = (ev) => {
      if (live) { live.classList.remove("off"); live.textContent = "live"; }
      if (ev.data !== current) refresh();
    };
    es.onerror = () => { if (live) { live.classList.add("off"); live.textContent = "reconnecting"; } };
  }

  function decorate() {
    // Times in the reader's own zone: the time, its date small under it.
    document.querySelectorAll("time[datetime]").forEach((t) => {
      const d = new Date(t.getAttribute("datetime"));
      if (isNaN(d)) return;
      t.textContent = d.toLocaleTimeString();
      const day = document.createElement("span");
      day.className = "small";
      day.textContent = d.toLocaleDateString();
      t.append(" ", day);
    });
    document.querySelectorAll("button.copy").forEach((b) => {
      b.onclick = async () => {
        try { await navigator.clipboard.writeText(b.dataset.copy); b.textContent = "copied"; }
        catch (e) { b.textContent = "select it"; }
        setTimeout(() => { b.textContent = "copy"; }, 1500);
      };
    });
    readout();
  }

  // The readout: the generation under the pointer and its figures.
  function readout() {
    const data = document.getElementById("series");
    const svg = document.querySelector("svg[id$='-fitness']");
    if (!data || !svg) return;
    let rows;
    try { rows = JSON.parse(data.textContent); } catch (e) { return; }
    const axis = svg.querySelector("line[data-axis='x']");
    let box = document.getElementById("readout");
    if (!box) { box = document.createElement("div"); box.id = "readout"; document.body.appendChild(box); }
    svg.onmousemove = (ev) => {
      if (!axis || rows.length === 0) return;
      const pt = svg.createSVGPoint();
      pt.x = ev.clientX; pt.y = ev.clientY;
      const p = pt.matrixTransform(svg.getScreenCTM().inverse());
      const x1 = Number(axis.getAttribute("x1")), x2 = Number(axis.getAttribute("x2"));
      if (p.x < x1 - 4 || p.x > x2 + 4) { box.style.display = "none"; return; }
      const i = rows.length === 1 ? 0 : Math.round((p.x - x1) / (x2 - x1) * (rows.length - 1));
      const r = rows[Math.max(0, Math.min(rows.length - 1, i))];
      box.textContent = "generation " + r.g + ": best " + r.B + ", mean " + r.M + " ± " + r.SD;
      box.style.display = "block";
      box.style.left = (ev.clientX + 14) + "px";
      box.style.top = (ev.clientY + 14) + "px";
    };
    svg.onmouseleave = () => { box.style.display = "none"; };
  }

  decorate();
})();
