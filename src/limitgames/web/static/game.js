// A live game page: connects to /games/{id}/ws, shows the server's drawing for my seat,
// sends my actions. The server decides every rule; this script only maps clicks to the
// legal actions it was sent (their notation) and animates what disappeared.

import { animateHex, decorateHex } from "./hex_play.js";
import { keepWorldLog, wireWorld } from "./world_play.js";

const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const gameKind = root.dataset.game;
const $ = (id) => document.getElementById(id);
// the first word of an action (its verb) as the buttons show it; the notation sent stays the same
const VERBS = {
  play: t("play"),
  hide: t("hide"),
  exchange: t("exchange"),
  suspect: t("suspect"),
  pass: t("pass"),
};
// the cards' colours, translated on the buttons (the server's catalogue has them)
const COLOURS = new Set(["red", "yellow", "green", "blue", "purple"]);

// --- seats and tokens: from the invite link's #fragment, kept in localStorage --------------
function loadMyGames() {
  try {
    return JSON.parse(localStorage.getItem("limitgames.games") || "{}");
  } catch {
    return {};
  }
}

function takeFragment() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const seat = params.get("seat");
  const token = params.get("token");
  if (seat === null || !token) return;
  const games = loadMyGames();
  const entry = games[gameId] || { game: gameKind, created: new Date().toISOString(), seats: {}, invites: {} };
  entry.seats = entry.seats || {};
  entry.seats[seat] = token;
  games[gameId] = entry;
  localStorage.setItem("limitgames.games", JSON.stringify(games));
  history.replaceState(null, "", window.location.pathname);
}

takeFragment();
const mine = loadMyGames()[gameId] || { seats: {}, invites: {} };
let claims = Object.entries(mine.seats || {}).map(([seat, token]) => ({ seat: Number(seat), token }));

// The first time an invited seat is opened the server replaces its token (the invite link
// stops working): keep the new one for the next visit.
function keepNewTokens(tokens) {
  const games = loadMyGames();
  const entry = games[gameId] || { game: gameKind, created: new Date().toISOString(), seats: {}, invites: {} };
  entry.seats = Object.assign(entry.seats || {}, tokens);
  games[gameId] = entry;
  localStorage.setItem("limitgames.games", JSON.stringify(games));
  claims = Object.entries(entry.seats).map(([seat, token]) => ({ seat: Number(seat), token }));
}

// --- the connection -----------------------------------------------------------------------
let socket = null;
let view = null;
const pendingViews = [];
let animating = false;
let selected = null;
let retry = 500;
let reconnectTimer = null;

function connect() {
  reconnectTimer = null;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/games/${gameId}/ws`);
  socket.addEventListener("open", () => {
    retry = 500;
    socket.send(JSON.stringify({ type: "hello", seats: claims }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    // other scripts of the page (chat.js, table_actions.js) see every other message
    if (message.type !== "view") document.dispatchEvent(new CustomEvent("limit:message", { detail: message }));
    if (message.type === "view") receiveView(message);
    else if (message.type === "error") flash(message.message);
    else if (message.type === "welcome") {
      if (message.tokens) keepNewTokens(message.tokens);
      flash("");
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.target !== socket) return; // replaced by a fresh connection (limit:reconnect)
    if (event.code === 4404) return; // no such game: nothing to reconnect to
    if (event.code === 4000) {
      // "resync": this page fell behind; reconnecting brings the current view
      reconnectTimer = setTimeout(connect, 100);
      return;
    }
    $("status").textContent = t("connection lost; reconnecting…");
    if (event.code === 1013) retry = Math.max(retry, 8000); // refused for now (a cap): wait longer
    reconnectTimer = setTimeout(connect, retry);
    retry = Math.min(retry * 2, 30000);
  });
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}
document.addEventListener("limit:send", (event) => send(event.detail));
// connection.js asks for a fresh connection when a pong is missed (hello again: a resync)
document.addEventListener("limit:reconnect", () => {
  if (reconnectTimer) return; // already waiting to reconnect
  const old = socket;
  socket = null;
  if (old) old.close();
  connect();
});

function act(action) {
  flash("");
  selected = null;
  send({ type: "act", action, ply: view ? view.ply : undefined });
}

function flash(text) {
  $("flash").textContent = text || "";
}

// --- drawing ------------------------------------------------------------------------------
// Views are drawn in order; each may first animate on the board still shown (hex: the server's
// marks of the last decision, in hex_play.js). A long queue (a slow tab) is drawn at once.
function receiveView(message) {
  if (animating) {
    pendingViews.push(message);
    return;
  }
  const old = view;
  view = message;
  let wait = 0;
  if (old && pendingViews.length < 4) {
    if (gameKind === "hex") wait = animateHex(old, message, $("board"));
    else {
      const vanishing = vanishingParts(old, message);
      for (const node of vanishing) node.classList.add("vanish");
      wait = vanishing.length ? 650 : 0;
    }
  }
  if (!wait) {
    draw();
    if (pendingViews.length) receiveView(pendingViews.shift());
    return;
  }
  animating = true;
  $("board").classList.add("animating"); // the old board takes no clicks while it moves
  setTimeout(() => {
    animating = false;
    $("board").classList.remove("animating");
    draw();
    if (pendingViews.length) receiveView(pendingViews.shift());
  }, wait);
}

// Tiles that left the table, and pawns that left a tile without moving (captured).
function vanishingParts(old, next) {
  const board = $("board");
  if (!board.querySelector("[data-cell]")) return [];
  const template = document.createElement("div");
  template.innerHTML = next.board;
  const after = new Map([...template.querySelectorAll("[data-cell]")].map((g) => [g.dataset.cell, g]));
  const moved = new Set();
  if (next.last && next.last.kind === "move") moved.add(next.last.from); // hex: it left by moving
  const parts = [];
  for (const g of board.querySelectorAll("[data-cell]:not(.ghost)")) {
    const later = after.get(g.dataset.cell);
    if (!later) parts.push(g);
    else if (g.dataset.pawn !== "" && later.dataset.pawn === "" && !moved.has(g.dataset.cell)) {
      const pawn = g.querySelector(".pawn");
      if (pawn) parts.push(pawn);
    }
  }
  return parts;
}

function draw() {
  const v = view;
  if (gameKind === "world") keepWorldLog($("board"));
  $("board").innerHTML = v.board;
  $("side").innerHTML = v.side || "";
  $("status").textContent = v.error ? t("This game stopped: {error}", { error: v.error }) : v.status;
  $("status").hidden = v.finished && !v.error;
  const me = v.seats.length ? v.seats.map((s) => v.players[s].name).join(", ") : null;
  $("me").textContent = me ? t("You play {seats}.", { seats: me }) : t("You are watching (spectator).");
  $("players").replaceChildren(
    ...v.players.map((p) => {
      const li = document.createElement("li");
      li.className = p.seat === v.to_move ? "to-move" : "";
      const who =
        p.kind === "computer"
          ? seatWord(p)
          : p.kind === "open"
            ? t("open seat (anyone may take it)")
            : (p.label === p.name ? "" : seatWord(p)) +
              (p.joined ? "" : ` ${t("(invited, not here yet)")}`);
      // a person whose name is the seat's name (cards: the lobby's name) is not named twice
      const label = who.trim() ? `${p.name}: ${who.trim()}` : p.name;
      li.textContent = `${label}${v.seats.includes(p.seat) ? ` ${t("(you)")}` : ""}`;
      return li;
    }),
  );
  const thinking = v.thinking !== null && v.thinking !== undefined;
  $("thinking").hidden = !thinking;
  if (thinking) $("thinking-text").textContent = t("{player} is thinking…", { player: v.players[v.thinking].name });
  $("result").hidden = !v.finished;
  if (v.finished) $("result").textContent = v.status;
  $("undo-button").hidden = !v.can_undo;
  $("action-form").hidden = !v.your_turn;
  $("replay-link").hidden = !v.finished;
  $("record-link").hidden = !(v.finished || v.moves);
  drawMoves(v);
  drawInvites();
  drawActions(v);
  if (gameKind === "hex") {
    wireHex(v);
    decorateHex(v);
  }
  if (gameKind === "cards") wireHand(v);
  if (gameKind === "world") wireWorld(v, { act, flash }, $("board"));
  restoreSettings();
  document.body.dataset.ply = String(v.ply);
  document.body.dataset.finished = String(v.finished);
  document.body.dataset.yourTurn = String(v.your_turn);
  document.dispatchEvent(new CustomEvent("limit:view", { detail: v }));
}

// <details data-setting="..."> (the whole cards pile...) stay open or closed across updates.
function restoreSettings() {
  for (const details of document.querySelectorAll("details[data-setting]")) {
    const key = `limitgames.${details.dataset.setting}`;
    details.open = localStorage.getItem(key) === "1";
    details.addEventListener("toggle", () => localStorage.setItem(key, details.open ? "1" : "0"));
  }
}

function drawMoves(v) {
  const list = $("moves");
  $("moves-title").hidden = !v.moves;
  if (!v.moves) {
    list.replaceChildren();
    return;
  }
  list.replaceChildren(
    ...v.moves.map((m, i) => {
      const li = document.createElement("li");
      const seat = v.move_seats ? v.move_seats[i] : null;
      li.textContent = seat !== null && v.players[seat] ? `${v.players[seat].name}: ${m}` : m;
      return li;
    }),
  );
  list.scrollTop = list.scrollHeight;
}

function drawInvites() {
  const invites = Object.entries(mine.invites || {});
  const box = $("invites");
  box.hidden = !invites.length;
  if (!invites.length) return;
  box.replaceChildren();
  const title = document.createElement("h2");
  title.textContent = t("Invite links");
  box.append(title);
  for (const [seat, link] of invites) {
    const p = document.createElement("p");
    const name = view && view.players[seat] ? view.players[seat].name : t("seat {number}", { number: Number(seat) + 1 });
    const input = document.createElement("input");
    input.readOnly = true;
    input.value = new URL(link, window.location.href).href;
    input.className = "invite-link";
    input.dataset.seat = seat;
    input.addEventListener("focus", () => input.select());
    p.append(`${name}: `, input);
    box.append(p);
  }
}

// Buttons for the legal actions, grouped by their first word (play / exchange / suspect...).
// The hex board is played by clicking and world's choices are in its table: neither gets them.
function drawActions(v) {
  const box = $("actions");
  box.replaceChildren();
  // hex is played on the board; world's choices are drawn with their words in the table
  if (!v.your_turn || gameKind === "hex" || gameKind === "world") return;
  const groups = new Map();
  for (const action of v.legal) {
    const verb = action.split(" ")[0];
    if (!groups.has(verb)) groups.set(verb, []);
    groups.get(verb).push(action);
  }
  for (const [verb, actions] of groups) {
    const row = document.createElement("div");
    row.className = `action-group action-${verb}`;
    const label = document.createElement("span");
    label.className = "verb";
    label.textContent = VERBS[verb] || verb;
    row.append(label);
    for (const action of actions) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "action-button";
      button.dataset.action = action;
      button.textContent = actionLabel(action, v);
      button.addEventListener("click", () => act(action));
      row.append(button);
    }
    box.append(row);
  }
}

function actionLabel(action, v) {
  const words = action.split(" ");
  if (words[0] === "suspect" && words.length === 2 && v.players[Number(words[1])]) {
    return `${VERBS[words[0]]} ${words[1]} (${v.players[Number(words[1])].name})`;
  }
  return words.length > 1 ? words.slice(1).map((w) => (COLOURS.has(w) ? t(w) : w)).join(" ") : VERBS[action] || action;
}

// --- hex: click a pawn, then a highlighted destination; click a highlighted tile to remove --
// The server sends the targets (view.targets: each pawn's destinations, and the tiles one click
// decides), each with its action's notation, as Lichess sends dests: nothing is parsed here.
function hexTargets(v) {
  const targets = v.targets || { moves: {}, removals: {}, placements: {} };
  const moves = new Map(Object.entries(targets.moves).map(([start, ends]) => [start, new Map(Object.entries(ends))]));
  const removals = new Map(Object.entries(targets.removals));
  const placements = new Map(Object.entries(targets.placements));
  return { moves, removals, placements, single: new Map([...removals, ...placements]) };
}

function wireHex(v) {
  const { moves, removals, placements, single } = hexTargets(v);
  const tiles = $("board").querySelectorAll("[data-cell]");
  for (const g of tiles) {
    const cell = g.dataset.cell;
    g.classList.toggle("movable", moves.has(cell));
    g.classList.toggle("removable", removals.has(cell));
    g.classList.toggle("placeable", placements.has(cell));
    g.classList.toggle("selected", cell === selected);
    g.classList.toggle("reachable", selected !== null && moves.has(selected) && moves.get(selected).has(cell));
    g.onclick = () => {
      if (!v.your_turn) return;
      if (selected !== null && moves.has(selected) && moves.get(selected).has(cell)) {
        act(moves.get(selected).get(cell));
      } else if (moves.has(cell)) {
        selected = cell === selected ? null : cell;
        wireHex(v);
      } else if (single.has(cell)) {
        act(single.get(cell));
      } else {
        selected = null;
        wireHex(v);
      }
    };
  }
}

// --- cards: click (or Enter/Space on) a card of your hand to hide it or play it ------------
// Only a colour with a legal "hide <colour>" or "play <colour>" is clickable; the buttons stay.
function wireHand(v) {
  const legal = new Set(v.your_turn ? v.legal : []);
  for (const card of $("board").querySelectorAll(".my-hand [data-card]")) {
    const colour = card.dataset.card;
    const action = [`hide ${colour}`, `play ${colour}`].find((a) => legal.has(a));
    if (!action) continue;
    card.classList.add("playable");
    card.tabIndex = 0;
    card.setAttribute("role", "button");
    card.dataset.action = action;
    card.title = action;
    card.setAttribute("aria-label", action);
    card.addEventListener("click", () => act(action));
    card.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        act(action);
      }
    });
  }
}

// --- the form and undo --------------------------------------------------------------------
$("action-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = $("action-input");
  const text = input.value.trim();
  if (text) act(text);
  input.value = "";
});
$("undo-button").addEventListener("click", () => send({ type: "undo" }));
setInterval(() => send({ type: "ping" }), 25000);
connect();
