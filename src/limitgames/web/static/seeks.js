// The lobby's seeks (GET /api/seeks, every few seconds while the lobby is open): who is
// signed in, the games people offer (accept one, or withdraw one's own), who is online, and,
// when one's own seek was accepted, the way to the game. A seek takes the game, variant and
// clock chosen in the "New game" form above. Posting, accepting and withdrawing send the CSRF
// token (GET /api/me) in the x-csrftoken header.
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
  item.append(`${seek.author}${rating}: ${seek.game}${variant ? ` (${variant})` : ""}, ${clockWords(seek.clock)}, ${kind} `);
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

async function refresh() {
  const response = await fetch("/api/seeks");
  if (!response.ok) return;
  const answer = await response.json();
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

document.getElementById("post-seek").addEventListener("click", async () => {
  const game = document.getElementById("game-select").value;
  const rated = document.getElementById("seek-rated").checked;
  const answer = await send("/api/seeks", { game, variant: readVariant(), clock: readClock(), rated });
  if (answer) refresh();
});

async function start() {
  const response = await fetch("/api/me");
  if (response.ok) me = await response.json();
  showAccount();
  await refresh();
  setInterval(refresh, POLL_MS);
}

start();
