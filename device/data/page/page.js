// The players' page. Everything a player typed comes back as JSON and is put in with
// textContent, never as HTML. The phone keeps its code, name and token, and joins again on
// its own after the box restarts. The page speaks the box's language (the box says which).
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
let code = params.get("code") || localStorage.getItem("code") || "";
let name = localStorage.getItem("name") || "";
let team = localStorage.getItem("team") || "";
// The phone's own token: sent again when it joins, it proves this is the same phone.
let token = localStorage.getItem("token") || "";
let busy = false;
let language = "en";
let phase = "";
// The box is not answering when a poll fails or takes longer than this (the page polls
// each second): the notice is up within three seconds of the box stopping.
const ANSWER_MS = 1800;

// The page's own words, in the box's language: /hello hands them over from the box's one
// table of strings (device/data/strings.toml), which a translator fills in.
let texts = {};

function t(key) { return texts[key] || ""; }

function speak(lang, given) {
  texts = given || {};
  language = lang;
  document.documentElement.lang = lang;
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
  for (const node of document.querySelectorAll("[data-placeholder]")) node.placeholder = t(node.dataset.placeholder);
}

// The box's words for this page (once; again if the box was away when the page opened).
async function hello() {
  const answer = await call("/hello");
  if (answer.ok) speak(answer.language, answer.texts);
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = String(text);
  if (cls) node.className = cls;
  return node;
}

async function call(path, body) {
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(), ANSWER_MS);
  let response;
  try {
    response = await fetch(path, {
      method: body ? "POST" : "GET",
      headers: body ? { "Content-Type": "application/json" } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal: stop.signal,
    });
  } catch {
    offline(true);
    return { ok: false, status: 0, error: "" };
  } finally { clearTimeout(timer); }
  offline(false);
  let answer;
  try { answer = await response.json(); } catch { answer = { ok: false, error: t("noAnswer") }; }
  answer.status = response.status;
  return answer;
}

function offline(down) {
  $("offline").hidden = !down;
  if (down) $("offline").textContent = t("offline");
  $("clock").classList.toggle("stopped", down);
}

function say(text) { $("error").textContent = text || ""; }

async function join() {
  const answer = await call("/join", { code, name, team, token });
  if (answer.status === 0) return false;  // the box is away: try again at the next poll
  if (!answer.ok) {  // a phone still in its seat (a team change waits for the next match) plays on
    say(answer.error);
    if (answer.seated) { $("join").hidden = true; $("play").hidden = false; }
    else showJoin();
    return false;
  }
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

// A word and how it was taken: the ruling in words, the spelling it counted as, why not.
function wordItem(w, shown) {
  const item = el("li", undefined, w.status);
  const ruling = el("span", shown, "ruling");
  item.append(el("span", w.word, "word"), ruling);
  if (w.counted && w.counted.length) item.append(el("span", t("countedAs") + " " + w.counted.join(", "), "counted"));
  if (w.why && w.status !== "valid") item.append(el("span", w.why, "why"));
  return item;
}

function winnersText(winners) {
  if (winners.length === 1) return t("winner") + ": " + winners[0];
  return t("draw") + ": " + winners.slice(0, -1).join(", ") + " " + t("and") + " " + winners[winners.length - 1];
}

function show(state) {
  if (!Object.keys(texts).length || state.language !== language) hello();
  if (state.phase !== phase) { say(""); phase = state.phase; }  // last round's refusals go
  $("who").textContent = state.name + (state.team ? " (" + state.team + ")" : "");
  $("clock").textContent = state.phase === "typing" ? clockText(state.seconds) : "";
  $("phase").textContent = t(state.phase) || "";
  const board = $("board");
  board.replaceChildren();
  board.style.gridTemplateColumns = "repeat(" + (state.board.length || 1) + ", 1fr)";
  for (const row of state.board) for (const face of row) board.append(el("span", face));
  $("type").hidden = state.phase !== "typing";
  // Out between rounds, and from the match's last scores on (to join again in another team)
  $("leave").hidden = state.phase !== "waiting" && !state.between;
  // Between matches the join form again, to change name or team in the same seat
  $("change").hidden = !state.between;
  $("challenge").hidden = !["typing", "locked", "disputed"].includes(state.phase);
  showDisputes(state);
  const words = $("words");
  words.replaceChildren();
  for (const w of state.words) {
    const item = wordItem(w, w.said);
    if (state.phase === "typing") {
      const remove = el("button", "×", "remove");
      remove.type = "button";
      remove.setAttribute("aria-label", t("remove") + " " + w.word);
      remove.onclick = () => send(w.word, true);
      item.append(remove);
    }
    words.append(item);
  }
  const results = $("results");
  results.replaceChildren();
  for (const player of state.results) {
    const heading = el("h2", player.name + ": " + player.score + (player.yours ? " (" + t("you") + ")" : ""));
    const part = el("section", undefined, player.yours ? "player yours" : "player");
    part.append(heading);
    const list = el("ul");
    for (const w of player.words) list.append(wordItem(w, w.status === "scored" ? w.points : w.said));
    part.append(list);
    results.append(part);
  }
  const standings = $("standings");
  standings.replaceChildren();
  if (state.standings.length) {
    standings.append(el("h2", t("standings")));
    const list = el("ol");
    for (const s of state.standings) list.append(el("li", s.name + ": " + s.score));
    standings.append(list);
  }
  if (state.winners.length) standings.append(el("p", winnersText(state.winners), "winner"));
}

function showDisputes(state) {
  const disputes = $("disputes");
  disputes.replaceChildren();
  let waiting = true;  // the first word not yet ruled on is the one on the screen
  for (const d of state.disputes) {
    const item = el("article", undefined, "dispute " + (d.ruling || "pending"));
    item.append(el("h3", d.word.toUpperCase() + " (" + t("challengedBy") + " " + d.by + ")"));
    item.append(el("p", d.verdict, "verdict"), el("p", d.definition, "definition"));
    if (d.ruling) item.append(el("p", t(d.ruling) + " " + t("byTable"), "ruling"));
    if (!d.ruling && waiting && state.judge && state.phase === "disputed") {
      for (const [label, allow] of [[t("allow"), true], [t("refuse"), false]]) {
        const button = el("button", label);
        button.type = "button";
        button.onclick = () => rule(d.word, allow);
        item.append(button);
      }
    }
    if (d.ruling && state.retakable && state.judge) {  // until the next round: the judge may take it back
      const again = { allowed: [false], refused: [true], forgotten: [true, false] }[d.ruling];
      for (const allow of again) {
        const button = el("button", t(allow ? "allowAfterAll" : "refuseAfterAll"), "retake");
        button.type = "button";
        button.onclick = () => rule(d.word, allow);
        item.append(button);
      }
    }
    if (!d.ruling) waiting = false;
    disputes.append(item);
  }
}

// The evening read back (its button opens and closes it): the standings over every match
// since the box started, then each match with its rounds and every side's words.
// Players (each renamed one with the names they played under) or teams (with members).
function standingsList(rows, cls) {
  const table = el("ol", undefined, "standings" + (cls ? " " + cls : ""));
  for (const s of rows) {
    const also = (s.members || s.names || []).filter((n) => n !== s.name);
    const named = also.length ? s.name + " (" + also.join(", ") + ")" : s.name;
    table.append(el("li", named + ": " + s.points + " " + t("points") + ", " + t("won") + " " + s.won + " " + t("of") + " " + s.played));
  }
  return table;
}

async function showEvening() {
  const section = $("evening");
  if (!section.hidden) { section.hidden = true; return; }
  const answer = await call("/history?code=" + encodeURIComponent(code) + "&token=" + encodeURIComponent(token));
  if (!answer.ok) { say(answer.error); return; }
  section.replaceChildren(el("h2", t("evening")));
  if (!answer.matches.length) section.append(el("p", t("noMatch")));
  section.append(standingsList(answer.standings));
  if (answer.teams.length) {
    section.append(el("h3", t("teams")));
    section.append(standingsList(answer.teams, "teams"));
  }
  for (const match of answer.matches) {
    const part = el("details", undefined, "match");
    const sides = match.sides.map((side) => side.name + " " + side.score).join(", ");
    part.append(el("summary", match.id + ". " + sides + (match.winner ? " · " + match.winner : "")));
    for (const done of match.rounds) {
      part.append(el("h3", t("round") + " " + done.round + ": " + (done.board || done.roll || "")));
      for (const side of done.sides) {
        part.append(el("p", side.name + ": " + side.score, "side"));
        const list = el("ul");
        for (const w of side.words) {
          // Its points or why not, whether the table's ruling decided, and who typed it.
          let shown = w.status === "scored" ? String(w.points) : (t("status-" + w.status) || w.status);
          if (w.by_table) shown += " · " + t(w.status === "not-a-word" ? "refused" : "allowed") + " " + t("byTable");
          const item = wordItem(w, shown);
          if (w.by && w.by !== side.name) item.append(el("span", w.by, "by"));
          list.append(item);
        }
        part.append(list);
      }
    }
    section.append(part);
  }
  section.hidden = false;
}

async function challenge(word) {
  const answer = await call("/dispute", { code, token, word });
  if (!answer.ok) { say(answer.error); return false; }
  say(answer.dispute.verdict + ". " + answer.dispute.definition);
  await refresh();
  return true;
}

async function rule(word, allow) {
  const answer = await call("/rule", { code, token, word, allow });
  say(answer.ok ? "" : answer.error);
  await refresh();
}

async function refresh() {
  if (!token || busy) return;
  const answer = await call("/state?code=" + encodeURIComponent(code) + "&token=" + encodeURIComponent(token));
  if (answer.status === 0) return;  // the box is away: the notice says so
  if (answer.status === 401) { await join(); return; }
  if (!answer.ok) { say(answer.error); return; }
  show(answer);
}

async function send(word, remove) {
  busy = true;
  try {
    const answer = await call("/word", { code, token, word, remove: !!remove });
    if (answer.status === 401 && await join()) return send(word, remove);
    // A word on the list already is said so (it counts once); any other taken word is shown in the list
    say(answer.ok ? (answer.again ? answer.word.toUpperCase() + ": " + answer.said : "") : answer.error);
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
  // Emptied at once, so that the next word typed before the box answers starts afresh; a
  // word the box did not take comes back to be put right (unless the next is begun).
  $("word").value = "";
  if (!(await send(word)) && !$("word").value) $("word").value = word;
});

$("challenge").addEventListener("submit", async (event) => {
  event.preventDefault();
  const word = $("challenged").value.trim();
  if (word && await challenge(word)) $("challenged").value = "";
});

$("evening-button").addEventListener("click", showEvening);

$("change").addEventListener("click", showJoin);

$("leave").addEventListener("click", async () => {
  const answer = await call("/leave", { code, token });
  if (!answer.ok) { say(answer.error); return; }
  token = "";  // out: no more polling, and no joining again on its own
  localStorage.removeItem("token");
  showJoin();
});

(async () => {
  await hello();
  if (code && name && await join()) await refresh(); else showJoin();
  setInterval(refresh, 1000);
})();
