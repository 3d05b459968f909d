// Presence at the table. This page tells the server when its person is away: the page is
// hidden, or there has been no input (pointer, key, touch, scroll) for IDLE_MS (the
// server's presence.IDLE_SECONDS); and back. By each seat in the players list it shows a dot
// for view.presence[seat] ("here", "away", "gone"; null for a computer), with the same word
// for screen readers. The server decides nothing from it but the dots.

const IDLE_MS = 120 * 1000;
let away = document.hidden;
let idleTimer = null;

function send(message) {
  document.dispatchEvent(new CustomEvent("limit:send", { detail: message }));
}

function tell(now) {
  if (now === away) return;
  away = now;
  send({ type: "presence", away });
}

function active() {
  if (idleTimer !== null) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => tell(true), IDLE_MS);
  if (!document.hidden) tell(false);
}

for (const kind of ["pointerdown", "pointermove", "keydown", "touchstart", "scroll"]) {
  document.addEventListener(kind, active, { passive: true });
}
document.addEventListener("visibilitychange", () => (document.hidden ? tell(true) : active()));
active();

const WORDS = {
  here: () => t("here"),
  away: () => t("away"),
  gone: () => t("gone"),
};

document.addEventListener("limit:view", (event) => {
  const v = event.detail;
  if (!v.presence) return;
  const items = document.getElementById("players").querySelectorAll("li");
  v.presence.forEach((state, seat) => {
    const li = items[seat];
    if (!li || !state) return;
    const dot = document.createElement("span");
    dot.className = `presence ${state}`;
    dot.dataset.presence = state;
    dot.setAttribute("role", "img");
    dot.setAttribute("aria-label", WORDS[state]());
    dot.title = WORDS[state]();
    dot.textContent = "●";
    li.append(" ", dot);
  });
});

document.addEventListener("limit:message", (event) => {
  // a new connection (a reconnect) starts "here": say again that this page is away
  if (event.detail.type === "welcome" && away) send({ type: "presence", away: true });
});
