// The end screen of every game and every ending (by the rules, a resignation, an agreed draw, a
// time-out, an abandoned game). The server writes all of it (view.end_screen: the result for this
// page, the winners, the reason in the game's own words and the scores table, escaped by Jinja2);
// this script only shows it, with Rematch first among the links so that it is on screen without
// scrolling.

const $ = (id) => document.getElementById(id);
let rematch = null; // the rematch message: its game and this page's new tokens
let last = null;

function send(message) {
  document.dispatchEvent(new CustomEvent("limit:send", { detail: message }));
}

function drawRematch(v) {
  const button = $("end-rematch");
  const link = $("end-rematch-link");
  button.hidden = true;
  link.hidden = true;
  if (v.can_rematch && rematch) {
    link.href = `/games/${rematch.game_id}`;
    link.textContent = t("Play the rematch");
    link.hidden = false;
  } else if (v.can_rematch) {
    button.hidden = false;
  } else if (v.rematch_id) {
    link.href = `/games/${v.rematch_id}`;
    link.textContent = t("Watch the rematch");
    link.hidden = false;
  }
}

function draw(v) {
  const box = $("end-screen");
  if (!box) return;
  const screen = v.end_screen;
  box.hidden = !screen;
  document.body.dataset.ended = String(Boolean(screen));
  if (!screen) return;
  $("end-outcome").textContent = screen.outcome;
  $("end-winners").textContent = screen.winners || "";
  $("end-winners").hidden = !screen.winners;
  $("end-reason").textContent = screen.reason || v.status;
  $("end-scores").innerHTML = screen.scores || "";
  box.dataset.termination = v.outcome ? v.outcome.termination : "";
  $("result").hidden = true; // the end screen says it all
  drawRematch(v);
}

$("end-rematch").addEventListener("click", () => send({ type: "rematch" }));
document.addEventListener("limit:view", (event) => {
  last = event.detail;
  draw(last);
});
document.addEventListener("limit:message", (event) => {
  if (event.detail.type !== "rematch") return;
  rematch = event.detail;
  if (last) draw(last);
});
