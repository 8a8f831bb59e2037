// The director's scoreboard: /scoreboard.json twice a second; a table's last round on a click.
"use strict";

const $ = (id) => document.getElementById(id);

function element(tag, text, className) {
  const made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}

function clock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const whole = Math.max(0, Math.round(seconds));
  return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
}

function tableCard(table) {
  const card = element("article", undefined, "table" + (table.online ? "" : " offline"));
  card.dataset.table = table.table;
  const title = element("h3");
  title.append(element("span", "Table " + table.table));
  title.append(element("span", table.online ? clock(table.clock) : "offline", table.online ? "clock" : "badge"));
  card.append(title);
  card.append(element("div", table.online ? (table.phase || "") : "", "phase"));
  const names = table.players.length ? table.players : table.seated;
  const list = element("ul");
  for (const name of names) {
    const row = element("li");
    row.append(element("span", name));
    const points = table.scores[name];
    row.append(element("span", points === undefined ? "" : String(points), "score"));
    list.append(row);
  }
  card.append(list);
  return card;
}

async function showLast(number) {
  const answer = await fetch("tables/" + number + "/last.json");
  $("last").hidden = false;
  const words = $("last-words");
  words.replaceChildren();
  if (!answer.ok) {
    $("last-title").textContent = "Table " + number + ": no round yet";
    return;
  }
  const result = await answer.json();
  $("last-title").textContent = "Table " + number + " · match " + result.match + ", round " + result.round;
  for (const player of result.players) {
    words.append(element("h4", player.name + ": " + player.score));
    const list = element("p");
    for (const word of player.words || []) {
      list.append(element("span", word.word + " ", word.status));
    }
    words.append(list);
  }
}

function render(board) {
  $("event").textContent = board.event;
  $("pair").hidden = !board.can_pair;
  $("round").textContent = board.round ? "Round " + board.round : "Not seated yet";
  $("tables").replaceChildren(...board.tables.map(tableCard));
  const body = $("standings").tBodies[0];
  body.replaceChildren();
  board.standings.forEach((row, index) => {
    const line = element("tr");
    for (const cell of [index + 1, row.name, row.won, row.played, row.points, row.spread]) {
      line.append(element("td", String(cell)));
    }
    body.append(line);
  });
  const latest = board.rounds[board.rounds.length - 1];
  $("pairings").replaceChildren(
    ...(latest ? latest.tables : []).map((t) => element("li", "Table " + t.table + ": " + t.players.join(", ")))
  );
}

// One listener for every card: a card drawn anew between a press and its release is
// still clicked.
$("tables").addEventListener("click", (event) => {
  const card = event.target.closest("article.table");
  if (card) showLast(card.dataset.table);
});

// The director's own machine seats the next round from here (cuberef club pair does too).
$("pair").addEventListener("click", async () => {
  const answer = await fetch("pair", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ force: false }),
  });
  const said = await answer.json();
  $("status").textContent = said.ok ? "Round " + said.round + " seated." : said.error;
});

let shown = "";
const SILENT = "the director is not answering";

async function refresh() {
  try {
    const answer = await fetch("scoreboard.json");
    if (answer.ok) {
      const text = await answer.text();
      if (text !== shown) {  // drawn again only when something changed
        shown = text;
        render(JSON.parse(text));
      }
      if ($("status").textContent === SILENT) $("status").textContent = "";
    }
  } catch (error) {
    $("status").textContent = SILENT;
  }
  setTimeout(refresh, 500);
}

refresh();
