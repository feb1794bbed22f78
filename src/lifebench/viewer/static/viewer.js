// lifebench view: live updates of the simulation list and of a pending unit.
// Everything that comes from the server is written with textContent (never as HTML).
"use strict";

(function () {
  const body = document.body;
  const pollMs = Number(body.dataset.pollMs || "2000");
  const page = body.dataset.page;

  function cell(text, className) {
    const td = document.createElement("td");
    if (className) td.className = className;
    td.textContent = text === null || text === undefined ? "" : String(text);
    return td;
  }

  function simLink(row) {
    const params = new URLSearchParams({ run: String(row.run), task: row.task_id, trial: String(row.trial) });
    const a = document.createElement("a");
    a.href = "/sim?" + params.toString();
    a.textContent = row.task_id;
    return a;
  }

  function renderRows(rows) {
    const tbody = document.querySelector("#sims tbody");
    if (!tbody) return;
    const fresh = document.createElement("tbody");
    for (const row of rows) {
      const tr = document.createElement("tr");
      tr.className = "o-" + row.outcome;
      tr.appendChild(cell(row.run_label));
      tr.appendChild(cell(row.domain));
      const task = cell("");
      task.appendChild(simLink(row));
      tr.appendChild(task);
      tr.appendChild(cell(row.trial, "num"));
      const outcome = cell("");
      const badge = document.createElement("span");
      badge.className = "badge o-" + row.outcome;
      badge.textContent = row.outcome;
      outcome.appendChild(badge);
      tr.appendChild(outcome);
      tr.appendChild(cell(row.reward === null ? "" : Number(row.reward.toPrecision(3)), "num"));
      tr.appendChild(cell(row.termination));
      tr.appendChild(cell(row.turns, "num"));
      const calls = row.tool_calls === null ? "" : String(row.tool_calls) + (row.tool_errors ? " (" + row.tool_errors + ")" : "");
      tr.appendChild(cell(calls, "num"));
      tr.appendChild(cell(row.failed || "", "num"));
      tr.appendChild(cell(row.error, "msg"));
      fresh.appendChild(tr);
    }
    if (!rows.length) {
      const tr = document.createElement("tr");
      const td = cell("no simulation matches", "muted");
      td.colSpan = 11;
      tr.appendChild(td);
      fresh.appendChild(tr);
    }
    tbody.replaceWith(fresh);
  }

  function renderRuns(runs) {
    for (const run of runs) {
      const tr = document.querySelector('#runs tr[data-run="' + String(Number(run.index)) + '"]');
      if (!tr || !run.progress) continue;
      for (const [name, value] of Object.entries(run.progress)) {
        const el = tr.querySelector('[data-field="' + name + '"]');
        if (el) el.textContent = String(value);
      }
      const bar = tr.querySelector("progress");
      if (bar) {
        bar.max = run.progress.total;
        bar.value = run.progress.finished;
      }
      const last = tr.querySelector('[data-field="last_update"]');
      if (last) last.textContent = run.last_update;
    }
  }

  let signature = null;

  async function pollIndex() {
    try {
      const response = await fetch("/api/status" + window.location.search, { cache: "no-store" });
      if (!response.ok) return;
      const data = await response.json();
      renderRuns(data.runs);
      const next = JSON.stringify(data.rows);
      if (signature !== null && next !== signature) {
        renderRows(data.rows);
        const note = document.getElementById("live-note");
        if (note) {
          note.hidden = false;
          note.textContent = "updated live at " + new Date().toLocaleTimeString();
        }
      }
      signature = next;
      const shown = document.getElementById("shown");
      const matched = document.getElementById("matched");
      if (shown) shown.textContent = String(data.rows.length);
      if (matched) matched.textContent = String(data.total);
    } catch (err) {
      // the server went away (e.g. stopped with Ctrl-C); keep the page as it is
    }
  }

  async function pollPending() {
    const params = new URLSearchParams(window.location.search);
    const task = params.get("task") || "";
    const trial = params.get("trial");
    const query = new URLSearchParams({ run: params.get("run") || "0", task: task });
    try {
      const response = await fetch("/api/status?" + query.toString(), { cache: "no-store" });
      if (!response.ok) return;
      const data = await response.json();
      const row = data.rows.find((r) => r.task_id === task && (trial === null || String(r.trial) === trial));
      if (row && row.outcome !== "pending") window.location.reload();
    } catch (err) {
      // keep polling
    }
  }

  function autoSubmit() {
    const form = document.getElementById("filters");
    if (!form) return;
    for (const select of form.querySelectorAll("select")) {
      select.addEventListener("change", () => form.requestSubmit());
    }
  }

  // ---- the trajectory page: raw bodies loaded on demand, search, expand / collapse -------

  async function loadRaw(details) {
    if (details.dataset.loaded) return;
    details.dataset.loaded = "1";
    const pre = details.querySelector("pre.raw-body");
    try {
      const response = await fetch(details.dataset.src, { cache: "no-store" });
      const text = await response.text();
      pre.textContent = response.ok ? text : "could not load: " + text;
      if (!response.ok) pre.classList.add("error-text");
    } catch (err) {
      pre.textContent = "could not load the body (is the viewer still running?)";
      pre.classList.add("error-text");
      delete details.dataset.loaded;
    }
    details.dispatchEvent(new CustomEvent("raw-loaded", { bubbles: true }));
  }

  function wireRawBodies() {
    for (const details of document.querySelectorAll("details.raw[data-src]")) {
      details.addEventListener("toggle", () => {
        if (details.open) loadRaw(details);
      });
    }
  }

  function openAncestors(node) {
    for (let el = node.parentElement; el; el = el.parentElement) {
      if (el.tagName === "DETAILS" && !el.open) el.open = true;
    }
  }

  function openTarget() {
    const id = decodeURIComponent(window.location.hash.slice(1));
    const target = id ? document.getElementById(id) : null;
    if (!target) return;
    if (target.tagName === "DETAILS") target.open = true;
    openAncestors(target);
    target.scrollIntoView({ block: "start" });
  }

  function clearMarks(root) {
    for (const mark of root.querySelectorAll("mark.hit")) {
      const parent = mark.parentNode;
      parent.replaceChild(document.createTextNode(mark.textContent), mark);
      parent.normalize();
    }
  }

  function markMatches(root, query) {
    const needle = query.toLowerCase();
    const nodes = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) nodes.push(walker.currentNode);
    const marks = [];
    for (const node of nodes) {
      let text = node.nodeValue;
      let at = text.toLowerCase().indexOf(needle);
      let current = node;
      while (at >= 0) {
        const match = current.splitText(at);
        const rest = match.splitText(needle.length);
        const mark = document.createElement("mark");
        mark.className = "hit";
        mark.textContent = match.nodeValue;
        match.parentNode.replaceChild(mark, match);
        marks.push(mark);
        current = rest;
        text = current.nodeValue;
        at = text.toLowerCase().indexOf(needle);
      }
    }
    return marks;
  }

  function wireSearch() {
    const input = document.getElementById("search");
    if (!input) return;
    const count = document.getElementById("search-count");
    const roots = Array.from(document.querySelectorAll(".searchable"));
    let marks = [];
    let position = -1;
    let timer = null;

    function show(index) {
      if (!marks.length) return;
      if (position >= 0 && marks[position]) marks[position].classList.remove("current");
      position = (index + marks.length) % marks.length;
      const mark = marks[position];
      mark.classList.add("current");
      openAncestors(mark);
      mark.scrollIntoView({ block: "center" });
      count.textContent = String(position + 1) + " of " + String(marks.length);
    }

    function run() {
      for (const root of roots) clearMarks(root);
      marks = [];
      position = -1;
      const query = input.value.trim();
      if (!query) {
        count.textContent = "";
        return;
      }
      for (const root of roots) marks = marks.concat(markMatches(root, query));
      if (!marks.length) {
        count.textContent = "no match";
        return;
      }
      show(0);
    }

    input.addEventListener("input", () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(run, 150);
    });
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        window.clearTimeout(timer);
        if (!marks.length) run();
        else show(position + (event.shiftKey ? -1 : 1));
      }
    });
    document.getElementById("search-next").addEventListener("click", () => show(position + 1));
    document.getElementById("search-prev").addEventListener("click", () => show(position - 1));
    // a raw body loaded later is searched too
    document.addEventListener("raw-loaded", () => {
      if (input.value.trim()) run();
    });
  }

  function wireExpand() {
    const all = () => document.querySelectorAll("main details");
    const expand = document.getElementById("expand-all");
    const collapse = document.getElementById("collapse-all");
    if (expand) {
      expand.addEventListener("click", (event) => {
        event.preventDefault();
        for (const d of all()) if (!d.classList.contains("raw")) d.open = true;
      });
    }
    if (collapse) {
      collapse.addEventListener("click", (event) => {
        event.preventDefault();
        for (const d of all()) d.open = false;
      });
    }
  }

  if (page === "index") {
    autoSubmit();
    window.setInterval(pollIndex, pollMs);
    pollIndex();
  } else if (page === "simulation") {
    wireRawBodies();
    wireSearch();
    wireExpand();
    openTarget();
    window.addEventListener("hashchange", openTarget);
    const outcome = document.getElementById("outcome");
    if (outcome && outcome.textContent.trim() === "pending") window.setInterval(pollPending, pollMs);
  }
})();
