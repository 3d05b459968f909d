// Connection-lost detection: a ping every few seconds; when no answer (pong or anything
// else) comes in time, a banner says so and game.js opens a fresh connection, whose hello
// brings the current view (a resync). The banner goes once a view arrives.

const banner = document.getElementById("connection-banner");
const PING_MS = window.limitPingMs || 10000;
const PONG_MS = window.limitPongMs || 5000;
let waiting = null;
let reconnects = 0;

function heard() {
  if (waiting) {
    clearTimeout(waiting);
    waiting = null;
  }
}

document.addEventListener("limit:message", heard);
document.addEventListener("limit:view", () => {
  heard();
  banner.hidden = true;
});

setInterval(() => {
  if (waiting) return;
  document.dispatchEvent(new CustomEvent("limit:send", { detail: { type: "ping" } }));
  waiting = setTimeout(() => {
    waiting = null;
    banner.hidden = false;
    reconnects += 1;
    document.body.dataset.reconnects = String(reconnects);
    document.dispatchEvent(new CustomEvent("limit:reconnect"));
  }, PONG_MS);
}, PING_MS);
