// The fleet page: polls the admin JSON API about once a second and keeps
// the tables up to date in place. No framework, no build step.
"use strict";
const $ = id => document.getElementById(id);
const drains = new Map(); // member id -> time its drain was requested here
let known = new Set(); // the member ids of the last update
let lookup = null; // {cls, name} being watched

function fmtDur(s) {
  if (s == null || !isFinite(s)) return "–";
  if (s < 1) return Math.round(s * 1000) + " ms";
  if (s < 90) return s.toFixed(s < 10 ? 1 : 0) + " s";
  if (s < 5400) return Math.round(s / 60) + " min";
  if (s < 172800) return (s / 3600).toFixed(1) + " h";
  return Math.round(s / 86400) + " d";
}
const fmtMs = ms => ms == null ? "–" : (ms < 10 ? ms.toFixed(2) : ms.toFixed(1)) + " ms";
const fmtTime = t => new Date(t).toLocaleTimeString();
const num = v => v == null ? "–" : String(v);

async function api(method, path) {
  const r = await fetch(path, { method, credentials: "same-origin", headers: { Accept: "application/json" } });
  if (r.status === 401) { location.reload(); throw new Error("signed out"); }
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// row returns tbody's row for key, creating it with n cells.
function row(tbody, key, n) {
  let tr = tbody.querySelector(`tr[data-key="${CSS.escape(key)}"]`);
  if (!tr) {
    tr = document.createElement("tr");
    tr.dataset.key = key;
    for (let i = 0; i < n; i++) tr.appendChild(document.createElement("td"));
    tbody.appendChild(tr);
  }
  return tr;
}
// prune removes tbody's rows whose key is not in keep.
function prune(tbody, keep) {
  for (const tr of [...tbody.querySelectorAll("tr[data-key]")]) if (!keep.has(tr.dataset.key)) tr.remove();
}
// fill replaces tbody with one row per item (for small read-only tables).
function fill(tbody, items, cells, empty) {
  tbody.replaceChildren();
  if (!items.length) {
    const tr = tbody.insertRow(), td = tr.insertCell();
    td.colSpan = tbody.parentElement.tHead.rows[0].cells.length; td.className = "empty"; td.textContent = empty;
    return;
  }
  for (const it of items) {
    const tr = tbody.insertRow();
    for (const c of cells(it)) tr.insertCell().textContent = c;
  }
}
function event(text) {
  const li = document.createElement("li");
  li.textContent = new Date().toLocaleTimeString() + "  " + text;
  $("events").prepend(li);
  while ($("events").children.length > 8) $("events").lastChild.remove();
}

function renderMembers(rep) {
  const tbody = $("members").tBodies[0], seen = new Set();
  for (const m of rep.members) {
    seen.add(m.id);
    const st = m.status || {}, tr = row(tbody, m.id, 8), td = tr.cells;
    tr.dataset.member = m.id;
    tr.classList.toggle("self", m.id === rep.self);
    td[0].textContent = m.id;
    td[1].innerHTML = "";
    const badge = document.createElement("span");
    badge.className = "state " + m.state; badge.textContent = m.state;
    td[1].appendChild(badge);
    td[2].textContent = m.version || "–";
    td[3].textContent = fmtDur((Date.now() - Date.parse(m.started)) / 1000);
    td[4].textContent = num(st.leases);
    td[5].textContent = num(st.in_flight);
    td[6].textContent = num(st.websockets);
    td[0].title = m.error || "";
    tr.classList.toggle("unreachable", !!m.error);
    let btn = td[7].querySelector("button");
    if (!btn) {
      btn = document.createElement("button");
      btn.className = "drain"; btn.dataset.member = m.id;
      btn.onclick = () => drain(m.id);
      td[7].appendChild(btn);
    }
    const draining = m.state === "draining" || drains.has(m.id);
    btn.disabled = draining;
    btn.textContent = draining ? "draining…" : "Drain";
  }
  for (const id of known) {
    if (seen.has(id)) continue;
    const at = drains.get(id);
    event(at ? `${id} left the fleet, ${fmtDur((Date.now() - at) / 1000)} after its drain was requested` : `${id} left the fleet`);
    drains.delete(id);
  }
  if (known.size) for (const id of seen) if (!known.has(id)) event(`${id} joined the fleet`);
  known = seen;
  prune(tbody, seen);
  $("member-count").textContent = rep.members.length;
}

async function drain(id) {
  if (!confirm(`Drain ${id}? It stops taking work, hands its objects to the other members and exits.`)) return;
  try {
    await api("POST", "/admin/members/" + encodeURIComponent(id) + "/drain");
    drains.set(id, Date.now());
    event(`drain of ${id} requested`);
  } catch (e) {
    event(`drain of ${id} failed: ${e.message}`);
  }
}

function renderSpark(ms) {
  const svg = $("spark");
  svg.replaceChildren();
  if (!ms.length) return;
  const hi = Math.max(...ms) * 1.15 || 1, n = ms.length - 1;
  const y = v => (60 - v / hi * 56).toFixed(1);
  // The newest sample is at the right edge; one sample is a flat line.
  const pts = n === 0 ? [`0,${y(ms[0])}`, `300,${y(ms[0])}`] : ms.map((v, i) => `${(i / n * 300).toFixed(1)},${y(v)}`);
  const ns = "http://www.w3.org/2000/svg";
  const area = document.createElementNS(ns, "polygon");
  area.setAttribute("points", `0,60 ${pts.join(" ")} 300,60`);
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", pts.join(" "));
  svg.append(area, line);
  const sorted = [...ms].sort((a, b) => a - b);
  $("rtt-last").textContent = fmtMs(ms[ms.length - 1]);
  $("rtt-median").textContent = fmtMs(sorted[Math.floor(sorted.length / 2)]);
  $("rtt-max").textContent = fmtMs(sorted[sorted.length - 1]);
}

function render(rep) {
  $("self").textContent = rep.self;
  const me = rep.members.find(m => m.id === rep.self);
  if (me && me.status) $("fleet-name").textContent = me.status.fleet;
  renderMembers(rep);
  renderSpark(rep.coord_rtt_ms || []);
  fill($("queues").tBodies[0], rep.queues, q => [q.queue, q.depth, fmtDur(q.oldest_age_seconds),
    q.dead_letter_queue ? `${q.dead_letters} (${q.dead_letter_queue})` : "–"], "no queues configured");
  $("alarm-count").textContent = rep.alarms.due + (rep.alarms.truncated ? "+" : "");
  $("alarm-lag").textContent = rep.alarms.due ? fmtDur(rep.alarms.max_lag_seconds) : "–";
  fill($("alarms").tBodies[0], rep.alarms.items, a => [a.class, a.id.slice(0, 12) + "…", fmtDur(a.lag_seconds), a.retries], "none due");
  fill($("cron").tBodies[0], rep.cron, t => [t.schedule, fmtTime(t.at), t.member], "no ticks yet");
  $("errors").hidden = !(rep.errors && rep.errors.length);
  $("errors").textContent = (rep.errors || []).join("; ");
  $("updated").textContent = "updated " + new Date().toLocaleTimeString();
}

async function renderObject() {
  if (!lookup) return;
  const { cls, name } = lookup, out = $("lookup-result");
  try {
    const o = await api("GET", "/admin/objects/lease?class=" + encodeURIComponent(cls) + "&name=" + encodeURIComponent(name));
    if (!lookup || lookup.cls !== cls || lookup.name !== name) return;
    const link = `/objects/${encodeURIComponent(cls)}/${encodeURIComponent(name)}`;
    out.className = "";
    out.replaceChildren();
    const head = document.createElement("div");
    if (o.held) {
      head.innerHTML = `held by <span class="holder" id="holder"></span> · epoch <b id="epoch"></b> · lease for <span id="expires"></span>`;
      head.querySelector("#holder").textContent = o.holder;
      head.querySelector("#epoch").textContent = o.epoch;
      head.querySelector("#expires").textContent = fmtDur(o.expires_in_seconds);
      out.dataset.holder = o.holder;
    } else {
      head.innerHTML = `<span class="holder" id="holder">not held</span> · no replica runs it now`;
      out.dataset.holder = "";
    }
    const a = document.createElement("a");
    a.href = link; a.textContent = "lease history →";
    out.append(head, a);
    $("history-title").textContent = `${cls} “${name}”`;
    fill($("history").tBodies[0], o.history, t => [t.epoch, t.holder, new Date(t.acquired).toLocaleString()], "no tenures recorded");
  } catch (e) {
    out.className = "problem";
    out.textContent = e.message;
  }
}

$("lookup").onsubmit = e => {
  e.preventDefault();
  lookup = { cls: $("lookup-class").value.trim(), name: $("lookup-name").value.trim() };
  renderObject();
};

// A deep link /objects/{class}/{name} opens on that object's history.
const deep = location.pathname.match(/^\/objects\/([^/]+)\/(.+)$/);
if (deep) {
  lookup = { cls: decodeURIComponent(deep[1]), name: decodeURIComponent(deep[2]) };
  $("lookup-class").value = lookup.cls; $("lookup-name").value = lookup.name;
  $("history-card").hidden = false;
}

async function tick() {
  try {
    render(await api("GET", "/admin/fleet"));
  } catch (e) {
    $("updated").textContent = "update failed: " + e.message;
  }
  await renderObject();
  // Four times a second while a drain is in progress, so its steps show.
  setTimeout(tick, drains.size ? 250 : 1000);
}
tick();
