// The players' page. Everything a player typed comes back as JSON and is put in with
// textContent, never as HTML. The phone keeps its code and name, and joins again on its own
// after the box restarts.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let code = params.get("code") || localStorage.getItem("code") || "";
let name = localStorage.getItem("name") || "";
let team = localStorage.getItem("team") || "";
// The phone's own token: sent again when it joins, it proves this is the same phone.
let token = localStorage.getItem("token") || "";
let busy = false;

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

async function call(path, body) {
  const response = await fetch(path, {
    method: body ? "POST" : "GET",
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let answer;
  try { answer = await response.json(); } catch { answer = { ok: false, error: "The box did not answer." }; }
  answer.status = response.status;
  return answer;
}

function say(text) { $("error").textContent = text || ""; }

async function join() {
  const answer = await call("/join", { code, name, team, token });
  if (!answer.ok) { say(answer.error); showJoin(); return false; }
  token = answer.token;
  localStorage.setItem("token", token);
  localStorage.setItem("code", code); localStorage.setItem("name", name); localStorage.setItem("team", team);
  say("");
  $("join").hidden = true; $("play").hidden = false;
  return true;
}

function showJoin() {
  $("join").hidden = false; $("play").hidden = true;
  $("code").value = code; $("name").value = name; $("team").value = team;
}

function clockText(seconds) {
  const s = Math.max(0, seconds);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

function show(state) {
  $("who").textContent = state.name + (state.team ? " (" + state.team + ")" : "");
  $("clock").textContent = state.phase === "typing" ? clockText(state.seconds) : "";
  const phases = { waiting: "Waiting for the next round.", typing: "Type your words.",
                   locked: "Time is up: the lists are locked.", scored: "The round is scored." };
  $("phase").textContent = phases[state.phase] || "";
  const board = $("board");
  board.replaceChildren();
  board.style.gridTemplateColumns = "repeat(" + (state.board.length || 1) + ", 1fr)";
  for (const row of state.board) for (const face of row) board.append(el("span", face));
  $("type").hidden = state.phase !== "typing";
  const words = $("words");
  words.replaceChildren();
  for (const w of state.words) {
    const item = el("li", undefined, w.status);
    item.append(el("span", w.word), el("span", w.status === "valid" ? "ok" : w.why || w.status));
    if (state.phase === "typing") {
      const remove = el("button", "×");
      remove.type = "button";
      remove.setAttribute("aria-label", "remove " + w.word);
      remove.onclick = () => send(w.word, true);
      item.append(remove);
    }
    words.append(item);
  }
  const results = $("results");
  results.replaceChildren();
  for (const player of state.results) {
    results.append(el("h2", player.name + ": " + player.score));
    const list = el("ul");
    for (const w of player.words) {
      const item = el("li", undefined, w.status);
      item.append(el("span", w.word), el("span", w.status === "scored" ? w.points : w.status));
      list.append(item);
    }
    results.append(list);
  }
  const standings = $("standings");
  standings.replaceChildren();
  if (state.standings.length) {
    standings.append(el("h2", "Standings"));
    const list = el("ol");
    for (const s of state.standings) list.append(el("li", s.name + ": " + s.score));
    standings.append(list);
  }
  if (state.winners.length) standings.append(el("p", "Winner: " + state.winners.join(" and "), "winner"));
}

async function refresh() {
  if (!token || busy) return;
  const answer = await call("/state?code=" + encodeURIComponent(code) + "&token=" + encodeURIComponent(token));
  if (answer.status === 401) { await join(); return; }
  if (!answer.ok) { say(answer.error); return; }
  show(answer);
}

async function send(word, remove) {
  busy = true;
  try {
    const answer = await call("/word", { code, token, word, remove: !!remove });
    if (answer.status === 401 && await join()) return send(word, remove);
    say(answer.ok ? "" : answer.error);
    return answer.ok;
  } finally { busy = false; await refresh(); }
}

$("join").addEventListener("submit", async (event) => {
  event.preventDefault();
  code = $("code").value.trim().toUpperCase();
  name = $("name").value.trim();
  team = $("team").value.trim();
  if (await join()) await refresh();
});

$("type").addEventListener("submit", async (event) => {
  event.preventDefault();
  const word = $("word").value.trim();
  if (!word) return;
  if (await send(word)) $("word").value = "";
});

(async () => {
  if (code && name && await join()) await refresh(); else showJoin();
  setInterval(refresh, 1000);
})();
