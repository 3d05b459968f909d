// The lobby's seeks, pushed by the server over WS /lobby/ws (lobby_feed.py; while that socket
// is down, GET /api/seeks every few seconds): who is signed in, the games people offer (accept
// one, or withdraw one's own), who is online, and, when one's own seek was accepted, the way
// to the game. A seek takes the game, variant and clock chosen in the "New game" form above;
// "Play now" accepts the first open seek of someone else with that game, variant, clock and
// rating kind, or else posts one. Posting, accepting and withdrawing send the CSRF token
// (GET /api/me) in the x-csrftoken header.
import { readClock, readVariant } from "/static/lobby.js";

const POLL_MS = 3000;
const list = document.getElementById("seeks");
const online = document.getElementById("online");
const accountLine = document.getElementById("account-line");
const posting = document.getElementById("seek-post");
const errorBox = document.getElementById("seek-error");
let me = { name: null, csrf: "" };

function say(message) {
  errorBox.textContent = message || "";
}

async function send(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-csrftoken": me.csrf },
    body: body === undefined ? "{}" : JSON.stringify(body),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    say(answer.detail || t("the server refused ({status})", { status: response.status }));
    return null;
  }
  say("");
  return answer;
}

function clockWords(clock) {
  if (clock.kind === "move") return t("{seconds} s a move", { seconds: clock.seconds });
  if (clock.kind === "fischer") return t("{minutes} min + {increment} s", { minutes: clock.minutes, increment: clock.increment || 0 });
  return t("no clock");
}

function showAccount() {
  accountLine.replaceChildren();
  if (me.name) {
    const page = document.createElement("a");
    page.href = `/people/${encodeURIComponent(me.name)}`;
    page.id = "my-page";
    page.textContent = me.name;
    accountLine.append(t("Signed in as"), " ", page);
    posting.hidden = false;
  } else {
    const signIn = document.createElement("a");
    signIn.href = "/account/signin";
    signIn.textContent = t("Sign in");
    const signUp = document.createElement("a");
    signUp.href = "/account/signup";
    signUp.textContent = t("sign up");
    accountLine.append(signIn, " · ", signUp, " ", t("to post or accept a seek (guests play as before)"));
    posting.hidden = true;
  }
}

function seekLine(seek) {
  const item = document.createElement("li");
  item.dataset.seekId = seek.id;
  item.dataset.author = seek.author;
  const variant = Object.entries(seek.variant)
    .filter(([name, value]) => value !== null && name !== "players")
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
  const rating = seek.rating === null ? "" : ` (${seek.rating})`;
  const kind = seek.rated ? t("rated") : t("casual");
  const bounds =
    seek.rating_min === null && seek.rating_max === null
      ? ""
      : `, ${t("for ratings {low}-{high}", { low: seek.rating_min ?? "", high: seek.rating_max ?? "" })}`;
  item.append(`${seek.author}${rating}: ${seek.game}${variant ? ` (${variant})` : ""}, ${clockWords(seek.clock)}, ${kind}${bounds} `);
  const button = document.createElement("button");
  button.type = "button";
  if (seek.author === me.name) {
    button.className = "withdraw-seek";
    button.textContent = t("withdraw");
    button.addEventListener("click", async () => {
      if (await send(`/api/seeks/${seek.id}/withdraw`)) refresh();
    });
  } else {
    button.className = "accept-seek";
    button.textContent = t("accept");
    button.disabled = !me.name;
    button.addEventListener("click", async () => {
      const answer = await send(`/api/seeks/${seek.id}/accept`);
      if (answer) window.location.href = answer.link;
    });
  }
  item.append(button);
  return item;
}

function none() {
  const item = document.createElement("li");
  item.className = "small";
  item.textContent = t("none");
  return item;
}

let latest = { seeks: [] };
let socket = null;

async function refresh() {
  if (socket && socket.readyState === WebSocket.OPEN) return; // the feed brings every change
  const response = await fetch("/api/seeks");
  if (!response.ok) return;
  show(await response.json());
}

function show(answer) {
  latest = answer;
  if (answer.matched.length) {
    window.location.href = answer.matched[0].link;
    return;
  }
  list.replaceChildren(...(answer.seeks.length ? answer.seeks.map(seekLine) : [none()]));
  online.replaceChildren(
    ...(answer.online.length
      ? answer.online.map((name) => {
          const item = document.createElement("li");
          const link = document.createElement("a");
          link.href = `/people/${encodeURIComponent(name)}`;
          link.textContent = name;
          item.append(link);
          return item;
        })
      : [none()]),
  );
}

function ratingRange() {
  const bound = (id) => {
    const text = document.getElementById(id).value.trim();
    return text === "" ? null : Number(text);
  };
  return { rating_min: bound("seek-rating-min"), rating_max: bound("seek-rating-max") };
}

document.getElementById("post-seek").addEventListener("click", async () => {
  const game = document.getElementById("game-select").value;
  const rated = document.getElementById("seek-rated").checked;
  const answer = await send("/api/seeks", { game, variant: readVariant(), clock: readClock(), rated, ...ratingRange() });
  if (answer) refresh();
});

function listen() {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${window.location.host}/lobby/ws`);
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") show(message);
  });
  socket.addEventListener("close", () => {
    socket = null;
    setTimeout(listen, POLL_MS); // polled meanwhile (refresh)
  });
}

// a seek fits the form when every variant value the form sets is the seek's, and the clocks
// are alike (the seek's variant also holds the defaults the form leaves out)
function fitsVariant(seekVariant, variant) {
  return Object.entries(variant).every(
    ([name, value]) => value === null || value === "" || name === "players" || String(seekVariant[name]) === String(value),
  );
}

function clockKey(c) {
  return [c.kind || "none", +(c.seconds || 0), +(c.minutes || 0), +(c.increment || 0), +(c.days || 0)].join();
}

async function playNow() {
  const game = document.getElementById("game-select").value;
  const rated = document.getElementById("seek-rated").checked;
  const variant = readVariant();
  const clock = readClock();
  for (const seek of latest.seeks) {
    if (seek.author === me.name || seek.game !== game || seek.rated !== rated) continue;
    if (clockKey(seek.clock) !== clockKey(clock) || !fitsVariant(seek.variant, variant)) continue;
    const answer = await send(`/api/seeks/${seek.id}/accept`);
    if (answer) {
      window.location.href = answer.link;
      return;
    }
  }
  if (await send("/api/seeks", { game, variant, clock, rated, ...ratingRange() })) refresh();
}

document.getElementById("play-now").addEventListener("click", playNow);

async function start() {
  const response = await fetch("/api/me");
  if (response.ok) me = await response.json();
  showAccount();
  listen();
  await refresh();
  setInterval(refresh, POLL_MS);
}

start();
