// The game's chat: the seats' channel for players, the spectators' for everyone else.
// The server decides the channel (by the seats this tab proved); messages are shown with
// textContent only, so nothing anybody writes is ever read as HTML.

const $ = (id) => document.getElementById(id);
const list = $("chat-messages");
const form = $("chat-form");
const input = $("chat-input");
const seen = new Set();

function line(message) {
  const item = document.createElement("li");
  const author = document.createElement("b");
  author.textContent = message.author;
  item.append(author, `: ${message.text}`);
  item.dataset.id = String(message.id);
  return item;
}

document.addEventListener("limit:message", (event) => {
  const message = event.detail;
  if (message.type !== "chat") return;
  if (message.history) {
    seen.clear();
    list.replaceChildren();
  }
  for (const m of message.messages) {
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    list.append(line(m));
  }
  list.scrollTop = list.scrollHeight;
});

document.addEventListener("limit:view", (event) => {
  const v = event.detail;
  $("chat-title").textContent = v.seats.length ? t("Table chat (players only)") : t("Spectators' chat");
});

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  document.dispatchEvent(new CustomEvent("limit:send", { detail: { type: "chat", text } }));
  input.value = "";
});
