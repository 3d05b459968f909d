// Resign, draw offers, takebacks, rematch and taking an open seat on the game page, and the turn in the
// tab title. The server decides what is allowed (view.can_resign, view.draw_allowed,
// view.can_takeback, view.can_rematch, view.open_seats); this script only offers those buttons.

const $ = (id) => document.getElementById(id);
const box = $("table-actions");
const root = document.getElementById("game");
const gameId = root.dataset.gameId;
const baseTitle = document.title;
let rematch = null;

function send(message) {
  document.dispatchEvent(new CustomEvent("limit:send", { detail: message }));
}

function button(id, text, onClick) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = id;
  b.textContent = text;
  b.addEventListener("click", onClick);
  return b;
}

function rememberSeats(id, game, tokens) {
  let games;
  try {
    games = JSON.parse(localStorage.getItem("limitgames.games") || "{}");
  } catch {
    games = {};
  }
  const entry = games[id] || { game, created: new Date().toISOString(), seats: {}, invites: {} };
  entry.seats = Object.assign(entry.seats || {}, tokens);
  games[id] = entry;
  localStorage.setItem("limitgames.games", JSON.stringify(games));
}

function endingText(v) {
  if (!v.ending) return null;
  if (v.ending_words) return v.ending_words; // the server's words for an ending at the table
  if (v.ending.kind === "draw") return t("The game ended in a draw, by agreement.");
  const who = v.players[v.ending.seat].name;
  const winners = v.players.filter((p, i) => v.returns && v.returns[i] > 0).map((p) => p.name);
  return (
    t("{player} resigned.", { player: who }) +
    " " +
    (winners.length ? t("{players} wins.", { players: winners.join(", ") }) : t("The others share the win."))
  );
}

async function takeSeat(v, seat) {
  const name = localStorage.getItem("limitgames.name") || "";
  const response = await fetch(`/api/games/${gameId}/seats/${seat}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    $("flash").textContent = answer.detail || t("the server refused ({status})", { status: response.status });
    return;
  }
  rememberSeats(gameId, v.game, { [seat]: answer.token });
  window.location.reload();
}

function draw(v) {
  const parts = [];
  if (v.open_seats.length && !v.seats.length && !v.finished) {
    for (const seat of v.open_seats) {
      parts.push(
        button(`take-seat-${seat}`, t("Take {player}'s seat", { player: v.players[seat].name }), () => takeSeat(v, seat)),
      );
    }
  }
  if (v.can_resign) {
    parts.push(
      button("resign-button", t("Resign"), () => {
        if (window.confirm(t("Resign this game?"))) send({ type: "resign", seat: v.seat ?? undefined });
      }),
    );
  }
  if (v.draw_allowed && v.seats.length) {
    const mine = v.seats.every((s) => v.draw_offer.includes(s));
    const theirs = v.draw_offer.some((s) => !v.seats.includes(s));
    if (theirs) {
      const note = document.createElement("span");
      note.id = "draw-offered";
      note.textContent = `${t("Your opponent offers a draw.")} `;
      parts.push(note);
      parts.push(button("accept-draw", t("Accept the draw"), () => send({ type: "draw", accept: true })));
      parts.push(button("decline-draw", t("Decline"), () => send({ type: "draw", accept: false })));
    } else if (mine) {
      const note = document.createElement("span");
      note.textContent = `${t("You offered a draw.")} `;
      parts.push(note);
      parts.push(button("withdraw-draw", t("Withdraw the offer"), () => send({ type: "draw", withdraw: true })));
    } else {
      parts.push(button("offer-draw", t("Offer a draw"), () => send({ type: "draw", accept: true })));
    }
  }
  if (v.seats.length && !v.finished) {
    const asker = v.takeback_offer;
    if (asker !== null && asker !== undefined && !v.seats.includes(asker)) {
      const note = document.createElement("span");
      note.id = "takeback-offered";
      note.textContent = `${t("{player} asks to take back their last move.", { player: v.players[asker].name })} `;
      parts.push(note);
      parts.push(button("accept-takeback", t("Accept the takeback"), () => send({ type: "takeback", answer: "accept" })));
      parts.push(button("decline-takeback", t("Decline the takeback"), () => send({ type: "takeback", answer: "decline" })));
    } else if (asker !== null && asker !== undefined) {
      const note = document.createElement("span");
      note.textContent = `${t("You asked to take back your move.")} `;
      parts.push(note);
      parts.push(button("withdraw-takeback", t("Withdraw the request"), () => send({ type: "takeback", answer: "withdraw" })));
    } else if (v.can_takeback) {
      parts.push(button("ask-takeback", t("Ask to take back"), () => send({ type: "takeback", answer: "ask" })));
    }
  }
  if (v.can_rematch) {
    if (rematch) {
      const link = document.createElement("a");
      link.id = "rematch-link";
      link.href = `/games/${rematch.game_id}`;
      link.textContent = t("Play the rematch");
      parts.push(link);
    } else {
      parts.push(button("rematch-button", t("Rematch"), () => send({ type: "rematch" })));
    }
  } else if (v.rematch_id) {
    const link = document.createElement("a");
    link.href = `/games/${v.rematch_id}`;
    link.textContent = t("Watch the rematch");
    parts.push(link);
  }
  box.replaceChildren(...parts);
  const ending = endingText(v);
  if (ending) $("result").textContent = ending;
  document.title = v.your_turn ? "● " + t("Your turn: {title}", { title: baseTitle }) : baseTitle;
}

let last = null;
document.addEventListener("limit:view", (event) => {
  last = event.detail;
  draw(last);
});
document.addEventListener("limit:message", (event) => {
  const message = event.detail;
  if (message.type !== "rematch") return;
  rematch = message;
  rememberSeats(message.game_id, last ? last.game : root.dataset.game, message.tokens);
  if (last) draw(last);
});
