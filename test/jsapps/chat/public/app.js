// The chat page: joins a room over a WebSocket, shows its messages and
// who is there, and reconnects with a countdown when the socket closes.
"use strict";

const $ = (sel) => document.querySelector(sel);
const PING_EVERY = 20_000;

let room = null; // the room joined, null before the first join
let user = null;
let socket = null;
let attempts = 0; // reconnects since the last successful hello
let timer = null; // the reconnect countdown
let pinger = null;
const shown = new Map(); // message id → its element, so each shows once

function status(text, waiting = false) {
	$("#status").textContent = text;
	$("#status").classList.toggle("waiting", waiting);
}

// canSend enables the form while the page is in its room; out of it,
// the roster is greyed: it may be out of date.
function canSend(yes) {
	$("#text").disabled = !yes;
	$("#go").disabled = !yes;
	$("#roster").classList.toggle("stale", !yes);
}

function showError(text) {
	$("#error").textContent = text || "";
}

function render(m) {
	if (shown.has(m.id)) return;
	const div = document.createElement("div");
	div.className = "msg";
	div.dataset.id = String(m.id);
	const who = document.createElement("b");
	who.className = "who";
	who.textContent = m.user;
	const text = document.createElement("span");
	text.className = "text";
	text.textContent = m.text;
	const when = document.createElement("time");
	when.dateTime = new Date(m.sentAt).toISOString();
	when.textContent = new Date(m.sentAt).toLocaleTimeString();
	div.append(when, who, ": ", text);
	// Keep the log in id order: a late history row goes before newer ones.
	const after = [...shown.entries()].filter(([id]) => id > m.id).sort((a, b) => a[0] - b[0])[0];
	const log = $("#log");
	if (after) log.insertBefore(div, after[1]);
	else log.append(div);
	shown.set(m.id, div);
	log.scrollTop = log.scrollHeight;
}

function roster(users) {
	$("#roster").replaceChildren(
		...users.map((u) => {
			const li = document.createElement("li");
			li.textContent = u;
			return li;
		}),
	);
}

function socketURL() {
	const proto = location.protocol === "https:" ? "wss:" : "ws:";
	return `${proto}//${location.host}/api/rooms/${encodeURIComponent(room)}/ws?user=${encodeURIComponent(user)}`;
}

function connect() {
	clearInterval(timer);
	timer = null;
	status(`connecting to #${room}…`, true);
	const ws = new WebSocket(socketURL());
	socket = ws;
	ws.onmessage = (ev) => {
		if (ws !== socket || ev.data === "pong") return;
		const frame = JSON.parse(ev.data);
		switch (frame.type) {
			case "hello":
				attempts = 0;
				status(`in #${room}`);
				canSend(true);
				frame.history.forEach(render);
				roster(frame.users);
				break;
			case "message":
				render(frame.message);
				break;
			case "presence":
				roster(frame.users);
				break;
			case "error":
				showError(frame.error);
				break;
		}
	};
	ws.onopen = () => {
		clearInterval(pinger);
		pinger = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send("ping"), PING_EVERY);
	};
	ws.onclose = (ev) => {
		if (ws !== socket) return; // replaced by a newer join
		clearInterval(pinger);
		canSend(false);
		reconnectLater(ev.code);
	};
}

// reconnectLater counts down to the next attempt, waiting longer after
// each one that failed (1, 2, 3, 4, 5, 5 … seconds).
function reconnectLater(code) {
	attempts++;
	let left = Math.min(attempts, 5);
	const tick = () => {
		if (left <= 0) {
			connect();
			return;
		}
		status(`disconnected (${code}), reconnecting in ${left} s`, true);
		left--;
	};
	tick();
	timer = setInterval(tick, 1000);
}

function join(newUser, newRoom) {
	if (socket) {
		const old = socket;
		socket = null;
		old.close(1000, "left");
	}
	clearInterval(timer);
	if (newRoom !== room) {
		shown.clear();
		$("#log").replaceChildren();
		roster([]);
	}
	user = newUser;
	room = newRoom;
	attempts = 0;
	showError("");
	history.replaceState(null, "", `#${encodeURIComponent(room)}`);
	connect();
}

$("#join-form").addEventListener("submit", (ev) => {
	ev.preventDefault();
	const u = $("#user").value.trim();
	const r = $("#room").value.trim().toLowerCase();
	if (!u || !r) return;
	localStorage.setItem("chat.user", u);
	join(u, r);
});

$("#say").addEventListener("submit", (ev) => {
	ev.preventDefault();
	const text = $("#text").value.trim();
	if (!text || !socket || socket.readyState !== WebSocket.OPEN) return;
	showError("");
	socket.send(JSON.stringify({ type: "message", text }));
	$("#text").value = "";
	$("#text").focus();
});

// A reload (or a shared link) goes back into the room of the address.
$("#user").value = localStorage.getItem("chat.user") || "";
if (location.hash.length > 1) {
	$("#room").value = decodeURIComponent(location.hash.slice(1));
	if ($("#user").value) $("#join-form").requestSubmit();
}
