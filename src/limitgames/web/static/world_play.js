// LIMIT (world) on the game page. The server draws the table and every choice in words
// (world_html.py); this script sends a clicked choice or the number typed in a quantity form,
// and keeps the log's opened generations and its scroll position across redraws.

const opened = new Map(); // log group -> open or closed, as the person left it
let logScroll = null; // null: follow the newest line

// Before the board is replaced: remember where the person was reading the log.
export function keepWorldLog(board) {
  const log = board.querySelector(".world-log");
  if (!log) return;
  const atEnd = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
  logScroll = atEnd ? null : log.scrollTop;
}

// After the board is drawn: wire the choices and the quantity forms, restore the log.
export function wireWorld(v, { act, flash }, board) {
  for (const button of board.querySelectorAll("button[data-action]")) {
    button.addEventListener("click", () => {
      if (v.your_turn) act(button.dataset.action);
    });
  }
  for (const form of board.querySelectorAll("form.world-amount")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = form.querySelector('input[name="amount"]');
      const amount = Number(input.value);
      const low = Number(form.dataset.minimum);
      const high = Number(form.dataset.maximum);
      if (!Number.isInteger(amount) || amount < low || amount > high) {
        flash(t("Choose a whole number from {low} to {high}.", { low, high }));
        input.focus();
        return;
      }
      act(form.dataset.notation.replace(/\bN\b/, String(amount)));
    });
  }
  const log = board.querySelector(".world-log");
  if (!log) return;
  for (const details of log.querySelectorAll("details[data-log]")) {
    const key = details.dataset.log;
    if (opened.has(key)) details.open = opened.get(key);
    details.addEventListener("toggle", () => opened.set(key, details.open));
  }
  log.scrollTop = logScroll === null ? log.scrollHeight : logScroll;
}
